import { describe, expect, it } from "vitest";
import { rewriteLinks } from "../../../src/core/notes/link-rewrite";

const moves = new Map([["AI Conversations/cli/2025-03-10 Why does devenv hang.md", "AI Conversations/cli (devenv)/2025-03-10 Why does devenv hang.md"]]);

describe("rewriteLinks", () => {
	it("rewrites wiki links by path, with or without .md, heading and alias, and leaves every other byte", () => {
		const text = "See [[AI Conversations/cli/2025-03-10 Why does devenv hang]] and [[AI Conversations/cli/2025-03-10 Why does devenv hang.md#Digest|the digest]].\r\nBy name: [[2025-03-10 Why does devenv hang]]. Other: [[AI Conversations/cli/cli]].\n";
		expect(rewriteLinks(text, moves)).toBe(
			"See [[AI Conversations/cli (devenv)/2025-03-10 Why does devenv hang]] and [[AI Conversations/cli (devenv)/2025-03-10 Why does devenv hang.md#Digest|the digest]].\r\nBy name: [[2025-03-10 Why does devenv hang]]. Other: [[AI Conversations/cli/cli]].\n",
		);
	});

	it("rewrites Markdown links, encoded or in angle brackets, with or without an anchor", () => {
		const text = "[a](AI%20Conversations/cli/2025-03-10%20Why%20does%20devenv%20hang.md) [b](<AI Conversations/cli/2025-03-10 Why does devenv hang.md>#top) [c](elsewhere.md)";
		expect(rewriteLinks(text, moves)).toBe("[a](AI%20Conversations/cli%20(devenv)/2025-03-10%20Why%20does%20devenv%20hang.md) [b](<AI Conversations/cli (devenv)/2025-03-10 Why does devenv hang.md>#top) [c](elsewhere.md)");
	});

	it("rewrites links by name to a renamed note's new name when given, and only those", () => {
		const renamed = new Map([["AI Conversations/cli/2025-03-10 Use token ghp_x.md", "AI Conversations/cli/2025-03-10 Use token.md"]]);
		const names = new Map([["2025-03-10 Use token ghp_x", "2025-03-10 Use token"]]);
		const text = "[[2025-03-10 Use token ghp_x]] [[2025-03-10 Use token ghp_x#Digest|digest]] [[2025-03-10 Use token ghp_x.md]] [a](2025-03-10%20Use%20token%20ghp_x.md) [b](<2025-03-10 Use token ghp_x.md>) [[Other]] [c](other/2025-03-10%20Use%20token%20ghp_x.md)";
		expect(rewriteLinks(text, renamed, names)).toBe(
			"[[2025-03-10 Use token]] [[2025-03-10 Use token#Digest|digest]] [[2025-03-10 Use token.md]] [a](2025-03-10%20Use%20token.md) [b](<2025-03-10 Use token.md>) [[Other]] [c](other/2025-03-10%20Use%20token%20ghp_x.md)",
		);
		expect(rewriteLinks(text, renamed)).toBe(text);
	});

	it("leaves a long run of brackets with no link as it is (the patterns do not nest: no backtracking blow-up)", () => {
		const text = "[[".repeat(50_000) + "](".repeat(50_000);
		expect(rewriteLinks(text, moves)).toBe(text);
	});
});
