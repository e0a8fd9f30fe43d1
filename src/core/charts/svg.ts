/**
 * SVG as plain data: the charts are trees of these, serialized to the same bytes for the same data
 * (a file beside the dashboard note) or built into the DOM by the view (no `innerHTML`).
 */
export interface SvgNode {
	tag: string;
	attrs: [string, string | number][];
	children: (SvgNode | string)[];
}

export function el(tag: string, attrs: Record<string, string | number | undefined> = {}, children: (SvgNode | string | undefined | false)[] = []): SvgNode {
	return {
		tag,
		attrs: Object.entries(attrs).filter((e): e is [string, string | number] => e[1] !== undefined),
		children: children.filter((c): c is SvgNode | string => c !== undefined && c !== false),
	};
}

/** Numbers in at most two decimals, no trailing zeros, never `-0` or exponents: stable bytes. */
export function num(n: number): string {
	if (!Number.isFinite(n)) return "0";
	// Past 2^53 a double holds no fraction, and from 1e21 `toFixed` writes an exponent, whose zeros the trim below cut (1e300 became "1e+3").
	if (Math.abs(n) > Number.MAX_SAFE_INTEGER) return BigInt(n).toString();
	const r = Math.round(n * 100) / 100;
	return (Object.is(r, -0) ? 0 : r).toFixed(2).replace(/\.?0+$/, "");
}

export function serializeSvg(node: SvgNode): string {
	const attrs = node.attrs.map(([k, v]) => ` ${k}="${escapeXml(typeof v === "number" ? num(v) : v)}"`).join("");
	if (node.children.length === 0) return `<${node.tag}${attrs}/>`;
	const body = node.children.map((c) => (typeof c === "string" ? escapeXml(c) : serializeSvg(c))).join("");
	return `<${node.tag}${attrs}>${body}</${node.tag}>`;
}

export function escapeXml(text: string): string {
	// Characters XML 1.0 forbids are dropped: a session title can hold anything.
	return text
		.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
		.replace(/&/g, "&amp;")
		.replace(/</g, "&lt;")
		.replace(/>/g, "&gt;")
		.replace(/"/g, "&quot;");
}

/**
 * Colours through Obsidian's CSS variables, so a chart in the view follows the theme; the fallback
 * after each is what a chart shows as an image (a phone, a vault without the plugin), light or dark
 * as the viewer prefers.
 */
const LIGHT = { text: "#222222", muted: "#6b6b6b", grid: "#e3e3e3", empty: "#ebedf0", accent: "#7c5cff" };
const DARK = { text: "#dadada", muted: "#9a9a9a", grid: "#3a3a3a", empty: "#2a2a2a", accent: "#a48bff" };

/** Series colours (models): Obsidian's named colours. */
export const SERIES = ["blue", "orange", "green", "purple", "red", "cyan", "yellow", "pink"] as const;
const SERIES_LIGHT: Record<(typeof SERIES)[number], string> = { blue: "#086ddd", orange: "#ec7500", green: "#08b94e", purple: "#7852ee", red: "#e93147", cyan: "#00bfbc", yellow: "#e0ac00", pink: "#d53984" };
const SERIES_DARK: Record<(typeof SERIES)[number], string> = { blue: "#027aff", orange: "#fb8c00", green: "#44cf6e", purple: "#a882ff", red: "#fb464c", cyan: "#53dfdd", yellow: "#e0de71", pink: "#fa99cd" };

function rules(c: typeof LIGHT, s: Record<string, string>): string {
	// Scoped to the chart and prefixed: inline in the view, a <style> applies to the whole window.
	const r = ".acm-chart";
	return [
		`${r} text{fill:var(--text-normal,${c.text});font-family:var(--font-interface,system-ui,sans-serif);font-size:11px}`,
		`${r} .acm-muted{fill:var(--text-muted,${c.muted})}`,
		`${r} .acm-title{font-size:13px;font-weight:600}`,
		`${r} .acm-grid{stroke:var(--background-modifier-border,${c.grid});stroke-width:1}`,
		`${r} .acm-bar{fill:var(--interactive-accent,${c.accent})}`,
		`${r} .acm-l0{fill:var(--background-modifier-border,${c.empty})}`,
		...[1, 2, 3, 4].map((l) => `${r} .acm-l${l}{fill:var(--interactive-accent,${c.accent});fill-opacity:${[0.3, 0.5, 0.75, 1][l - 1]}}`),
		...SERIES.map((name) => `${r} .acm-s-${name}{fill:var(--color-${name},${s[name]})}`),
	].join("");
}

export const CHART_STYLE = `${rules(LIGHT, SERIES_LIGHT)}@media (prefers-color-scheme:dark){${rules(DARK, SERIES_DARK)}}`;

/** The outer element of every chart: sized, titled for screen readers, with its style. */
export function svgRoot(width: number, height: number, title: string, children: (SvgNode | undefined | false)[]): SvgNode {
	return el("svg", { xmlns: "http://www.w3.org/2000/svg", class: "acm-chart", width, height, viewBox: `0 0 ${num(width)} ${num(height)}`, role: "img", "aria-label": title }, [el("title", {}, [title]), el("style", {}, [CHART_STYLE]), ...children]);
}

export function text(x: number, y: number, content: string, attrs: Record<string, string | number | undefined> = {}): SvgNode {
	return el("text", { x, y, ...attrs }, [content]);
}
