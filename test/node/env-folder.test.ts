import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentRoots } from "../../src/node/agent-homes";
import { claudeConfigDir, deviceClaudeDir } from "../../src/node/claude-paths";
import { envFolder } from "../../src/node/env-folder";
import { claudeUserConfigPath } from "../../src/node/mcp-install";

describe("envFolder", () => {
	it("reads a leading ~ as the home folder, as a shell would have", () => {
		expect(envFolder("~/.claude", "/home/u")).toBe(join("/home/u", ".claude"));
		expect(envFolder("~", "/home/u")).toBe("/home/u");
		expect(envFolder("  ~/x  ", "/home/u")).toBe(join("/home/u", "x"));
	});

	it("keeps any other value as written, and takes a blank one for none", () => {
		expect(envFolder("/cfg", "/home/u")).toBe("/cfg");
		expect(envFolder("cc", "/home/u")).toBe("cc");
		expect(envFolder("~other/x", "/home/u")).toBe("~other/x");
		expect(envFolder("   ", "/home/u")).toBeUndefined();
		expect(envFolder(undefined, "/home/u")).toBeUndefined();
	});

	it("is how Claude Code's folder, its .claude.json and every agent's folder are found", () => {
		// Taken as written, `~/.claude` was a folder `~` in the current one: `hooks install` made it there.
		expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: "~/.claude-work" }, "/home/u")).toBe(join("/home/u", ".claude-work"));
		expect(claudeUserConfigPath(join("/home/u", ".claude-work"), { CLAUDE_CONFIG_DIR: "~/.claude-work" }, "/home/u")).toBe(join("/home/u", ".claude-work", ".claude.json"));
		const env = { CODEX_HOME: "~/cx", GEMINI_CLI_HOME: "~/g", COPILOT_HOME: "~/cp", XDG_DATA_HOME: "~/data" };
		const roots = agentRoots({ agents: ["codex", "gemini-cli", "copilot-cli", "opencode"] }, "/p", env, "/home/u");
		expect(roots.codex).toBe(join("/home/u", "cx"));
		expect(roots["gemini-cli"]).toBe(join("/home/u", "g", ".gemini"));
		expect(roots["copilot-cli"]).toBe(join("/home/u", "cp"));
		expect(roots.opencode).toBe(join("/home/u", "data", "opencode"));
	});

	it("is how the folders the settings name are read too, as the settings tab's placeholders write them", () => {
		// The tab showed `~/.claude` as its placeholder and refused the same text typed in: "does not exist".
		expect(deviceClaudeDir({ claudeDir: "~/.claude" }, {}, "/home/u")).toBe(join("/home/u", ".claude"));
		expect(deviceClaudeDir({ claudeDir: "/cfg" }, {}, "/home/u")).toBe("/cfg");
		expect(deviceClaudeDir({}, { CLAUDE_CONFIG_DIR: "~/cc" }, "/home/u")).toBe(join("/home/u", "cc"));
		expect(deviceClaudeDir({ claudeDir: "  " }, {}, "/home/u")).toBe(join("/home/u", ".claude"));
		const roots = agentRoots({ agents: ["codex", "gemini-cli", "copilot-cli", "opencode"], agentDirs: { codex: "~/.codex", "gemini-cli": "~/g/.gemini", "copilot-cli": "/cp", opencode: "~" } }, "/p", {}, "/home/u");
		expect(roots).toMatchObject({ codex: join("/home/u", ".codex"), "gemini-cli": join("/home/u", "g", ".gemini"), "copilot-cli": "/cp", opencode: "/home/u" });
	});
});
