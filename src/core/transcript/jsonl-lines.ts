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

/** Decodes UTF-8, or returns null for invalid bytes. Adapters may pass a faster native one. */
export type Utf8Decoder = (bytes: Uint8Array) => string | null;

export const decodeUtf8: Utf8Decoder = (bytes) => {
	try {
		return fatalDecoder.decode(bytes);
	} catch {
		return null;
	}
};

/**
 * Splits bytes into complete `\n`-terminated lines. A trailing piece without `\n` is not consumed:
 * it may be a line Claude Code is still writing. Splits on bytes, so a multi-byte character cut
 * between two reads is decoded whole on the next one. Only `\n` ends a line (U+2028 may occur
 * inside JSON strings); a `\r` before it is dropped.
 */
export function splitCompleteLines(bytes: Uint8Array, firstLineNo: number, decode: Utf8Decoder = decodeUtf8): SplitResult {
	const end = bytes.lastIndexOf(NEWLINE);
	if (end < 0) return { lines: [], consumed: 0 };
	const body = bytes.subarray(0, end);
	// Fast path: the whole block is valid UTF-8, decode once and split.
	const whole = decode(body);
	const pieces = whole !== null ? whole.split("\n") : splitAndDecodeEach(body, decode);
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
function splitAndDecodeEach(body: Uint8Array, decode: Utf8Decoder): (string | null)[] {
	const pieces: (string | null)[] = [];
	let start = 0;
	for (;;) {
		const nl = body.indexOf(NEWLINE, start);
		const stop = nl < 0 ? body.length : nl;
		pieces.push(decode(body.subarray(start, stop)));
		if (nl < 0) return pieces;
		start = nl + 1;
	}
}
