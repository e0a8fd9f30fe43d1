import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";

/** `ai-memory doctor` from the built CLI, on files the sync would refuse. */
const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
let dir: string;

beforeAll(() => {
	buildCli();
	dir = mkdtempSync(join(tmpdir(), "cli-doctor-"));
});
afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

describe("ai-memory doctor", () => {
	it("says that a CLAUDE.md the sync refuses (a link out of the project, a FIFO, not UTF-8) is refused, not that the next sync adds the block", () => {
		const project = join(dir, "app");
		mkdirSync(project);
		mkdirSync(join(dir, "vault"));
		const run = () => spawnSync(process.execPath, [cli, "doctor", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude")], { encoding: "utf8", timeout: 20_000 });
		expect(spawnSync(process.execPath, [cli, "projects", "add", project, "--vault", join(dir, "vault")], { encoding: "utf8" }).status).toBe(0);
		writeFileSync(join(dir, "bashrc"), "export PATH=/usr/bin\n");
		symlinkSync(join(dir, "bashrc"), join(project, "CLAUDE.md"));
		let r = run();
		expect(r.status).toBe(0);
		expect(r.stdout).toMatch(/CLAUDE\.md: CLAUDE\.md of .*app is a link to .*bashrc, outside .*app; it is neither read nor written .*; the sync writes no block into it/);
		rmSync(join(project, "CLAUDE.md"));
		if (process.platform !== "win32") {
			expect(spawnSync("mkfifo", [join(project, "CLAUDE.md")]).status).toBe(0);
			r = run();
			expect(r.status).toBe(0);
			expect(r.stdout).toMatch(/CLAUDE\.md: .* is not a plain file \(a FIFO\)/);
			rmSync(join(project, "CLAUDE.md"));
		}
		writeFileSync(join(project, "CLAUDE.md"), Buffer.from("caf\xe9\n", "latin1"));
		r = run();
		expect(r.stdout).toMatch(/CLAUDE\.md: .*CLAUDE\.md is not UTF-8 \(perhaps Latin-1 or CESU-8\)/);
		expect(r.stdout).not.toContain("the next sync adds it");
	});

	it("names each file the block goes into (AGENTS.md, GEMINI.md too), and a refused one", () => {
		const project = join(dir, "agents-app");
		mkdirSync(project);
		const vault = join(dir, "vault-agents");
		mkdirSync(vault);
		expect(spawnSync(process.execPath, [cli, "projects", "add", project, "--vault", vault, "--also", "AGENTS.md", "--also", "GEMINI.md"], { encoding: "utf8" }).status).toBe(0);
		writeFileSync(join(dir, "outside.md"), "# theirs\n");
		symlinkSync(join(dir, "outside.md"), join(project, "GEMINI.md"));
		const r = spawnSync(process.execPath, [cli, "doctor", "--vault", vault, "--claude-dir", join(dir, "claude")], { encoding: "utf8", timeout: 20_000 });
		expect(r.status).toBe(0);
		expect(r.stdout).toContain(`Project ${project}: eager mode, context in CLAUDE.md, AGENTS.md, GEMINI.md`);
		expect(r.stdout).toMatch(/\n {2}AGENTS\.md: .*AGENTS\.md does not exist yet/);
		expect(r.stdout).toMatch(/\n {2}GEMINI\.md: GEMINI\.md of .* is a link to .*outside\.md, outside .*; the sync writes no block into it/);
	});

	it("says that Claude Code's memory folder is not known while its settings.json cannot be read, not the default folder", () => {
		const project = join(dir, "memory-app");
		mkdirSync(project);
		const vault = join(dir, "vault-memory");
		mkdirSync(vault);
		const claude = join(dir, "claude-memory");
		mkdirSync(claude);
		expect(spawnSync(process.execPath, [cli, "projects", "add", project, "--vault", vault], { encoding: "utf8" }).status).toBe(0);
		writeFileSync(join(claude, "settings.json"), '{"autoMemoryDirectory": "/elsewhere",}');
		const r = spawnSync(process.execPath, [cli, "doctor", "--vault", vault, "--claude-dir", claude], { encoding: "utf8", timeout: 20_000 });
		expect(r.status).toBe(0);
		expect(r.stdout).toContain("Claude Code memory: not known: its settings.json cannot be read (it is not JSON), so no fact is shared");
	});

	it("warns of a block left in a file the block no longer goes to (CLAUDE.md after switching to CLAUDE.local.md), not of a link to the target", () => {
		const project = join(dir, "switched");
		mkdirSync(project);
		const vault = join(dir, "vault-switched");
		mkdirSync(vault);
		expect(spawnSync(process.execPath, [cli, "projects", "add", project, "--vault", vault, "--target", "CLAUDE.local.md"], { encoding: "utf8" }).status).toBe(0);
		writeFileSync(join(project, "CLAUDE.md"), "# Rules\n\n<!-- AUTO-CONTEXT:BEGIN -->\n## Recent sessions\n<!-- AUTO-CONTEXT:END -->\n");
		symlinkSync("CLAUDE.local.md", join(project, "AGENTS.md"));
		writeFileSync(join(project, "CLAUDE.local.md"), "<!-- AUTO-CONTEXT:BEGIN -->\n## Recent sessions\n<!-- AUTO-CONTEXT:END -->\n");
		const r = spawnSync(process.execPath, [cli, "doctor", "--vault", vault, "--claude-dir", join(dir, "claude")], { encoding: "utf8", timeout: 20_000 });
		expect(r.status).toBe(0);
		expect(r.stdout).toMatch(/WARNING: CLAUDE\.md: .*CLAUDE\.md still holds a context block from an earlier setting/);
		expect(r.stdout).not.toMatch(/WARNING: AGENTS\.md/);
	});

	it("says that a damaged sync state stops every sync, and still reports the rest (it stopped the report, saying nothing was synced)", () => {
		const vault = join(dir, "vault-state");
		const state = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "state");
		mkdirSync(state, { recursive: true });
		writeFileSync(join(state, "sync-state.json"), '{"version": 3, "sessions');
		const r = spawnSync(process.execPath, [cli, "doctor", "--vault", vault, "--claude-dir", join(dir, "claude")], { encoding: "utf8", timeout: 20_000 });
		expect(r.status).toBe(0);
		expect(r.stdout).toContain(`State: ${state}\n  Problem: The sync state ${join(state, "sync-state.json")} cannot be read (it is not JSON)`);
		expect(r.stdout).toContain("Last runs (");
	});

	it("says that a notes folder out of the vault stops every sync", () => {
		const vault = join(dir, "vault-folders");
		mkdirSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory"), { recursive: true });
		writeFileSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "data.json"), JSON.stringify({ version: 2, notesFolder: "../out" }));
		const r = spawnSync(process.execPath, [cli, "doctor", "--vault", vault, "--claude-dir", join(dir, "claude")], { encoding: "utf8", timeout: 20_000 });
		expect(r.status).toBe(0);
		expect(r.stdout).toContain('  Problem: the notes folder "../out" leads out of the vault: set one inside it; no sync runs until it is fixed\n');
	});

	it("says in words that a file stands where the hook contexts' folder goes, and that .claude.json cannot be read, not that it is not installed", () => {
		const project = join(dir, "ctx-app");
		mkdirSync(project);
		const vault = join(dir, "vault-ctx");
		mkdirSync(vault);
		const claude = join(dir, "claude-ctx");
		mkdirSync(join(claude, ".claude.json"), { recursive: true });
		expect(spawnSync(process.execPath, [cli, "projects", "add", project, "--vault", vault], { encoding: "utf8" }).status).toBe(0);
		const state = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "state");
		mkdirSync(state, { recursive: true });
		writeFileSync(join(state, "hooks"), "not a folder\n");
		const r = spawnSync(process.execPath, [cli, "doctor", "--vault", vault, "--claude-dir", claude], { encoding: "utf8", timeout: 20_000, env: { ...process.env, CLAUDE_CONFIG_DIR: claude } });
		expect(r.stdout).not.toContain("ENOTDIR");
		expect(r.stdout).toMatch(/Hook context: .* cannot be read: a file is where one of its folders goes/);
		expect(r.stdout).not.toContain("Hook context: none yet");
		expect(r.stdout).toMatch(/MCP server for Claude Code \(.*\.claude\.json\): .*not a plain file \(a folder\)/);
	});
});
