import { describe, expect, it } from "vitest";
import { dashboardCharts } from "../../../src/core/charts/dashboard-charts";
import { renderDashboard } from "../../../src/core/notes/dashboard-note";
import { sessionRows } from "../../../src/core/usage/session-rows";
import { summarizeUsage } from "../../../src/core/usage/usage-summary";
import type { StoredDigest } from "../../../src/core/digest/session-digest";

function session(model: string) {
	const digest = { version: 4, sessionId: "a", agent: "gemini-cli", title: "T", projectPath: "/p/api", startedAt: "2026-11-02T10:00:00Z", models: [model], tasks: [], asked: [], done: [], open: [], decisions: [], prompts: 1, toolCalls: 0, filesTouched: [], tools: [], subagents: [], tokens: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 }, usage: [{ day: "2026-11-02", model, input: 10, output: 10, cacheRead: 0, cacheWrite: 0 }], activeMinutes: 1 } as StoredDigest;
	return sessionRows({ "/t/a.jsonl": { project: "api", notePath: "N/a.md", digest, tags: [] } });
}

describe("renderDashboard", () => {
	it("names a model without a price as one code span on one line: a transcript's model name makes no picture, link, heading or element", () => {
		const model = "x ![b](https://attacker.example/b.png)\n# Owned [[Secret]] <img src=x> `tick`";
		const rows = session(model);
		const summary = summarizeUsage(rows);
		expect(summary.unpriced).toEqual([model]);
		const { body } = renderDashboard("AI Conversations", summary, dashboardCharts(summary), rows.length);
		const line = body.split("\n").find((l) => l.startsWith("Estimated cost"))!;
		expect(line).toContain("not counted: `` x ![b](https://attacker.example/b.png)␤# Owned [[Secret]] <img src=x> `tick` ``.");
		expect(body).not.toMatch(/^# Owned/m);
	});
});
