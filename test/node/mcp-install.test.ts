import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeUserConfigPath, installMcpServer, mcpEntry, mcpServerStatus, uninstallMcpServer } from "../../src/node/mcp-install";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "mcp-install-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = () => mcpEntry({ execPath: "/usr/bin/node", serverPath: "/opt/ai-memory/mcp.cjs", vault: join(dir, "Vault") });

describe("the MCP server in the agents' user configuration", () => {
	it("a configuration that cannot be read is said in words, not as Node's error", async () => {
		writeFileSync(join(dir, "file"), "x");
		const status = await mcpServerStatus("claude-code", claudeUserConfigPath(join(dir, "file")), entry());
		expect(status).toMatchObject({ installed: false });
		expect(status.error).toBe("a file stands where a folder of the path should be (ENOTDIR)");
	});

	it("says that Gemini CLI will not read its settings.json while it starts with a byte order mark, and keeps the mark; another agent's file with one is read", async () => {
		const path = join(dir, "settings.json");
		writeFileSync(path, '\uFEFF{ "theme": "Default" }\n');
		const installed = await installMcpServer("gemini-cli", path, entry());
		expect(installed.changed).toBe(true);
		expect(installed.unreadable).toMatch(/Gemini CLI cannot read this file while it starts with a byte order mark .*save it as UTF-8 without one/);
		expect(readFileSync(path, "utf8").charCodeAt(0)).toBe(0xfeff);
		expect((await installMcpServer("gemini-cli", path, entry())).unreadable).toBeDefined();
		expect((await mcpServerStatus("gemini-cli", path, entry())).unreadable).toBeDefined();
		writeFileSync(path, readFileSync(path, "utf8").slice(1));
		expect((await mcpServerStatus("gemini-cli", path, entry())).unreadable).toBeUndefined();
		const claude = join(dir, ".claude.json");
		writeFileSync(claude, '\uFEFF{ "numStartups": 3 }\n');
		expect((await installMcpServer("claude-code", claude, entry())).unreadable).toBeUndefined();
	});

	it("finds Claude Code's .claude.json where the client does: beside ~/.claude, or in $CLAUDE_CONFIG_DIR", () => {
		expect(claudeUserConfigPath("/home/me/.claude", {}, "/home/me")).toBe("/home/me/.claude.json");
		expect(claudeUserConfigPath("/tmp/t/home/.claude", {}, "/home/me")).toBe("/tmp/t/home/.claude.json");
		expect(claudeUserConfigPath("/srv/claude", { CLAUDE_CONFIG_DIR: "/srv/claude" }, "/home/me")).toBe("/srv/claude/.claude.json");
		expect(claudeUserConfigPath("/srv/claude", {}, "/home/me")).toBe("/srv/claude/.claude.json");
	});

	it("installs with a backup, and uninstalling gives back the file byte for byte; a file that was not there goes again", async () => {
		const path = join(dir, ".claude.json");
		const user = '{\n  "numStartups": 3,\n  "mcpServers": { "github": { "command": "gh" } }\n}\n';
		writeFileSync(path, user);
		const installed = await installMcpServer("claude-code", path, entry());
		expect(installed).toMatchObject({ changed: true, backupWritten: `${path}.bak-ai-memory` });
		expect(readFileSync(`${path}.bak-ai-memory`, "utf8")).toBe(user);
		expect(readFileSync(path, "utf8")).toContain('"mcpServers": { "github": { "command": "gh" },');
		expect(await mcpServerStatus("claude-code", path, entry())).toMatchObject({ installed: true, current: true });
		expect((await installMcpServer("claude-code", path, entry())).changed).toBe(false);
		expect(await uninstallMcpServer("claude-code", path)).toMatchObject({ changed: true, removed: false });
		expect(readFileSync(path, "utf8")).toBe(user);
		expect(existsSync(`${path}.bak-ai-memory`)).toBe(false);

		const fresh = join(dir, "codex", "config.toml");
		// No file: made for the server, and no backup of nothing.
		expect(await installMcpServer("codex", fresh, entry())).toEqual({ agent: "codex", configPath: fresh, changed: true, created: true });
		expect(existsSync(`${fresh}.bak-ai-memory`)).toBe(false);
		expect(statSync(fresh).mode & 0o777).toBe(0o600);
		expect(await uninstallMcpServer("codex", fresh)).toMatchObject({ changed: true, removed: true });
		expect(existsSync(fresh)).toBe(false);
	});

	it("an empty file of the user's is an empty file again after uninstall, for every agent: only a file the install created goes", async () => {
		for (const [agent, name] of [["claude-code", ".claude.json"], ["codex", "config.toml"], ["gemini-cli", "settings.json"]] as const) {
			const path = join(dir, name);
			writeFileSync(path, "");
			expect(await installMcpServer(agent, path, entry())).toMatchObject({ changed: true });
			expect(await uninstallMcpServer(agent, path)).toMatchObject({ changed: true, removed: false });
			expect(readFileSync(path, "utf8")).toBe("");
			expect(existsSync(`${path}.bak-ai-memory`)).toBe(false);
		}
	});

	it("keeps what the client wrote meanwhile, removing only our entry; refuses a read-only file and a file that is not JSON", async () => {
		const path = join(dir, "settings.json");
		writeFileSync(path, '{ "theme": "dark" }\n');
		await installMcpServer("gemini-cli", path, entry());
		writeFileSync(path, readFileSync(path, "utf8").replace('"theme": "dark"', '"theme": "light"'));
		await uninstallMcpServer("gemini-cli", path);
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ theme: "light" });

		writeFileSync(path, "{ nope");
		await expect(installMcpServer("gemini-cli", path, entry())).rejects.toThrow(/not valid JSON .*nothing was changed/);
		writeFileSync(path, "{}\n");
		chmodSync(path, 0o444);
		await expect(installMcpServer("gemini-cli", path, entry())).rejects.toThrow(/read-only/);
		expect(readFileSync(path, "utf8")).toBe("{}\n");
	});

	it("empties NODE_OPTIONS for the server; an entry of ours without it is not current, and reinstalling upgrades it", async () => {
		expect(entry().env).toEqual({ NODE_OPTIONS: "" });
		const path = join(dir, ".claude.json");
		const { env: _unset, ...older } = entry();
		writeFileSync(path, `${JSON.stringify({ mcpServers: { "ai-memory": { type: "stdio", ...older, env: {} } } }, null, 2)}\n`);
		expect(await mcpServerStatus("claude-code", path, entry())).toMatchObject({ installed: true, current: false, outdated: true });
		expect(await installMcpServer("claude-code", path, entry())).toMatchObject({ changed: true });
		expect((JSON.parse(readFileSync(path, "utf8")) as { mcpServers: Record<string, { env: unknown }> }).mcpServers["ai-memory"]!.env).toEqual({ NODE_OPTIONS: "" });
		expect(await mcpServerStatus("claude-code", path, entry())).toMatchObject({ installed: true, current: true });
		// Gemini CLI refuses a NODE_OPTIONS in a server's env (and warns at every start): its entry has none, and is current so.
		const gemini = join(dir, "settings.json");
		await installMcpServer("gemini-cli", gemini, entry());
		expect(readFileSync(gemini, "utf8")).not.toContain("NODE_OPTIONS");
		expect(await mcpServerStatus("gemini-cli", gemini, entry())).toMatchObject({ installed: true, current: true });
	});
});
