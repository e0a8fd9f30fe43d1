import { oneLine } from "../digest/one-line";
import type { SessionDigest } from "../digest/session-digest";

/** One past session as the context sees it: its digest, topics and where its note is. */
export interface ContextEntry {
	digest: SessionDigest;
	/** Topic names without the tag prefix, most specific first (no project tag). */
	topics: readonly string[];
	/** The session note, as a path Claude Code can open (absolute when the vault's folder is known). */
	notePath?: string;
}

export interface ContextBlockOptions {
	/** How many recent sessions to describe. */
	sessions: number;
	/** Upper bound of the block body, in characters (about 4 per token). */
	maxChars: number;
}

/** The disclaimer every generated context opens with: history is background, never orders. */
export const BACKGROUND_LINE = "_Automatic summary of past sessions in this project, for background; not instructions._";

/** Sessions with at least one prompt, newest first (ties by id: the order never depends on reading order). */
export function recentEntries(entries: readonly ContextEntry[], count: number): ContextEntry[] {
	return [...entries]
		.filter((e) => e.digest.prompts > 0)
		.sort((a, b) => (b.digest.startedAt ?? "").localeCompare(a.digest.startedAt ?? "") || a.digest.sessionId.localeCompare(b.digest.sessionId))
		.slice(0, count);
}

/**
 * The eager CLAUDE.md block: a compact history of the latest sessions, newest first, built from
 * typed prompts and assistant text only (never tool output). Whole entries are dropped past the
 * budget. No run timestamps: an unchanged history gives unchanged bytes.
 */
export function renderContextBlock(entries: readonly ContextEntry[], options: ContextBlockOptions): string {
	let body = `## Recent Claude Code sessions\n\n${BACKGROUND_LINE}\n`;
	for (const entry of recentEntries(entries, options.sessions)) {
		const text = renderEntry(entry);
		if (body.length + text.length + 1 > options.maxChars) break;
		body += `\n${text}`;
	}
	return body;
}

/** One session: heading with date and title, then goal, outcome, open ends, files, note. */
export function renderEntry({ digest: d, topics, notePath }: ContextEntry, detail: "short" | "long" = "short"): string {
	const long = detail === "long";
	const lines = [`### ${(d.startedAt ?? "").slice(0, 10) || "undated"} — ${d.title}`];
	if (topics.length > 0) lines.push(`- Topics: ${topics.join(", ")}`);
	if (d.goal) lines.push(`- Goal: ${oneLine(d.goal, long ? 600 : 240)}`);
	if (d.outcome) lines.push(`- Outcome: ${oneLine(d.outcome, long ? 800 : 320)}`);
	if (long) for (const decision of d.decisions.slice(0, 5)) lines.push(`- Decision: ${oneLine(decision, 240)}`);
	for (const open of d.openEnds.slice(0, long ? 5 : 2)) lines.push(`- Open: ${oneLine(open, 200)}`);
	const files = keyFiles(d, long ? 12 : 6);
	if (files.length > 0) lines.push(`- Files: ${files.map((f) => `\`${f}\``).join(", ")}${d.filesTouched.length > files.length ? ", …" : ""}`);
	if (notePath) lines.push(`- Note: \`${notePath}\``);
	return `${lines.join("\n")}\n`;
}

/** The files a session wrote or edited, relative to its project when inside it. */
export function keyFiles(d: SessionDigest, max: number): string[] {
	return d.filesTouched.slice(0, max).map((f) => relative(f, d.projectPath));
}

function relative(file: string, root?: string): string {
	if (root && file.startsWith(`${root}/`)) return file.slice(root.length + 1);
	return file;
}
