import type { UsageDay } from "../digest/usage-days";
import { codeUnitOrder } from "../text/code-unit-order";
import { costOf, type PriceTable } from "./model-prices";
import type { SessionRow, UsageOnlyRow } from "./session-rows";

export interface DayActivity {
	day: string;
	sessions: number;
	activeMinutes: number;
}

export interface Ranked {
	label: string;
	value: number;
}

/** Everything the pictures show, worked out once from the listed sessions. Plain data, deterministic. */
export interface UsageSummary {
	/** Days with a session, oldest first. */
	activity: DayActivity[];
	/** Tokens by day and model, oldest first. */
	tokens: UsageDay[];
	/** Estimated dollars by day, oldest first (priced models only). */
	costByDay: Ranked[];
	costByProject: Ranked[];
	costBySession: Ranked[];
	/** Models with tokens but no price: their cost is not in the estimate. */
	unpriced: string[];
	totalCost: number;
	topFiles: Ranked[];
	topTags: Ranked[];
}

const TOP = 10;

/**
 * @param usageOnly tokens no session holds (warmups of sessions never written): counted in the
 * tokens and the cost by day and project, not as sessions, activity or a session's cost.
 */
export function summarizeUsage(rows: readonly SessionRow[], prices: PriceTable = {}, usageOnly: readonly UsageOnlyRow[] = []): UsageSummary {
	const activity = new Map<string, DayActivity>();
	const tokens = new Map<string, UsageDay>();
	const costDay = new Map<string, number>();
	const costProject = new Map<string, number>();
	const costSession: Ranked[] = [];
	const unpriced = new Set<string>();
	const files = new Map<string, number>();
	const tags = new Map<string, number>();
	let totalCost = 0;
	/** Adds a row's tokens and cost to the days, its project and the total; returns its cost. */
	const countUsage = (row: SessionRow | UsageOnlyRow): number => {
		let cost = 0;
		for (const u of row.usage) {
			const key = `${u.day}\u0000${u.model}`;
			const t = tokens.get(key) ?? { day: u.day, model: u.model, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
			t.input += u.input;
			t.output += u.output;
			t.cacheRead += u.cacheRead;
			t.cacheWrite += u.cacheWrite;
			tokens.set(key, t);
			const dollars = costOf(u, prices);
			if (dollars === undefined) {
				unpriced.add(u.model);
				continue;
			}
			cost += dollars;
			costDay.set(u.day, (costDay.get(u.day) ?? 0) + dollars);
		}
		totalCost += cost;
		if (cost > 0) costProject.set(row.project, (costProject.get(row.project) ?? 0) + cost);
		return cost;
	};
	for (const row of usageOnly) countUsage(row);
	for (const row of rows) {
		if (row.day) {
			const a = activity.get(row.day) ?? { day: row.day, sessions: 0, activeMinutes: 0 };
			a.sessions++;
			a.activeMinutes += row.activeMinutes;
			activity.set(row.day, a);
		}
		const sessionCost = countUsage(row);
		if (sessionCost > 0) costSession.push({ label: `${row.day ?? ""} ${row.title}`.trim(), value: sessionCost });
		for (const f of row.files) files.set(`${row.project}/${f}`, (files.get(`${row.project}/${f}`) ?? 0) + 1);
		for (const t of row.tags) tags.set(t, (tags.get(t) ?? 0) + 1);
	}
	const byDay = <T extends { day: string }>(a: T, b: T) => codeUnitOrder(a.day, b.day);
	return {
		activity: [...activity.values()].sort(byDay),
		tokens: [...tokens.values()].sort((a, b) => byDay(a, b) || codeUnitOrder(a.model, b.model)),
		costByDay: [...costDay].map(([label, value]) => ({ label, value })).sort((a, b) => codeUnitOrder(a.label, b.label)),
		costByProject: top(costProject),
		costBySession: costSession.sort(ranked).slice(0, TOP),
		unpriced: [...unpriced].sort(codeUnitOrder),
		totalCost,
		topFiles: top(files),
		topTags: top(tags),
	};
}

function ranked(a: Ranked, b: Ranked): number {
	return b.value - a.value || codeUnitOrder(a.label, b.label);
}

function top(counts: Map<string, number>): Ranked[] {
	return [...counts].map(([label, value]) => ({ label, value })).sort(ranked).slice(0, TOP);
}

/** The days from `first` to `last` inclusive (`YYYY-MM-DD`), by the calendar, no clock involved. */
export function daysBetween(first: string, last: string): string[] {
	const out: string[] = [];
	const end = Date.parse(`${last}T00:00:00Z`);
	for (let t = Date.parse(`${first}T00:00:00Z`); t <= end && out.length < 4000; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
	return out;
}

/** `day` moved by `n` days. */
export function addDays(day: string, n: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The Monday of the week holding `day`. */
export function weekOf(day: string): string {
	const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
	return addDays(day, -((weekday + 6) % 7));
}
