/**
 * Texts kept as their UTF-8 bytes, off the JavaScript heap, until they are wanted. A first read of
 * opencode's database holds every row's JSON until its session is folded: held as strings, each
 * young-generation collection copied them until they were promoted (measured: most of that read's
 * collection time), where bytes in a few large buffers are not looked at.
 */
export class TextBytes {
	private chunk = Buffer.alloc(0);
	private used = 0;

	/** Copies `bytes` in, and says where they are kept. */
	keep(bytes: Uint8Array, into: KeptText): void {
		if (bytes.length > this.chunk.length - this.used) {
			// Not zeroed first: only what `keep` copied in is ever read (zeroing was a second pass over each page).
			this.chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes.length));
			this.used = 0;
		}
		this.chunk.set(bytes, this.used);
		into.chunk = this.chunk;
		into.at = this.used;
		this.used += bytes.length;
		into.end = this.used;
	}
}

/** Where a text's bytes are kept (no chunk: none were). */
export interface KeptText {
	chunk: Buffer | undefined;
	at: number;
	end: number;
}

/** A kept text, decoded (see `textIn`). */
export function keptText(kept: KeptText): string | undefined {
	const { chunk, at, end } = kept;
	return chunk === undefined ? undefined : textIn(chunk, at, end);
}

/**
 * The UTF-8 text of `bytes` from `at` to `end`, decoded as `TextDecoder` decodes it (a leading byte
 * order mark dropped, bytes that are not UTF-8 as U+FFFD), straight from the buffer: no view made
 * for each text, and none of the decoder's checks on each call.
 */
export function textIn(bytes: Buffer, at: number, end: number): string {
	const bom = end - at >= 3 && bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf;
	return bytes.toString("utf8", bom ? at + 3 : at, end);
}

/** Buffers of 1 MiB: few enough to cost nothing to look after, a text larger than that has its own. */
const CHUNK_BYTES = 1024 * 1024;
