import { textOutsideBlock, upsertMarkedBlock, type Markers, type UpsertResult } from "../text/marked-block";
import { printable } from "../text/printable";
import { hasNameControl } from "../text/name-controls";
import { unimportable } from "../context/inert-mentions";
import type { FactInfo } from "./fact-file";

/** Claude Code loads only this much of `MEMORY.md` at session start. */
export const INDEX_MAX_LINES = 200;
export const INDEX_MAX_BYTES = 25 * 1024;
/** Each index line stays under this (Claude Code's own guidance: ~150 characters). */
const LINE_MAX_CHARS = 150;

/** On lines of their own, HTML comments never reach the model (the client strips them). */
export const INDEX_MARKERS: Markers = { begin: "<!-- AI-MEMORY:BEGIN -->", end: "<!-- AI-MEMORY:END -->" };

/**
 * `MEMORY.md` with its generated region brought up to date: one line per fact,
 * `- [Title](file.md) — hook`, for every fact the text outside the region does not link already
 * (Claude Code writes its own lines there; they stay, and are not repeated). Facts are listed by
 * file name; the whole file stays within the load limit, the region ending with a count of what
 * did not fit.
 */
export function updateMemoryIndex(existing: string | null, facts: readonly FactInfo[]): UpsertResult {
	const text = existing ?? "";
	const outside = outsideRegion(text);
	const linked = new Set(linkedFiles(outside).map(decodeLink));
	const missing = [...facts].filter((f) => !linked.has(f.file)).sort((a, b) => compare(a.file, b.file));
	const lines = missing.map(indexLine);
	// Room left within the load limit, counting the text outside, the markers and a final count line.
	// The text outside as it is once the region is in (with the line breaks around it): measured
	// before, a first index had two lines more room than the next sync gave it, and a long one was
	// written again by that sync, on both sides.
	const placed = upsertMarkedBlock(text, "", INDEX_MARKERS);
	const around = placed.ok ? outsideRegion(placed.text) : outside;
	const budgetLines = INDEX_MAX_LINES - lineCount(around) - 4;
	const budgetBytes = INDEX_MAX_BYTES - utf8Length(around) - 200;
	const kept: string[] = [];
	let bytes = 0;
	for (const line of lines) {
		if (kept.length >= budgetLines - 1 || bytes + utf8Length(line) + 1 > budgetBytes) break;
		kept.push(line);
		bytes += utf8Length(line) + 1;
	}
	if (kept.length < lines.length) kept.push(`- …and ${lines.length - kept.length} more facts in this folder`);
	// Nothing to add to an index that lists everything already: leave it untouched.
	if (kept.length === 0 && outside === text) return { ok: true, text, changed: false };
	return upsertMarkedBlock(text, kept.join("\n"), INDEX_MARKERS);
}

/** `- [Title](file.md) — description`, the title from the fact's name, the whole line short. */
export function indexLine(fact: FactInfo): string {
	const title = oneLine(humanize(fact.name));
	const link = `- [${title.replace(/[[\]]/g, "")}](${encodeLink(fact.file)})`;
	const room = LINE_MAX_CHARS - link.length - 3;
	const description = oneLine(fact.description);
	const hook = description.length > room ? `${description.slice(0, Math.max(0, room - 1)).trimEnd()}…` : description;
	return hook ? `${link} — ${hook}` : link;
}

/**
 * The model writes facts: a description with line breaks and our markers in it would add lines of
 * its own to the index (Claude Code reads MEMORY.md at every session start) and close the block
 * early, so that no later sync could update it. One line, and no comment can open or close in it.
 */
function oneLine(text: string): string {
	// Claude Code loads MEMORY.md as it loads CLAUDE.md: an `@path` after a blank would import that file.
	return unimportable(printable(text).replace(/\s+/g, " ").trim().replace(/<!--/g, "&lt;!--").replace(/-->/g, "--&gt;"));
}

function humanize(name: string): string {
	const words = name.replace(/[-_]+/g, " ").trim();
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Markdown links may not hold spaces or parentheses unescaped, and a link's `#` or `?` starts a
 * heading or a query, not more of the name (`a#b.md` linked to `a`); a `%` is encoded too, since
 * the link is decoded when read back. Nor may a line of the index hold a line break or a control
 * character from a file's name (one with a line break split its line, the rest a line of its own
 * in the file Claude Code reads at every start).
 */
function encodeLink(file: string): string {
	if (!LINK_SPECIAL.test(file) && !hasNameControl(file)) return file;
	let out = "";
	for (const c of file) out += c === "(" || c === ")" ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : LINK_SPECIAL.test(c) || hasNameControl(c) ? encodeURIComponent(c) : c;
	return out;
}

const LINK_SPECIAL = /[\s()#?%<>]/;

/**
 * The targets of the text's `](name.md)` and `](<name.md>)` links, as `/\]\(<?([^)>]+?\.md)>?\)/g`
 * finds them. A target runs to the next `)` or `>`, found once for every `](` before it: that
 * regex ran from each `](` to the text's end (MEMORY.md is the model's, and 400 KB of `](]` took 12 s).
 */
export function linkedFiles(text: string): string[] {
	const out: string[] = [];
	let stop = -1;
	for (let at = text.indexOf("]("); at >= 0; ) {
		if (stop < at + 2) stop = nextStop(text, at + 2);
		const closes = text[stop] === ")" ? stop + 1 : text[stop] === ">" && text[stop + 1] === ")" ? stop + 2 : -1;
		// With the `<` taken as the bracket first, else as the target's first character (`](<.md)`).
		const from = [text[at + 2] === "<" ? at + 3 : at + 2, at + 2].find((f) => stop - f >= 4 && text.endsWith(".md", stop));
		if (closes >= 0 && from !== undefined) {
			out.push(text.slice(from, stop));
			at = text.indexOf("](", closes);
		} else at = text.indexOf("](", at + 1);
	}
	return out;
}

function nextStop(text: string, from: number): number {
	for (let i = from; i < text.length; i++) if (text[i] === ")" || text[i] === ">") return i;
	return text.length;
}

function decodeLink(link: string): string {
	try {
		return decodeURIComponent(link).replace(/^\.\//, "");
	} catch {
		return link;
	}
}

/**
 * The text around the region the upsert replaces, found the way it finds it (marker lines outside
 * fenced code): the markers quoted in a code block above the region were taken for it, so the
 * region's own links counted as the person's, and every sync emptied or refilled it in turn
 * (attack round 48b).
 */
function outsideRegion(text: string): string {
	return textOutsideBlock(text, INDEX_MARKERS);
}

function lineCount(text: string): number {
	return text === "" ? 0 : text.split("\n").length;
}

function utf8Length(text: string): number {
	let bytes = 0;
	for (const ch of text) {
		const code = ch.codePointAt(0) ?? 0;
		bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
	}
	return bytes;
}

function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
