/**
 * Texts kept as their UTF-8 bytes, off the JavaScript heap, until they are wanted. A first read of
 * opencode's database holds every row's JSON until its session is folded: held as strings, each
 * young-generation collection copied them until they were promoted (measured: most of that read's
 * collection time), where bytes in a few large buffers are not looked at.
 */
export class TextBytes {
	private chunk = new Uint8Array(0);
	private used = 0;

	/** Copies `bytes` in, and says where they are kept. */
	keep(bytes: Uint8Array, into: KeptText): void {
		if (bytes.length > this.chunk.length - this.used) {
			this.chunk = new Uint8Array(Math.max(CHUNK_BYTES, bytes.length));
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
	chunk: Uint8Array | undefined;
	at: number;
	end: number;
}

/** A text's bytes, as kept. */
export function keptBytes(kept: KeptText): Uint8Array | undefined {
	return kept.chunk?.subarray(kept.at, kept.end);
}

/** Buffers of 1 MiB: few enough to cost nothing to look after, a text larger than that has its own. */
const CHUNK_BYTES = 1024 * 1024;
