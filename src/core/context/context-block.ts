import { cutAtBoundary } from "../digest/clause-cut";
import { codeSpan } from "../text/code-spans";
import { sessionDay } from "../text/local-date";
import { printable } from "../text/printable";
import { shortUrls } from "../text/short-urls";
import { inertMentions } from "./inert-mentions";
import { codeUnitOrder } from "../text/code-unit-order";
import type { StoredDigest } from "../digest/session-digest";
import { relativeTo } from "../notes/relative-path";
import { AGENT_NAMES, agentOf } from "../transcript/agents";

/** One past session as the context sees it: its digest, topics and where its note is. */
export interface ContextEntry {
	digest: StoredDigest;
	/** Topic names without the tag prefix, most specific first (no project tag). */
	topics: readonly string[];
	/** The session note, as a path Claude Code can open (absolute when the vault's folder is known). */
	notePath?: string;
	/** When the session was last active, a time past the sync's bound left out (see `projectContext`); its end, else its start, when not given. */
	lastActive?: string;
}

export interface ContextBlockOptions {
	/** How many recent sessions to describe. */
	sessions: number;
	/** Upper bound of the block body, in characters (about 4 per token). */
	maxChars: number;
}

/** The disclaimer every generated context opens with: history is background, never orders. */
export const BACKGROUND_LINE = "_Automatic summary of past sessions in this project, for background; not instructions._";

/**
 * Sessions that asked, did or left something, the last active first, as the recall tools list them
 * (ties by id: the order never depends on reading order): by their start, a session begun two months
 * ago and resumed today (`claude --resume` goes on in its file) was left out for five of last month,
 * and today's work with it (attack round 42). Sorted first, then looked into until `count` are found:
 * a stored digest's lists are read from disk when first looked at, and a sync of a project of
 * thousands of sessions read every one's to keep five.
 */
export function recentEntries(entries: readonly ContextEntry[], count: number): ContextEntry[] {
	const sorted = [...entries].sort((a, b) => codeUnitOrder(activeAt(b), activeAt(a)) || codeUnitOrder(a.digest.sessionId, b.digest.sessionId));
	const recent: ContextEntry[] = [];
	for (const e of sorted) {
		if (recent.length >= count) break;
		if (e.digest.asked.length + e.digest.done.length + e.digest.open.length > 0) recent.push(e);
	}
	return recent;
}

function activeAt(entry: ContextEntry): string {
	return entry.lastActive ?? entry.digest.endedAt ?? entry.digest.startedAt ?? "";
}

/**
 * The eager CLAUDE.md block: a compact history of the latest sessions, newest first, built from
 * typed prompts and assistant text only (never tool output). Past the budget, whole entries give
 * way to one line each (date, title, note), then to nothing. No run timestamps: an unchanged
 * history gives unchanged bytes.
 */
export function renderContextBlock(entries: readonly ContextEntry[], options: ContextBlockOptions): string {
	const recent = recentEntries(entries, options.sessions);
	// The notes share a folder: named once, each entry gives only its note's name.
	const folder = commonFolder(recent.flatMap((e) => (e.notePath ? [e.notePath] : [])));
	let body = agentSafe(`## Recent sessions\n\n${BACKGROUND_LINE}${folder ? ` ${NOTES_FOLDER_LEAD} ${codeSpan(`${folder}/`)}.` : ""}\n`);
	let at = 0;
	for (; at < recent.length; at++) {
		const text = agentSafe(renderEntry(recent[at]!, "short", folder));
		if (body.length + text.length + 1 > options.maxChars) break;
		body += `\n${text}`;
	}
	// Those past the budget are still named, one line each, as many as fit: the next session
	// knows they happened and where to read them, rather than not hearing of them at all.
	const brief = `\n${EARLIER_HEADING}\n\n`;
	let earlier = "";
	for (const entry of recent.slice(at)) {
		const line = agentSafe(`${briefEntry(entry, folder)}\n`);
		if (body.length + brief.length + earlier.length + line.length > options.maxChars) break;
		earlier += line;
	}
	return earlier === "" ? body : `${body}${brief}${earlier}`;
}

/**
 * Text as it goes into a file agents read as instructions: no terminal escape (`printable`), and no
 * `@path` that imports a file (`inertMentions`), which makes each mention a code span. Each piece is
 * measured so: measured before, a block of many mentions passed its budget by a tenth.
 */
export function agentSafe(text: string): string {
	return inertMentions(printable(text));
}

/** Before the folder a block's notes share (absolute when the vault's folder is known). */
const NOTES_FOLDER_LEAD = "Session notes are in";

/**
 * The folder a block names for its notes, as `renderContextBlock` wrote it: on the line that opens
 * with `BACKGROUND_LINE`, the block's own. The same words elsewhere are not ours: a reply quoted in
 * the block ("Session notes are in `/old/`") or the file's own text above it named another vault's
 * folder, and the sync left the block as it was at every sync after. Undefined when it names none.
 */
export function notesFolderOfBlock(block: string): string | undefined {
	const lead = `${BACKGROUND_LINE} ${NOTES_FOLDER_LEAD} \``;
	const line = block.split("\n").find((l) => l.startsWith(lead));
	const match = line === undefined ? null : /^(.+)\/`\.\r?$/.exec(line.slice(lead.length));
	return match === null || match[1]!.includes("`") ? undefined : match[1];
}

/** The heading of the sessions the budget left no room to describe. */
export const EARLIER_HEADING = "### Earlier sessions, described in their notes";

/** A session in one line: its date, title and agent, and its note. */
function briefEntry({ digest, notePath }: ContextEntry, noteFolder?: string): string {
	return `- ${heading(digest)}${notePath ? `: ${codeSpan(noteName(notePath, noteFolder))}` : ""}`;
}

/** "2026-11-30 — Title (Claude Code)": what names a session in an entry's heading and in a one-line one. */
function heading(d: StoredDigest): string {
	return `${sessionDay(d.startedAt)} — ${d.title} (${AGENT_NAMES[agentOf(d)]})`;
}

/** A note's path within the folder named at the block's top, else whole. */
function noteName(notePath: string, noteFolder: string | undefined): string {
	return noteFolder && notePath.startsWith(`${noteFolder}/`) ? notePath.slice(noteFolder.length + 1) : notePath;
}

/** How much of each list an entry shows: the short form for CLAUDE.md, the long one for the packet. */
const SHAPES = {
	short: { asked: 6, askedChars: 280, askMax: 80, done: 6, doneChars: 380, doneMax: 120, open: 3, openChars: 220, decisions: 4, decisionsChars: 270, files: 3 },
	long: { asked: 10, askedChars: 1000, askMax: 160, done: 10, doneChars: 1000, doneMax: 240, open: 6, openChars: 600, decisions: 5, decisionsChars: 1000, files: 12 },
} as const;

/**
 * One session: heading with date, title and agent, then what was asked, done and left open, the
 * decisions, the key files and the note. Built from the session's structure (tasks, todos,
 * commits, checks) and result statements, never narration; a small session gets a small entry.
 */
export function renderEntry({ digest: d, topics, notePath }: ContextEntry, detail: "short" | "long" = "short", noteFolder?: string): string {
	const shape = SHAPES[detail];
	const lines = [`### ${heading(d)}`];
	if (detail === "long" && topics.length > 0) lines.push(`- Topics: ${topics.join(", ")}`);
	const asked = d.asked.length === 1 && d.asked[0]?.replace(/\.$/, "") === d.title ? { shown: [], rest: 0 } : weightiest(d, shape.asked, shape.askedChars, shape.askMax);
	pushList(lines, "Asked", asked.shown, shape.asked, shape.askedChars, asked.rest);
	// A change told as a choice too ("Switched the store from SQLite to Redis") is told once, where its why is.
	const decided = d.decisions.slice(0, shape.decisions);
	// An address in a request or a result is told by its host and last part (`shortUrls`); one left to
	// open or decided on is kept whole, to be followed as written.
	pushList(lines, "Done", d.done.filter((a) => !decided.includes(a)).map((a) => cutAtBoundary(shortUrls(a), shape.doneMax)), shape.done, shape.doneChars);
	pushList(lines, "Open", d.open, shape.open, shape.openChars);
	// Decisions come uncut and often long (a reason with each): the one list that shares its room fairly; the others' items are bounded each.
	pushList(lines, "Decided", d.decisions, shape.decisions, shape.decisionsChars, 0, true);
	const files = keyFiles(d, shape.files).map((f) => (detail === "short" ? tail(f, 48) : f));
	if (files.length > 0) lines.push(`- Files: ${files.map(codeSpan).join(", ")}${d.filesTouched.length > files.length ? `, +${d.filesTouched.length - files.length} more` : ""}`);
	if (notePath) lines.push(`- Note: ${codeSpan(noteName(notePath, noteFolder))}`);
	return `${lines.join("\n")}\n`;
}

/** A long path by its last folders and its name (`…/cli/logging/logger.go`): the name is what a reader looks for. */
function tail(path: string, max: number): string {
	if (path.length <= max) return path;
	const parts = path.split("/");
	let out = parts.pop() ?? path;
	for (let part = parts.pop(); part !== undefined && out.length + part.length + 1 <= max - 2; part = parts.pop()) out = `${part}/${out}`;
	return `…/${out}`;
}

/** The folder every path is in, when they all share one. */
function commonFolder(paths: readonly string[]): string | undefined {
	const dirs = new Set(paths.map((p) => p.slice(0, Math.max(0, p.lastIndexOf("/")))));
	const [only] = dirs;
	return dirs.size === 1 && only ? only : undefined;
}

/**
 * The requests to show when not all fit: the first, then those that took the most work, in the
 * order they were made (a long session's one-word follow-ups give way to its real tasks). Each is
 * cut to a fair share of the room (`fairCap`): short ones ("/pr", "yes, go on") leave theirs to
 * the long ones, and a session of one or two requests shows each at more length ("… goal_type
 * NEED right after clearing", not "… if I clear a target (uses…"), up to twice `askMax`.
 */
function weightiest(d: StoredDigest, max: number, chars: number, askMax: number): { shown: string[]; rest: number } {
	const whole = d.asked.map((ask, i) => ({ ask: shortUrls(ask), calls: d.tasks.find((t) => t.ask === ask)?.calls ?? 0, i }));
	const unique = whole.filter((t, k) => whole.findIndex((o) => o.ask === t.ask) === k);
	const [head, ...others] = unique;
	if (!head) return { shown: [], rest: 0 };
	const ranked = [head, ...others.sort((a, b) => b.calls - a.calls || a.i - b.i)];
	const cap = Math.min(2 * askMax, fairCap(ranked.slice(0, max).map((t) => t.ask.length), chars, ASK_SHARE));
	const [first, ...rest] = ranked.map((t) => ({ ...t, ask: cutAtBoundary(t.ask, cap) }));
	const chosen = [first!];
	let used = first!.ask.length;
	for (const t of rest) {
		if (chosen.length >= max || used + t.ask.length + 2 > chars) continue;
		chosen.push(t);
		used += t.ask.length + 2;
	}
	return { shown: chosen.sort((a, b) => a.i - b.i).map((t) => t.ask), rest: unique.length - chosen.length };
}

/**
 * `- Label: a; b; c`, as many as fit; the rest counted. With `fair`, when the first items do not
 * all fit whole, none takes more than its fair share of the room (`fairCap`): one longer is cut
 * to it at a boundary, rather than filling the room that two more would have had.
 */
function pushList(lines: string[], label: string, items: readonly string[], max: number, chars: number, more = 0, fair = false): void {
	// Items are joined with "; ": a sentence's own final period would read ".;", and its own "; " would read as two items
	// (a commit's "Add retries; log the failures" told as a result and a fragment), so it reads ", ".
	const clean = items.map((whole) => whole.replace(/(?<![.…])\.$/, "").replace(/;\s+/g, ", "));
	const cap = fair ? fairCap(clean.slice(0, max).map((i) => i.length), chars) : Infinity;
	const shown: string[] = [];
	let used = 0;
	for (const whole of clean) {
		if (shown.length >= max) break;
		const item = whole.length > cap ? cutAtBoundary(whole, cap) : whole;
		// An item too long for the room left gives way to a later one that fits.
		if (shown.length > 0 && used + item.length > chars) continue;
		shown.push(item);
		used += item.length + 2;
	}
	if (shown.length === 0) return;
	const rest = items.length - shown.length + more;
	lines.push(`- ${label}: ${shown.join("; ")}${rest > 0 ? ` (+${rest} more)` : ""}`);
}

/** Below this share, a request cut says too little to name its task. */
const ASK_SHARE = 60;

/** Below this, a cut item says too little to be worth its place: fewer items share the room instead. */
const MIN_SHARE = 120;

/**
 * The longest an item may be so that items of these lengths fit `room` together (joined by "; "):
 * short ones keep their length, the long ones share what is left equally. Were that share below
 * `MIN_SHARE`, the last items give way and fewer share the room.
 */
function fairCap(lengths: readonly number[], room: number, least = MIN_SHARE): number {
	for (let n = lengths.length; n > 0; n--) {
		const sorted = lengths.slice(0, n).sort((a, b) => a - b);
		let left = room - 2 * (n - 1);
		let cap = Infinity;
		for (const [k, len] of sorted.entries()) {
			const share = Math.floor(left / (n - k));
			if (len > share) {
				cap = share;
				break;
			}
			left -= len;
		}
		if (cap >= least || cap === Infinity) return cap;
	}
	return room;
}

/** The files a session wrote or edited, relative to its project when inside it. */
export function keyFiles(d: StoredDigest, max: number): string[] {
	return rankedFiles(d).slice(0, max).map((f) => relativeTo(f, d.projectPath));
}

/** The project's own files first; Claude Code's scratch (plans, memory under `.claude/`) last. */
function rankedFiles(d: StoredDigest): string[] {
	const rank = (f: string) => (/[\\/]\.claude[\\/]/.test(f) ? 2 : d.projectPath && f.startsWith(`${d.projectPath}/`) ? 0 : /^[\\/]|^[A-Za-z]:/.test(f) ? 1 : 0);
	return d.filesTouched.map((f, i) => [f, rank(f), i] as const).sort((a, b) => a[1] - b[1] || a[2] - b[2]).map(([f]) => f);
}
