import { describe, expect, it } from "vitest";
import { costOf, priceOf, type PriceTable } from "../../../src/core/usage/model-prices";
import { matchesFilter } from "../../../src/core/usage/session-filter";
import { sessionRows, usageOnlyRows } from "../../../src/core/usage/session-rows";
import { addDays, summarizeUsage, weekOf } from "../../../src/core/usage/usage-summary";
import type { StoredDigest } from "../../../src/core/digest/session-digest";

function digest(id: string, startedAt: string, extra: Partial<StoredDigest> = {}): StoredDigest {
	return { version: 4, sessionId: id, agent: "claude-code", title: `T ${id}`, projectPath: "/p/api", startedAt, models: ["claude-sonnet-4-5-20250929"], tasks: [], asked: [], done: [], open: [], decisions: [], prompts: 1, toolCalls: 0, filesTouched: ["/p/api/src/a.ts"], tools: [], subagents: [], tokens: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }, usage: [{ day: startedAt.slice(0, 10), model: "claude-sonnet-4-5-20250929", input: 1_000_000, output: 1_000_000, cacheRead: 1_000_000, cacheWrite: 1_000_000 }], activeMinutes: 12, ...extra };
}

describe("prices", () => {
	it("a dated model name finds its model's price; an unknown model has none; the user's table wins", () => {
		expect(priceOf("claude-sonnet-4-5-20250929")).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
		expect(priceOf("claude-opus-4-8")).toBeUndefined();
		// A model named as an object's own property has no price, in the bundled table or the user's.
		for (const model of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
			expect(priceOf(model)).toBeUndefined();
			expect(priceOf(model, JSON.parse('{"claude-x": {"input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0}}') as PriceTable)).toBeUndefined();
			expect(costOf({ model, input: 10, output: 10, cacheRead: 0, cacheWrite: 0 })).toBeUndefined();
		}
		expect(priceOf("claude-opus-4-8", { "claude-opus-4-8": { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } })?.output).toBe(2);
		expect(costOf({ model: "claude-sonnet-4-5", input: 1e6, output: 1e6, cacheRead: 1e6, cacheWrite: 1e6 })).toBeCloseTo(22.05, 10);
	});
});

describe("sessionRows and summarizeUsage", () => {
	const records = {
		"/t/a.jsonl": { project: "api", notePath: "N/a.md", digest: digest("a", "2026-11-02T10:00:00Z"), tags: ["ai/auth"] },
		"/t/b.jsonl": { project: "api", notePath: "N/b.md", digest: digest("b", "2026-11-03T10:00:00Z"), tags: ["ai/auth", "ai/db"] },
		"/t/c.jsonl": { project: "web", notePath: "N/c.md", digest: digest("c", "2026-11-03T12:00:00Z", { usage: undefined as never, models: ["mystery-1"] }), tags: [], deleted: true },
	};

	it("lists sessions newest first with files relative to their project; an older digest's totals go on its first day", () => {
		const rows = sessionRows(records);
		expect(rows.map((r) => r.id)).toEqual(["/t/c.jsonl", "/t/b.jsonl", "/t/a.jsonl"]);
		expect(rows[1]!.files).toEqual(["src/a.ts"]);
		expect(rows[0]!.usage).toEqual([{ day: "2026-11-03", model: "mystery-1", input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }]);
		expect(rows[0]!.deleted).toBe(true);
		expect(rows[1]!.tokens).toBe(4_000_000);
	});

	it("adds up sessions, active time, tokens and the estimated cost by day, project and session", () => {
		const s = summarizeUsage(sessionRows(records));
		expect(s.activity).toEqual([
			{ day: "2026-11-02", sessions: 1, activeMinutes: 12 },
			{ day: "2026-11-03", sessions: 2, activeMinutes: 24 },
		]);
		expect(s.costByDay.map((c) => [c.label, Math.round(c.value * 100) / 100])).toEqual([
			["2026-11-02", 22.05],
			["2026-11-03", 22.05],
		]);
		expect(s.costByProject.map((c) => c.label)).toEqual(["api"]);
		expect(s.unpriced).toEqual(["mystery-1"]);
		expect(s.topTags).toEqual([
			{ label: "ai/auth", value: 2 },
			{ label: "ai/db", value: 1 },
		]);
		expect(s.topFiles).toEqual([{ label: "api/src/a.ts", value: 2 }, { label: "web/src/a.ts", value: 1 }]);
	});

	it("usage no session holds counts in the tokens and the cost by day and project, not as a session, activity, a session's cost, files or tags", () => {
		const warmups = usageOnlyRows({
			"/t/agent-2.jsonl": { projectKey: "/p/web", project: "web", agent: "claude-code", startedAt: "2026-11-04T09:00:00Z", usage: [{ day: "2026-11-04", model: "claude-sonnet-4-5", input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }] },
			"/t/agent-1.jsonl": { projectKey: "/p/api", project: "api", agent: "claude-code", usage: [{ day: "2026-11-02", model: "mystery-2", input: 7, output: 0, cacheRead: 0, cacheWrite: 0 }] },
		});
		expect(warmups.map((w) => [w.id, w.day])).toEqual([["/t/agent-1.jsonl", undefined], ["/t/agent-2.jsonl", "2026-11-04"]]);
		const without = summarizeUsage(sessionRows(records));
		const s = summarizeUsage(sessionRows(records), {}, warmups);
		expect(s.tokens.filter((t) => !without.tokens.some((w) => w.day === t.day && w.model === t.model))).toEqual([
			{ day: "2026-11-02", model: "mystery-2", input: 7, output: 0, cacheRead: 0, cacheWrite: 0 },
			{ day: "2026-11-04", model: "claude-sonnet-4-5", input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 },
		]);
		expect(s.costByDay.map((c) => [c.label, Math.round(c.value * 100) / 100])).toEqual([["2026-11-02", 22.05], ["2026-11-03", 22.05], ["2026-11-04", 3]]);
		expect(s.costByProject.map((c) => [c.label, Math.round(c.value * 100) / 100])).toEqual([["api", 44.1], ["web", 3]]);
		expect(s.totalCost).toBeCloseTo(without.totalCost + 3, 10);
		expect(s.unpriced).toEqual(["mystery-1", "mystery-2"]);
		expect([s.activity, s.costBySession, s.topFiles, s.topTags]).toEqual([without.activity, without.costBySession, without.topFiles, without.topTags]);
		// The filters: by project, agent and day as a session; a tag filter leaves it out (it has none).
		expect(warmups.filter((w) => matchesFilter(w, { project: "web", from: "2026-11-04" })).map((w) => w.id)).toEqual(["/t/agent-2.jsonl"]);
		expect(warmups.filter((w) => matchesFilter(w, { tag: "ai/auth" }))).toEqual([]);
	});

	it("weeks start on Monday, by the calendar alone", () => {
		expect(weekOf("2026-11-29")).toBe("2026-11-23");
		expect(weekOf("2026-11-23")).toBe("2026-11-23");
		expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
	});
});
