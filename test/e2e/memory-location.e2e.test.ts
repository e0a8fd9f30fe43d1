/**
 * Where the real Claude Code (2.1.337) reads a project's auto memory from, checked against
 * `claudeMemoryDir` (src/node/claude-memory-dir.ts): for each case a MEMORY.md with a unique marker is
 * put where `claudeMemoryDir` says, decoys where a wrong rule would look (the cwd's own transcript
 * folder, a parent folder, ...), and only the predicted one may reach the model. The system prompt's
 * "persistent file-based memory at `<dir>/`" must name the same folder. Then a scripted model writes a
 * fact + index into that folder; the files land there, stamped, and the next session gets the index
 * lines but not the fact's body.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeMemoryDir, encodeClaudeProjectDir } from "../../src/node/claude-memory-dir";
import { ensureClaudeCode, makeTempDir, memoryShown, runClaude, startStub, toolUse, type Stub, requestText } from "./harness/index.js";

const hasGit = spawnSync("git", ["--version"]).status === 0;

function git(cwd: string, ...args: string[]): void {
	execFileSync("git", ["-c", "user.email=e2e@example.com", "-c", "user.name=e2e", ...args], { cwd, stdio: "pipe" });
}

function plant(dir: string, marker: string): void {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "MEMORY.md"), `- [${marker}](${marker}.md) — marker ${marker}\n`);
}

describe("auto-memory location: claudeMemoryDir agrees with the real Claude Code", () => {
	let stub: Stub;
	let root: string;
	beforeAll(async () => {
		ensureClaudeCode();
		stub = await startStub({ rules: [], fallbackReply: "Done." });
		root = realpathSync(makeTempDir("cc-memloc-"));
	});
	afterAll(async () => {
		await stub?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	/** A fresh HOME (with a settings.json if given). */
	function newHome(name: string, settings?: unknown): { home: string; claudeDir: string } {
		const home = join(root, name);
		const claudeDir = join(home, ".claude");
		mkdirSync(claudeDir, { recursive: true });
		if (settings !== undefined) writeFileSync(join(claudeDir, "settings.json"), JSON.stringify(settings));
		return { home, claudeDir };
	}

	/** One session; what its requests carried about auto memory. */
	async function session(home: string, cwd: string, prompt = "hello", env?: Record<string, string>) {
		const run = await runClaude({ home, cwd, stub, prompt, env });
		expect(run.exitCode, run.stderr).toBe(0);
		const requests = stub.mainRequests().filter((r) => r.headers["x-claude-code-session-id"] === run.sessionId);
		expect(requests.length).toBeGreaterThan(0);
		const seen = requestText(requests[0]!);
		const told = /You have a persistent file-based memory at `([^`]*)`/.exec(seen)?.[1];
		return { run, seen, toldDir: told?.replace(/\/$/, "") };
	}

	/** The predicted folder's marker (and only it) reaches the model, under the MEMORY.md wrapper. */
	async function expectLoadedFrom(label: string, home: string, claudeDir: string, cwd: string, decoys: string[], settings?: unknown) {
		const predicted = claudeMemoryDir(cwd, { claudeDir, home, settings });
		expect(predicted, label).toBeDefined();
		plant(predicted!, `${label}-HIT`);
		decoys.forEach((d, i) => plant(d, `${label}-DECOY${i}`));
		const { seen, toldDir } = await session(home, cwd);
		expect(toldDir, label).toBe(predicted);
		expect(memoryShown(seen, predicted!), label).toBe(`- [${label}-HIT](${label}-HIT.md) — marker ${label}-HIT`);
		expect(seen, label).not.toMatch(new RegExp(`marker ${label}-DECOY`));
		return predicted!;
	}

	it("keys the default folder by the git root (root, subfolder), else by the cwd itself", async () => {
		const { home, claudeDir } = newHome("home-git");
		const projects = join(claudeDir, "projects");
		const repo = join(root, "work", "shop.api_v2");
		const sub = join(repo, "src", "deep");
		mkdirSync(sub, { recursive: true });
		if (hasGit) git(repo, "init", "-q");
		else mkdirSync(join(repo, ".git"));

		const atRoot = await expectLoadedFrom("ROOT", home, claudeDir, repo, []);
		expect(atRoot).toBe(join(projects, repo.replace(/[^a-zA-Z0-9]/g, "-"), "memory"));
		expect(atRoot.endsWith("-work-shop-api-v2/memory")).toBe(true);
		// From a subfolder: still the root's folder; the cwd's own (transcript) folder is a decoy.
		rmSync(join(atRoot, "MEMORY.md"));
		expect(await expectLoadedFrom("SUB", home, claudeDir, sub, [join(projects, encodeClaudeProjectDir(sub), "memory")])).toBe(atRoot);

		// Not in a git repository: the cwd, not a parent.
		const plain = join(root, "work", "plain", "inner");
		mkdirSync(plain, { recursive: true });
		await expectLoadedFrom("PLAIN", home, claudeDir, plain, [join(projects, encodeClaudeProjectDir(join(root, "work", "plain")), "memory")]);
	});

	it.skipIf(!hasGit)("shares the main checkout's folder with a linked worktree and its subfolders", async () => {
		const { home, claudeDir } = newHome("home-worktree");
		const main = join(root, "work", "wt-main");
		mkdirSync(main, { recursive: true });
		git(main, "init", "-q");
		git(main, "commit", "-q", "--allow-empty", "-m", "init");
		const wt = join(root, "work", "wt-linked");
		git(main, "worktree", "add", "-q", wt);
		mkdirSync(join(wt, "pkg"));
		const dir = await expectLoadedFrom("WT", home, claudeDir, join(wt, "pkg"), [
			join(claudeDir, "projects", encodeClaudeProjectDir(wt), "memory"),
			join(claudeDir, "projects", encodeClaudeProjectDir(join(wt, "pkg")), "memory"),
		]);
		expect(dir).toBe(join(claudeDir, "projects", encodeClaudeProjectDir(main), "memory"));
	});

	it("encodes dots, underscores, spaces and non-ASCII like the transcript folders, and hashes long paths", async () => {
		const { home, claudeDir } = newHome("home-encoding");
		const weird = join(root, "work", "my.proj_v2 name", "café-日本🙂");
		const long = join(root, "work", "a".repeat(70), "b".repeat(70), "c".repeat(70));
		for (const [label, cwd] of [["WEIRD", weird], ["LONG", long]] as const) {
			mkdirSync(cwd, { recursive: true });
			const dir = await expectLoadedFrom(label, home, claudeDir, cwd, []);
			// Outside git the memory folder sits in the transcript folder the client made for the cwd.
			const transcripts = join(claudeDir, "projects", encodeClaudeProjectDir(cwd));
			expect(dir).toBe(join(transcripts, "memory"));
			expect(readdirSync(transcripts).filter((f) => f.endsWith(".jsonl")).length, label).toBe(1);
		}
		expect(encodeClaudeProjectDir(weird).endsWith("-my-proj-v2-name-caf------")).toBe(true);
		expect(encodeClaudeProjectDir(long)).toMatch(/^-.{199}-[0-9a-z]+$/);
	});

	it("follows a usable autoMemoryDirectory (absolute, ~/), ignores a relative one", async () => {
		const cwd = join(root, "work", "configured");
		mkdirSync(cwd, { recursive: true });
		const absolute = newHome("home-abs", { autoMemoryDirectory: `${join(root, "abs-mem")}//` });
		expect(await expectLoadedFrom("ABS", absolute.home, absolute.claudeDir, cwd, [join(absolute.claudeDir, "projects", encodeClaudeProjectDir(cwd), "memory")], { autoMemoryDirectory: `${join(root, "abs-mem")}//` })).toBe(join(root, "abs-mem"));
		const tilde = newHome("home-tilde", { autoMemoryDirectory: "~/tilde-mem" });
		expect(await expectLoadedFrom("TILDE", tilde.home, tilde.claudeDir, cwd, [], { autoMemoryDirectory: "~/tilde-mem" })).toBe(join(tilde.home, "tilde-mem"));
		const relative = newHome("home-rel", { autoMemoryDirectory: "rel-mem" });
		expect(await expectLoadedFrom("REL", relative.home, relative.claudeDir, cwd, [join(cwd, "rel-mem")], { autoMemoryDirectory: "rel-mem" })).toBe(
			join(relative.claudeDir, "projects", encodeClaudeProjectDir(cwd), "memory"),
		);
	});

	it("loads nothing when auto memory is turned off (settings, or CLAUDE_CODE_DISABLE_AUTO_MEMORY=1)", async () => {
		const cwd = join(root, "work", "off");
		mkdirSync(cwd, { recursive: true });
		const off = newHome("home-off", { autoMemoryEnabled: false });
		const env = { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1" };
		const on = newHome("home-env-off");
		expect(claudeMemoryDir(cwd, { claudeDir: off.claudeDir, home: off.home, settings: { autoMemoryEnabled: false } })).toBeUndefined();
		expect(claudeMemoryDir(cwd, { claudeDir: on.claudeDir, home: on.home, env })).toBeUndefined();
		for (const [label, h, e] of [["OFF", off, undefined], ["ENVOFF", on, env]] as const) {
			plant(join(h.claudeDir, "projects", encodeClaudeProjectDir(cwd), "memory"), label);
			const { seen, toldDir } = await session(h.home, cwd, "hello", e);
			expect(toldDir, label).toBeUndefined();
			expect(seen, label).not.toContain(`marker ${label}`);
			expect(seen, label).not.toContain("auto-memory");
		}
	});

	it("a fact the model writes lands where claudeMemoryDir says, stamped; the next session gets the index, not the body", async () => {
		const { home, claudeDir } = newHome("home-write");
		const repo = join(root, "work", "writer");
		const cwd = join(repo, "app");
		mkdirSync(cwd, { recursive: true });
		if (hasGit) git(repo, "init", "-q");
		else mkdirSync(join(repo, ".git"));
		const dir = claudeMemoryDir(cwd, { claudeDir, home })!;
		const fact = "---\nname: use-pnpm\ndescription: Use pnpm and never npm\nmetadata:\n  type: feedback\n---\n\nUse pnpm for every install.\n\n**Why:** the lockfile is pnpm-lock.yaml.\n**How to apply:** never run npm.\n";
		const index = "- [Use pnpm](feedback_use_pnpm.md) — pnpm only, never npm\n";
		stub.setScript({
			rules: [
				{
					match: "remember pnpm",
					steps: [
						[toolUse("Write", { file_path: join(dir, "feedback_use_pnpm.md"), content: fact })],
						[toolUse("Write", { file_path: join(dir, "MEMORY.md"), content: index })],
						[toolUse("Edit", { file_path: join(dir, "feedback_use_pnpm.md"), old_string: "and never npm\n", new_string: "and never npm or yarn\n" })],
						"Saved.",
					],
				},
			],
			fallbackReply: "Done.",
		});
		const one = await session(home, cwd, "Please remember pnpm only");
		expect(one.toldDir).toBe(dir);
		const written = readFileSync(join(dir, "feedback_use_pnpm.md"), "utf8");
		expect(written).toMatch(
			new RegExp(
				"^---\\nname: use-pnpm\\ndescription: Use pnpm and never npm or yarn\\nmetadata:\\n  node_type: memory\\n  type: feedback\\n" +
					`  originSessionId: ${one.run.sessionId}\\n  modified: \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\\n---\\n\\nUse pnpm for every install\\.\\n`,
			),
		);
		expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toBe(index);
		// Nothing went to the cwd's own folder.
		expect(existsSync(join(claudeDir, "projects", encodeClaudeProjectDir(cwd), "memory", "feedback_use_pnpm.md"))).toBe(false);

		stub.setScript({ rules: [], fallbackReply: "Done." });
		const two = await session(home, cwd, "Which package manager?");
		expect(memoryShown(two.seen, dir)).toBe(index.trimEnd());
		expect(two.seen).not.toContain("Use pnpm for every install");
	});
});
