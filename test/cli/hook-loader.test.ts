import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";

let dist: string;
let dir: string;

beforeAll(() => {
	dist = dirname(buildCli("hook.cjs"));
	dir = mkdtempSync(join(tmpdir(), "ai-memory-loader-"));
}, 120_000);

afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** A built loader copied alone, or with its bundle, into a folder of its own. */
function copied(script: "hook" | "cli", withBundle: boolean): string {
	const to = mkdtempSync(join(dir, `${script}-`));
	copyFileSync(join(dist, `${script}.cjs`), join(to, `${script}.cjs`));
	if (withBundle) for (const name of readdirSync(dist)) if (new RegExp(`^${script}\\.[0-9a-f]{16}\\.js$`).test(name)) copyFileSync(join(dist, name), join(to, name));
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

	it("the CLI without its bundle says so and exits 1; with it, it runs", () => {
		const alone = spawnSync(process.execPath, [copied("cli", false), "--help"], { encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "off" } });
		expect(alone.status).toBe(1);
		expect(alone.stderr).toMatch(/^ai-memory: .*cli\.[0-9a-f]{16}\.js holds the code of/);
		expect(alone.stderr).not.toMatch(/\n\s+at /);
		const whole = spawnSync(process.execPath, [copied("cli", true), "--help"], { encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "off" } });
		expect(whole.status).toBe(0);
		expect(whole.stdout).toContain("ai-memory");
	});
});
