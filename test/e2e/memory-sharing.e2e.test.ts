/**
 * Facts shared between the vault (`<vault>/AI Memory/<project>/`) and Claude Code's own auto-memory
 * folder, end to end with the REAL Claude Code client and the built CLI (`sync --json`). One project,
 * a git repository whose root is the cwd of every session (so the memory key is the repo root), goes
 * through the steps in order:
 * 1. a fact written in the vault, synced before the project's first session, lands byte-identical in
 *    Claude Code's folder with its index line in Claude Code's MEMORY.md; the first session's request
 *    carries that line (description), not the fact's body;
 * 2. a fact the (scripted) model writes with the Write tool, plus its own MEMORY.md line, reaches the
 *    vault under its `name` (`use-pnpm.md`), as the client left it on disk (stamped frontmatter);
 * 3. edits go both ways (vault → Claude Code, then a real session's Edit → vault), and a sync with
 *    nothing new writes nothing;
 * 4. a fact changed on both sides: the vault's text goes to Claude Code, Claude Code's becomes a
 *    conflict copy in the vault (a notice), not indexed, not shared;
 * 5. lazy mode: the context packet's "## Facts" lists both facts.
 * The vault's copy of a fact also carries `metadata.type` (and `modified`) flat, for Obsidian's
 * Properties view (`withFlatProperties`); Claude Code's copy never does.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withFlatProperties, withoutFlatProperties } from "../../src/core/memory/fact-properties";
import { claudeMemoryDir } from "../../src/node/claude-memory-dir";
import { ensureClaudeCode, makeTempDir, memoryShown, runClaude, startStub, toolUse, type Stub, buildCli, requestText } from "./harness/index.js";

const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
const hasGit = spawnSync("git", ["--version"]).status === 0;
const BEGIN = "<!-- AI-MEMORY:BEGIN -->";
const END = "<!-- AI-MEMORY:END -->";

interface SyncReport {
	transcriptsRead: number;
	notesWritten: string[];
	contextWritten: string[];
	memoryWritten: string[];
	errors: string[];
	notices: string[];
}

const DEPLOY_DESCRIPTION = "Deploys go to Fly.io region fra, never to us-east";
const DEPLOY_BODY = "Production runs on Fly.io in region fra (Frankfurt) since 2026-10-01; the us-east app was retired after the latency review.";
const DEPLOY_FACT = `---\nname: deploy-region\ndescription: ${DEPLOY_DESCRIPTION}\nmetadata:\n  type: project\n---\n\n${DEPLOY_BODY}\n\n**Why:** the database lives in fra.\n**How to apply:** never pass \`--region iad\` to \`fly deploy\`.\n`;
const DEPLOY_LINE = `- [Deploy region](deploy-region.md) — ${DEPLOY_DESCRIPTION}`;

const PNPM_FACT =
	"---\nname: use-pnpm\ndescription: Use pnpm and never npm or yarn\nmetadata:\n  type: feedback\n---\n\nUse pnpm for every install and script.\n\n" +
	"**Why:** the lockfile is pnpm-lock.yaml.\n**How to apply:** run `pnpm install`; never `npm`. See [[deploy-region]].\n";
const PNPM_OWN_LINE = "- [Use pnpm](feedback_use_pnpm.md) — pnpm only, never npm\n";

describe("facts shared between the vault and the real Claude Code's auto memory", () => {
	let stub: Stub;
	let root: string;
	let home: string;
	let claudeDir: string;
	let project: string;
	let vault: string;
	let memDir: string;
	let vaultFacts: string;

	beforeAll(async () => {
		ensureClaudeCode();
		buildCli();
		stub = await startStub({ rules: [], fallbackReply: "Done." });
		root = realpathSync(makeTempDir("cc-memshare-"));
		home = join(root, "home");
		claudeDir = join(home, ".claude");
		project = join(root, "work", "deploy-api");
		vault = join(root, "vault");
		mkdirSync(project, { recursive: true });
		mkdirSync(vault);
		// The memory key is the repository root, which is also every session's cwd here.
		if (hasGit) execFileSync("git", ["init", "-q"], { cwd: project, stdio: "pipe" });
		else mkdirSync(join(project, ".git"));
		memDir = claudeMemoryDir(project, { claudeDir, home })!;
		vaultFacts = join(vault, "AI Memory", "deploy-api");
	});
	afterAll(async () => {
		await stub?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	/**
	 * One `ai-memory sync --json` of the built CLI, with no errors and (unless `noticesExpected`) no
	 * notices; `withProject` names the project with --project.
	 */
	function sync({ withProject = true, noticesExpected = false } = {}): SyncReport {
		const args = [cli, "sync", "--vault", vault, "--claude-dir", claudeDir, "--json"];
		if (withProject) args.push("--project", project);
		const run = spawnSync(process.execPath, args, { encoding: "utf8" });
		expect(run.status, run.stderr).toBe(0);
		const report = JSON.parse(run.stdout) as SyncReport;
		expect(report.errors).toEqual([]);
		if (!noticesExpected) expect(report.notices).toEqual([]);
		return report;
	}

	/** One real session in the project; the text of its first request and the memory folder the system prompt names. */
	async function session(prompt: string) {
		const run = await runClaude({ home, cwd: project, stub, prompt });
		expect(run.exitCode, run.stderr).toBe(0);
		const requests = stub.mainRequests().filter((r) => r.headers["x-claude-code-session-id"] === run.sessionId);
		expect(requests.length).toBeGreaterThan(0);
		const seen = requestText(requests[0]!);
		const toldDir = /You have a persistent file-based memory at `([^`]*)`/.exec(seen)?.[1]?.replace(/\/$/, "");
		return { run, requests, seen, toldDir };
	}

	const read = (path: string) => readFileSync(path, "utf8");

	it("1. a fact written in the vault reaches Claude Code's folder and the next session's index, not its body", async () => {
		// No session yet: the CLI only needs Claude Code's projects folder to exist.
		mkdirSync(join(claudeDir, "projects"), { recursive: true });
		mkdirSync(vaultFacts, { recursive: true });
		writeFileSync(join(vaultFacts, "deploy-region.md"), DEPLOY_FACT);
		expect(existsSync(memDir)).toBe(false);

		const first = sync();
		expect(first.memoryWritten).toEqual([join(memDir, "MEMORY.md"), join(memDir, "deploy-region.md"), "AI Memory/deploy-api/MEMORY.md", "AI Memory/deploy-api/deploy-region.md"].sort());
		expect(read(join(memDir, "deploy-region.md"))).toBe(DEPLOY_FACT);
		expect(read(join(vaultFacts, "deploy-region.md"))).toBe(withFlatProperties(DEPLOY_FACT));
		expect(read(join(vaultFacts, "deploy-region.md"))).toContain("metadata:\n  type: project\ntype: project\n---\n");
		const index = `${BEGIN}\n${DEPLOY_LINE}\n${END}\n`;
		expect(read(join(memDir, "MEMORY.md"))).toBe(index);
		expect(read(join(vaultFacts, "MEMORY.md"))).toBe(index);

		const { seen, toldDir } = await session("What do we know about deploys?");
		expect(toldDir).toBe(memDir);
		// The marker lines are HTML comments on lines of their own: the client strips them.
		expect(memoryShown(seen, memDir)).toBe(DEPLOY_LINE);
		expect(seen).not.toContain(BEGIN);
		expect(seen).not.toContain(DEPLOY_BODY);
		expect(seen).not.toContain("the database lives in fra");
		// The client left both files alone.
		expect(read(join(memDir, "deploy-region.md"))).toBe(DEPLOY_FACT);
		expect(read(join(memDir, "MEMORY.md"))).toBe(index);
	});

	it("2. a fact the model writes into its memory folder reaches the vault under its name, as the client left it", async () => {
		stub.setScript({
			rules: [
				{
					match: "remember pnpm",
					steps: [
						[toolUse("Write", { file_path: join(memDir, "feedback_use_pnpm.md"), content: PNPM_FACT })],
						[toolUse("Read", { file_path: join(memDir, "MEMORY.md") })],
						[toolUse("Edit", { file_path: join(memDir, "MEMORY.md"), old_string: `${END}\n`, new_string: `${END}\n${PNPM_OWN_LINE}` })],
						"Saved.",
					],
				},
			],
			fallbackReply: "Done.",
		});
		const { run, toldDir } = await session("Please remember pnpm only");
		stub.setScript({ rules: [], fallbackReply: "Done." });
		expect(toldDir).toBe(memDir);
		const onDisk = read(join(memDir, "feedback_use_pnpm.md"));
		// The client stamped the frontmatter: what is on disk is not what the model sent.
		expect(onDisk).not.toBe(PNPM_FACT);
		expect(onDisk).toContain(`  node_type: memory\n  type: feedback\n  originSessionId: ${run.sessionId}\n  modified: `);
		const claudeIndex = `${BEGIN}\n${DEPLOY_LINE}\n${END}\n${PNPM_OWN_LINE}`;
		expect(read(join(memDir, "MEMORY.md"))).toBe(claudeIndex);

		const report = sync();
		// Claude Code's MEMORY.md links the fact already (its own line): nothing to add there.
		expect(report.memoryWritten).toEqual(["AI Memory/deploy-api/MEMORY.md", "AI Memory/deploy-api/use-pnpm.md"]);
		expect(read(join(vaultFacts, "use-pnpm.md"))).toBe(withFlatProperties(onDisk));
		expect(existsSync(join(vaultFacts, "feedback_use_pnpm.md"))).toBe(false);
		expect(read(join(vaultFacts, "MEMORY.md"))).toBe(`${BEGIN}\n${DEPLOY_LINE}\n- [Use pnpm](use-pnpm.md) — Use pnpm and never npm or yarn\n${END}\n`);
		expect(read(join(memDir, "MEMORY.md"))).toBe(claudeIndex);
		expect(read(join(memDir, "feedback_use_pnpm.md"))).toBe(onDisk);
	});

	it("3. edits go both ways, and a sync with nothing new writes nothing", async () => {
		// In the vault: a new description and body.
		const vaultEdit = read(join(vaultFacts, "use-pnpm.md"))
			.replace("description: Use pnpm and never npm or yarn", "description: Use pnpm, also in CI; never npm or yarn")
			.replace("Use pnpm for every install and script.", "Use pnpm for every install, script and CI job.");
		writeFileSync(join(vaultFacts, "use-pnpm.md"), vaultEdit);
		const toClaude = sync();
		expect(toClaude.memoryWritten).toEqual([join(memDir, "feedback_use_pnpm.md"), "AI Memory/deploy-api/MEMORY.md"].sort());
		expect(read(join(memDir, "feedback_use_pnpm.md"))).toBe(withoutFlatProperties(vaultEdit));
		expect(read(join(vaultFacts, "MEMORY.md"))).toContain("- [Use pnpm](use-pnpm.md) — Use pnpm, also in CI; never npm or yarn\n");
		// Claude Code's own line stays as it wrote it.
		expect(read(join(memDir, "MEMORY.md"))).toBe(`${BEGIN}\n${DEPLOY_LINE}\n${END}\n${PNPM_OWN_LINE}`);
		expect(sync().memoryWritten).toEqual([]);

		// In Claude Code: the model edits the fact (Read first, as the Edit tool's description asks;
		// 2.1.332 did not enforce it in a probe).
		stub.setScript({
			rules: [
				{
					match: "also bun",
					steps: [
						[toolUse("Read", { file_path: join(memDir, "feedback_use_pnpm.md") })],
						[toolUse("Edit", { file_path: join(memDir, "feedback_use_pnpm.md"), old_string: "never `npm`.", new_string: "never `npm`, never `bun`." })],
						"Updated.",
					],
				},
			],
			fallbackReply: "Done.",
		});
		await session("Note that also bun is not allowed");
		stub.setScript({ rules: [], fallbackReply: "Done." });
		const claudeEdit = read(join(memDir, "feedback_use_pnpm.md"));
		expect(claudeEdit).toContain("never `npm`, never `bun`.");
		expect(claudeEdit).toContain("Use pnpm for every install, script and CI job.");
		expect(claudeEdit).not.toBe(withoutFlatProperties(vaultEdit).replace("never `npm`.", "never `npm`, never `bun`.")); // re-stamped `modified`

		const toVault = sync();
		expect(toVault.memoryWritten).toEqual(["AI Memory/deploy-api/use-pnpm.md"]);
		expect(read(join(vaultFacts, "use-pnpm.md"))).toBe(withFlatProperties(claudeEdit));
		expect(sync().memoryWritten).toEqual([]);
		expect(read(join(vaultFacts, "deploy-region.md"))).toBe(withFlatProperties(DEPLOY_FACT));
		expect(read(join(memDir, "deploy-region.md"))).toBe(DEPLOY_FACT);
	});

	it("4. the fact changed on both sides: the vault's text wins everywhere, Claude Code's is kept as a conflict copy", async () => {
		const vaultEdit = DEPLOY_FACT.replace("region fra (Frankfurt)", "region fra (Frankfurt), with a standby in ams");
		writeFileSync(join(vaultFacts, "deploy-region.md"), vaultEdit);
		stub.setScript({
			rules: [
				{
					match: "ewr either",
					steps: [
						[toolUse("Read", { file_path: join(memDir, "deploy-region.md") })],
						[toolUse("Edit", { file_path: join(memDir, "deploy-region.md"), old_string: "`--region iad`", new_string: "`--region iad` or `--region ewr`" })],
						"Updated.",
					],
				},
			],
			fallbackReply: "Done.",
		});
		const { run } = await session("Deploys must not go to ewr either");
		stub.setScript({ rules: [], fallbackReply: "Done." });
		const claudeEdit = read(join(memDir, "deploy-region.md"));
		// The vault-made fact had no stamp; the client's Edit added one.
		expect(claudeEdit).toContain(`metadata:\n  node_type: memory\n  type: project\n  originSessionId: ${run.sessionId}\n  modified: `);
		expect(claudeEdit).toContain("`--region iad` or `--region ewr`");

		const report = sync({ noticesExpected: true });
		const copy = "AI Memory/deploy-api/deploy-region.conflict-claude.md";
		// The vault's text, written by hand without the flat copies, gets them too.
		expect(report.memoryWritten).toEqual([join(memDir, "deploy-region.md"), copy, "AI Memory/deploy-api/deploy-region.md"].sort());
		expect(report.notices).toHaveLength(1);
		expect(report.notices[0]).toContain("deploy-region.md was changed in the vault and by Claude Code");
		expect(read(join(vaultFacts, "deploy-region.md"))).toBe(withFlatProperties(vaultEdit));
		expect(read(join(memDir, "deploy-region.md"))).toBe(vaultEdit);
		expect(read(join(vault, copy))).toBe(withFlatProperties(claudeEdit));
		// The copy is for a person: not a fact, not indexed, not sent to Claude Code.
		expect(read(join(vaultFacts, "MEMORY.md"))).not.toContain("conflict");
		expect(existsSync(join(memDir, "deploy-region.conflict-claude.md"))).toBe(false);
		expect(sync().memoryWritten).toEqual([]);
	});

	it("5. lazy mode: the context packet lists the facts", () => {
		const pluginDir = join(vault, ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(pluginDir, { recursive: true });
		writeFileSync(join(pluginDir, "data.json"), JSON.stringify({ projects: [{ path: project, mode: "lazy" }] }));
		const report = sync({ withProject: false });
		expect(report.memoryWritten).toEqual([]);
		const packetPath = "AI Conversations/deploy-api/deploy-api context.md";
		expect(report.notesWritten).toContain(packetPath);
		const packet = read(join(vault, packetPath));
		const facts = /\n## Facts\n\n((?:- .*\n)+)/.exec(packet)?.[1] ?? "";
		expect(facts.split("\n").filter(Boolean).sort()).toEqual([`- **deploy-region**: ${DEPLOY_DESCRIPTION}`, "- **use-pnpm**: Use pnpm, also in CI; never npm or yarn"]);
		expect(packet).not.toContain(DEPLOY_BODY);
	});
});
