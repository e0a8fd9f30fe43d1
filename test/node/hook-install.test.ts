import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOOK_EVENTS, installedHooks } from "../../src/core/hooks/hook-settings";
import { installMcpServer, mcpEntry } from "../../src/node/mcp-install";
import { claudeHookStatus, hookCommands, installClaudeHooks, parseHookCommand, shellQuote, shellWords, uninstallClaudeHooks, type HookTarget } from "../../src/node/hook-install";

let dir: string;
let claudeDir: string;
let settings: string;
let backup: string;
let target: HookTarget;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "hook-install-"));
	claudeDir = join(dir, ".claude");
	settings = join(claudeDir, "settings.json");
	backup = `${settings}.bak-ai-memory`;
	target = { claudeDir, vault: join(dir, "My Vault"), cliPath: "/opt/ai memory/cli.cjs", execPath: "/usr/bin/node" };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const USER = '{\n\t"model": "opus",\n\t"hooks": {\n\t\t"SessionStart": [{"hooks": [{"type": "command", "command": "echo mine"}]}]\n\t}\n}\n';

describe("hooks install: the user's file and the user's hooks", () => {
	it("a settings.json that is a FIFO is refused at once, never waited on (install, status and uninstall)", async () => {
		mkdirSync(claudeDir, { recursive: true });
		expect(spawnSync("mkfifo", [settings]).status).toBe(0);
		await expect(installClaudeHooks(target)).rejects.toThrow(/not a plain file \(a FIFO\)/);
		await expect(claudeHookStatus(target)).rejects.toThrow(/FIFO/);
		await expect(uninstallClaudeHooks(claudeDir)).rejects.toThrow(/FIFO/);
		expect(statSync(settings).isFIFO()).toBe(true);
	});

	it("leaves a read-only settings.json as it is, with a message", async () => {
		mkdirSync(claudeDir, { recursive: true });
		writeFileSync(settings, "{}\n");
		chmodSync(settings, 0o444);
		await expect(installClaudeHooks(target)).rejects.toThrow(/read-only; nothing was changed/);
		expect(readFileSync(settings, "utf8")).toBe("{}\n");
		chmodSync(settings, 0o644);
	});

	it("refuses two \"hooks\" keys (only the last counts) and an event that is not a list, with a message", async () => {
		mkdirSync(claudeDir, { recursive: true });
		const twice = '{\n  "hooks": {"Stop": []},\n  "model": "opus",\n  "hooks": {}\n}\n';
		writeFileSync(settings, twice);
		await expect(installClaudeHooks(target)).rejects.toThrow(/has "hooks" twice, and only the last one counts/);
		expect(readFileSync(settings, "utf8")).toBe(twice);
		const stringEvent = '{"hooks": {"SessionStart": "echo hi"}}\n';
		writeFileSync(settings, stringEvent);
		await expect(installClaudeHooks(target)).rejects.toThrow(/"hooks"."SessionStart" is not a list of matcher groups/);
		expect(readFileSync(settings, "utf8")).toBe(stringEvent);
	});

	it("never writes or reads the backup through a link: the file it leads to stays as it was", async () => {
		mkdirSync(claudeDir, { recursive: true });
		writeFileSync(settings, USER);
		const precious = join(dir, "precious.txt");
		writeFileSync(precious, "precious user data\n");
		symlinkSync(precious, backup);
		await expect(installClaudeHooks(target)).rejects.toThrow(/bak-ai-memory is a link, not a backup of ours; nothing was changed/);
		await expect(uninstallClaudeHooks(claudeDir)).rejects.toThrow(/is a link, not a backup of ours/);
		expect(readFileSync(precious, "utf8")).toBe("precious user data\n");
		expect(readFileSync(settings, "utf8")).toBe(USER);
	});

	it("uninstall keeps a user's hook whose command merely mentions our mark", async () => {
		mkdirSync(claudeDir, { recursive: true });
		const mine = '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "grep -- \'--from ai-conversation-memory\' ~/log"}]}]}}\n';
		writeFileSync(settings, mine);
		await installClaudeHooks(target);
		await uninstallClaudeHooks(claudeDir);
		expect(readFileSync(settings, "utf8")).toBe(mine);
		expect(installedHooks(mine)).toEqual({});
	});
});

describe("hooks install / uninstall / status", () => {
	it("installs into the user's file (a backup first), once, and uninstall gives back the same bytes", async () => {
		mkdirSync(claudeDir);
		writeFileSync(settings, USER);
		chmodSync(settings, 0o600);
		expect(await installClaudeHooks(target)).toEqual({ settingsPath: settings, changed: true, backupWritten: backup });
		expect(readFileSync(backup, "utf8")).toBe(USER);
		const text = readFileSync(settings, "utf8");
		expect(installedHooks(text)).toEqual(hookCommands(target));
		expect(text).toContain("echo mine");
		expect(statSync(settings).mode & 0o777).toBe(0o600);
		const data = JSON.parse(text) as { hooks: Record<string, Array<{ hooks: Array<{ timeout?: number }> }>> };
		expect(data.hooks.SessionEnd?.[0]?.hooks[0]?.timeout).toBe(5);

		expect(await installClaudeHooks(target)).toEqual({ settingsPath: settings, changed: false });
		expect(readFileSync(settings, "utf8")).toBe(text);

		expect(await uninstallClaudeHooks(claudeDir)).toEqual({ settingsPath: settings, changed: true, removed: false });
		expect(readFileSync(settings, "utf8")).toBe(USER);
		expect(existsSync(backup)).toBe(false);
		expect(await uninstallClaudeHooks(claudeDir)).toEqual({ settingsPath: settings, changed: false, removed: false });
	});

	it("a reinstall for another vault keeps the backup of the user's own file", async () => {
		mkdirSync(claudeDir);
		writeFileSync(settings, USER);
		await installClaudeHooks(target);
		const other = { ...target, vault: join(dir, "Other") };
		expect(await installClaudeHooks(other)).toEqual({ settingsPath: settings, changed: true, backupWritten: undefined });
		expect(readFileSync(backup, "utf8")).toBe(USER);
		expect(installedHooks(readFileSync(settings, "utf8"))).toEqual(hookCommands(other));
		await uninstallClaudeHooks(claudeDir);
		expect(readFileSync(settings, "utf8")).toBe(USER);
	});

	it("no settings file: created with no backup (there is nothing to back up), and removed again on uninstall", async () => {
		expect(await installClaudeHooks(target)).toEqual({ settingsPath: settings, changed: true, created: true, backupWritten: undefined });
		expect(existsSync(backup)).toBe(false);
		expect(Object.keys(installedHooks(readFileSync(settings, "utf8")))).toEqual([...HOOK_EVENTS]);
		expect(await uninstallClaudeHooks(claudeDir)).toEqual({ settingsPath: settings, changed: true, removed: true });
		expect(existsSync(settings)).toBe(false);
		expect(existsSync(backup)).toBe(false);
	});

	it("no settings file, then the user adds to it: uninstall keeps their keys and the file", async () => {
		await installClaudeHooks(target);
		writeFileSync(settings, readFileSync(settings, "utf8").replace("{\n", '{\n  "model": "opus",\n'));
		expect(await uninstallClaudeHooks(claudeDir)).toEqual({ settingsPath: settings, changed: true, removed: false });
		expect(readFileSync(settings, "utf8")).toBe('{\n  "model": "opus"\n}\n');
	});

	it("an empty settings file of the user's is an empty file again after uninstall, not removed: only a file the install created goes", async () => {
		mkdirSync(claudeDir);
		writeFileSync(settings, "");
		await installClaudeHooks(target);
		expect(Object.keys(installedHooks(readFileSync(settings, "utf8")))).toEqual([...HOOK_EVENTS]);
		expect(await uninstallClaudeHooks(claudeDir)).toEqual({ settingsPath: settings, changed: true, removed: false });
		expect(readFileSync(settings, "utf8")).toBe("");
		expect(existsSync(backup)).toBe(false);
	});

	it("a compact entry of the user's keeps its one line through install, an unrelated edit and uninstall", async () => {
		mkdirSync(claudeDir);
		const mine = '{\n  "model": "opus",\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }]\n  }\n}\n';
		writeFileSync(settings, mine);
		await installClaudeHooks(target);
		expect(readFileSync(settings, "utf8")).toContain('\n    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }],\n');
		writeFileSync(settings, readFileSync(settings, "utf8").replace('"opus"', '"sonnet"'));
		expect(await uninstallClaudeHooks(claudeDir)).toEqual({ settingsPath: settings, changed: true, removed: false });
		expect(readFileSync(settings, "utf8")).toBe(mine.replace('"opus"', '"sonnet"'));
	});

	it("what the user changed after the install stays on uninstall", async () => {
		mkdirSync(claudeDir);
		writeFileSync(settings, USER);
		await installClaudeHooks(target);
		writeFileSync(settings, readFileSync(settings, "utf8").replace('"model": "opus"', '"model": "sonnet"'));
		await uninstallClaudeHooks(claudeDir);
		const after = JSON.parse(readFileSync(settings, "utf8")) as { model: string; hooks: Record<string, unknown> };
		expect(after.model).toBe("sonnet");
		expect(Object.keys(after.hooks)).toEqual(["SessionStart"]);
		expect(installedHooks(readFileSync(settings, "utf8"))).toEqual({});
	});

	it("invalid JSON: a clear error, nothing changed, no backup", async () => {
		mkdirSync(claudeDir);
		writeFileSync(settings, '{\n  "model": "opus",\n}\n');
		await expect(installClaudeHooks(target)).rejects.toThrow(`${settings}: it is not valid JSON (PropertyNameExpected at line 3); nothing was changed`);
		expect(readFileSync(settings, "utf8")).toBe('{\n  "model": "opus",\n}\n');
		expect(existsSync(backup)).toBe(false);
		await expect(uninstallClaudeHooks(claudeDir)).rejects.toThrow(/not valid JSON/);
		expect((await claudeHookStatus(target)).error).toMatch(/not valid JSON/);
	});

	it("writes through a symlinked settings file (dotfile managers)", async () => {
		mkdirSync(claudeDir);
		const real = join(dir, "dotfiles-settings.json");
		writeFileSync(real, USER);
		symlinkSync(real, settings);
		await installClaudeHooks(target);
		expect(installedHooks(readFileSync(real, "utf8"))).toEqual(hookCommands(target));
		await uninstallClaudeHooks(claudeDir);
		expect(readFileSync(real, "utf8")).toBe(USER);
	});

	it("round 49b: a settings file that is a link to a file not there (dotfiles not checked out) is refused, the link kept (hooks and the MCP server)", async () => {
		mkdirSync(claudeDir);
		const missing = join(dir, "dotfiles", "settings.json");
		symlinkSync(missing, settings);
		await expect(installClaudeHooks(target)).rejects.toThrow(/is a link to .*dotfiles.*which is not there; nothing was changed/);
		expect(lstatSync(settings).isSymbolicLink()).toBe(true);
		expect(existsSync(missing)).toBe(false);
		const config = join(dir, ".claude.json");
		symlinkSync(missing, config);
		await expect(installMcpServer("claude-code", config, mcpEntry({ serverPath: "/opt/mcp.cjs", vault: target.vault }))).rejects.toThrow(/is a link to .*which is not there/);
		expect(lstatSync(config).isSymbolicLink()).toBe(true);
		// Nothing of ours can be in it: uninstalling has nothing to do.
		expect((await uninstallClaudeHooks(claudeDir)).changed).toBe(false);
	});

	it("keeps the file's mode, reaches it through a link, and removes what a killed install left beside it (its pid gone); another's temporary file stays", async () => {
		mkdirSync(claudeDir);
		writeFileSync(settings, USER, { mode: 0o640 });
		chmodSync(settings, 0o640);
		const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
		const left = `${settings}.${gone}-0.7.tmp`;
		const theirs = `${settings}.swp`;
		writeFileSync(left, "half");
		writeFileSync(theirs, "vim");
		await installClaudeHooks(target);
		expect(statSync(settings).mode & 0o777).toBe(0o640);
		expect(existsSync(left)).toBe(false);
		expect(existsSync(theirs)).toBe(true);
		expect(readdirSync(claudeDir).sort()).toEqual(["settings.json", "settings.json.bak-ai-memory", "settings.json.swp"]);
	});

	it("status: which are installed, and whether they run this CLI for this vault", async () => {
		expect((await claudeHookStatus(target)).events.map((e) => e.installed)).toEqual([false, false, false, false, false]);
		await installClaudeHooks({ ...target, vault: join(dir, "Other") });
		const status = await claudeHookStatus(target);
		expect(status.backup).toBe(false);
		expect(status.events.map((e) => [e.event, e.installed, e.current, e.sameCli, e.sameVault, e.vault])).toEqual(HOOK_EVENTS.map((e) => [e, true, false, true, false, join(dir, "Other")]));
		await installClaudeHooks(target);
		expect((await claudeHookStatus(target)).events.every((e) => e.current && e.sameCli && e.sameVault)).toBe(true);
	});
});

describe("hook commands", () => {
	it("absolute, quoted for a POSIX shell, and marked as ours", () => {
		const commands = hookCommands({ ...target, configDir: ".config" });
		expect(commands.SessionStart).toBe(`NODE_OPTIONS= NODE_EXTRA_CA_CERTS= "/usr/bin/node" "/opt/ai memory/cli.cjs" hook session-start --vault "${join(dir, "My Vault")}" --config-dir ".config" --from ai-conversation-memory`);
		expect(commands.PreCompact).toContain(" hook pre-compact ");
		expect(parseHookCommand(commands.UserPromptSubmit)).toEqual({ execPath: "/usr/bin/node", cliPath: "/opt/ai memory/cli.cjs", hook: "user-prompt-submit", vault: join(dir, "My Vault"), configDir: ".config" });
	});

	it("run by a shell whose NODE_OPTIONS Node refuses or cannot load, the hook still runs and exits 0", () => {
		const script = join(dir, "hook-script.cjs");
		writeFileSync(script, 'process.stdout.write("hook ran");\n');
		const commands = hookCommands({ ...target, execPath: process.execPath, hookPath: script });
		for (const options of ["--require /no/such/preload.js", "--no-such-node-flag", "--inspect-brk=0"]) {
			const run = spawnSync("sh", ["-c", commands.SessionStart], { env: { ...process.env, NODE_OPTIONS: options }, encoding: "utf8", timeout: 10_000 });
			expect([options, run.status, run.stdout]).toEqual([options, 0, "hook ran"]);
		}
	});

	it("run by a shell that names extra certificates (a company's proxy), Node loads none of them: no warning for one not there, and no time spent on them", () => {
		const script = join(dir, "hook-script.cjs");
		writeFileSync(script, 'process.stdout.write(String(process.env.NODE_EXTRA_CA_CERTS === ""));\n');
		const commands = hookCommands({ ...target, execPath: process.execPath, hookPath: script });
		const run = spawnSync("sh", ["-c", commands.UserPromptSubmit], { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, "no-such-bundle.pem") }, encoding: "utf8", timeout: 10_000 });
		expect([run.status, run.stdout, run.stderr]).toEqual([0, "true", ""]);
	});

	it("quoting survives every awkward character", () => {
		for (const word of ['a "b" c', "$HOME/`x`", "back\\slash", "it's", "C:\\Users\\me\\Vault", "日本語 フォルダ", ""]) {
			expect(shellWords(`cmd ${shellQuote(word)} tail`)).toEqual(["cmd", word, "tail"]);
		}
		expect(shellWords(`a 'b c' d\\ e "f\\"g"`)).toEqual(["a", "b c", "d e", 'f"g']);
	});
});
