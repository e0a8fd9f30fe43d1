import { PRICES_AS_OF } from "../usage/model-prices";
import { addDays, daysBetween, weekOf, type UsageSummary } from "../usage/usage-summary";
import { barChart, rankChart } from "./bar-chart";
import { calendarHeatmap } from "./heatmap";
import type { SvgNode } from "./svg";

export interface Chart {
	/** Stable: the SVG file's name beside the dashboard note, and the view's slot. */
	id: string;
	title: string;
	svg: SvgNode;
}

const DAYS = 30;
const WEEKS = 26;

type TokenKind = "input" | "output" | "cacheRead" | "cacheWrite";
const KINDS: [TokenKind, string, string][] = [
	["input", "tokens-input", "Input tokens per day"],
	["output", "tokens-output", "Output tokens per day"],
	["cacheRead", "tokens-cache-read", "Cache read tokens per day"],
	["cacheWrite", "tokens-cache-write", "Cache write tokens per day"],
];

/**
 * Every picture of the dashboard, in order: the calendar, sessions and active time per day and per
 * week, tokens per day by model (one chart per kind of token), the estimated cost per day, project
 * and session, the top files and tags. Day charts end at the last day with data (there is no clock
 * in the core), over 30 days; week charts over 26 weeks.
 */
export function dashboardCharts(summary: UsageSummary): Chart[] {
	const lastDay = [...summary.activity.map((a) => a.day), ...summary.tokens.map((t) => t.day)].sort().at(-1);
	const days = lastDay ? daysBetween(addDays(lastDay, -(DAYS - 1)), lastDay) : [];
	const weeks = lastDay ? Array.from({ length: WEEKS }, (_, i) => addDays(weekOf(lastDay), -7 * (WEEKS - 1 - i))) : [];
	const activity = new Map(summary.activity.map((a) => [a.day, a]));
	const perWeek = new Map<string, { sessions: number; minutes: number }>();
	for (const a of summary.activity) {
		const w = perWeek.get(weekOf(a.day)) ?? { sessions: 0, minutes: 0 };
		w.sessions += a.sessions;
		w.minutes += a.activeMinutes;
		perWeek.set(weekOf(a.day), w);
	}
	const short = (d: string) => d.slice(5);
	const models = [...new Set(summary.tokens.map((t) => t.model))].sort();
	const tokensOf = new Map(summary.tokens.map((t) => [`${t.day}\u0000${t.model}`, t]));
	const costs = new Map(summary.costByDay.map((c) => [c.label, c.value]));
	const unpriced = summary.unpriced.length <= 2 ? summary.unpriced.join(", ") : `${summary.unpriced.slice(0, 2).join(", ")} and ${summary.unpriced.length - 2} more`;
	const estimate = `Estimate from list prices as of ${PRICES_AS_OF}${summary.unpriced.length > 0 ? `; no price for ${unpriced}` : ""}`;
	const charts: Chart[] = [
		{
			id: "heatmap",
			title: "Sessions per day",
			svg: calendarHeatmap(
				"Sessions per day",
				summary.activity.map((a) => ({ day: a.day, value: a.sessions, label: `${a.sessions} session${a.sessions === 1 ? "" : "s"}, ${minutes(a.activeMinutes)} active` })),
			),
		},
		{ id: "sessions-daily", title: "Sessions, last 30 days", svg: barChart({ title: "Sessions, last 30 days", labels: days.map(short), series: [{ name: "sessions", values: days.map((d) => activity.get(d)?.sessions ?? 0) }], format: count }) },
		{ id: "sessions-weekly", title: "Sessions per week", svg: barChart({ title: "Sessions per week", labels: weeks.map(short), series: [{ name: "sessions", values: weeks.map((w) => perWeek.get(w)?.sessions ?? 0) }], format: count }) },
		{ id: "active-daily", title: "Active time, last 30 days", svg: barChart({ title: "Active time, last 30 days", labels: days.map(short), series: [{ name: "active", values: days.map((d) => activity.get(d)?.activeMinutes ?? 0) }], format: minutes }) },
		{ id: "active-weekly", title: "Active time per week", svg: barChart({ title: "Active time per week", labels: weeks.map(short), series: [{ name: "active", values: weeks.map((w) => perWeek.get(w)?.minutes ?? 0) }], format: minutes }) },
		...KINDS.map(([kind, id, title]) => ({
			id,
			title,
			svg: barChart({ title: `${title} by model, last 30 days`, labels: days.map(short), series: models.map((m) => ({ name: m, values: days.map((d) => tokensOf.get(`${d}\u0000${m}`)?.[kind] ?? 0) })), format: tokens, legend: true }),
		})),
		{ id: "cost-daily", title: "Estimated cost per day", svg: barChart({ title: "Estimated cost per day, last 30 days", note: estimate, labels: days.map(short), series: [{ name: "cost", values: days.map((d) => costs.get(d) ?? 0) }], format: dollars }) },
		{ id: "cost-projects", title: "Estimated cost by project", svg: rankChart({ title: "Estimated cost by project", note: estimate, items: summary.costByProject, format: dollars }) },
		{ id: "cost-sessions", title: "Estimated cost of the costliest sessions", svg: rankChart({ title: "Estimated cost of the costliest sessions", note: estimate, items: summary.costBySession, format: dollars }) },
		{ id: "top-files", title: "Files changed in the most sessions", svg: rankChart({ title: "Files changed in the most sessions", items: summary.topFiles, format: count }) },
		{ id: "top-tags", title: "Top tags", svg: rankChart({ title: "Top tags", items: summary.topTags, format: count }) },
	];
	return charts;
}

/**
 * A whole number with thousands separators, in digits however large (`String` writes 1e21 and up
 * with an exponent); one past every number (a price of 1e308 a million tokens) is "∞", never
 * JavaScript's "Infinity" or "NaN".
 */
export function count(n: number): string {
	if (!Number.isFinite(n)) return Number.isNaN(n) ? "?" : n > 0 ? "∞" : "-∞";
	return BigInt(Math.round(n)).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function minutes(n: number): string {
	if (!Number.isFinite(n)) return `${count(n)} min`;
	const m = Math.round(n);
	return m < 60 ? `${count(m)} min` : `${count(Math.floor(m / 60))} h ${String(m % 60).padStart(2, "0")} min`;
}

export function tokens(n: number): string {
	if (!Number.isFinite(n) || n >= 1e18) return count(n);
	if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
	if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
	if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
	return count(n);
}

export function dollars(n: number): string {
	return !Number.isFinite(n) || n >= 100 ? `$${count(n)}` : `$${n.toFixed(2)}`;
}
