import { describe, expect, it } from "vitest";
import { barChart, rankChart } from "../../../src/core/charts/bar-chart";
import { count, dashboardCharts, dollars, minutes, tokens } from "../../../src/core/charts/dashboard-charts";
import { calendarHeatmap } from "../../../src/core/charts/heatmap";
import { escapeXml, num, serializeSvg, type SvgNode } from "../../../src/core/charts/svg";
import type { SessionRow } from "../../../src/core/usage/session-rows";
import { summarizeUsage } from "../../../src/core/usage/usage-summary";
import type { PriceTable } from "../../../src/core/usage/model-prices";

function row(id: string, day: string, extra: Partial<SessionRow> = {}): SessionRow {
	return { id, title: `Session ${id}`, project: "api", agent: "claude-code", started: `${day}T10:00:00.000Z`, day, activeMinutes: 30, prompts: 2, tags: ["ai/auth"], files: ["src/a.ts"], notePath: `AI Conversations/api/${id}.md`, deleted: false, usage: [{ day, model: "claude-sonnet-4-5", input: 1000, output: 2000, cacheRead: 50_000, cacheWrite: 4000 }], tokens: 57_000, ...extra };
}

const many = Array.from({ length: 120 }, (_, i) => row(`s${i}`, new Date(Date.UTC(2026, 5, 1) + Math.floor(i / 3) * 86_400_000).toISOString().slice(0, 10), i % 4 === 0 ? { usage: [{ day: "2026-06-02", model: "claude-opus-4-5", input: 10, output: 20, cacheRead: 0, cacheWrite: 0 }] } : {}));

function all(tag: string, node: SvgNode): SvgNode[] {
	return [...(node.tag === tag ? [node] : []), ...node.children.flatMap((c) => (typeof c === "string" ? [] : all(tag, c)))];
}

describe("charts", () => {
	const cases: [string, SessionRow[]][] = [
		["no sessions", []],
		["one day", [row("a", "2026-11-29")]],
		["120 sessions over 40 days, two models", many],
	];
	for (const [name, rows] of cases) {
		it(`${name}: the same data gives the same bytes, every chart well-formed and themed through CSS variables`, () => {
			const a = dashboardCharts(summarizeUsage(rows)).map((c) => serializeSvg(c.svg));
			const b = dashboardCharts(summarizeUsage(structuredClone(rows))).map((c) => serializeSvg(c.svg));
			expect(a).toEqual(b);
			expect(a).toHaveLength(14);
			for (const svg of a) {
				expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" class="acm-chart"')).toBe(true);
				expect(svg).toContain("var(--interactive-accent,");
				expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
				expect(svg).not.toMatch(/NaN|Infinity|undefined/);
			}
		});
	}

	it("the empty case says so instead of drawing nothing", () => {
		const svgs = dashboardCharts(summarizeUsage([])).map((c) => serializeSvg(c.svg));
		expect(svgs[0]).toContain("No sessions yet.");
		expect(svgs[1]).toContain("Nothing in this period.");
		expect(svgs.at(-1)).toContain("Nothing yet.");
	});

	it("the heatmap shades the busiest day darkest, empty days lightest, and ends at the last day", () => {
		const svg = calendarHeatmap("t", [
			{ day: "2026-11-02", value: 4, label: "4 sessions" },
			{ day: "2026-11-03", value: 1, label: "1 session" },
		]);
		const rects = all("rect", svg);
		const titled = (day: string) => rects.find((r) => r.children.some((c) => typeof c !== "string" && c.children[0] === `${day}: ${day === "2026-11-02" ? "4 sessions" : day === "2026-11-03" ? "1 session" : "nothing"}`));
		expect(titled("2026-11-02")?.attrs).toContainEqual(["class", "acm-l4"]);
		expect(titled("2026-11-03")?.attrs).toContainEqual(["class", "acm-l1"]);
		expect(titled("2026-11-01")?.attrs).toContainEqual(["class", "acm-l0"]);
		expect(titled("2026-11-04")).toBeUndefined();
		// 52 whole weeks before the last one, and the last week up to its Tuesday.
		expect(rects.filter((r) => r.children.length > 0)).toHaveLength(52 * 7 + 2);
	});

	it("stacked bars add up to the day's total, one colour per model, in a legend", () => {
		const svg = barChart({ title: "t", labels: ["a", "b"], series: [{ name: "m1", values: [1, 3] }, { name: "m2", values: [1, 0] }], format: String });
		const bars = all("rect", svg).filter((r) => r.children.length > 0);
		expect(bars).toHaveLength(3);
		const heights = bars.map((b) => Number(b.attrs.find(([k]) => k === "height")![1]));
		// Day a: 1 + 1, day b: 3, on one scale.
		expect((heights[0]! + heights[1]!) / heights[2]!).toBeCloseTo(2 / 3, 5);
		expect(serializeSvg(svg)).toContain("acm-s-blue");
		expect(serializeSvg(svg)).toContain(">m2</text>");
	});

	it("a ranking's labels are escaped and long ones cut in the middle", () => {
		const svg = serializeSvg(rankChart({ title: "<top> & \"files\"", items: [{ label: `src/${"deep/".repeat(20)}file.ts`, value: 3 }], format: String }));
		expect(svg).toContain("&lt;top&gt; &amp; &quot;files&quot;");
		expect(svg).toContain("…");
		expect(svg).toContain("file.ts");
	});

	it("numbers are written the same way everywhere, and text never breaks the XML", () => {
		expect([num(1), num(1.005), num(-0.001), num(2.5), num(Number.NaN)]).toEqual(["1", "1", "0", "2.5", "0"]);
		expect(escapeXml("a\u0000b\u001f<c>")).toBe("ab&lt;c&gt;");
	});

	it("cost charts are labelled as an estimate, with the date of the prices and the models left out", () => {
		const charts = dashboardCharts(summarizeUsage([row("a", "2026-11-29", { usage: [{ day: "2026-11-29", model: "claude-opus-4-8", input: 5, output: 5, cacheRead: 0, cacheWrite: 0 }] }), row("b", "2026-11-29")]));
		const cost = serializeSvg(charts.find((c) => c.id === "cost-daily")!.svg);
		expect(cost).toContain("Estimate from list prices as of");
		expect(cost).toContain("no price for claude-opus-4-8");
	});
});

describe("numbers past reason (attack round 50b)", () => {
	it("no chart writes Infinity, NaN or an exponent: a price of 1e308 a million tokens, sessions of 2^53 tokens", () => {
		const huge = Array.from({ length: 200 }, (_, i) => row(`h${i}`, "2026-01-05", { activeMinutes: Number.MAX_SAFE_INTEGER, tokens: Number.MAX_SAFE_INTEGER, usage: [{ day: "2026-01-05", model: "claude-sonnet-4-5", input: Number.MAX_SAFE_INTEGER, output: Number.MAX_SAFE_INTEGER, cacheRead: Number.MAX_SAFE_INTEGER, cacheWrite: Number.MAX_SAFE_INTEGER }] }));
		for (const prices of [{}, { "claude-sonnet-4-5": { input: 1e308, output: 1e308, cacheRead: 1e308, cacheWrite: 1e308 } }] as PriceTable[]) {
			for (const chart of dashboardCharts(summarizeUsage(huge, prices))) expect(serializeSvg(chart.svg)).not.toMatch(/NaN|Infinity|\de[+-]\d/);
		}
	});

	it("num writes every finite number in digits (1e300 was \"1e+3\"), the formats never JavaScript's words", () => {
		expect(num(1e300)).toBe(BigInt(1e300).toString());
		expect(num(-1e21)).toBe("-1000000000000000000000");
		expect(num(2 ** 60)).toBe("1152921504606846976");
		for (const n of [Infinity, -Infinity, NaN, 1e308, 1e21, -5]) for (const format of [count, minutes, tokens, dollars]) expect(format(n)).not.toMatch(/NaN|Infinity|e[+-]\d/);
		expect(count(1e21)).toBe("1,000,000,000,000,000,000,000");
		expect(dollars(Infinity)).toBe("$∞");
	});
});

describe("the plugin's stylesheet", () => {
	it("styles every class the charts use, as the SVG files' own style does", async () => {
		const { readFileSync } = await import("node:fs");
		const css = readFileSync(new URL("../../../styles.css", import.meta.url), "utf8");
		const used = new Set(dashboardCharts(summarizeUsage(many)).flatMap((c) => [...serializeSvg(c.svg).matchAll(/class="([^"]+)"/g)].map((m) => m[1]!)));
		for (const cls of used) expect(css, cls).toContain(`.${cls}`);
	});
});
