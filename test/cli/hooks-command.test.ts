import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecallIndex } from "../../src/core/memory/recall";
import type { HookContext } from "../../src/core/plan/hook-context";
import { hookContextPath } from "../../src/node/plugin-paths";

/**
 * The built CLI's hook, hooks, projects and doctor commands, as Claude Code and a person run them.
 * Built into a temporary folder (not dist/, which other test files rebuild at the same time).
 */
const repo = resolve(__dirname, "..", "..");
let dir: string;
let cli: string;
let vault: string;
let folder: string;
let project: string;
let claudeDir: string;

function run(args: string[], stdin?: string, env: NodeJS.ProcessEnv = { HOME: dir, CLAUDE_CONFIG_DIR: claudeDir }) {
	return spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input: stdin, env: { ...process.env, CLAUDE_CONFIG_DIR: undefined, ...env } });
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "cli-hooks-"));
	const builtins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
	await build({ entryPoints: { cli: join(repo, "src/cli/main.ts") }, bundle: true, external: builtins, format: "cjs", target: "node20", platform: "node", mainFields: ["module", "main"], outdir: join(dir, "bin"), outExtension: { ".js": ".cjs" }, loader: { ".wasm": "binary" }, define: { "import.meta.url": "undefined" }, logLevel: "silent" });
	cli = join(dir, "bin", "cli.cjs");
	vault = join(dir, "vault");
	folder = join(vault, ".obsidian", "plugins", "ai-conversation-memory");
	project = join(dir, "code", "api");
	claudeDir = join(dir, "claude");
	mkdirSync(project, { recursive: true });
	mkdirSync(vault);
	mkdirSync(claudeDir);
	expect(run(["projects", "add", project, "--mode", "lazy", "--vault", vault]).status).toBe(0);
	const context: HookContext = {
		version: 1,
		projectPath: project,
		mode: "lazy",
		facade: "## Project memory\n\n- Full context: `/v/api context.md`\n",
		packet: "# api: context packet\n\nHISTORY-MARK\n",
		packetPath: "/v/api context.md",
		recall: RecallIndex.build([{ file: "cache.md", name: "cache-ttl", description: "The cache TTL is ten minutes" }]).serialize(),
		bodies: { "cache.md": "TTL 600 s, set in config/cache.ts (BODY-MARK)." },
		// As when CLAUDE.md could not take the block: the session start prints the facade then.
		blockInFile: false,
	};
	mkdirSync(join(folder, "state", "hooks"), { recursive: true });
	writeFileSync(hookContextPath(join(folder, "state"), project), JSON.stringify(context));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("ai-memory hook (what Claude Code runs)", () => {
	it("prints the facade and the recall on stdout, and accepts the --from mark", () => {
		const start = run(["hook", "session-start", "--vault", vault, "--from", "ai-conversation-memory"], JSON.stringify({ session_id: "s", cwd: project, source: "startup" }));
		expect(start).toMatchObject({ status: 0, stdout: "## Project memory\n\n- Full context: `/v/api context.md`\n", stderr: "" });
		const recall = run(["hook", "user-prompt-submit", "--vault", vault, "--from", "ai-conversation-memory"], JSON.stringify({ cwd: project, prompt: "what was the cache ttl we decided last time?" }));
		expect(recall.status).toBe(0);
		expect(recall.stdout).toContain("HISTORY-MARK");
		expect(recall.stdout).toContain("- **cache-ttl**: The cache TTL is ten minutes\n  TTL 600 s, set in config/cache.ts (BODY-MARK).");
		expect(run(["hook", "user-prompt-submit", "--vault", vault], JSON.stringify({ cwd: project, prompt: "rename the cache module" })).stdout).toBe("");
	});

	it.each([
		["garbage on stdin", ["hook", "session-start", "--vault", "VAULT"], "}{"],
		["no stdin at all", ["hook", "user-prompt-submit", "--vault", "VAULT"], ""],
		["an unknown hook", ["hook", "post-tool-use", "--vault", "VAULT"], "{}"],
		["no hook name", ["hook", "--vault", "VAULT"], "{}"],
		["an unknown option", ["hook", "session-start", "--vault", "VAULT", "--newer-option", "x"], "{}"],
	])("fails open: %s → exit 0, nothing printed, a line in hooks.log", (_name, args, stdin) => {
		const before = existsSync(join(folder, "hooks.log")) ? readFileSync(join(folder, "hooks.log"), "utf8") : "";
		const r = run(args.map((a) => (a === "VAULT" ? vault : a)), stdin);
		expect(r).toMatchObject({ status: 0, stdout: "" });
		const added = readFileSync(join(folder, "hooks.log"), "utf8").slice(before.length);
		expect(added.split("\n").filter(Boolean)).toHaveLength(1);
	});

	it("fails open without a vault: exit 0, nothing on stdout, the reason on stderr", () => {
		const r = run(["hook", "session-start", "--vault", join(dir, "gone")], "{}");
		expect(r).toMatchObject({ status: 0, stdout: "", stderr: `ai-memory hook session-start: vault folder ${join(dir, "gone")} does not exist\n` });
		expect(existsSync(join(dir, "gone"))).toBe(false);
		expect(run(["hook", "session-start"], "{}")).toMatchObject({ status: 0, stdout: "" });
	});

	it("session-end returns at once, leaving the sync to a detached child", () => {
		const started = Date.now();
		const r = run(["hook", "session-end", "--vault", vault], JSON.stringify({ session_id: "s", cwd: project, transcript_path: join(claudeDir, "projects", "-x", "s.jsonl"), reason: "other" }));
		expect(r).toMatchObject({ status: 0, stdout: "" });
		expect(Date.now() - started).toBeLessThan(1500);
		expect(readFileSync(join(folder, "hooks.log"), "utf8")).toMatch(/\tsession-end\tok\tproject=\S+ session=s reason=other sync=started printed=0B\n$/);
	});
});

// Each test starts the CLI several times: seconds each on a loaded machine.
describe("ai-memory hooks", { timeout: 30_000 }, () => {
	it("install, status, uninstall through the CLI; invalid JSON is an error that changes nothing", () => {
		const original = '{ "model": "opus" }\n';
		writeFileSync(join(claudeDir, "settings.json"), original);
		const install = run(["hooks", "install", "--vault", vault, "--claude-dir", claudeDir]);
		expect(install.status, install.stderr).toBe(0);
		expect(install.stdout).toContain(`Your file as it was is in ${join(claudeDir, "settings.json.bak-ai-memory")}`);
		const settings = readFileSync(join(claudeDir, "settings.json"), "utf8");
		expect(settings).toContain(`${JSON.stringify(`NODE_OPTIONS= NODE_EXTRA_CA_CERTS= "${process.execPath}" "${cli}" hook session-end --vault "${vault}" --from ai-conversation-memory`)}`);
		const status = run(["hooks", "status", "--vault", vault, "--claude-dir", claudeDir]);
		expect(status.stdout.match(/installed \(this CLI, this vault\)/g)).toHaveLength(5);
		expect(run(["hooks", "status", "--vault", join(dir, "code"), "--claude-dir", claudeDir]).stdout).toContain(`another vault: ${vault}`);
		const doctor = run(["doctor", "--vault", vault, "--claude-dir", claudeDir]);
		expect(doctor.status, doctor.stderr).toBe(0);
		expect(doctor.stdout).toContain(`Project ${project}: lazy mode, context in CLAUDE.md`);
		expect(doctor.stdout).toMatch(/Facade \(\d+ characters ≈ \d+ tokens, printed at session start\)/);
		expect(doctor.stdout).toMatch(/ {2}session-start {6}\d{4}-\d\d-\d\dT\S+ ok: project=/);
		expect(doctor.stdout).toContain("  SessionStart     installed (this CLI, this vault)");
		expect(run(["hooks", "uninstall", "--claude-dir", claudeDir]).status).toBe(0);
		expect(readFileSync(join(claudeDir, "settings.json"), "utf8")).toBe(original);

		writeFileSync(join(claudeDir, "settings.json"), "{ nope");
		const broken = run(["hooks", "install", "--vault", vault, "--claude-dir", claudeDir]);
		expect(broken.status).toBe(1);
		expect(broken.stderr).toMatch(/^ai-memory: .*settings\.json: it is not valid JSON \(.* at line 1\); nothing was changed\n$/);
		expect(readFileSync(join(claudeDir, "settings.json"), "utf8")).toBe("{ nope");
		expect(existsSync(join(claudeDir, "settings.json.bak-ai-memory"))).toBe(false);

		// A link that leads back to itself: a sentence with the path, not the raw error.
		rmSync(join(claudeDir, "settings.json"));
		symlinkSync("settings.json", join(claudeDir, "settings.json"));
		const loop = run(["hooks", "install", "--vault", vault, "--claude-dir", claudeDir]);
		expect(loop.status).toBe(1);
		expect(loop.stderr).toBe(`ai-memory: ${join(claudeDir, "settings.json")}: a link there leads back to itself (ELOOP)\n`);
		rmSync(join(claudeDir, "settings.json"));
	});

	it("without --claude-dir, the hooks and the MCP server go to the Claude Code folder the vault's settings name for this device, as the sync reads; settings that cannot be read stop it", () => {
		const other = join(dir, "vault-other");
		const theirs = join(dir, "claude-of-settings");
		const pluginDir = join(other, ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(pluginDir, { recursive: true });
		mkdirSync(theirs);
		writeFileSync(join(pluginDir, "data.json"), JSON.stringify({ devices: { [hostname()]: { claudeDir: theirs } } }));
		// The environment names another folder: the settings win, as for `sync`, `doctor` and `mcp install`.
		const install = run(["hooks", "install", "--vault", other]);
		expect(install.status, install.stderr).toBe(0);
		expect(existsSync(join(theirs, "settings.json"))).toBe(true);
		expect(existsSync(join(claudeDir, "settings.json"))).toBe(false);
		expect(run(["hooks", "status", "--vault", other]).stdout.match(/installed \(this CLI, this vault\)/g)).toHaveLength(5);
		// The MCP server's file too (this test's CLI has no server script beside it to install).
		expect(run(["mcp", "status", "--vault", other]).stdout).toContain(`— ${join(theirs, ".claude.json")}`);
		expect(run(["hooks", "uninstall", "--vault", other]).status).toBe(0);
		expect(existsSync(join(theirs, "settings.json"))).toBe(false);

		writeFileSync(join(pluginDir, "data.json"), "{ nope");
		for (const args of [["hooks", "install", "--vault", other], ["hooks", "uninstall", "--vault", other], ["mcp", "install", "--vault", other]]) {
			const broken = run(args);
			expect(broken.status, args.join(" ")).toBe(2);
			expect(broken.stderr).toMatch(/^ai-memory: the settings in .*data\.json are not valid JSON \(.*\); fix or remove the file\n$/);
		}
		expect(readdirSync(theirs)).toEqual([]);
		const gone = run(["hooks", "uninstall", "--vault", join(dir, "vault-gone")]);
		expect(gone.status).toBe(2);
		expect(gone.stderr).toBe(`ai-memory: vault folder ${join(dir, "vault-gone")} does not exist; its settings name the Claude Code folder: give that with --claude-dir (or leave out --vault for the default one)\n`);
		expect(existsSync(join(claudeDir, "settings.json"))).toBe(false);
	});

	it("a --claude-dir that is not there (a typo): says so, exit 2, and makes nothing there", () => {
		const typo = join(dir, "claude-typo");
		const install = run(["hooks", "install", "--vault", vault, "--claude-dir", typo]);
		expect(install.status).toBe(2);
		expect(install.stderr).toBe(`ai-memory: Claude Code's folder ${typo} does not exist; nothing was installed (check --claude-dir: Claude Code reads its settings in the folder it uses)\n`);
		expect(existsSync(typo)).toBe(false);
		// `mcp install` alike: Claude Code's .claude.json is not made beside a folder it never uses.
		const mcp = run(["mcp", "install", "--vault", vault, "--claude-dir", typo]);
		expect(mcp.status).toBe(2);
		expect(mcp.stderr).toBe(install.stderr);
		expect(existsSync(typo)).toBe(false);
	});

	it.skipIf(process.platform === "win32")("Claude Code's folder a link to what is not there (`~/.claude`, `$CLAUDE_CONFIG_DIR`, --claude-dir): says so, exit 2, and makes nothing", () => {
		const home = join(dir, "dangling-home");
		mkdirSync(home);
		symlinkSync(join(dir, "unmounted", "claude"), join(home, ".claude"));
		symlinkSync("gone", join(dir, "dangling-config"));
		const said = (folder: string, target: string, then: string) => `ai-memory: Claude Code's folder ${folder} is a link to ${target}, which is not there; ${then}\n`;
		// The default folder: hooks install failed on mkdir with a bare ENOENT (exit 1); mcp install wrote ~/.claude.json beside it.
		for (const [env, folder, target] of [
			[{ HOME: home }, join(home, ".claude"), join(dir, "unmounted", "claude")],
			[{ HOME: home, CLAUDE_CONFIG_DIR: join(dir, "dangling-config") }, join(dir, "dangling-config"), join(dir, "gone")],
		] as const) {
			for (const command of ["hooks", "mcp"]) {
				const r = run([command, "install", "--vault", vault], undefined, env);
				expect(r.status, r.stderr).toBe(2);
				expect(r.stderr).toBe(said(folder, target, "nothing was installed"));
			}
		}
		const given = run(["hooks", "install", "--vault", vault, "--claude-dir", join(home, ".claude")], undefined, { HOME: home });
		expect(given.stderr).toBe(said(join(home, ".claude"), join(dir, "unmounted", "claude"), "nothing was installed (check --claude-dir: Claude Code reads its settings in the folder it uses)"));
		// sync read it as a folder without transcripts.
		const sync = run(["sync", "--vault", vault, "--claude-dir", join(home, ".claude")], undefined, { HOME: home });
		expect(sync.status).toBe(2);
		expect(sync.stderr).toBe(said(join(home, ".claude"), join(dir, "unmounted", "claude"), "nothing was synced (check --claude-dir)"));
		// The default folder, with no other agent's sessions: said, not "no transcripts"; with some, they are read and it is said.
		const empty = join(dir, "dangling-vault");
		mkdirSync(empty);
		const alone = run(["sync", "--vault", empty], undefined, { HOME: home });
		expect(alone.status).toBe(2);
		expect(alone.stderr).toBe(said(join(home, ".claude"), join(dir, "unmounted", "claude"), "nothing was synced"));
		const codex = join(dir, "dangling-codex");
		mkdirSync(join(codex, "sessions"), { recursive: true });
		const others = run(["sync", "--vault", empty], undefined, { HOME: home, CODEX_HOME: codex });
		expect(others.status, others.stderr).toBe(0);
		expect(others.stdout).toContain(`Note: Claude Code's folder ${join(home, ".claude")} is a link to ${join(dir, "unmounted", "claude")}, which is not there: its sessions were not read`);
		expect(readdirSync(home)).toEqual([".claude"]);
		expect(existsSync(join(dir, "unmounted")) || existsSync(join(dir, "gone"))).toBe(false);
	});

	it.skipIf(process.platform === "win32")("Claude Code's folder a file or a FIFO (`$CLAUDE_CONFIG_DIR`, --claude-dir): named as such, not as settings.json's ENOTDIR or a missing projects folder", () => {
		const file = join(dir, "claude-file");
		writeFileSync(file, "");
		const fifo = join(dir, "claude-fifo");
		expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
		const empty = join(dir, "file-vault");
		mkdirSync(empty);
		for (const [folder, what] of [
			[file, "a file"],
			[fifo, "a FIFO"],
		] as const) {
			const said = (then: string) => `ai-memory: Claude Code's folder ${folder} is ${what}, not a folder; ${then}\n`;
			for (const command of ["hooks", "mcp"]) {
				const r = run([command, "install", "--vault", vault], undefined, { CLAUDE_CONFIG_DIR: folder });
				expect(r.status, r.stderr).toBe(2);
				expect(r.stderr).toBe(said("nothing was installed"));
			}
			const given = run(["sync", "--vault", empty, "--claude-dir", folder]);
			expect(given.status).toBe(2);
			expect(given.stderr).toBe(said("nothing was synced (check --claude-dir)"));
			const byDefault = run(["sync", "--vault", empty], undefined, { CLAUDE_CONFIG_DIR: folder, HOME: join(dir, "nobody-home") });
			expect(byDefault.status).toBe(2);
			expect(byDefault.stderr).toBe(said("nothing was synced"));
		}
	});

	it("a vault whose name holds a line break is named on one line by install, status and uninstall", () => {
		const odd = join(dir, "odd\nvault");
		mkdirSync(odd, { recursive: true });
		const claude = join(dir, "claude-odd");
		mkdirSync(claude, { recursive: true });
		for (const args of [["install", "--vault", odd], ["status", "--vault", odd], ["uninstall"]]) {
			const out = run(["hooks", ...args, "--claude-dir", claude]);
			expect(out.status, out.stderr).toBe(0);
			// Every line the command prints starts as its lines do: none is the rest of the vault's name.
			for (const line of out.stdout.split("\n").filter(Boolean)) expect(line, args[0]).not.toMatch(/^vault/);
			expect(out.stdout, args[0]).not.toBe("");
		}
		rmSync(claude, { recursive: true, force: true });
	});

	it("no settings.json: says it made one, leaves no backup; uninstall says the file went", () => {
		const fresh = join(dir, "fresh-claude");
		mkdirSync(fresh);
		const install = run(["hooks", "install", "--vault", vault, "--claude-dir", fresh]);
		expect(install.stdout).toBe(`Created ${join(fresh, "settings.json")} (there was none) with the SessionStart, UserPromptSubmit, SessionEnd, PreCompact and InstructionsLoaded hooks, for ${vault}. They take effect in new Claude Code sessions.\n`);
		expect(existsSync(join(fresh, "settings.json.bak-ai-memory"))).toBe(false);
		expect(run(["hooks", "install", "--vault", vault, "--claude-dir", fresh]).stdout).toBe(`Our hooks are in ${join(fresh, "settings.json")} already, for this CLI and ${vault}; nothing changed.\n`);
		expect(run(["hooks", "uninstall", "--claude-dir", fresh]).stdout).toBe(`Removed our hooks, and ${join(fresh, "settings.json")} with them: nothing else was in it.\n`);
		expect(existsSync(join(fresh, "settings.json"))).toBe(false);
		expect(run(["hooks", "uninstall", "--claude-dir", fresh]).stdout).toBe(`No hooks of ours in ${join(fresh, "settings.json")}; nothing changed.\n`);
	});

	it("the hints of status and doctor name the folders they were run with: followed literally, they act on those", () => {
		const other = join(dir, "other claude");
		mkdirSync(other);
		const status = run(["hooks", "status", "--vault", vault, "--claude-dir", other]);
		const hint = `ai-memory hooks install --vault ${vault} --claude-dir '${other}'`;
		expect(status.stdout).toContain(`  Install them with: ${hint}\n`);
		expect(run(["doctor", "--vault", vault, "--claude-dir", other]).stdout).toContain(`  Install them with: ${hint}\n`);
		// The hint, run as a shell would split it, installs into that folder and not into $HOME/.claude.
		const words = ["hooks", "install", "--vault", vault, "--claude-dir", other];
		expect(run(words).status).toBe(0);
		expect(existsSync(join(other, "settings.json"))).toBe(true);
		expect(existsSync(join(dir, ".claude", "settings.json"))).toBe(false);
		expect(run(["hooks", "uninstall", "--claude-dir", other]).status).toBe(0);
	});
});

describe("ai-memory help", () => {
	it.each([[["--help"]], [["hook", "--help"]], [["hook"]], [["help", "hook"]], [["hooks", "install", "--help"]], [["sync", "--help"]], [["projects", "add", "--help"]], [["doctor", "--help"]]])("%j prints the help and exits 0", (args) => {
		const r = run(args);
		expect(r.status, r.stderr).toBe(0);
		expect(r.stdout).toMatch(/^Usage: ai-memory/);
		expect(r.stdout).not.toMatch(/unknown hook/);
	});

	it("the hook's help lists the events and how to try one", () => {
		const r = run(["hook", "--help"]);
		for (const event of ["session-start", "user-prompt-submit", "session-end", "pre-compact", "instructions-loaded"]) expect(r.stdout).toContain(`  ${event} `);
		expect(r.stdout).toContain("| ai-memory hook session-start --vault DIR");
	});
});
