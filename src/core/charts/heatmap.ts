import { addDays, daysBetween, weekOf } from "../usage/usage-summary";
import { el, num, svgRoot, text, type SvgNode } from "./svg";

export interface HeatmapDay {
	day: string;
	value: number;
	/** What a cell's tooltip says. */
	label: string;
}

const CELL = 11;
const GAP = 2;
const LEFT = 30;
const TOP = 34;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A calendar of the weeks up to the last day with data (not today: no clock), a column a week from
 * Monday, each day shaded in four steps of the busiest day's value.
 */
export function calendarHeatmap(title: string, days: readonly HeatmapDay[], weeks = 53): SvgNode {
	const width = LEFT + weeks * (CELL + GAP) + 10;
	const height = TOP + 7 * (CELL + GAP) + 28;
	const last = days.reduce<string | undefined>((m, d) => (m === undefined || d.day > m ? d.day : m), undefined);
	if (last === undefined) return svgRoot(width, 60, title, [text(0, 16, title, { class: "acm-title" }), text(0, 40, "No sessions yet.", { class: "acm-muted" })]);
	const first = addDays(weekOf(last), -7 * (weeks - 1));
	const byDay = new Map(days.map((d) => [d.day, d]));
	const max = Math.max(...days.filter((d) => d.day >= first).map((d) => d.value), 0);
	const cells: SvgNode[] = [];
	const labels: SvgNode[] = [];
	let month = "";
	let lastLabel = -10;
	for (const day of daysBetween(first, last)) {
		const index = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000);
		const col = Math.floor(index / 7);
		const row = index % 7;
		const x = LEFT + col * (CELL + GAP);
		const y = TOP + row * (CELL + GAP);
		const d = byDay.get(day);
		const level = !d || d.value <= 0 || max <= 0 ? 0 : Math.min(4, Math.max(1, Math.ceil((d.value / max) * 4)));
		cells.push(el("rect", { x, y, width: CELL, height: CELL, rx: 2, class: `acm-l${level}` }, [el("title", {}, [`${day}: ${d ? d.label : "nothing"}`])]));
		const m = day.slice(0, 7);
		// A month's name over its first whole week, unless the last name is too close to read.
		if (row === 0 && m !== month) {
			month = m;
			if (col - lastLabel >= 3) {
				labels.push(text(x, TOP - 6, MONTHS[Number(day.slice(5, 7)) - 1]!, { class: "acm-muted" }));
				lastLabel = col;
			}
		}
	}
	const weekdays = [
		[0, "Mon"],
		[2, "Wed"],
		[4, "Fri"],
	].map(([row, name]) => text(0, TOP + (row as number) * (CELL + GAP) + CELL - 1, name as string, { class: "acm-muted" }));
	const legendY = TOP + 7 * (CELL + GAP) + 10;
	const legend = [text(LEFT, legendY + CELL - 1, "Less", { class: "acm-muted" }), ...[0, 1, 2, 3, 4].map((l) => el("rect", { x: LEFT + 32 + l * (CELL + GAP), y: legendY, width: CELL, height: CELL, rx: 2, class: `acm-l${l}` })), text(LEFT + 32 + 5 * (CELL + GAP) + 4, legendY + CELL - 1, "More", { class: "acm-muted" })];
	return svgRoot(width, height, title, [text(0, 14, title, { class: "acm-title" }), ...labels, ...weekdays, ...cells, ...legend, text(width - 10, legendY + CELL - 1, `busiest day: ${num(max)}`, { class: "acm-muted", "text-anchor": "end" })]);
}
