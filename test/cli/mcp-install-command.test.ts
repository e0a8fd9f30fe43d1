import { describe, expect, it } from "vitest";
import { describeMcpStatus } from "../../src/cli/mcp-install-command";

const entry = { command: "/usr/bin/node", args: ["/opt/mcp.cjs", "mcp", "--vault", "/v", "--from", "ai-conversation-memory"], env: {} };

describe("mcp status lines", () => {
	it("tells an earlier version's entry from one running another command", () => {
		const [older, other] = describeMcpStatus([
			{ agent: "claude-code", configPath: "/h/.claude.json", installed: true, current: false, outdated: true, entry },
			{ agent: "codex", configPath: "/h/.codex/config.toml", installed: true, current: false, entry },
		]);
		expect(older).toContain("installed by an earlier version");
		expect(older).toContain("mcp install` again");
		expect(other).toContain("another command: /usr/bin/node /opt/mcp.cjs");
	});

	it("names what keeps the agent from reading its file", () => {
		const [line] = describeMcpStatus([{ agent: "gemini-cli", configPath: "/h/.gemini/settings.json", installed: true, current: true, entry, unreadable: "Gemini CLI cannot read this file while it starts with a byte order mark" }]);
		expect(line).toContain("installed (this CLI, this vault) — /h/.gemini/settings.json (Gemini CLI cannot read this file while it starts with a byte order mark)");
	});
});
