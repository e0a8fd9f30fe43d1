/** One complete line of a JSONL file; `text` is null when its bytes are not valid UTF-8. */
export interface RawLine {
	/** 1-based line number in the file. */
	no: number;
	text: string | null;
}

export interface SplitResult {
	lines: RawLine[];
	/** Bytes consumed: everything up to and including the last `\n`. The rest waits for more. */
	consumed: number;
}

const NEWLINE = 0x0a;
const fatalDecoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Splits bytes into complete `\n`-terminated lines. A trailing piece without `\n` is not consumed:
 * it may be a line Claude Code is still writing. Splits on bytes, so a multi-byte character cut
 * between two reads is decoded whole on the next one. Only `\n` ends a line (U+2028 may occur
 * inside JSON strings); a `\r` before it is dropped.
 */
export function splitCompleteLines(bytes: Uint8Array, firstLineNo: number): SplitResult {
	const end = bytes.lastIndexOf(NEWLINE);
	if (end < 0) return { lines: [], consumed: 0 };
	const body = bytes.subarray(0, end);
	let pieces: (string | null)[];
	try {
		// Fast path: the whole block is valid UTF-8, decode once and split.
		pieces = fatalDecoder.decode(body).split("\n");
	} catch {
		pieces = splitAndDecodeEach(body);
	}
	const lines: RawLine[] = [];
	let no = firstLineNo;
	for (const piece of pieces) {
		const text = piece !== null && piece.endsWith("\r") ? piece.slice(0, -1) : piece;
		lines.push({ no, text });
		no++;
	}
	return { lines, consumed: end + 1 };
}

/** Slow path for a block holding invalid UTF-8: find which lines are bad. */
function splitAndDecodeEach(body: Uint8Array): (string | null)[] {
	const pieces: (string | null)[] = [];
	let start = 0;
	for (;;) {
		const nl = body.indexOf(NEWLINE, start);
		const stop = nl < 0 ? body.length : nl;
		try {
			pieces.push(fatalDecoder.decode(body.subarray(start, stop)));
		} catch {
			pieces.push(null);
		}
		if (nl < 0) return pieces;
		start = nl + 1;
	}
}
