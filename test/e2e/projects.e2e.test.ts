/**
 * A project is its repository, end to end with the REAL Claude Code client (2.1.337) and the built CLI.
 *
 * A git repository `repo` (one commit), a linked worktree of it (`git worktree add ../repo-wt -b
 * feature`) and a subfolder `repo/packages/core`: one real session in each, so three transcript
 * folders (`<claude dir>/projects/<encoded cwd>/`). Then `projects add <repo>` and one `sync`:
 * 1. (harness) the client recorded three transcripts, in the folders named after each cwd, with
 *    that cwd and the branch checked out there in their records;
 * 2. the three sessions' notes are in ONE folder, `AI Conversations/repo/`, and its index note
 *    `repo.md` lists all three;
 * 3. no folder is made for the worktree (`repo-wt`) or the subfolder (`core`);
 * 4. the repository's CLAUDE.md block describes all three sessions;
 * 5. with the project in lazy mode and our hooks installed, a session in the subfolder and one in
 *    the worktree both get the project's facade from SessionStart and, on a "continue where we
 *    left off" prompt, the project's context packet naming all three sessions.
 *
 * Written for the intended behaviour (a worktree's and a subfolder's sessions belong to the
 * repository's project): before that change, steps 2–5 fail.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, encodeProjectDir, ensureClaudeCode, listTranscripts, makeTempDir, requestText, runClaude, startStub, text, toolUse, removeWhenIdle, type RunClaudeResult, type Stub } from "./harness/index.js";

const projectRoot = resolve(__dirname, "..", "..");
const cli = join(projectRoot, "dist", "cli.cjs");
const BEGIN = "<!-- AUTO-CONTEXT:BEGIN -->";
const END = "<!-- AUTO-CONTEXT:END -->";
const NOTES = "AI Conversations";

/** One distinctive word per session, in its prompt (so in its title, note and context entry). */
const WORDS = { main: "Zanzibar", worktree: "Quetzalcoatl", sub: "Marmalade" } as const;
const PROMPTS = {
	main: `Add the ${WORDS.main} retry policy to the HTTP client`,
	worktree: `Sketch the ${WORDS.worktree} feature flag on this branch`,
	sub: `Add a ${WORDS.sub} parser to the core package`,
} as const;
const CONTINUE = "continue where we left off in this project";

function cliRun(...args: string[]): string {
	const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
	expect(r.status, `ai-memory ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
	return r.stdout;
}

function git(cwd: string, ...args: string[]): string {
	const r = spawnSync("git", ["-c", "user.name=E2E", "-c", "user.email=e2e@example.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" } });
	if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
	return r.stdout;
}

/** What lies between the marker lines. */
function blockOf(file: string): string {
	const from = file.indexOf(BEGIN);
	const to = file.indexOf(END, from);
	expect(from, "no AUTO-CONTEXT block").toBeGreaterThanOrEqual(0);
	expect(to).toBeGreaterThan(from);
	return file.slice(from + BEGIN.length, to);
}

/** Every `.md` file under the vault's notes folder (vault-relative, `/`-separated) with its text. */
function notesIn(vault: string): Array<{ path: string; text: string }> {
	const dir = join(vault, NOTES);
	if (!existsSync(dir)) return [];
	return readdirSync(dir, { recursive: true })
		.map((f) => join(dir, String(f)))
		.filter((p) => p.endsWith(".md") && statSync(p).isFile())
		.map((p) => ({ path: relative(vault, p).split("\\").join("/"), text: readFileSync(p, "utf8") }));
}

/** The first record of a transcript that has a `cwd` (the client writes it on every conversation record). */
function firstWithCwd(path: string): { cwd?: string; gitBranch?: string } {
	for (const line of readFileSync(path, "utf8").split("\n")) {
		if (!line.trim()) continue;
		const rec = JSON.parse(line) as { cwd?: string; gitBranch?: string };
		if (typeof rec.cwd === "string") return rec;
	}
	return {};
}

describe("a project is its repository: worktree and subfolder sessions, real Claude Code", () => {
	let stub: Stub;
	let root: string;
	let home: string;
	let claudeDir: string;
	let vault: string;
	let repoDir: string;
	let wtDir: string;
	let subDir: string;
	const sessions = {} as Record<keyof typeof WORDS, RunClaudeResult>;
	let syncOut = "";
	/** Sessions run with our hooks installed (each starts a background sync when it ends). */

	beforeAll(async () => {
		ensureClaudeCode();
		buildCli();
		stub = await startStub();
		// Claude Code records the real cwd: keep every path real (a symlinked tmpdir would differ).
		root = realpathSync(makeTempDir("cc-projects-"));
		home = join(root, "home");
		claudeDir = join(home, ".claude");
		vault = join(root, "vault");
		repoDir = join(root, "work", "repo");
		wtDir = join(root, "work", "repo-wt");
		subDir = join(repoDir, "packages", "core");
		mkdirSync(claudeDir, { recursive: true });
		mkdirSync(vault);
		mkdirSync(subDir, { recursive: true });

		// 1. A repository with one commit (the subfolder in it), and a linked worktree on a new branch.
		writeFileSync(join(repoDir, "README.md"), "# repo\n");
		writeFileSync(join(subDir, "index.ts"), "export const core = 1;\n");
		git(repoDir, "init", "-q", "-b", "main");
		git(repoDir, "add", "-A");
		git(repoDir, "commit", "-q", "-m", "Initial commit");
		git(repoDir, "worktree", "add", "-q", "../repo-wt", "-b", "feature");
		expect(existsSync(join(wtDir, "packages", "core", "index.ts"))).toBe(true);

		// 2. One real session in each folder.
		stub.setScript({
			rules: [
				{
					match: WORDS.main,
					steps: [[text("Adding the retry policy."), toolUse("Write", { file_path: join(repoDir, "src", "retry.ts"), content: "export const RETRIES = 3;\n" })], `The ${WORDS.main} retry policy is in src/retry.ts (3 retries).`],
				},
				{
					match: WORDS.worktree,
					steps: [[text("Adding the flag."), toolUse("Write", { file_path: join(wtDir, "src", "flags.ts"), content: "export const FLAG = false;\n" })], `The ${WORDS.worktree} flag is in src/flags.ts, off by default.`],
				},
				{
					match: WORDS.sub,
					steps: [[text("Adding the parser."), toolUse("Write", { file_path: join(subDir, "parser.ts"), content: "export const parse = (s: string) => s;\n" })], `The ${WORDS.sub} parser is in packages/core/parser.ts.`],
				},
				{ match: "where we left off", steps: ["Picking up where the last session stopped."] },
			],
		});
		sessions.main = await runClaude({ home, cwd: repoDir, stub, prompt: PROMPTS.main });
		sessions.worktree = await runClaude({ home, cwd: wtDir, stub, prompt: PROMPTS.worktree });
		sessions.sub = await runClaude({ home, cwd: subDir, stub, prompt: PROMPTS.sub });
		for (const r of Object.values(sessions)) expect(r.exitCode, r.stderr).toBe(0);

		// 3. The repository as the one enabled project (eager, the default), and one sync.
		expect(cliRun("projects", "add", repoDir, "--vault", vault)).toContain("eager mode");
		syncOut = cliRun("sync", "--vault", vault, "--claude-dir", claudeDir);
	});

	afterAll(async () => {
		await stub?.close();
		// The hook sessions' SessionEnd starts detached syncs: the folder goes when they are done.
		if (root) await removeWhenIdle(root);
	});

	it("(harness) three transcripts, in the folders named after each cwd, with that cwd and its branch", () => {
		const mains = listTranscripts(home).filter((t) => t.agentId === undefined);
		const where = { main: repoDir, worktree: wtDir, sub: subDir };
		const branch = { main: "main", worktree: "feature", sub: "main" };
		const seen = mains.map((t) => ({ folder: t.project, ...firstWithCwd(t.path), session: t.sessionId }));
		const table = seen.map((s) => `${s.folder}  cwd=${s.cwd}  gitBranch=${s.gitBranch}`).join("\n");
		expect(new Set(mains.map((t) => t.project)).size, table).toBe(3);
		for (const key of Object.keys(where) as Array<keyof typeof where>) {
			const t = mains.find((m) => m.sessionId === sessions[key].sessionId);
			expect(t, `${key}\n${table}`).toBeDefined();
			expect(t!.project, table).toBe(encodeProjectDir(where[key]));
			expect(firstWithCwd(t!.path), table).toMatchObject({ cwd: where[key], gitBranch: branch[key] });
		}
	});

	it("puts the three sessions' notes into one folder named after the repository, and its index lists them", () => {
		const notes = notesIn(vault);
		const noteOf = (id: string | undefined) => notes.filter((n) => n.text.includes(`session_id: ${id}`));
		const folders = Object.fromEntries(Object.entries(sessions).map(([k, r]) => [k, noteOf(r.sessionId).map((n) => n.path.slice(0, n.path.lastIndexOf("/")))]));
		expect(folders, `sync: ${syncOut.trim()}\nnotes: ${notes.map((n) => n.path).join(", ")}`).toEqual({ main: [`${NOTES}/repo`], worktree: [`${NOTES}/repo`], sub: [`${NOTES}/repo`] });
		const index = notes.find((n) => n.path === `${NOTES}/repo/repo.md`);
		expect(index, "no index note repo/repo.md").toBeDefined();
		expect(index!.text).toContain("sessions: 3");
		for (const r of Object.values(sessions)) {
			const note = noteOf(r.sessionId)[0];
			if (note) expect(index!.text).toContain(`[[${note.path.replace(/\.md$/, "")}|`);
		}
		for (const word of Object.values(WORDS)) expect(index!.text).toContain(word);
	});

	it("makes no vault folder for the worktree or the subfolder", () => {
		const dir = join(vault, NOTES);
		const folders = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : [];
		expect(folders).not.toContain("repo-wt");
		expect(folders).not.toContain("core");
		expect(folders).toEqual(["repo"]);
		for (const name of ["repo-wt", "core"]) expect(existsSync(join(vault, "AI Memory", name)), `AI Memory/${name}`).toBe(false);
	});

	it("describes all three sessions in the repository's CLAUDE.md block", () => {
		const claudeMd = join(repoDir, "CLAUDE.md");
		expect(existsSync(claudeMd), "no CLAUDE.md in the repository").toBe(true);
		const block = blockOf(readFileSync(claudeMd, "utf8"));
		const missing = Object.values(WORDS).filter((w) => !block.includes(w));
		expect(missing, `block:\n${block}`).toEqual([]);
	});

	it("reaches the project from a session in the subfolder and one in the worktree (SessionStart facade, recall packet)", async () => {
		// Lazy mode: SessionStart prints the facade, a "continue" prompt gets the packet.
		expect(cliRun("projects", "add", repoDir, "--mode", "lazy", "--vault", vault)).toContain("lazy mode");
		cliRun("sync", "--vault", vault, "--claude-dir", claudeDir);
		const facade = blockOf(readFileSync(join(repoDir, "CLAUDE.md"), "utf8"));
		expect(facade).toContain("## Project memory");
		const pointer = /- Full context: `([^`]+)`/.exec(facade)?.[0];
		expect(pointer, facade).toBeDefined();
		// No settings.json in this Claude Code folder: the install makes one, and says so.
		expect(cliRun("hooks", "install", "--vault", vault, "--claude-dir", claudeDir)).toContain("(there was none) with the SessionStart, UserPromptSubmit, SessionEnd, PreCompact and InstructionsLoaded hooks");

		stub.clear();
		const runs = { sub: subDir, worktree: wtDir };
		const problems: string[] = [];
		for (const [key, cwd] of Object.entries(runs)) {
			const r = await runClaude({ home, cwd, stub, prompt: CONTINUE });
			expect(r.exitCode, r.stderr).toBe(0);
			const requests = stub.mainRequests().filter((q) => q.headers["x-claude-code-session-id"] === r.sessionId);
			expect(requests.length, key).toBeGreaterThan(0);
			const seen = requestText(requests.at(-1)!);
			// The facade once: a subfolder session loads the project's CLAUDE.md (SessionStart prints nothing then),
			// a linked worktree's does not, and SessionStart prints it.
			const start = /SessionStart:startup hook success: ([^]*?)(?=\n<\/system-reminder>|$)/.exec(seen)?.[1] ?? "";
			if (key === "worktree" && (!start.includes("## Project memory") || !start.includes(pointer!))) problems.push(`${key}: no project facade from SessionStart`);
			if (key === "sub" && start.includes("## Project memory")) problems.push(`${key}: the facade from SessionStart too`);
			if (!seen.includes(pointer!) || seen.split("## Project memory").length - 1 !== 1) problems.push(`${key}: the facade not exactly once`);
			const recall = seen.indexOf("UserPromptSubmit hook success: Recalled from earlier sessions in this project");
			if (recall < 0) problems.push(`${key}: no recall packet from UserPromptSubmit`);
			else {
				const packet = seen.slice(recall);
				if (!packet.includes("# repo: context packet")) problems.push(`${key}: the recall packet is not the repository's`);
				for (const word of Object.values(WORDS)) if (!packet.includes(word)) problems.push(`${key}: the recall packet does not mention ${word}`);
			}
		}
		const log = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "hooks.log");
		expect(problems, existsSync(log) ? readFileSync(log, "utf8") : "no hooks.log").toEqual([]);
	});
});
