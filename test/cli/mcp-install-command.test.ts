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
});
