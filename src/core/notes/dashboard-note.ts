import { count, dollars, minutes, tokens, type Chart } from "../charts/dashboard-charts";
import { serializeSvg } from "../charts/svg";
import { codeSpan } from "../text/code-spans";
import { printable } from "../text/printable";
import { PRICES_AS_OF } from "../usage/model-prices";
import type { UsageSummary } from "../usage/usage-summary";
import type { NoteStore } from "../ports";
import { renderFrontmatter } from "./frontmatter";
import { mergeNote } from "./note-regions";

export interface DashboardFiles {
	/** The note's body (its generated region; `mergeNote` keeps the user's text around it). */
	frontmatter: string;
	body: string;
	/** Vault path of each picture and its bytes. */
	svgs: { path: string; text: string }[];
}

/**
 * The dashboard note: the totals, then every picture embedded from an SVG file beside it
 * (`<notes folder>/Dashboard/<chart>.svg`), so a phone or a vault without the plugin shows the same.
 * Deterministic: the same sessions give the same bytes, and unchanged pictures are not rewritten.
 */
export function renderDashboard(notesFolder: string, summary: UsageSummary, charts: readonly Chart[], sessions: number): DashboardFiles {
	const folder = `${notesFolder}/Dashboard`;
	const totals = summary.tokens.reduce((t, u) => ({ input: t.input + u.input, output: t.output + u.output, cacheRead: t.cacheRead + u.cacheRead, cacheWrite: t.cacheWrite + u.cacheWrite }), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
	const active = summary.activity.reduce((n, a) => n + a.activeMinutes, 0);
	const first = summary.activity[0]?.day;
	const last = summary.activity.at(-1)?.day;
	const lines = [
		"# Sessions dashboard",
		"",
		first && last ? `${count(sessions)} sessions from ${first} to ${last}, ${minutes(active)} active.` : "No sessions yet.",
		"",
		"| | tokens |",
		"| --- | ---: |",
		`| input | ${tokens(totals.input)} |`,
		`| output | ${tokens(totals.output)} |`,
		`| cache read | ${tokens(totals.cacheRead)} |`,
		`| cache write | ${tokens(totals.cacheWrite)} |`,
		"",
		`Estimated cost: **${dollars(summary.totalCost)}**, an estimate from list prices as of ${PRICES_AS_OF} (your own prices in the plugin's settings win)${summary.unpriced.length > 0 ? `; models without a price, not counted: ${summary.unpriced.map(modelName).join(", ")}` : ""}. A subscription is billed otherwise.`,
		"",
		...charts.flatMap((c) => [`![[${folder}/${c.id}.svg]]`, ""]),
	];
	return {
		frontmatter: renderFrontmatter([["aliases", ["Sessions dashboard"]]]),
		body: lines.join("\n"),
		svgs: charts.map((c) => ({ path: `${folder}/${c.id}.svg`, text: `${serializeSvg(c.svg)}\n` })),
	};
}

/**
 * A model's name as the transcript gave it, untrusted: one code span on one line. Written as it
 * was, `x ![b](https://…)` put into the note a picture Obsidian fetches whenever it is shown, and a
 * line break in it a heading, a link or an HTML element of the transcript's choosing.
 */
function modelName(name: string): string {
	return codeSpan(printable(name));
}

/**
 * Writes the dashboard through a note store: each picture only when its bytes changed, the note
 * with the user's text around its generated region kept. Returns the paths written.
 */
export async function writeDashboard(store: NoteStore, path: string, files: DashboardFiles): Promise<{ written: string[]; problem?: string }> {
	const written: string[] = [];
	for (const svg of files.svgs) {
		const before = await store.read(svg.path);
		if (before === svg.text) continue;
		if (await store.write(svg.path, svg.text, before)) written.push(svg.path);
	}
	const before = await store.read(path);
	const merged = mergeNote(before, files.frontmatter, files.body);
	if (!merged.ok) return { written, problem: `${path}: ${merged.reason}` };
	if (merged.text !== before && (await store.write(path, merged.text, before))) written.push(path);
	return { written };
}
