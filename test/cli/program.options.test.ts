import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "../../src/cli/program";

let dir: string;
let err: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "cli-options-"));
	mkdirSync(join(dir, "vault"));
	mkdirSync(join(dir, "proj"));
	err = "";
	process.exitCode = undefined;
	vi.spyOn(process.stdout, "write").mockImplementation(() => true);
	vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((err += String(chunk)), true));
});
afterEach(() => {
	vi.restoreAllMocks();
	process.exitCode = undefined;
	rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<number | string | undefined> {
	main(["node", "ai-memory", ...args]);
	await vi.waitFor(() => expect(process.exitCode).toBeDefined(), { timeout: 5000 });
	return process.exitCode;
}

describe("repeatable options with choices", () => {
	it("refuses an --also outside its choices before anything is written", async () => {
		const vault = join(dir, "vault");
		expect(await run("projects", "add", join(dir, "proj"), "--vault", vault, "--also", "AGENTS.md", "--also", "../../etc/passwd")).toBe(1);
		expect(err).toContain("Allowed choices are AGENTS.md, GEMINI.md");
		expect(existsSync(join(vault, ".obsidian"))).toBe(false);
	});

	it("refuses an --agent outside its choices with a sentence, not a TypeError", async () => {
		expect(await run("mcp", "install", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--agent", "../../x")).toBe(1);
		expect(err).toContain("Allowed choices are claude-code, codex, gemini-cli");
		expect(err).not.toContain("TypeError");
	});
});
