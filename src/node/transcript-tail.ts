import { isUtf8 } from "node:buffer";
import { closeSync, readSync } from "node:fs";
import { clearTimeout, setTimeout } from "node:timers";
import { openPlainFile, openPlainFileSync, readUpTo } from "./confined-path";
import { bulkSkippingDecoder } from "./bulk-fields";
import { type LentLines, MAX_LINE_BYTES, type RawLine, splitCompleteLines, unterminatedLine, type Utf8Decoder } from "../core/transcript/jsonl-lines";
import type { TailCursor } from "../core/transcript/transcript-files";

export type { TailCursor };

export interface TailRead {
	cursor: TailCursor;
	/** True when the file was truncated or replaced: the caller must drop what it folded before. */
	restarted: boolean;
	bytesRead: number;
}

const HEAD_BYTES = 64;

type Crc32 = (data: Uint8Array, value?: number) => number;
let crc32Fn: Crc32 | null | undefined;

/**
 * CRC-32 of bytes, carried on from `value` (Node 20.15 and later; without it no sum is kept, and
 * the head and tail checks alone tell a rewritten file). `zlib` is loaded when a transcript is
 * first read: a sync with nothing to read, and every hook, never load it.
 */
function crc32Of(): Crc32 | undefined {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (a `require`: the bundles run as scripts, see `node/code-cache`)
	if (crc32Fn === undefined) crc32Fn = (require("node:zlib") as { crc32?: Crc32 }).crc32 ?? null;
	return crc32Fn ?? undefined;
}
const NEWLINE = 0x0a;

/**
 * Node's native validation and decoding (several times faster than a fatal TextDecoder), for the
 * complete lines of `buffer`: checked once as a whole, each line then decoded without a check of
 * its own (a newline byte is never inside a character, so the lines of valid bytes are valid; a
 * view and a check per line were a third of the Aider reader's time). Lines of a chunk with
 * invalid bytes somewhere are checked one by one.
 */
function nativeDecoder(buffer: Buffer, skipBulk: boolean): Utf8Decoder {
	const end = buffer.lastIndexOf(0x0a) + 1;
	const decode: Utf8Decoder = isUtf8(end === buffer.length ? buffer : buffer.subarray(0, end))
		? (_bytes, start, stop) => buffer.toString("utf8", start, stop)
		: (_bytes, start, stop) => {
				const line = buffer.subarray(start, stop);
				return isUtf8(line) ? line.toString("utf8") : null;
			};
	return skipBulk ? bulkSkippingDecoder(buffer, decode) : decode;
}
const CHUNK_BYTES = 256 * 1024;

/** The largest transcript read: the corpora's largest is a few tens of MB. */
export const MAX_TRANSCRIPT_BYTES = 4 * 2 ** 30;

/**
 * A last line with no `\n` after it is taken when it is whole JSON and the file has not changed
 * for this long: a writer that puts the newline in a write of its own has done so by then. Below
 * the watcher's shortest debounce (250 ms), so the sync a change starts finds the file settled.
 */
export const SETTLE_MS = 200;

/** Whether a file stamped `mtimeMs` has settled. A stamp in the future (another machine's clock, a network drive) tells nothing: the JSON alone decides then. */
export function hasSettled(mtimeMs: number, now = Date.now()): boolean {
	const age = now - mtimeMs;
	return age >= SETTLE_MS || age < -SETTLE_MS;
}

/**
 * How long a stamp in whole seconds may still change without showing: a file system that keeps
 * seconds only (ext2/3 with small inodes, HFS+, some network mounts) or two (FAT) gives a file
 * rewritten in place, same size, in the second of the read the very stamp it had (its change time
 * too). Attack round 47b: such a rewrite was never read, the note kept the old words for good.
 */
const COARSE_STAMP_MS = 2_000;

/**
 * Whether a file read now may change again under the same stamp: its time is whole seconds (no
 * finer clock kept it) and within `COARSE_STAMP_MS` of now. The read is marked `settling`, so the
 * next sync reads it again, changed or not (as git treats a "racily clean" entry).
 */
export function racyStamp(mtimeMs: number, now = Date.now()): boolean {
	return mtimeMs % 1000 === 0 && Math.abs(now - mtimeMs) < COARSE_STAMP_MS;
}

/** The line objects every read here lends to the batches it hands to `onLines` (see `LentLines`). */
const lent: LentLines = [];

/** Read buffers not in use (a few reads run at once), each twice a chunk: room for a carried rest. */
const spare: Buffer[] = [];

function takeBuffer(chunkBytes: number): Buffer {
	const found = spare.findIndex((b) => b.length === chunkBytes * 2);
	return found >= 0 ? spare.splice(found, 1)[0]! : Buffer.allocUnsafe(chunkBytes * 2);
}

function giveBuffer(buffer: Buffer, chunkBytes: number): void {
	if (buffer.length === chunkBytes * 2) {
		if (spare.length < 8) spare.push(buffer);
		return;
	}
	if (buffer.length > LONG_SPARE_BYTES || (longSpare !== undefined && longSpare.length >= buffer.length)) return;
	longSpare = buffer;
	// Held while reads follow one another (a sync), let go a second after the last: a process that
	// lives on (the plugin, a watcher) keeps no megabytes for one long line.
	if (longSpareTimer !== undefined) clearTimeout(longSpareTimer);
	longSpareTimer = setTimeout(() => {
		longSpare = undefined;
		longSpareTimer = undefined;
	}, LONG_SPARE_MS);
	longSpareTimer.unref();
}

/**
 * A buffer grown for a line longer than a chunk (a pasted image, a large tool result): the last
 * one, reused by the next such line. Grown anew for each line, its pages were each touched fresh
 * (measured, the bench tree's full sync: 71,900 page faults that way, 59,000 this way, and 1.6%
 * less CPU time).
 */
let longSpare: Buffer | undefined;
let longSpareTimer: NodeJS.Timeout | undefined;
const LONG_SPARE_BYTES = 16 * 1024 * 1024;
const LONG_SPARE_MS = 1000;

/** A buffer of at least `bytes` for a long line: the one kept, when it is large enough. */
function takeLonger(bytes: number): Buffer {
	if (longSpare !== undefined && longSpare.length >= bytes) {
		const found = longSpare;
		longSpare = undefined;
		return found;
	}
	return Buffer.allocUnsafe(bytes);
}

/**
 * Reads what was appended to a JSONL file since `cursor`, handing complete lines to `onLines` one
 * chunk at a time (memory stays bounded for multi-GB files). A half-written last line is left
 * for the next read; a last line without its `\n` that is whole JSON is taken once the file has
 * settled (`SETTLE_MS`). A file that shrank, has another inode, or other first bytes is read anew
 * from its start, after `onRestart` tells the caller to drop what it folded before. The lines are
 * lent for the call (see `LentLines`). `skipBulk`:
 * Claude Code's lines, read without the bulk no note is made of (see `bulkSkippingDecoder`).
 */
export async function readAppended(
	path: string,
	cursor: TailCursor | undefined,
	onLines: (lines: RawLine[]) => void,
	options: { onRestart?: () => void; chunkBytes?: number; maxLineBytes?: number; blocking?: boolean; now?: number; skipBulk?: boolean } = {},
): Promise<TailRead> {
	const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
	const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
	const handle = options.blocking ? openBlocking(path) : await openPlainFile(path);
	try {
		const stat = await handle.stat();
		const size = stat.size;
		const ino = Number(stat.ino);
		const settled = hasSettled(stat.mtimeMs, options.now);
		// No agent writes a transcript near this: a sparse file of a terabyte took the sync with it, read byte by byte.
		if (size > MAX_TRANSCRIPT_BYTES) throw new Error(`it is ${(size / 2 ** 30).toFixed(0)} GiB, larger than any transcript (${MAX_TRANSCRIPT_BYTES / 2 ** 30} GiB at most): it is not read`);
		// A first read of a small file: one read gives the lines, the head and the tail (thousands of
		// small files, as Gemini CLI writes them, were mostly system calls).
		if (cursor === undefined && size <= chunkBytes && size <= maxLineBytes) return await readWholeSmall(handle, size, ino, settled, onLines, stat.mtimeMs, isDocument(path), options.skipBulk, chunkBytes);
		const head = await readHead(handle, Math.min(HEAD_BYTES, size));
		let start = cursor ?? { offset: 0, nextLineNo: 1, ino, head: "" };
		let restarted = false;
		if (cursor && (size < cursor.offset || ino !== cursor.ino || rewrittenInPlace(cursor, size, stat.mtimeMs) || !sameHead(cursor, head) || !(await sameTail(handle, cursor)) || !(await samePrefix(handle, cursor, chunkBytes)))) {
			start = { offset: 0, nextLineNo: 1, ino, head: "" };
			restarted = true;
			options.onRestart?.();
		}
		let offset = start.offset;
		let lineNo = start.nextLineNo;
		// The sum of the bytes before `offset` (see `TailCursor.sum`): none when a cursor of an older release had none.
		const crc32 = crc32Of();
		let sum = crc32 === undefined || (start.offset > 0 && start.sum === undefined) ? undefined : (start.sum ?? 0);
		const consumed = (bytes: Uint8Array) => {
			if (sum !== undefined) sum = crc32!(bytes, sum);
		};
		// The newline of a line taken without one: it ends that line, it is not an empty line of its own.
		if (start.open && offset < size) {
			const newline = await newlineAt(handle, offset, size);
			consumed(NEWLINES[newline]!);
			offset += newline;
		}
		let position = offset;
		// One reused buffer per read: the unterminated rest of a chunk moves to its start and the
		// next chunk is read in behind it (fresh buffers per chunk cost page faults and GC). The
		// buffer's first byte is the file's byte at `offset`; its first `carried` bytes hold no `\n`.
		let buffer = takeBuffer(chunkBytes);
		let carried = 0;
		// Inside a line longer than `maxLineBytes`: its bytes are dropped as they come, up to its `\n`.
		let skipping = start.skipping === true;
		let last: { text?: string; settling?: boolean } = {};
		try {
			while (position < size) {
				const want = Math.min(chunkBytes, size - position);
				if (carried + want > buffer.length) {
					// A line longer than the buffer: grow it for this read only.
					const bigger = takeLonger(Math.max(buffer.length * 2, carried + want));
					buffer.copy(bigger, 0, 0, carried);
					giveBuffer(buffer, chunkBytes);
					buffer = bigger;
				}
				const { bytesRead } = await handle.read(buffer, carried, want, position);
				if (bytesRead === 0) break;
				position += bytesRead;
				let bytes = buffer.subarray(0, carried + bytesRead);
				// Only the new bytes are searched for a line's end: a long line is not searched again at every chunk.
				let fresh = carried;
				if (skipping) {
					const end = bytes.indexOf(NEWLINE);
					if (end < 0) {
						consumed(bytes);
						offset = position;
						continue;
					}
					skipping = false;
					lineNo++;
					consumed(bytes.subarray(0, end + 1));
					offset += end + 1;
					buffer.copy(buffer, 0, end + 1, bytes.length);
					bytes = buffer.subarray(0, bytes.length - end - 1);
					fresh = 0;
				}
				if (bytes.indexOf(NEWLINE, fresh) < 0) {
					carried = bytes.length;
					if (carried <= maxLineBytes) continue;
					// Too long to hold: counted as a line that could not be read, and skipped.
					onLines([{ no: lineNo, text: null, tooLong: true }]);
					skipping = true;
					consumed(bytes);
					offset = position;
					carried = 0;
					continue;
				}
				const split = splitCompleteLines(bytes, lineNo, nativeDecoder(bytes, options.skipBulk === true), lent);
				onLines(split.lines);
				lineNo += split.lines.length;
				consumed(bytes.subarray(0, split.consumed));
				offset += split.consumed;
				carried = bytes.length - split.consumed;
				if (carried > 0) buffer.copy(buffer, 0, split.consumed, bytes.length);
			}
			if (position >= size && carried > 0) last = lastLine(buffer.subarray(0, carried), settled, isDocument(path));
			if (last.text !== undefined) {
				onLines([{ no: lineNo, text: last.text }]);
				lineNo++;
				consumed(buffer.subarray(0, carried));
				offset += carried;
			}
		} finally {
			giveBuffer(buffer, chunkBytes);
		}
		// Still open: a line taken without its newline now, or before with nothing come since.
		const stillOpen = last.text !== undefined || (start.open === true && offset === start.offset);
		const flags = { ...(stillOpen ? { open: true as const } : {}), ...(last.settling || racyStamp(stat.mtimeMs, options.now) ? { settling: true as const } : {}), ...(skipping ? { skipping: true as const } : {}) };
		return {
			cursor: { offset, nextLineNo: lineNo, ino, head: head.toString("base64"), tail: (await readBefore(handle, offset)).toString("base64"), ...(sum === undefined ? {} : { sum }), mtimeMs: stat.mtimeMs, ...flags },
			restarted,
			bytesRead: position - start.offset,
		};
	} finally {
		await handle.close();
	}
}

/** Node's check and decoding of one piece of bytes (the unterminated end of a file). */
const decodePiece: Utf8Decoder = (bytes, start, end) => {
	const piece = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
	return isUtf8(piece) ? piece.toString("utf8") : null;
};

/**
 * A file that is one JSON document, not lines (an older Gemini CLI's `session-*.json`, written
 * whole, pretty-printed, no `\n` after its last `}`): its unterminated end is its last line.
 */
export function isDocument(path: string): boolean {
	return path.endsWith(".json");
}

/**
 * The unterminated end of a file: taken as a line when it is whole JSON and the file has settled;
 * `settling` when it is whole JSON but the file changed a moment ago (the next read takes it). Of
 * a `document` (see `isDocument`), whatever it holds, when it is UTF-8, settled or not: the fold
 * reads the whole.
 */
function lastLine(rest: Uint8Array, settled: boolean, document = false): { text?: string; settling?: boolean } {
	// A document is read whole each time it changes (`readsWhole`): one read mid-write is read again.
	if (document) return { text: decodePiece(rest, 0, rest.length) ?? undefined };
	const text = unterminatedLine(rest, decodePiece);
	if (text === undefined) return {};
	return settled ? { text } : { settling: true };
}

/** 1 or 2 when a `\n` (or `\r\n`) is at `offset`, else 0. */
async function newlineAt(handle: ReadHandle, offset: number, size: number): Promise<number> {
	const bytes = Buffer.alloc(Math.min(2, size - offset));
	await handle.read(bytes, 0, bytes.length, offset);
	if (bytes[0] === 0x0a) return 1;
	return bytes[0] === 0x0d && bytes[1] === 0x0a ? 2 : 0;
}

/**
 * The first read of a file no bigger than a chunk, in one read, into a reused buffer: its lines
 * are decoded into strings of their own before it is given back. A fresh buffer per file cost
 * its pages' first touch each time (measured on this kind of machine, where a page fault costs
 * ~12 µs: a third of the Codex reader's faults).
 */
async function readWholeSmall(handle: ReadHandle, size: number, ino: number, settled: boolean, onLines: (lines: RawLine[]) => void, mtimeMs: number, document: boolean, skipBulk: boolean | undefined, chunkBytes: number): Promise<TailRead> {
	const buffer = takeBuffer(chunkBytes);
	try {
		return readWholeBytes(await readUpTo(handle, buffer.subarray(0, size)), ino, onLines, settled, mtimeMs, document, skipBulk);
	} finally {
		giveBuffer(buffer, chunkBytes);
	}
}

/**
 * A first read of a whole file whose bytes are at hand (read by the scan, see `Prefetched`): its
 * lines, head and tail. `settled`: the file has not changed for `SETTLE_MS` (see `hasSettled`).
 */
export function readWholeBytes(read: Buffer, ino: number, onLines: (lines: RawLine[]) => void, settled: boolean, mtimeMs?: number, document = false, skipBulk = false): TailRead {
	const split = splitCompleteLines(read, 1, nativeDecoder(read, skipBulk), lent);
	const last = split.consumed < read.length ? lastLine(read.subarray(split.consumed), settled, document) : {};
	if (last.text !== undefined) split.lines.push({ no: 1 + split.lines.length, text: last.text });
	if (split.lines.length > 0) onLines(split.lines);
	const offset = last.text === undefined ? split.consumed : read.length;
	// Encoded from the bytes where they are: no view or copy of them made (thousands of small files).
	const head = read.toString("base64", 0, Math.min(HEAD_BYTES, read.length));
	const tail = read.toString("base64", Math.max(0, offset - HEAD_BYTES), offset);
	const sum = crc32Of()?.(read.subarray(0, offset));
	const nextLineNo = 1 + split.lines.length;
	// With its sum and time (nearly every file) one literal: four spreads a file were a copy each.
	const cursor: TailCursor =
		sum !== undefined && mtimeMs !== undefined
			? { offset, nextLineNo, ino, head, tail, sum, mtimeMs }
			: { offset, nextLineNo, ino, head, tail, ...(sum === undefined ? {} : { sum }), ...(mtimeMs === undefined ? {} : { mtimeMs }) };
	if (last.text !== undefined) cursor.open = true;
	if (last.settling || (mtimeMs !== undefined && racyStamp(mtimeMs))) cursor.settling = true;
	return { cursor, restarted: false, bytesRead: read.length };
}

/** What a read needs of a file handle. */
interface ReadHandle {
	stat(): Promise<{ size: number; ino: number | bigint; mtimeMs: number }>;
	read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
	close(): Promise<void>;
}

/**
 * The same reads done synchronously, for worker threads: blocking there stalls no one, and it
 * skips the thread-pool round trip and file-handle objects (measured: a fifth of a worker's time).
 */
function openBlocking(path: string): ReadHandle {
	// Refused unless a plain file: a FIFO swapped in since the scan would wait forever.
	const { fd, stats } = openPlainFileSync(path);
	return {
		// Its stat when opened: the file it is (a second `fstat` was a system call a file, thousands of files a scan).
		stat: () => Promise.resolve(stats),
		read: (buffer, offset, length, position) => Promise.resolve({ bytesRead: readSync(fd, buffer, offset, length, position) }),
		close: () => Promise.resolve(closeSync(fd)),
	};
}

async function readHead(handle: ReadHandle, length: number): Promise<Buffer> {
	const buffer = Buffer.alloc(length);
	if (length > 0) await handle.read(buffer, 0, length, 0);
	return buffer;
}

/** The bytes just before `offset` (at most a head's worth). */
async function readBefore(handle: ReadHandle, offset: number): Promise<Buffer> {
	const length = Math.min(HEAD_BYTES, offset);
	const buffer = Buffer.alloc(length);
	if (length > 0) await handle.read(buffer, 0, length, offset - length);
	return buffer;
}

/** The bytes before the cursor are still those it was made after (a cursor of an older release has none to check). */
async function sameTail(handle: ReadHandle, cursor: TailCursor): Promise<boolean> {
	if (cursor.tail === undefined) return true;
	return (await readBefore(handle, cursor.offset)).equals(Buffer.from(cursor.tail, "base64"));
}

/** The `\n` or `\r\n` `newlineAt` found, by its length. */
const NEWLINES = [Buffer.alloc(0), Buffer.from("\n"), Buffer.from("\r\n")];

/**
 * The bytes before the cursor sum as they did (see `TailCursor.sum`): a line read before and
 * changed since in place (a password scrubbed from it, the same length) is read again. Read a
 * chunk at a time; a cursor with no sum (an older release's) has nothing to check.
 */
async function samePrefix(handle: ReadHandle, cursor: TailCursor, chunkBytes: number): Promise<boolean> {
	const crc32 = crc32Of();
	if (cursor.sum === undefined || crc32 === undefined) return true;
	const buffer = takeBuffer(chunkBytes);
	try {
		let sum = 0;
		for (let at = 0; at < cursor.offset; ) {
			const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, cursor.offset - at), at);
			if (bytesRead === 0) return false;
			sum = crc32(buffer.subarray(0, bytesRead), sum);
			at += bytesRead;
		}
		return sum === cursor.sum;
	} finally {
		giveBuffer(buffer, chunkBytes);
	}
}

/** Nothing came past the cursor, yet the file's time moved: not an append, a rewrite (see `TailCursor.mtimeMs`). */
function rewrittenInPlace(cursor: TailCursor, size: number, mtimeMs: number): boolean {
	return cursor.mtimeMs !== undefined && size === cursor.offset && mtimeMs !== cursor.mtimeMs;
}

/** The saved head is a prefix of what the file starts with now (a short file may have grown). */
function sameHead(cursor: TailCursor, head: Buffer): boolean {
	const saved = Buffer.from(cursor.head, "base64");
	if (saved.length > head.length) return false;
	return head.subarray(0, saved.length).equals(saved);
}
