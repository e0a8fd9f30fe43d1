import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";

let dist: string;
const repo = join(__dirname, "..", "..");
let dir: string;

beforeAll(() => {
	dist = dirname(buildCli("hook.cjs"));
	dir = mkdtempSync(join(tmpdir(), "ai-memory-loader-"));
}, 120_000);

afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** A built loader copied alone, or with its bundle (and the bundle's rest), into a folder of its own. */
function copied(script: "hook" | "cli", withBundle: boolean, withRest = withBundle): string {
	const to = mkdtempSync(join(dir, `${script}-`));
	copyFileSync(join(dist, `${script}.cjs`), join(to, `${script}.cjs`));
	for (const name of readdirSync(dist)) {
		if ((withBundle && new RegExp(`^${script}\\.[0-9a-f]{16}\\.js$`).test(name)) || (withRest && new RegExp(`^${script}\\.rest\\.[0-9a-f]{16}\\.js$`).test(name))) copyFileSync(join(dist, name), join(to, name));
	}
	return join(to, `${script}.cjs`);
}

describe("the built loaders", () => {
	it("the hook without its bundle fails open: exit 0, one line that names the file, no stack trace", () => {
		const hook = copied("hook", false);
		const run = spawnSync(process.execPath, [hook, "hook", "user-prompt-submit", "--vault", dir], { input: JSON.stringify({ prompt: "hi" }), encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "off" } });
		expect(run.status).toBe(0);
		expect(run.stdout).toBe("");
		expect(run.stderr).toMatch(/^ai-memory hook: .*hook\.[0-9a-f]{16}\.js holds the code of .* \(it is missing\)/);
		expect(run.stderr).not.toMatch(/\n\s+at /);
	});

	it("the hook's rest is read only by a hook that needs it: without it, recall fails open with a line in hooks.log naming it", () => {
		const home = mkdtempSync(join(dir, "rest-"));
		const project = join(home, "shop-api");
		const vault = join(home, "vault");
		const sessions = join(home, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		mkdirSync(project);
		mkdirSync(vault);
		cpSync(join(repo, "examples", "claude-projects", "-tmp-ai-memory-demo-shop-api"), sessions, { recursive: true });
		for (const name of readdirSync(sessions)) if (name.endsWith(".jsonl")) writeFileSync(join(sessions, name), readFileSync(join(sessions, name), "utf8").split("/tmp/ai-memory-demo/shop-api").join(project));
		for (const args of [["projects", "add", project, "--mode", "lazy", "--vault", vault], ["sync", "--vault", vault, "--claude-dir", join(home, "claude")]]) {
			const run = spawnSync(process.execPath, [join(dist, "cli.cjs"), ...args], { encoding: "utf8" });
			expect(run.status, run.stderr).toBe(0);
		}
		const prompt = (hook: string, text: string) => spawnSync(process.execPath, [hook, "hook", "user-prompt-submit", "--vault", vault], { input: JSON.stringify({ session_id: "s1", cwd: project, prompt: text }), encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "off" } });
		const log = () => readFileSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "hooks.log"), "utf8").trimEnd().split("\n").at(-1) ?? "";
		const firstPart = copied("hook", true, false);
		const quiet = prompt(firstPart, "add a unit test for the parser");
		expect([quiet.status, quiet.stdout, quiet.stderr]).toEqual([0, "", ""]);
		expect(log()).toMatch(/\tok\t.*trigger=none printed=0B$/);
		const fires = prompt(firstPart, "continue where we left off with the cart total");
		expect([fires.status, fires.stdout]).toEqual([0, ""]);
		expect(log()).toMatch(/\terror\t.*hook\.rest\.\u2026\.js holds the code of .*hook\.cjs and cannot be read \(it is missing\)/);
		const whole = prompt(copied("hook", true), "continue where we left off with the cart total");
		expect(whole.status).toBe(0);
		expect(whole.stdout).toContain("cart total");
		expect(log()).toMatch(/\tok\t.*trigger=intent facts=\d+ printed=\d+B$/);
	});

	it("the CLI without its bundle says so and exits 1; with it, it runs", () => {
		const alone = spawnSync(process.execPath, [copied("cli", false), "--help"], { encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "off" } });
		expect(alone.status).toBe(1);
		expect(alone.stderr).toMatch(/^ai-memory: .*cli\.[0-9a-f]{16}\.js holds the code of/);
		expect(alone.stderr).not.toMatch(/\n\s+at /);
		const whole = spawnSync(process.execPath, [copied("cli", true), "--help"], { encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "off" } });
		expect(whole.status).toBe(0);
		expect(whole.stdout).toContain("ai-memory");
	});

	it("the CLI finds re2js beside it: a pattern of the user's redacts a prompt; without it, nothing is synced", () => {
		const home = mkdtempSync(join(dir, "re2-"));
		const project = join(home, "app");
		const sessions = join(home, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		mkdirSync(project);
		mkdirSync(sessions, { recursive: true });
		const line = (record: Record<string, unknown>) => JSON.stringify({ sessionId: "0f0f0f0f-0000-4000-8000-0000000000aa", cwd: project, timestamp: "2026-12-04T10:00:00.000Z", ...record });
		writeFileSync(join(sessions, "0f0f0f0f-0000-4000-8000-0000000000aa.jsonl"), `${line({ type: "user", uuid: "u1", message: { role: "user", content: "Deploy with ticket ACME-123456 today" } })}\n${line({ type: "assistant", uuid: "a1", message: { id: "m1", role: "assistant", content: [{ type: "text", text: "Deployed." }] } })}\n`);
		const vault = join(home, "vault");
		mkdirSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory"), { recursive: true });
		writeFileSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "data.json"), JSON.stringify({ redaction: { enabled: true, extraPatterns: ["ACME-[0-9]{6}"] } }));
		// A CLI whose re2js.cjs is gone stops: the pattern is not left out, the prompt not stored.
		const alone = spawnSync(process.execPath, [copied("cli", true), "sync", "--vault", vault, "--claude-dir", join(home, "claude")], { encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "off" } });
		expect(alone.stderr).toContain("the engine of your own redaction patterns (re2js) could not be loaded");
		expect(spawnSync("grep", ["-r", "-l", "ACME-123456", vault], { encoding: "utf8" }).stdout).toBe("");
		const run = spawnSync(process.execPath, [join(dist, "cli.cjs"), "sync", "--vault", vault, "--claude-dir", join(home, "claude"), "--json"], { encoding: "utf8" });
		expect(run.status, run.stderr).toBe(0);
		const written = (JSON.parse(run.stdout) as { notesWritten: string[] }).notesWritten;
		const note = written.find((p) => p.includes("Deploy"));
		expect(note).toBeDefined();
		const text = readFileSync(join(vault, note!), "utf8");
		expect(text).not.toContain("ACME-123456");
		expect(text).toContain("[redacted:");
	});
});
