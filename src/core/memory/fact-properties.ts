/**
 * Claude Code keeps a fact's `type` and `modified` under `metadata:` (and moves any other key
 * there when it writes the file), but Obsidian's Properties view shows only flat properties: a
 * nested object is an uneditable blob. So the vault's copy of a fact also carries them flat
 * (`type: feedback` after the `metadata:` block), and Claude Code's copy never does. The flat
 * one is what a person edits in Obsidian: when the two differ, it wins. Both directions are
 * line edits, every other byte kept: `withoutFlatProperties(withFlatProperties(x)) === x` for
 * a file in Claude Code's form.
 */

/** The `metadata` keys shown flat in the vault. */
export const FLAT_KEYS = ["type", "modified"] as const;

interface Lines {
	/** The frontmatter's lines, without the `---` lines. */
	lines: string[];
	/**
	 * The line ending after each line but the last (whose ending is the tail's): each line keeps its
	 * own, so mixed endings in a file of Claude Code's come back as they were (attack round 48b: they
	 * came back as the first line's, and every next sync wrote Claude Code's file again).
	 */
	ends: string[];
	/** Text before them (the opening `---` line) and after them (the closing line and the body). */
	head: string;
	tail: string;
	eol: string;
}

function frontmatterLines(text: string): Lines | undefined {
	const match = /^(\ufeff?---(\r?\n))([\s\S]*?)(\r?\n---[ \t]*(?:\r?\n[\s\S]*)?)$/.exec(text);
	if (!match) return undefined;
	const pieces = match[3]!.split(/(\r?\n)/);
	const lines = pieces.filter((_, i) => i % 2 === 0);
	const ends = pieces.filter((_, i) => i % 2 === 1);
	return { head: match[1]!, eol: match[2]!, lines, ends, tail: match[4]! };
}

function join(parts: Lines): string {
	return `${parts.head}${parts.lines.map((line, i) => `${line}${parts.ends[i] ?? ""}`).join("")}${parts.tail}`;
}

/** Inserts lines before line `at`, each ended as the line before them is (the file's first ending at the top). */
function insertLines(parts: Lines, at: number, added: readonly string[]): void {
	if (added.length === 0) return;
	const eol = at > 0 ? (parts.ends[at - 1] ?? parts.eol) : parts.eol;
	parts.lines.splice(at, 0, ...added);
	// Inserted after the last line: the one before gets an ending, the new last one ends with the tail.
	if (at >= parts.ends.length + 1) parts.ends.push(...added.map(() => eol));
	else parts.ends.splice(at, 0, ...added.map(() => eol));
}

/** Removes line `at` with its ending (the last line: the one before it takes the tail's). */
function removeLine(parts: Lines, at: number): void {
	parts.lines.splice(at, 1);
	parts.ends.splice(at < parts.ends.length ? at : at - 1, 1);
}

/** The `metadata:` block: its first and last line (indented lines under `metadata:` with nothing on its own line). */
function metadataBlock(lines: readonly string[]): { start: number; end: number } | undefined {
	const start = lines.findIndex((l) => /^metadata:[ \t]*$/.test(l));
	if (start < 0) return undefined;
	let end = start;
	while (end + 1 < lines.length && /^[ \t]+\S/.test(lines[end + 1]!)) end++;
	return end > start ? { start, end } : undefined;
}

/** `  type: feedback` under metadata (one plain line, the block's own indent), or at the top (`type: feedback`). */
function keyLine(lines: readonly string[], key: string, from: number, to: number, indented: boolean): number {
	const pattern = indented ? new RegExp(`^([ \\t]+)${key}:[ \\t]*\\S`) : new RegExp(`^${key}:[ \\t]*\\S`);
	for (let i = from; i <= to; i++) if (pattern.test(lines[i]!)) return i;
	return -1;
}

function valueOf(line: string): string {
	return line.slice(line.indexOf(":") + 1).trim();
}

/** The vault's form: Claude Code's, plus the flat copies of `metadata.type` and `metadata.modified`. */
export function withFlatProperties(text: string): string {
	const parts = frontmatterLines(text);
	const block = parts && metadataBlock(parts.lines);
	if (!parts || !block) return text;
	const added: string[] = [];
	for (const key of FLAT_KEYS) {
		const at = keyLine(parts.lines, key, block.start + 1, block.end, true);
		// A nested or multi-line value stays nested; a flat one of the user's is theirs.
		if (at < 0 || keyLine(parts.lines, key, 0, parts.lines.length - 1, false) >= 0) continue;
		added.push(`${key}: ${valueOf(parts.lines[at]!)}`);
	}
	if (added.length === 0) return text;
	insertLines(parts, block.end + 1, added);
	return join(parts);
}

/**
 * Claude Code's form: the flat copies go, a flat value that differs (an edit in Obsidian's
 * Properties view) replacing the one under `metadata`. A file without a `metadata:` block (the
 * older style, with a top-level `type:`) is left as it is.
 */
export function withoutFlatProperties(text: string): string {
	const parts = frontmatterLines(text);
	const block = parts && metadataBlock(parts.lines);
	if (!parts || !block) return text;
	let changed = false;
	for (const key of FLAT_KEYS) {
		const flat = keyLine(parts.lines, key, 0, parts.lines.length - 1, false);
		if (flat < 0) continue;
		const current = metadataBlock(parts.lines)!;
		const nested = keyLine(parts.lines, key, current.start + 1, current.end, true);
		const value = valueOf(parts.lines[flat]!);
		if (nested >= 0) {
			const indent = /^[ \t]+/.exec(parts.lines[nested]!)![0];
			if (valueOf(parts.lines[nested]!) !== value) parts.lines[nested] = `${indent}${key}: ${value}`;
			removeLine(parts, flat);
		} else {
			const indent = /^[ \t]+/.exec(parts.lines[current.start + 1]!)![0];
			removeLine(parts, flat);
			const after = metadataBlock(parts.lines)!;
			insertLines(parts, after.end + 1, [`${indent}${key}: ${value}`]);
		}
		changed = true;
	}
	return changed ? join(parts) : text;
}
