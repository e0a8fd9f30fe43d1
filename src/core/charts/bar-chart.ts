import { el, SERIES, svgRoot, text, type SvgNode } from "./svg";

export interface BarSeries {
	name: string;
	values: readonly number[];
}

export interface BarChartInput {
	title: string;
	/** One label per bar (a day, a week). */
	labels: readonly string[];
	/** Stacked in this order; one series draws in the accent colour. */
	series: readonly BarSeries[];
	format: (value: number) => string;
	/** A line under the title (the estimate's date, what is left out). */
	note?: string;
	/** Name the series under the chart even when there is one (a model). */
	legend?: boolean;
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 56;
const RIGHT = 10;

/** Vertical bars, stacked by series, with a zero line, the top value and a few labels under the bars. */
export function barChart(input: BarChartInput): SvgNode {
	const { title, labels, series, format } = input;
	const top = input.note ? 44 : 30;
	const named = series.length > 1 || input.legend === true;
	const legendRows = named ? Math.ceil(series.length / 3) : 0;
	const bottom = HEIGHT - 24 - legendRows * 16;
	const head = [text(0, 14, title, { class: "acm-title" }), input.note ? text(0, 30, input.note, { class: "acm-muted" }) : undefined];
	const totals = labels.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
	const max = Math.max(0, ...totals);
	if (labels.length === 0 || max <= 0) return svgRoot(WIDTH, top + 30, title, [...head, text(0, top + 16, "Nothing in this period.", { class: "acm-muted" })]);
	const plot = WIDTH - LEFT - RIGHT;
	const step = plot / labels.length;
	const barWidth = Math.max(1, step * 0.8);
	const scale = (bottom - top) / max;
	const bars: SvgNode[] = [];
	labels.forEach((label, i) => {
		let y = bottom;
		series.forEach((s, k) => {
			const v = s.values[i] ?? 0;
			if (v <= 0) return;
			const h = v * scale;
			y -= h;
			bars.push(el("rect", { x: LEFT + i * step + (step - barWidth) / 2, y, width: barWidth, height: h, class: named ? `acm-s-${SERIES[k % SERIES.length]}` : "acm-bar" }, [el("title", {}, [`${label}${series.length > 1 ? ` · ${s.name}` : ""}: ${format(v)}`])]));
		});
	});
	// About six labels under the axis, the last bar's always.
	const every = Math.max(1, Math.ceil(labels.length / 6));
	const ticks = labels.flatMap((label, i) => ((labels.length - 1 - i) % every === 0 ? [text(LEFT + i * step + step / 2, bottom + 14, label, { class: "acm-muted", "text-anchor": "middle" })] : []));
	const axis = [el("line", { x1: LEFT, y1: bottom, x2: WIDTH - RIGHT, y2: bottom, class: "acm-grid" }), el("line", { x1: LEFT, y1: top, x2: WIDTH - RIGHT, y2: top, class: "acm-grid" }), text(LEFT - 4, top + 4, format(max), { class: "acm-muted", "text-anchor": "end" }), text(LEFT - 4, bottom, "0", { class: "acm-muted", "text-anchor": "end" })];
	const legend =
		named
			? series.map((s, k) => {
					const x = (k % 3) * (WIDTH / 3);
					const y = HEIGHT - legendRows * 16 + Math.floor(k / 3) * 16;
					return el("g", {}, [el("rect", { x, y: y - 9, width: 10, height: 10, class: `acm-s-${SERIES[k % SERIES.length]}` }), text(x + 14, y, s.name)]);
				})
			: [];
	return svgRoot(WIDTH, HEIGHT, title, [...head, ...axis, ...bars, ...ticks, ...legend]);
}

/** Horizontal bars for a ranking (top files, tags, cost by project). */
export function rankChart(input: { title: string; items: readonly { label: string; value: number }[]; format: (value: number) => string; note?: string }): SvgNode {
	const top = input.note ? 44 : 28;
	const head = [text(0, 14, input.title, { class: "acm-title" }), input.note ? text(0, 30, input.note, { class: "acm-muted" }) : undefined];
	if (input.items.length === 0) return svgRoot(WIDTH, top + 30, input.title, [...head, text(0, top + 16, "Nothing yet.", { class: "acm-muted" })]);
	const row = 20;
	const labelWidth = 260;
	const max = Math.max(...input.items.map((i) => i.value), 0);
	const plot = WIDTH - labelWidth - 80;
	const rows = input.items.map((item, i) => {
		const y = top + i * row;
		const w = max > 0 ? Math.max(1, (item.value / max) * plot) : 1;
		return el("g", {}, [
			text(labelWidth - 6, y + 13, clip(item.label, 40), { "text-anchor": "end" }),
			el("rect", { x: labelWidth, y: y + 3, width: w, height: row - 6, class: "acm-bar" }, [el("title", {}, [`${item.label}: ${input.format(item.value)}`])]),
			text(labelWidth + w + 6, y + 13, input.format(item.value), { class: "acm-muted" }),
		]);
	});
	return svgRoot(WIDTH, top + input.items.length * row + 8, input.title, [...head, ...rows]);
}

/** A label cut to `n` characters (by code point, so no half emoji), the middle of a long path dropped. */
function clip(label: string, n: number): string {
	const chars = [...label];
	if (chars.length <= n) return label;
	return `${chars.slice(0, Math.floor(n / 2) - 1).join("")}…${chars.slice(chars.length - Math.ceil(n / 2)).join("")}`;
}

