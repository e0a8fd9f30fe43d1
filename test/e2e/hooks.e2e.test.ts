/**
 * Our Claude Code hooks, end to end with the REAL client (2.1.337) and the built CLI:
 * 1. `ai-memory projects add --mode lazy` and one past session synced (a fact in the vault's memory);
 * 2. `ai-memory hooks install` into the temp HOME's `.claude/settings.json` (a user file with its own
 *    keys, tabs and hooks), which the client then runs with their JSON on stdin;
 * 3. a new session: every request holds the facade once, from CLAUDE.md (SessionStart prints nothing then); the prompt "fresh
 *    start: ignore previous context, write a haiku" gets no packet; "continue where we left off
 *    with the rate limiter" gets the context packet and the body of the fact recall picks (a body
 *    the client itself never loads: only MEMORY.md's index lines are);
 * 4. when the session ends, SessionEnd's background sync writes its note into the vault, with no
 *    sync run by the test;
 * 5. `/compact` in that session: PreCompact records a checkpoint (the last prompt and reply) and
 *    starts a sync, which puts it into the facade's "Last checkpoint" line in CLAUDE.md;
 * 6. `ai-memory hooks uninstall` gives back the settings file byte for byte.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureClaudeCode, makeTempDir, runClaude, startStub, text, toolUse, type Stub, buildCli, removeWhenIdle, requestText } from "./harness/index.js";

const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");

function run(...args: string[]) {
	const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
	expect(r.status, `${args.join(" ")}\n${r.stderr}`).toBe(0);
	return r.stdout;
}

const FACT_BODY = "The login limiter keeps a sliding 60-second window per IP in the Redis key rl:login:<ip> (marker BODY-7f3a).";
const FACT = `---\nname: login-rate-limit\ndescription: The login endpoint's rate limiter allows 5 attempts per minute per IP\nmetadata:\n  type: project\n---\n\n${FACT_BODY}\n`;
/** The user's own settings, with hooks of their own: one prints a marker into every prompt's context. */
const USER_HOOK_MARK = "USER-OWN-HOOK-7c1";
const USER_SETTINGS = `{\n\t"cleanupPeriodDays": 99,\n\t"hooks": {\n\t\t"Stop": [{"hooks": [{"type": "command", "command": "true"}]}],\n\t\t"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo ${USER_HOOK_MARK}"}]}]\n\t}\n}\n`;
const PACKET_HEADING = "# rate-api: context packet";

describe("our hooks in the real Claude Code", () => {
	let stub: Stub;
	let root: string;
	beforeAll(async () => {
		ensureClaudeCode();
		buildCli();
		stub = await startStub();
		root = realpathSync(makeTempDir("cc-hooks-"));
	});
	afterAll(async () => {
		await stub?.close();
		// The SessionEnd hook's background sync may still be running: the folder goes when it is done.
		if (root) await removeWhenIdle(root);
	});

	it("facade at session start, recall on the right prompt only, a note after the session ends, and a clean uninstall", async () => {
		const home = join(root, "home");
		const claudeDir = join(home, ".claude");
		const cwd = join(root, "work", "rate-api");
		const vault = join(root, "vault");
		mkdirSync(cwd, { recursive: true });
		mkdirSync(claudeDir, { recursive: true });
		mkdirSync(join(vault, "AI Memory", "rate-api"), { recursive: true });
		writeFileSync(join(vault, "AI Memory", "rate-api", "login-rate-limit.md"), FACT);
		writeFileSync(join(claudeDir, "settings.json"), USER_SETTINGS);
		stub.setScript({
			rules: [
				{
					match: "rate limiter to the login",
					steps: [[text("Adding a sliding-window limiter."), toolUse("Write", { file_path: join(cwd, "src", "limiter.ts"), content: "export const ATTEMPTS = 5;\n" })], "The login endpoint now allows 5 attempts per minute per IP (src/limiter.ts)."],
				},
				{ match: "haiku", steps: ["Quiet morning code / tests pass one after the other / coffee going cold"] },
				{ match: "where we left off", steps: ["Picking up the limiter: next is the lockout message."] },
			],
			compactReply: "<summary>Added a login rate limiter; the lockout message is next.</summary>",
		});

		// 1. A lazy project with one past session, synced.
		expect(run("projects", "add", cwd, "--mode", "lazy", "--vault", vault)).toContain("lazy mode");
		const one = await runClaude({ home, cwd, stub, prompt: "Add a rate limiter to the login endpoint" });
		expect(one.exitCode, one.stderr).toBe(0);
		run("sync", "--vault", vault, "--claude-dir", claudeDir);
		const claudeMd = readFileSync(join(cwd, "CLAUDE.md"), "utf8");
		const facade = /<!-- AUTO-CONTEXT:BEGIN -->\n([^]*?)<!-- AUTO-CONTEXT:END -->/.exec(claudeMd)?.[1];
		expect(facade).toContain("## Project memory");
		const packetPath = /- Full context: `([^`]+)`/.exec(facade!)![1]!;
		expect(readFileSync(packetPath, "utf8")).toContain(PACKET_HEADING);

		// 2. The hooks, into the user's own settings file.
		expect(run("hooks", "install", "--vault", vault, "--claude-dir", claudeDir)).toContain("Installed");
		const installed = JSON.parse(readFileSync(join(claudeDir, "settings.json"), "utf8")) as { cleanupPeriodDays: number; hooks: Record<string, unknown[]> };
		expect(installed.cleanupPeriodDays).toBe(99);
		expect(Object.keys(installed.hooks).sort()).toEqual(["InstructionsLoaded", "PreCompact", "SessionEnd", "SessionStart", "Stop", "UserPromptSubmit"]);
		expect(run("hooks", "status", "--vault", vault, "--claude-dir", claudeDir).match(/installed \(this CLI, this vault\)/g)).toHaveLength(5);

		// 3. A new session with three prompts: the haiku (recall suppressed), a neutral one (no trigger), then the continuation.
		stub.clear();
		const two = await runClaude({ home, cwd, stub, prompt: ["fresh start: ignore previous context, write a haiku", "add a unit test for the parser", "continue where we left off with the rate limiter"] });
		expect(two.exitCode, two.stderr).toBe(0);
		const requests = stub.mainRequests().filter((r) => r.headers["x-claude-code-session-id"] === two.sessionId);
		const haiku = requests.filter((r) => r.prompt?.includes("haiku"));
		const neutral = requests.filter((r) => r.prompt?.includes("unit test for the parser"));
		expect(neutral.length).toBeGreaterThan(0);
		const resume = requests.filter((r) => r.prompt?.includes("where we left off"));
		expect(haiku.length).toBeGreaterThan(0);
		expect(resume.length).toBeGreaterThan(0);
		for (const req of requests) {
			expect(requestText(req)).toContain(facade!.trimEnd());
			expect(requestText(req).split("## Project memory").length - 1, "the facade once").toBe(1);
		}
		// The user's own prompt hook still runs, beside ours.
		for (const req of requests) expect(requestText(req)).toContain(USER_HOOK_MARK);
		for (const req of [...haiku, ...neutral]) {
			expect(requestText(req)).not.toContain(PACKET_HEADING);
			expect(requestText(req)).not.toContain("BODY-7f3a");
		}
		for (const req of resume) {
			const seen = requestText(req);
			expect(seen).toContain("UserPromptSubmit hook success: Recalled from earlier sessions in this project");
			expect(seen).toContain(PACKET_HEADING);
			expect(seen).toContain("Add a rate limiter to the login endpoint");
			expect(seen).toContain(FACT_BODY);
		}
		const log = readFileSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "hooks.log"), "utf8");
		expect(log).toMatch(/\tuser-prompt-submit\tok\t.*trigger=negative printed=0B/);
		expect(log).toMatch(/\tuser-prompt-submit\tok\t.*trigger=none printed=0B/);
		expect(log).toMatch(/\tuser-prompt-submit\tok\t.*trigger=intent facts=1 printed=\d+B/);

		// 4. SessionEnd started a sync: the new session's note appears without one from the test.
		const notes = join(vault, "AI Conversations", "rate-api");
		const noteOf = (id: string) => (existsSync(notes) ? readdirSync(notes).find((f) => f.endsWith(".md") && readFileSync(join(notes, f), "utf8").includes(`session_id: ${id}`)) : undefined);
		const deadline = Date.now() + 15_000;
		while (noteOf(two.sessionId!) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
		const note = noteOf(two.sessionId!);
		expect(note, `no note for ${two.sessionId} in ${notes}\n${log}`).toBeDefined();
		expect(readFileSync(join(notes, note!), "utf8")).toContain("continue where we left off with the rate limiter");
		expect(readFileSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "hooks.log"), "utf8")).toMatch(/\tsession-end\tok\t.*sync=started/);

		// 5. /compact: a checkpoint from the transcript's end reaches the facade through the sync PreCompact starts.
		const compact = await runClaude({ home, cwd, stub, prompt: "/compact", resume: two.sessionId });
		expect(compact.exitCode, compact.stderr).toBe(0);
		const checkpointLine = () => /^- Last checkpoint: .*$/m.exec(readFileSync(join(cwd, "CLAUDE.md"), "utf8"))?.[0] ?? "";
		const until = Date.now() + 15_000;
		while (!checkpointLine().includes("Asked: Continue where we left off") && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
		expect(checkpointLine()).toMatch(/^- Last checkpoint: \d{4}-\d\d-\d\d \d\d:\d\d UTC Asked: Continue where we left off with the rate limiter Reply: Picking up/);
		expect(readFileSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "hooks.log"), "utf8")).toMatch(new RegExp(`\tpre-compact\tok\t.*trigger=manual checkpoint=${two.sessionId} sync=started`));

		// 6. Uninstall: the user's file, byte for byte.
		run("hooks", "uninstall", "--claude-dir", claudeDir);
		expect(readFileSync(join(claudeDir, "settings.json"), "utf8")).toBe(USER_SETTINGS);
	});
});
