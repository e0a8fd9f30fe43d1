/** One complete line of a JSONL file; `text` is null when its bytes are not valid UTF-8, or are too many (`tooLong`). */
export interface RawLine {
	/** 1-based line number in the file. */
	no: number;
	text: string | null;
	/** Longer than `MAX_LINE_BYTES`: skipped unread (see `unreadable`). */
	tooLong?: true;
	/**
	 * When `text` is null for bytes that are not UTF-8, and they are few: the line with U+FFFD for
	 * each of them. A Latin-1 `é` in a prompt dropped the whole turn; a fold reads this in its place.
	 */
	lossy?: string;
	/**
	 * Fields of the line the reader had apart (opencode's rows: their columns, with `text` the
	 * row's JSON alone), so no line is made of them only to be taken apart again.
	 */
	value?: readonly unknown[];
	/**
	 * With `value`: the line's last field as the value the reader made of the row's columns (an
	 * opencode session's), which `JSON.parse` of its text would give; `text` is not read then.
	 */
	parsed?: unknown;
}

export interface SplitResult {
	lines: RawLine[];
	/** Bytes consumed: everything up to and including the last `\n`. The rest waits for more. */
	consumed: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * A line longer than this is skipped, its bytes never held: no agent writes one near it (an
 * image is a few MB, the corpora's longest line 1 MB), and a reader that held a longer one whole
 * took minutes and failed every sync (a 640 MB line: 155 s, then a string longer than V8 allows).
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * The objects of a line that holds several back to back (`{…}{…}`, blanks between allowed), each
 * as its text; undefined for anything else. Two writes that met leave one: a real Claude Code
 * transcript has its last reply and the session's summary on one line, and both were lost with
 * it. One pass over the line, strings skipped by their escapes; only a line `JSON.parse` refused
 * comes here.
 */
export function objectsOnOneLine(text: string): string[] | undefined {
	const out: string[] = [];
	let depth = 0;
	let start = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 0x5c) i++;
			else if (c === 0x22) inString = false;
		} else if (c === 0x22) {
			if (depth === 0) return undefined;
			inString = true;
		} else if (c === 0x7b || c === 0x5b) {
			if (depth === 0) {
				if (c !== 0x7b) return undefined;
				start = i;
			}
			depth++;
		} else if (c === 0x7d || c === 0x5d) {
			if (--depth < 0) return undefined;
			if (depth === 0) out.push(text.slice(start, i + 1));
		} else if (depth === 0 && c !== 0x20 && c !== 0x09 && c !== 0x0d) {
			return undefined;
		}
	}
	return depth === 0 && !inString && out.length > 1 ? out : undefined;
}

/**
 * A line's text without the NUL characters that keep it from being read, or undefined when it has
 * none or is not text. A raw NUL is never JSON (in a string it is written `\u0000`): a run of them
 * before a line is the zero bytes a file system leaves where a write did not land before a power
 * loss (the next write goes after them, onto the same line), and one inside is stray; either
 * dropped a whole turn. NULs that are a quarter of what follows such a run are UTF-16 text: unread.
 */
export function withoutNuls(text: string): string | undefined {
	if (!text.includes("\u0000")) return undefined;
	const rest = afterNulRun(text);
	return mostlyNul(rest) ? undefined : rest.replaceAll("\u0000", "");
}

/** `text` past the NULs it starts with (see `withoutNuls`). */
export function afterNulRun(text: string): string {
	let start = 0;
	while (start < text.length && text.charCodeAt(start) === 0) start++;
	return start === 0 ? text : text.slice(start);
}

/** Whether a quarter or more of a line's characters are NUL (UTF-16 of ASCII is half); an empty line is no text either. */
export function mostlyNul(text: string): boolean {
	let nul = 0;
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0) nul++;
	return nul * 4 >= text.length;
}

/** Why a line has no text, for the count of malformed lines. */
export function unreadable(line: RawLine): string {
	return line.tooLong ? `longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB: skipped` : "invalid UTF-8";
}
const fatalDecoder = new TextDecoder("utf-8", { fatal: true });
const lossyDecoder = new TextDecoder("utf-8");

/** Decodes the UTF-8 of `bytes` from `start` to `end`, or returns null for invalid bytes. Adapters may pass a faster native one. */
export type Utf8Decoder = (bytes: Uint8Array, start: number, end: number) => string | null;

const decodeUtf8: Utf8Decoder = (bytes, start, end) => {
	try {
		return fatalDecoder.decode(bytes.subarray(start, end));
	} catch {
		return null;
	}
};

/**
 * Splits bytes into complete `\n`-terminated lines. A trailing piece without `\n` is not consumed:
 * it may be a line Claude Code is still writing. Splits on bytes, so a multi-byte character cut
 * between two reads is decoded whole on the next one. Only `\n` ends a line (U+2028 may occur
 * inside JSON strings); a `\r` before it is dropped. Each line is decoded on its own: an ASCII
 * line (about half of a transcript) then becomes a one-byte string, which `JSON.parse` reads
 * much faster than a slice of a block made two-byte by one non-ASCII character somewhere, and no
 * block-sized string is made per read (measured: 40% less CPU to decode and parse a corpus).
 */
export function splitCompleteLines(bytes: Uint8Array, firstLineNo: number, decode: Utf8Decoder = decodeUtf8, lent?: LentLines): SplitResult {
	const end = bytes.lastIndexOf(NEWLINE);
	if (end < 0) return { lines: [], consumed: 0 };
	const lines: RawLine[] = lent ?? [];
	let count = 0;
	let no = firstLineNo;
	for (let start = 0; start <= end; no++, count++) {
		const newline = bytes.indexOf(NEWLINE, start);
		const stop = newline > start && bytes[newline - 1] === CR ? newline - 1 : newline;
		const from = no === 1 ? afterBom(bytes, start, stop) : start;
		const text = decode(bytes, from, stop);
		const lossy = text === null ? mostlyText(lossyDecoder.decode(bytes.subarray(from, stop))) : undefined;
		const line = count < lines.length ? lines[count]! : undefined;
		if (line) {
			line.no = no;
			line.text = text;
			// Set only when it changes: a lent line of a file with no bad byte keeps its shape (`{ no, text }`), as the folds see most.
			if (line.lossy !== lossy) line.lossy = lossy;
		} else lines.push(lossy === undefined ? { no, text } : { no, text, lossy });
		start = newline + 1;
	}
	lines.length = count;
	return { lines, consumed: end + 1 };
}

/**
 * Line objects one reader lends to each batch it hands out, in place of new ones: a batch's lines
 * are folded before the next is split, and a million short objects a read (Aider's history is a
 * line per sentence) outlived the young generation often enough to cost a fifth of the Aider
 * reader (measured: 2.1 s to 1.8 s, 60 MB less memory). Whoever takes such a batch keeps no
 * line, only what it reads from one. It holds the last batch's objects only.
 */
export type LentLines = RawLine[];

/** A line decoded with U+FFFD for its bad bytes, unless they are a quarter of it or more: binary, or UTF-16's byte-order mark, is no text. */
function mostlyText(text: string): string | undefined {
	let bad = 0;
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0xfffd) bad++;
	return bad * 4 >= text.length ? undefined : text;
}

/** Past a UTF-8 byte order mark at `start` (an editor that saved the file may have put one before its first line; JSON has none). */
function afterBom(bytes: Uint8Array, start: number, stop: number): number {
	return stop - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf ? start + 3 : start;
}

/**
 * The last piece of a file that has no `\n` after it, as a line, when it is one whole JSON object
 * or array (what a JSONL line is): such a line cannot grow into another valid one, so it is not
 * a line still being written. Anything else (a half-written object, a bare value, invalid UTF-8)
 * is undefined: it waits for the rest.
 */
export function unterminatedLine(bytes: Uint8Array, decode: Utf8Decoder = decodeUtf8): string | undefined {
	const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
	const text = decode(bytes, 0, end);
	const trimmed = text?.trim() ?? "";
	if (!/^[[{]/.test(trimmed) || !/[\]}]$/.test(trimmed)) return undefined;
	try {
		JSON.parse(trimmed);
	} catch {
		return undefined;
	}
	return text ?? undefined;
}

/**
 * Whether `text.trim() === ""`, without the trimmed copy `trim` makes of a line that ends in
 * spaces (Aider ends every line of its own so: a copy per line, only to be compared and dropped).
 */
export function isBlank(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		// Space, tab, \n, \v, \f, \r; anything past ASCII is left to `trim`, which knows Unicode's spaces.
		if (c === 32 || (c >= 9 && c <= 13)) continue;
		return c > 127 && text.trim() === "";
	}
	return true;
}
