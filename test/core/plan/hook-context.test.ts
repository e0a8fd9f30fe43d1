import { describe, expect, it } from "vitest";
import { HOOK_BODY_MAX, hookContextOf } from "../../../src/core/plan/hook-context";
import { DEFAULT_PROJECT } from "../../../src/core/settings";
import { recallOutput } from "../../../src/core/hooks/hook-output";
import { renderFacts } from "../../../src/core/recall/recall-text";

const context = { block: "", packet: { path: "p.md", note: { frontmatter: "", body: "packet" } }, packetLocation: "/v/p.md", sessions: 1 };

describe("hookContextOf", () => {
	it("keeps the head of a fact's body, all any reader shows: a memory of 40 MB facts made a file every hook read whole", () => {
		const body = `Parser rule.\n${"a".repeat(99)}\n`.repeat(400_000);
		const memory = { facts: [{ file: "rule.md", name: "rule", description: "the parser rule" }, { file: "short.md", name: "short", description: "short" }], texts: new Map([["rule.md", `---\nname: rule\n---\n${body}`], ["short.md", "---\nname: short\n---\nA short body.\n"]]) };
		const hook = hookContextOf({ ...DEFAULT_PROJECT, path: "/p" }, context, memory);
		expect(hook.bodies["rule.md"]).toBe(body.slice(0, HOOK_BODY_MAX));
		expect(hook.bodies["short.md"]).toBe("A short body.");
		// What the prompt hook and the MCP tool print of it is as from the whole body.
		const whole = body.trim();
		const fact = { name: "rule", description: "the parser rule" };
		expect(recallOutput("", "", [{ ...fact, body: hook.bodies["rule.md"]! }])).toBe(recallOutput("", "", [{ ...fact, body: whole }]));
		expect(renderFacts("rule", [{ ...fact, body: hook.bodies["rule.md"]! }])).toBe(renderFacts("rule", [{ ...fact, body: whole }]));
	});
});
