import { describe, expect, it } from "vitest";
import { dashboardCharts } from "../../../src/core/charts/dashboard-charts";
import { serializeSvg } from "../../../src/core/charts/svg";
import { isDay } from "../../../src/core/usage/readable-row";
import { sessionRows, usageOnlyRows, type CatalogEntry } from "../../../src/core/usage/session-rows";
import type { UsageOnlyRecord } from "../../../src/core/sync/sync-state";
import { summarizeUsage } from "../../../src/core/usage/usage-summary";

function entry(extra: Record<string, unknown> = {}): CatalogEntry {
	return { title: "Fix login", project: "api", agent: "claude-code", started: "2026-01-05T10:00:00.000Z", day: "2026-01-05", activeMinutes: 12, prompts: 3, tags: ["ai/auth"], files: ["src/a.ts"], notePath: "AI Conversations/api/a.md", deleted: false, usage: [{ day: "2026-01-05", model: "claude-sonnet-4-5", input: 10, output: 20, cacheRead: 0, cacheWrite: 0 }], tokens: 30, ...extra };
}

const OTHER_TYPES: unknown[] = [null, 5, -1, 1e308, "x", true, [], {}, [5], [null], { a: 1 }];
const BAD_DAYS = ["2026-1-5", "2025-02-30", "0000-01-01", "+275760-09-13", "1969-12-31", "bad", ""];

describe("catalog entries the Sessions view and the dashboard read (attack round 50b)", () => {
	it("an entry with a field of another type, a count that is none or a day the calendar lacks is left out; the others are listed and drawn", () => {
		const fields = Object.keys(entry());
		for (const field of fields) {
			for (const value of [...OTHER_TYPES, undefined]) {
				const e = entry({ [field]: value }) as Record<string, unknown>;
				if (value === undefined) delete e[field];
				const rows = sessionRows({ "/t/good.jsonl": entry({ title: "Good" }), "/t/odd.jsonl": e as CatalogEntry });
				// Every picture is drawn from what is left: one `usage` of 5 made every refresh of the view fail ("row.usage is not iterable").
				const charts = dashboardCharts(summarizeUsage(rows, {}, [])).map((c) => serializeSvg(c.svg)).join("");
				expect(rows.map((r) => r.title)).toContain("Good");
				expect(charts).not.toMatch(/NaN|Infinity|e\+\d/);
				for (const r of rows) expect(r.usage.every((u) => Number.isFinite(u.input) && u.input >= 0)).toBe(true);
			}
		}
		for (const day of BAD_DAYS) {
			const rows = sessionRows({ "/t/a.jsonl": entry({ day }), "/t/b.jsonl": entry({ title: "B", usage: [{ day, model: "m", input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }] }), "/t/c.jsonl": entry({ title: "Good" }) });
			expect(rows.map((r) => r.title)).toEqual(["Good"]);
			expect(() => dashboardCharts(summarizeUsage(rows))).not.toThrow();
		}
		expect(sessionRows({ "/t/a.jsonl": entry({ tokens: -1e308 }) })).toEqual([]);
		expect(sessionRows({ "/t/a.jsonl": entry({ deleted: undefined }) })[0]?.deleted).toBe(false);
	});

	it("a whole record of an older state whose digest is of another shape is left out, not a throw", () => {
		for (const digest of [null, 5, {}, { filesTouched: 5, models: [] }, { filesTouched: [], models: [], startedAt: 5 }, { filesTouched: [null], models: [], tokens: {} }]) {
			const rows = sessionRows({ "/t/a.jsonl": { project: "api", notePath: "a.md", tags: [], digest } as never, "/t/b.jsonl": entry({ title: "Good" }) });
			expect(rows.map((r) => r.title)).toEqual(["Good"]);
		}
	});

	it("usage no session holds with a day the calendar lacks is left out of the pictures", () => {
		const record = (day: string): UsageOnlyRecord => ({ projectKey: "k", project: "api", startedAt: "2026-01-05T10:00:00Z", usage: [{ day, model: "m", input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }] }) as UsageOnlyRecord;
		const rows = usageOnlyRows({ "/t/a.jsonl": record("2026-1-5"), "/t/b.jsonl": record("2026-01-05") });
		expect(rows.map((r) => r.id)).toEqual(["/t/b.jsonl"]);
		expect(() => dashboardCharts(summarizeUsage([], {}, usageOnlyRows({ "/t/a.jsonl": record("+275760-09-13") })))).not.toThrow();
	});

	it("a day is YYYY-MM-DD, one the calendar has, from 1970", () => {
		expect(["2026-01-05", "1970-01-01", "9999-12-31", "2024-02-29"].every(isDay)).toBe(true);
		expect([...BAD_DAYS, "2026-01-05T00:00:00Z", 20260105, null].some(isDay)).toBe(false);
	});
});
