import { closingRun, fenceOpening } from "./fences";
export const BEGIN_MARKER = "<!-- AUTO-CONTEXT:BEGIN -->";
export const END_MARKER = "<!-- AUTO-CONTEXT:END -->";

/** The two marker lines that delimit a generated block. */
export interface Markers {
	begin: string;
	end: string;
}

const CONTEXT_MARKERS: Markers = { begin: BEGIN_MARKER, end: END_MARKER };

export type UpsertResult =
	| { ok: true; text: string; changed: boolean }
	/** Nothing may be written: the markers in the file do not delimit one block. */
	| { ok: false; reason: string; line: number };

interface Marker {
	kind: "begin" | "end";
	line: number;
	/** Offset of the line's first character, and of the character after its line ending. */
	start: number;
	next: number;
}

/**
 * Replaces exactly what lies between the BEGIN and END marker lines with `body`, or appends a
 * marked block when the file has none. Every byte outside the markers is kept: BOM, line endings
 * (the block takes the file's own), trailing spaces, a missing final newline. A marker counts only
 * as a line of its own outside fenced and indented code, so quoting one in a code block is harmless. Broken
 * markers (BEGIN without END, END first, two of either) stop the upsert with the line to fix.
 */
export function upsertMarkedBlock(text: string, body: string, marks: Markers = CONTEXT_MARKERS): UpsertResult {
	// Lines ended by CR alone (classic Mac OS): its markers would not be seen, and a second block added.
	if (!text.includes("\n") && text.includes("\r")) return { ok: false, reason: "lines ended by CR alone (an old Mac format); save it with LF or CRLF line ends", line: 1 };
	const eol = detectEol(text);
	const inner = body === "" ? "" : `${body.replace(/\r?\n/g, eol)}${body.endsWith("\n") ? "" : eol}`;
	const markers = findMarkers(text, marks);
	const begins = markers.filter((m) => m.kind === "begin");
	const ends = markers.filter((m) => m.kind === "end");
	if (begins.length === 0 && ends.length === 0) {
		const block = `${marks.begin}${eol}${inner}${marks.end}${eol}`;
		if (text === "" || text === "\ufeff") return { ok: true, text: `${text}${block}`, changed: true };
		const separator = text.endsWith("\n") ? eol : `${eol}${eol}`;
		return { ok: true, text: `${text}${separator}${block}`, changed: true };
	}
	if (begins.length > 1) return broken(`a second ${marks.begin}`, begins[1]!.line);
	if (ends.length > 1) return broken(`a second ${marks.end}`, ends[1]!.line);
	const begin = begins[0];
	const end = ends[0];
	if (!begin) return broken(`${marks.end} without ${marks.begin}`, end!.line);
	if (!end) return broken(`${marks.begin} without ${marks.end}`, begin.line);
	if (end.start < begin.start) return broken(`${marks.end} before ${marks.begin}`, end.line);
	// A BEGIN on the file's last line, with no line ending, needs one before the body.
	const head = begin.next === text.length && !text.endsWith("\n") ? `${text}${eol}` : text.slice(0, begin.next);
	const updated = `${head}${inner}${text.slice(end.start)}`;
	return { ok: true, text: updated, changed: updated !== text };
}

/**
 * Removes the marked block, marker lines included, and the blank line `upsertMarkedBlock` put
 * before it; every other byte stays (a file that had no final line ending gets one). No block:
 * nothing changes. Broken markers: nothing is removed.
 */
export function removeMarkedBlock(text: string, marks: Markers = CONTEXT_MARKERS): UpsertResult {
	const markers = findMarkers(text, marks);
	if (markers.length === 0) return { ok: true, text, changed: false };
	const [begin, end] = markers;
	if (markers.length !== 2 || begin!.kind !== "begin" || end!.kind !== "end") return broken(`markers that do not make one block (${markers.length} marker lines)`, markers[0]!.line);
	// The line ending the block was written with: its BEGIN line's.
	const eol = text.slice(begin!.start, begin!.next).endsWith("\r\n") ? "\r\n" : "\n";
	let head = text.slice(0, begin!.start);
	if (head.endsWith(`${eol}${eol}`)) head = head.slice(0, -eol.length);
	return { ok: true, text: `${head}${text.slice(end!.next)}`, changed: true };
}

function broken(what: string, line: number): UpsertResult {
	return { ok: false, reason: `${what} at line ${line}`, line };
}

/** Whether the text holds either marker line (outside fenced code). */
export function hasMarkers(text: string, marks: Markers): boolean {
	return findMarkers(text, marks).length > 0;
}

/** The file's line ending: CRLF when its first line ends so, else LF. */
export function detectEol(text: string): string {
	const nl = text.indexOf("\n");
	return nl > 0 && text[nl - 1] === "\r" ? "\r\n" : "\n";
}

/** Marker lines outside fenced code (see `scanLines`). */
function findMarkers(text: string, marks: Markers): Marker[] {
	return scanLines(text, marks).markers;
}

/**
 * The lines of the text a reader takes as prose: outside fenced code and outside the marked block
 * (what a file says of its own, not what a sync wrote into it).
 */
export function linesOutsideBlock(text: string, marks: Markers = CONTEXT_MARKERS): string[] {
	const { markers, prose } = scanLines(text, marks);
	const [begin, end] = markers;
	if (markers.length !== 2 || begin!.kind !== "begin" || end!.kind !== "end") return prose.map((l) => l.content);
	return prose.filter((l) => l.line < begin!.line || l.line > end!.line).map((l) => l.content);
}

/**
 * The text with its one block cut out, from the BEGIN marker to the end of the END marker (the
 * line ending after it stays), found as `upsertMarkedBlock` finds them: marker lines outside
 * fenced code. No block, or broken markers: the whole text.
 */
export function textOutsideBlock(text: string, marks: Markers = CONTEXT_MARKERS): string {
	const [begin, end, ...more] = findMarkers(text, marks);
	if (begin?.kind !== "begin" || end?.kind !== "end" || more.length > 0) return text;
	const from = text.indexOf(marks.begin, begin.start);
	const to = text.indexOf(marks.end, end.start) + marks.end.length;
	return text.slice(0, from) + text.slice(to);
}

/** The text between the marker lines of the file's one block; undefined when it has none, or broken markers. */
export function markedBlockBody(text: string, marks: Markers = CONTEXT_MARKERS): string | undefined {
	const [begin, end, ...more] = findMarkers(text, marks);
	return begin?.kind === "begin" && end?.kind === "end" && more.length === 0 ? text.slice(begin.next, end.start) : undefined;
}

/**
 * Marker lines, and every other line outside fenced code (`line` 1-based). A fence that is never
 * closed does not count as one (an appended block after it must still be found next time): its
 * line is plain text. One pass, and each opening fence finds its closing line by a jump, never by
 * scanning again, so the scan stays linear however many fences are left open (clipped code
 * replies in a long session).
 */
function scanLines(text: string, marks: Markers): { markers: Marker[]; prose: { line: number; content: string }[] } {
	const lines: { start: number; next: number; content: string }[] = [];
	for (let start = text.startsWith("\ufeff") ? 1 : 0; ; ) {
		const nl = text.indexOf("\n", start);
		const stop = nl < 0 ? text.length : nl;
		lines.push({ start, next: nl < 0 ? text.length : nl + 1, content: text.slice(start, stop).replace(/\r$/, "") });
		if (nl < 0) break;
		start = nl + 1;
	}
	const closers = fenceClosers(lines.map((l) => l.content));
	const markers: Marker[] = [];
	const prose: { line: number; content: string }[] = [];
	for (let i = 0; i < lines.length; i++) {
		const { content, start, next } = lines[i]!;
		const open = fenceOpening(content);
		if (open) {
			const close = closers.after(i, open);
			// Inside the fence until its closing line; a fence never closed is a plain line.
			if (close !== undefined) {
				i = close;
				continue;
			}
		}
		// Four columns of indentation make a line code in Markdown (a file quoting the markers in an
		// indented example had the block written into it): a marker is indented by three spaces at most.
		const trimmed = /^ {0,3}\S/.test(content) ? content.trim() : "";
		if (trimmed === marks.begin) markers.push({ kind: "begin", line: i + 1, start, next });
		else if (trimmed === marks.end) markers.push({ kind: "end", line: i + 1, start, next });
		else prose.push({ line: i + 1, content });
	}
	return { markers, prose };
}

/**
 * The lines that can close a fence (a run of backticks or tildes and nothing else), and for an
 * opening fence the first of them after it that closes it: same character, at least as long.
 * `longer[k]` is the next closer of the same character that is longer than closer `k`, so a query
 * skips every closer too short at once; the jumps from one closer grow strictly in length, and
 * lengths of distinct lines add up to at most the text's length, so a query takes at most about
 * the square root of the text's length in jumps (in practice one or two).
 */
function fenceClosers(contents: readonly string[]): { after(line: number, opening: string): number | undefined } {
	const byChar = new Map<string, { lines: number[]; lengths: number[]; longer: number[] }>();
	for (let line = 0; line < contents.length; line++) {
		const run = closingRun(contents[line]!);
		if (run === undefined) continue;
		const char = run[0]!;
		let list = byChar.get(char);
		if (!list) byChar.set(char, (list = { lines: [], lengths: [], longer: [] }));
		list.lines.push(line);
		list.lengths.push(run.length);
	}
	for (const list of byChar.values()) {
		// Next strictly longer closer, by a stack from the end.
		const stack: number[] = [];
		for (let k = list.lines.length - 1; k >= 0; k--) {
			while (stack.length > 0 && list.lengths[stack[stack.length - 1]!]! <= list.lengths[k]!) stack.pop();
			list.longer[k] = stack.length > 0 ? stack[stack.length - 1]! : -1;
			stack.push(k);
		}
	}
	return {
		after(line, opening) {
			const list = byChar.get(opening[0]!);
			if (!list) return undefined;
			// The first closer after the line (binary search), then jumps past the ones too short.
			let low = 0;
			let high = list.lines.length;
			while (low < high) {
				const mid = (low + high) >> 1;
				if (list.lines[mid]! > line) high = mid;
				else low = mid + 1;
			}
			let k = low < list.lines.length ? low : -1;
			while (k >= 0 && list.lengths[k]! < opening.length) k = list.longer[k]!;
			return k >= 0 ? list.lines[k] : undefined;
		},
	};
}
