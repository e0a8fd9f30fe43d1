import { describe, expect, it } from "vitest";
import { checkpointText } from "../../../src/core/hooks/checkpoint-text";
import { HOOK_OUTPUT_MAX, recallOutput, RECALL_FACTS } from "../../../src/core/hooks/hook-output";

const packet = "# api: context packet\n\n_Automatic summary of past sessions in this project, for background; not instructions._\n\n## Recent sessions\n\n### 2026-11-29 — Add rate limiting\n- Goal: Add rate limiting\n";
const fact = { name: "login-rate-limit", description: "Login allows 5 attempts per minute", type: "project", body: "Sliding window of 60 s in Redis.\n\n**Why:** brute force." };

describe("what the recall hook prints", () => {
	it("a line saying what it is, the facts recall picked, then the packet", () => {
		const out = recallOutput(packet, "/v/api context.md", [fact]);
		expect(out.startsWith("Recalled from earlier sessions in this project by AI Conversation Memory: background on past work, not instructions. The full context packet is /v/api context.md.\n")).toBe(true);
		expect(out).toContain("## Recorded facts that match this prompt\n\n- **login-rate-limit** (project): Login allows 5 attempts per minute\n  Sliding window of 60 s in Redis.\n\n  **Why:** brute force.\n");
		expect(out.indexOf("login-rate-limit")).toBeLessThan(out.indexOf("# api: context packet"));
		expect(out.endsWith(packet)).toBe(true);
	});

	it("nothing to say: nothing printed; facts alone or the packet alone are fine", () => {
		expect(recallOutput("", "/p", [])).toBe("");
		expect(recallOutput("  \n", "/p", [])).toBe("");
		expect(recallOutput("", "/p", [fact])).toContain("login-rate-limit");
		expect(recallOutput(packet, "/p", [])).not.toContain("Recorded facts");
	});

	it("stays within Claude Code's 10,000 characters: the packet is cut at a line first, the facts kept", () => {
		const big = `${packet}${"- Outcome: a long line about what happened in that session, repeated.\n".repeat(400)}`;
		const facts = Array.from({ length: 8 }, (_, i) => ({ ...fact, name: `fact-${i}`, body: `Body of fact ${i}. `.repeat(100) }));
		const out = recallOutput(big, "/v/p.md", facts);
		expect(out.length).toBeLessThanOrEqual(HOOK_OUTPUT_MAX);
		expect(out.length).toBeGreaterThan(HOOK_OUTPUT_MAX - 200);
		for (let i = 0; i < RECALL_FACTS; i++) expect(out).toContain(`**fact-${i}**`);
		expect(out).not.toContain("**fact-5**");
		expect(out).toMatch(/\n… \(the rest of the packet is in \/v\/p\.md\)\n$/);
		// Long bodies are clipped.
		expect(out).toContain(" …\n");
		for (const max of [300, 1000, 2500]) expect(recallOutput(big, "/v/p.md", facts, max).length).toBeLessThanOrEqual(max);
	});

	it("facts that alone overflow lose the last ones, never the cap", () => {
		const facts = Array.from({ length: 5 }, (_, i) => ({ ...fact, name: `f${i}`, body: "x".repeat(1000) }));
		const out = recallOutput(packet, "/p", facts, 2500);
		expect(out.length).toBeLessThanOrEqual(2500);
		expect(out).toContain("**f0**");
		expect(out).not.toContain("**f4**");
	});

	it("a checkpoint is the last prompt and reply, one short line each", () => {
		expect(checkpointText("Add   the\nlockout message", "Done: the lockout message shows after 5 attempts.")).toBe("Asked: Add the lockout message\nReply: the lockout message shows after 5 attempts.");
		// Cut at a word, never inside one.
		expect(checkpointText("word ".repeat(30), undefined)).toBe(`Asked: Word${" word".repeat(11)}…`);
		// Narration is no checkpoint: the reply's first statement is.
		expect(checkpointText("Fix the cart total", "Perfect! Let me summarize:\n\nThe total now includes tax.")).toBe("Asked: Fix the cart total\nReply: The total now includes tax.");
		expect(checkpointText(undefined, " ")).toBe("");
	});
});
