import { readFrontmatter, yamlProblem } from "./frontmatter";
import { detectEol, hasMarkers, type Markers, upsertMarkedBlock } from "../text/marked-block";
import { printable } from "../text/printable";

/** Obsidian comments: hidden in reading view, and they tell a reader where their own text goes. */
export const NOTE_MARKERS: Markers = {
	begin: "%% AI Conversation Memory: generated from here %%",
	end: "%% AI Conversation Memory: generated up to here; write your own notes below %%",
};

/**
 * A note that cannot be merged is left as it is. `markersRemoved`: the user took the note over (its
 * markers gone), and it stays theirs; otherwise its markers are broken (twice, swapped), which the
 * user puts right, and the sync tries again then.
 */
export type MergeResult = { ok: true; text: string } | { ok: false; reason: string; markersRemoved?: true };

/**
 * The note as it should be after a sync: the generated properties and the generated region are
 * replaced, and everything the user wrote is kept byte for byte (text before and after the
 * region, and properties and YAML comments of their own, which stay after ours). The sync's
 * properties are the ones this note's `frontmatter` holds, and `formerKeys` that an older release
 * wrote into this kind of note: a `type` or `next` a person adds to a session note is theirs.
 */
export function mergeNote(existing: string | null, frontmatter: string, generated: string, formerKeys: readonly string[] = []): MergeResult {
	// Text from transcripts: no terminal escape, NUL or bidirectional override in a note (`cat` acts on them; `grep` and `git` take a NUL for binary).
	const body = printable(generated);
	if (existing === null) return { ok: true, text: `${frontmatter}${NOTE_MARKERS.begin}\n${body.endsWith("\n") ? body : `${body}\n`}${NOTE_MARKERS.end}\n` };
	const split = splitFrontmatter(existing, new Set([...keysOf(frontmatter), ...formerKeys]));
	const head = mergeFrontmatter(frontmatter, split.userFields, detectEol(existing));
	// Properties a person is in the middle of editing, or broke: a rewrite would drop or move what they wrote.
	const broken = brokenProperties(existing, split, head);
	if (broken !== undefined) return { ok: false, reason: `${broken}; it is left as it is, and updated once they are put right` };
	if (!hasMarkers(split.rest, NOTE_MARKERS)) return { ok: false, reason: "its generated region markers were removed; it is left as you edited it", markersRemoved: true };
	const updated = upsertMarkedBlock(split.rest, body, NOTE_MARKERS);
	if (!updated.ok) return { ok: false, reason: `it has ${updated.reason}; it is left as it is, and updated once its markers are put right` };
	return { ok: true, text: `${head}${updated.text}` };
}

/**
 * A new note as `mergeNote(null, …)` makes it, in parts: its text up to `tail`, then `tail` (UTF-8
 * bytes of printable text, the end of the generated body), then the rest. `body` ends where
 * `tail` starts; the whole body ends with the line break after `tail`.
 */
export function newNoteParts(frontmatter: string, body: string, tail: Uint8Array): [string, Uint8Array, string] {
	return [`${frontmatter}${NOTE_MARKERS.begin}\n${printable(body)}`, tail, `\n${NOTE_MARKERS.end}\n`];
}

/**
 * The tags in a note's properties (block list, inline list, or a single value), for keeping the
 * ones a person added by hand when the generated ones are replaced.
 */
export function tagsInNote(text: string | null): string[] {
	return listInNote(text, "tags").map((t) => t.replace(/^#/, "")).filter((t) => t !== "");
}

/**
 * The aliases a person added to a session note: all but the first, which is the title we write
 * (Obsidian's Properties view adds new ones after it). They stay when the note is updated.
 */
export function ownAliasesInNote(text: string | null): string[] {
	return listInNote(text, "aliases").slice(1).filter((a) => a !== "");
}

/**
 * Whether a session note holds only what the sync wrote: its properties (tags `isOwnTag` says are
 * its own, the one alias) and the generated region, nothing before or after it. Such a note may go
 * when its session has no note of its own any more; anything else in it is a person's, and stays.
 */
export function holdsOnlyGenerated(text: string, isOwnTag: (tag: string) => boolean): boolean {
	if (readFrontmatter(text, { parse: false }) === undefined) return false;
	const split = splitFrontmatter(text, new Set(SESSION_NOTE_KEYS));
	if (split.userFields.length > 0 || ownAliasesInNote(text).length > 0 || !tagsInNote(text).every(isOwnTag)) return false;
	const begin = split.rest.indexOf(NOTE_MARKERS.begin);
	const end = split.rest.lastIndexOf(NOTE_MARKERS.end);
	return begin >= 0 && end > begin && split.rest.slice(0, begin).trim() === "" && split.rest.slice(end + NOTE_MARKERS.end.length).trim() === "";
}

/**
 * A property of a note the sync wrote (`session_id`, `type`), read from its properties block only:
 * a note without our generated region is the user's own (a review note that names a session in
 * its properties), never taken for one of ours.
 */
export function generatedProperty(text: string | null, key: string): string | undefined {
	if (text === null || !text.startsWith("---")) return undefined;
	const end = text.indexOf("\n---", 3);
	if (end < 0 || !text.includes(NOTE_MARKERS.begin, end)) return undefined;
	for (const line of text.slice(0, end).split("\n")) {
		if (!line.startsWith(`${key}:`)) continue;
		// The value as our frontmatter writes it, quoted or not; no pattern runs over the user's line.
		const value = line.slice(key.length + 1).trim().replace(/^(["'])(.*)\1$/, "$2");
		return value === "" ? undefined : value;
	}
	return undefined;
}

/** A list property's values (block list, inline list, or a single value), unquoted. */
function listInNote(text: string | null, key: string): string[] {
	const split = text === null ? undefined : readFrontmatter(text, { parse: false });
	if (!split) return [];
	const lines = split.yaml.split(/\r?\n/);
	const at = lines.findIndex((l) => l.startsWith(`${key}:`));
	if (at < 0) return [];
	const inline = lines[at]!.slice(key.length + 1).trim();
	const values: string[] = [];
	if (inline.startsWith("[")) values.push(...inline.replace(/^\[|\]$/g, "").split(","));
	else if (inline !== "") values.push(inline);
	else {
		let i = at + 1;
		for (; i < lines.length && /^\s+-\s*/.test(lines[i]!); i++) values.push(lines[i]!.replace(/^\s+-\s*/, ""));
		// A list not indented (`- a` under `tags:`, as many tools write it) or a comment among its
		// items: read as YAML reads it (line by line, the items after either were lost). When the
		// YAML cannot be read (an item not indented below indented ones), every item line is one:
		// the rewrite writes them all, indented (attack round 48b: the ones after were dropped).
		if (i < lines.length && /^\s*[-#]/.test(lines[i]!)) return parsedList(text!, key) ?? itemLines(lines, at + 1).map(unquote);
	}
	return values.map(unquote);
}

/** The items of a block list from line `from` on, indented or not, comments among them passed over. */
function itemLines(lines: readonly string[], from: number): string[] {
	const values: string[] = [];
	for (let i = from; i < lines.length && /^\s*(-(\s|$)|#)/.test(lines[i]!); i++) if (!/^\s*#/.test(lines[i]!)) values.push(lines[i]!.replace(/^\s*-\s*/, ""));
	return values;
}

/** The property as the YAML parser reads it, when it is a list or a value; undefined when the properties are not parsed (too large, not valid YAML). */
function parsedList(text: string, key: string): string[] | undefined {
	const value = readFrontmatter(text)?.data[key];
	if (Array.isArray(value)) return value.flatMap((v) => (typeof v === "string" ? [v] : typeof v === "number" ? [String(v)] : []));
	return typeof value === "string" ? [value] : undefined;
}

function unquote(value: string): string {
	const v = value.trim();
	if (v.startsWith('"') && v.endsWith('"')) {
		try {
			return String(JSON.parse(v));
		} catch {
			return v.slice(1, -1);
		}
	}
	return v.startsWith("'") && v.endsWith("'") ? v.slice(1, -1).replace(/''/g, "'") : v;
}

interface SplitNote {
	/** Raw lines of properties we do not generate, in their order, each with its own line ending. */
	userFields: string[];
	/** A property we generate that the properties hold more than once (the second is a person's, which the rewrite would drop). */
	twice?: string;
	rest: string;
}

/**
 * Why a note's properties cannot be merged: opened but never closed (taken for no properties, the
 * whole text went below new ones), a property we generate written twice, or the properties as they
 * would be written (`head`: ours, then the person's) not valid YAML: a tab as indent, a key twice,
 * an open bracket, a name still being typed.
 */
function brokenProperties(text: string, split: SplitNote, head: string): string | undefined {
	if (/^\ufeff?---\r?\n/.test(text) && readFrontmatter(text, { parse: false }) === undefined) return "its properties are not closed (no `---` line after them)";
	if (split.twice !== undefined) return `its properties hold \`${split.twice}\` twice`;
	// Ours alone are valid YAML: only the person's lines can make them invalid.
	const problem = split.userFields.length > 0 ? yamlProblem(head.replace(/^---\r?\n/, "").replace(/---\r?\n$/, "")) : undefined;
	return problem === undefined ? undefined : `its properties are not valid YAML (${problem})`;
}

function splitFrontmatter(text: string, generated: ReadonlySet<string>): SplitNote {
	const split = readFrontmatter(text, { parse: false });
	if (!split) return { userFields: [], rest: text };
	// Each line with its ending (a file's lines may mix them): the last one's is the one before the closing `---`.
	const lastEnd = /\r\n---(\r?\n)?$/.test(text.slice(0, text.length - split.body.length)) ? "\r\n" : "\n";
	const lines = split.yaml === "" ? [] : `${split.yaml}${lastEnd}`.split(/(?<=\n)/);
	const userFields: string[] = [];
	const seen = new Set<string>();
	let twice: string | undefined;
	let keep = false;
	for (const ended of lines) {
		const line = ended.replace(/\r?\n$/, "");
		// A key may start with `-` when no blank follows it (`-draft: yes`); `- x` is an item (attack round 48b: such a key below one of ours went with it).
		const key = /^((?:-(?=[^\s:])|[^\s#:-])[^:]*):/.exec(line)?.[1]?.trim();
		if (key !== undefined) keep = !generated.has(key);
		// A line at the top level that is no property, no item and no comment is none of ours: a property whose name is still being typed (`rat`), which went with ours above it.
		else if (/^(?:-(?=\S)|[^\s#-])/.test(line)) keep = true;
		if (key !== undefined && !keep) {
			if (seen.has(key)) twice ??= key;
			seen.add(key);
		}
		// A comment stays, wherever it was: at the top level, or indented among the items of one of ours (round 48b: it went with them).
		if (keep || (key === undefined && /^\s*#/.test(line))) userFields.push(ended);
	}
	return { userFields, ...(twice !== undefined ? { twice } : {}), rest: split.body };
}

/** Ours with the note's line ending, then the person's lines each with its own (round 48b: a CRLF line of theirs in a file whose first line ends in LF lost its CR). */
function mergeFrontmatter(generated: string, userFields: readonly string[], eol: string): string {
	const withEol = generated.replace(/\n/g, eol);
	if (userFields.length === 0) return withEol;
	const close = `---${eol}`;
	return `${withEol.slice(0, withEol.length - close.length)}${userFields.join("")}${close}`;
}

/** The top-level keys of a generated frontmatter block. */
function keysOf(frontmatter: string): string[] {
	return [...frontmatter.matchAll(/^([^\s#:-][^:\n]*):/gm)].map((m) => m[1]!.trim());
}

/**
 * Every property a session note's generator may write (one it leaves out this time, such as a
 * `branch` the session no longer names, is still its own), and `tokens`, one total before the
 * split into four, which an older note may hold.
 */
export const SESSION_NOTE_KEYS = [
	"session_id", "agent", "project", "project_path", "branch", "started", "ended", "duration", "models", "prompts", "tool_calls", "files",
	"input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_usd", "tags", "source", "aliases", "tokens",
] as const;
