import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";

/**
 * A read-only view of an SQLite database as another process (opencode) leaves it in WAL mode: the
 * main file with the pages of the write-ahead log's committed frames laid over it, read straight
 * from the two files, page by page, as SQLite asks for them. Nothing is written, no lock is taken
 * and the `-shm` index is never opened: the log is read by the format
 * (https://www.sqlite.org/fileformat.html#the_write_ahead_log) — its header and each frame's
 * salts and running checksum; the frames after the last valid commit frame are left out, as
 * SQLite leaves them.
 *
 * The view is of one moment: `stillValid` says whether it still is (a checkpoint wrote into the
 * main file, or the log was started over, while it was read), and the caller reads again.
 */
export interface FileStamp {
	size: number;
	mtimeMs: number;
	ino: number;
}

export class SqliteImage {
	readonly pageSize: number;
	/** Pages in the database as of the last commit. */
	readonly pageCount: number;
	/** Frames of the log in use (up to the last commit). */
	readonly walFrames: number;
	private readonly dbFd: number;
	private readonly walFd: number | undefined;
	/** Page number → offset of its data in the log, for the last committed frame of each page. */
	private readonly walPages: Map<number, number>;
	private readonly walSalt: string;
	private readonly dbStamp: FileStamp;

	private constructor(readonly path: string, parts: { pageSize: number; pageCount: number; dbFd: number; walFd: number | undefined; walPages: Map<number, number>; walFrames: number; walSalt: string; dbStamp: FileStamp }) {
		this.pageSize = parts.pageSize;
		this.pageCount = parts.pageCount;
		this.dbFd = parts.dbFd;
		this.walFd = parts.walFd;
		this.walPages = parts.walPages;
		this.walFrames = parts.walFrames;
		this.walSalt = parts.walSalt;
		this.dbStamp = parts.dbStamp;
	}

	/** Opens `path` and its `-wal` for reading; throws when the main file cannot be read or is no SQLite database (the caller names the path). */
	static open(path: string): SqliteImage {
		const dbFd = openForReading(path);
		let walFd: number | undefined;
		try {
			const stat = fstatSync(dbFd);
			if (!stat.isFile()) throw new Error("not a file");
			const header = Buffer.alloc(100);
			const got = readSync(dbFd, header, 0, 100, 0);
			if (got > 0 && (got < 100 || header.toString("latin1", 0, 16) !== "SQLite format 3\u0000")) throw new Error("not an SQLite database");
			let pageSize = got === 100 ? header.readUInt16BE(16) : 0;
			if (pageSize === 1) pageSize = 65_536;
			try {
				walFd = openForReading(`${path}-wal`);
				if (!fstatSync(walFd).isFile()) throw new Error("its -wal is not a file");
			} catch (error) {
				if (walFd !== undefined) closeSync(walFd);
				walFd = undefined;
				// No log: everything is in the main file. Anything else there is not read.
				if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			}
			const wal = walFd === undefined ? undefined : readWal(walFd);
			if (wal && pageSize !== 0 && wal.pageSize !== pageSize) throw new Error(`the log's page size (${wal.pageSize}) is not the database's (${pageSize})`);
			// A database just made (an empty main file, nothing committed yet) is an empty database.
			pageSize ||= wal?.pageSize ?? (stat.size === 0 ? 4096 : 0);
			if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new Error("no valid page size");
			const pageCount = wal?.pageCount ?? Math.floor(stat.size / pageSize);
			// A log whose header fails is not used, but is watched as one that is: by the bytes where its salts are
			// (compared with "", every read of such a log was taken for one overlapping a checkpoint, and failed).
			const walSalt = wal?.salt ?? (walFd === undefined ? "" : saltBytes(walFd));
			return new SqliteImage(path, { pageSize, pageCount, dbFd, walFd, walPages: wal?.pages ?? new Map<number, number>(), walFrames: wal?.frames ?? 0, walSalt, dbStamp: stampOf(stat) });
		} catch (error) {
			closeSync(dbFd);
			if (walFd !== undefined) closeSync(walFd);
			throw error;
		}
	}

	get size(): number {
		return this.pageCount * this.pageSize;
	}

	/**
	 * Fills `target` with the bytes at `offset` of the database as of the last commit. Page 1 says
	 * "rollback journal" (bytes 18–19), so SQLite reading the view looks for no log of its own.
	 * Returns false when the read went past the end (the rest is zeros), as a short read.
	 */
	read(target: Uint8Array, offset: number): boolean {
		let done = 0;
		while (done < target.length) {
			const at = offset + done;
			const page = Math.floor(at / this.pageSize) + 1;
			const within = at - (page - 1) * this.pageSize;
			const n = Math.min(this.pageSize - within, target.length - done);
			if (page > this.pageCount) {
				target.fill(0, done);
				return false;
			}
			const inWal = this.walPages.get(page);
			const got = inWal !== undefined && this.walFd !== undefined ? readSync(this.walFd, target, done, n, inWal + within) : readSync(this.dbFd, target, done, n, at);
			if (got < n) target.fill(0, done + got, done + n);
			if (page === 1 && within <= 19 && within + n > 18) {
				if (within <= 18) target[done + 18 - within] = 1;
				if (within + n > 19) target[done + 19 - within] = 1;
			}
			done += n;
		}
		return true;
	}

	/**
	 * Whether what was read is still one moment of the database: the main file was not written
	 * (a checkpoint copies the log into it) and the log was not started over (new salts) since
	 * `open`. Frames appended meanwhile do not matter: they are past the commit the view stops at.
	 */
	stillValid(): boolean {
		try {
			const db = statSync(this.path);
			if (!sameStamp(stampOf(db), this.dbStamp)) return false;
			if (this.walFd === undefined) return statSync(`${this.path}-wal`, { throwIfNoEntry: false }) === undefined;
			return saltBytes(this.walFd) === this.walSalt;
		} catch {
			return false;
		}
	}

	close(): void {
		closeSync(this.dbFd);
		if (this.walFd !== undefined) closeSync(this.walFd);
	}
}

/** Never blocks on a FIFO put where a database was (it is then refused as no file). */
/**
 * A database file or its log, opened without following a link: the scan refuses a database that is
 * one, and a `-wal` linked elsewhere would lay another file's pages over it (what that file holds
 * would reach the notes). Not waiting on a FIFO.
 */
function openForReading(path: string): number {
	try {
		return openSync(path, constants.O_NONBLOCK === undefined ? "r" : constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new Error(`${path.endsWith("-wal") ? "its -wal" : "it"} is a symbolic link, which is not followed`);
		throw error;
	}
}

const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_VERSION = 3_007_000;
const FRAME_HEADER = 24;
/** Frames read from the log at a time. */
const FRAMES_PER_READ = 64;

interface WalIndex {
	pageSize: number;
	/** Database size in pages at the last commit; undefined when nothing was committed. */
	pageCount: number | undefined;
	pages: Map<number, number>;
	frames: number;
	/** Hex of the header's salts, to tell the log was started over. */
	salt: string;
}

/** Hex of the bytes a log's header keeps its salts in; "" when it has no whole header. */
function saltBytes(fd: number): string {
	const header = Buffer.alloc(32);
	const got = readSync(fd, header, 0, 32, 0);
	return got === 32 ? header.toString("hex", 16, 24) : "";
}

/** The committed frames of a log, or undefined when it has no valid header (SQLite ignores such a log). */
function readWal(fd: number): WalIndex | undefined {
	const size = fstatSync(fd).size;
	const header = Buffer.alloc(32);
	if (size < 32 || readSync(fd, header, 0, 32, 0) < 32) return undefined;
	const magic = header.readUInt32BE(0);
	if ((magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) || header.readUInt32BE(4) !== WAL_VERSION) return undefined;
	const bigEndian = magic === WAL_MAGIC_BE;
	const pageSize = header.readUInt32BE(8) || 65_536;
	if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
	const sum: Sum = [0, 0];
	checksum(header, 0, 24, sum, bigEndian);
	if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return undefined;
	const salt1 = header.readUInt32BE(16);
	const salt2 = header.readUInt32BE(20);
	const frameSize = FRAME_HEADER + pageSize;
	const pages = new Map<number, number>();
	const pending = new Map<number, number>();
	let pageCount: number | undefined;
	let frames = 0;
	let frame = 0;
	// Its own memory, so its 32-bit words line up for `checksum`.
	const block = Buffer.from(new ArrayBuffer(frameSize * FRAMES_PER_READ));
	const words = new Uint32Array(block.buffer);
	read: for (let at = 32; at + frameSize <= size; ) {
		const want = Math.min(FRAMES_PER_READ, Math.floor((size - at) / frameSize));
		const got = Math.floor(readSync(fd, block, 0, want * frameSize, at) / frameSize);
		if (got === 0) break;
		for (let i = 0; i < got; i++, at += frameSize) {
			const f = i * frameSize;
			frame++;
			// A frame of an earlier use of the log (other salts), or one being written: the log ends here.
			if (block.readUInt32BE(f + 8) !== salt1 || block.readUInt32BE(f + 12) !== salt2) break read;
			checksum(block, f, 8, sum, bigEndian, words);
			checksum(block, f + FRAME_HEADER, pageSize, sum, bigEndian, words);
			if (sum[0] !== block.readUInt32BE(f + 16) || sum[1] !== block.readUInt32BE(f + 20)) break read;
			const page = block.readUInt32BE(f);
			if (page === 0) break read;
			pending.set(page, at + FRAME_HEADER);
			const commit = block.readUInt32BE(f + 4);
			if (commit !== 0) {
				for (const [p, offset] of pending) pages.set(p, offset);
				pending.clear();
				pageCount = commit;
				frames = frame;
			}
		}
	}
	// Pages past the committed size (the database shrank) are not part of it.
	if (pageCount !== undefined) for (const p of pages.keys()) if (p > pageCount) pages.delete(p);
	return { pageSize, pageCount, pages, frames, salt: header.toString("hex", 16, 24) };
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A WAL checksum's two words, carried from frame to frame. */
type Sum = [number, number];

/**
 * SQLite's WAL checksum, over 32-bit words in the log's byte order, carried on in `sum` (in place:
 * two calls a frame made a view and an array each, a tenth of what the opencode reader allocated).
 * `words`: `buf`'s whole memory as words, when `buf` starts it.
 */
function checksum(buf: Buffer, offset: number, length: number, sum: Sum, bigEndian: boolean, words?: Uint32Array): void {
	let s0 = sum[0];
	let s1 = sum[1];
	const end = offset + length;
	if (bigEndian === !LITTLE_ENDIAN_HOST && words !== undefined && buf.byteOffset === 0 && offset % 4 === 0) {
		// The log's order is this machine's: the words read as they lie (a 60 MiB log: a fifth of the time).
		for (let i = offset / 4, last = end / 4; i < last; i += 2) {
			s0 = (s0 + words[i]! + s1) >>> 0;
			s1 = (s1 + words[i + 1]! + s0) >>> 0;
		}
	} else if (bigEndian) {
		for (let i = offset; i < end; i += 8) {
			s0 = (s0 + buf.readUInt32BE(i) + s1) >>> 0;
			s1 = (s1 + buf.readUInt32BE(i + 4) + s0) >>> 0;
		}
	} else {
		for (let i = offset; i < end; i += 8) {
			s0 = (s0 + buf.readUInt32LE(i) + s1) >>> 0;
			s1 = (s1 + buf.readUInt32LE(i + 4) + s0) >>> 0;
		}
	}
	sum[0] = s0;
	sum[1] = s1;
}

function stampOf(s: { size: number; mtimeMs: number; ino: number | bigint }): FileStamp {
	return { size: s.size, mtimeMs: s.mtimeMs, ino: Number(s.ino) };
}

function sameStamp(a: FileStamp, b: FileStamp): boolean {
	return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** The stamp of a database's files (main file and log) as one string; undefined when the main file is not there. */
/** When a database was last written: its file's or its log's time, whichever is later (0 when neither can be looked at). */
export function databaseWrittenMs(path: string): number {
	const db = statSync(path, { throwIfNoEntry: false });
	const wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
	return Math.max(db?.mtimeMs ?? 0, wal?.mtimeMs ?? 0);
}

export function databaseStamp(path: string): string | undefined {
	const db = statSync(path, { throwIfNoEntry: false });
	if (!db?.isFile()) return undefined;
	const wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
	return `${db.size}:${db.mtimeMs}:${Number(db.ino)}/${wal ? `${wal.size}:${wal.mtimeMs}:${Number(wal.ino)}` : "-"}`;
}
