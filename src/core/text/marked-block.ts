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
 * as a line of its own outside fenced code, so quoting one in a code block is harmless. Broken
 * markers (BEGIN without END, END first, two of either) stop the upsert with the line to fix.
 */
export function upsertMarkedBlock(text: string, body: string, marks: Markers = CONTEXT_MARKERS): UpsertResult {
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

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Marker lines outside fenced code. A fence that is never closed does not count as one (an
 * appended block after it must still be found next time), so the scan runs again without it.
 */
function findMarkers(text: string, marks: Markers, unclosed: ReadonlySet<number> = new Set()): Marker[] {
	const markers: Marker[] = [];
	let fence: { chars: string; line: number } | undefined;
	let start = text.startsWith("\ufeff") ? 1 : 0;
	let line = 1;
	for (;;) {
		const nl = text.indexOf("\n", start);
		const stop = nl < 0 ? text.length : nl;
		const content = text.slice(start, stop).replace(/\r$/, "");
		const open = unclosed.has(line) ? null : FENCE.exec(content);
		if (fence !== undefined) {
			// A fence closes with the same character, at least as long, and nothing after it.
			if (open && open[1]![0] === fence.chars[0] && open[1]!.length >= fence.chars.length && content.trim() === open[1]) fence = undefined;
		} else if (open) {
			fence = { chars: open[1]!, line };
		} else {
			const trimmed = content.trim();
			const next = nl < 0 ? text.length : nl + 1;
			if (trimmed === marks.begin) markers.push({ kind: "begin", line, start, next });
			else if (trimmed === marks.end) markers.push({ kind: "end", line, start, next });
		}
		if (nl < 0) break;
		start = nl + 1;
		line++;
	}
	if (fence !== undefined) return findMarkers(text, marks, new Set([...unclosed, fence.line]));
	return markers;
}
