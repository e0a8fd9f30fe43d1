import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import { lstat, open, realpath, stat, type FileHandle } from "node:fs/promises";
import { mayBlockOnFiles, outOfFiles } from "./blocking-files";
import { isAbsentFolder } from "./absent-folder";
import { dirname, isAbsolute, relative } from "node:path";
import { setTimeout } from "node:timers";

/** A path the sync may not read or write: it leads outside where it belongs, or is no plain file. */
export class ConfinedPathError extends Error {}

/** Whether `path` is `root` or inside it (both real, absolute paths). */
function inside(path: string, root: string): boolean {
	const rel = relative(root, path);
	return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Checks, before a read or a write, that `path` stays inside `root` once every link is followed
 * (its own, and its folders'), and that it is a plain file when it exists: git ships symbolic
 * links, so a repository's `CLAUDE.md` can point at `~/.bashrc`, and a FIFO would hang the read.
 * A link inside the root (`CLAUDE.md → AGENTS.md`) is fine. Returns the real path to use, so a
 * link changed after the check is not followed; undefined when nothing is there yet.
 * @param what names the file in the message ("CLAUDE.md of /work/app").
 */
export async function confinedFile(root: string, path: string, what: string): Promise<string | undefined> {
	const realRoot = await realpath(root);
	const link = await lstat(path).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") return undefined;
		throw error;
	});
	if (link === undefined) {
		// Not there yet: the folder it would be made in must be inside.
		const folder = await realpath(dirname(path)).catch(() => undefined);
		if (folder !== undefined && !inside(folder, realRoot)) throw new ConfinedPathError(`${what}: its folder leads to ${folder}, outside ${realRoot}; nothing was written`);
		return undefined;
	}
	const real = await realpath(path).catch((error: NodeJS.ErrnoException) => {
		if (link.isSymbolicLink()) throw new ConfinedPathError(`${what} is a link to nowhere (${error.code ?? error.message}); nothing was read or written`);
		throw error;
	});
	if (!inside(real, realRoot)) throw new ConfinedPathError(`${what} is a link to ${real}, outside ${realRoot}; it is neither read nor written (point it inside ${realRoot}, or remove the link)`);
	const target = await stat(real);
	if (!target.isFile()) throw new ConfinedPathError(`${what} is not a plain file (${kindOf(target)}); it is neither read nor written`);
	return real;
}

/**
 * Checks that `folder`, or the nearest folder of it that exists, is inside `root` once links are followed.
 * @param realRoot `root`'s real path, when the caller knows it (one walk of the root's path for many folders).
 */
export async function confinedFolder(root: string, folder: string, what: string, realRoot?: Promise<string>): Promise<void> {
	for (let dir = folder; ; dir = dirname(dir)) {
		// A realpath reads every part of the path as a link; nothing there fails it all the same, and
		// an lstat says so in one call (10,000 enabled projects not there were 50 readlinks each a sync).
		const real = (await isAbsentFolder(dir)) ? undefined : await realpathOf(dir).catch(() => undefined);
		if (real !== undefined) {
			const rootReal = await (realRoot ?? realpathOf(root));
			if (!inside(real, rootReal)) throw new ConfinedPathError(`${what}: its folder leads to ${real}, outside ${rootReal}; nothing was read or written`);
			return;
		}
		if (dirname(dir) === dir) return;
	}
}

/** A real path, blocking where the run may block on files (the CLI: two thread-pool round trips a folder listed were most of a listing's time). */
function realpathOf(path: string): Promise<string> {
	return mayBlockOnFiles() ? Promise.resolve().then(() => realpathSync.native(path)) : realpath(path);
}

function kindOf(s: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
	if (s.isDirectory()) return "a folder";
	if (s.isFIFO()) return "a FIFO";
	if (s.isSocket()) return "a socket";
	if (s.isCharacterDevice() || s.isBlockDevice()) return "a device";
	return "not a regular file";
}

/**
 * A socket cannot be opened at all (ENXIO), so it never reaches the check after the open: it is
 * refused as a FIFO is, in words (a socket as data.json or settings.json said only "(ENXIO)").
 */
function socketRefusal(error: unknown, stats: Stats | undefined, path: string): unknown {
	if ((error as NodeJS.ErrnoException).code !== "ENXIO" || !stats || stats.isFile()) return error;
	return new ConfinedPathError(`${path} is not a plain file (${kindOf(stats)}); it is not read`);
}

/** Tries of an open refused for want of a file descriptor, and the wait before the first retry (doubled each time, ~5 s in all). */
const FD_TRIES = 10;
const FD_WAIT_MS = 5;

/**
 * `open` (or a write that opens), tried again while it is refused for want of a file descriptor
 * (EMFILE, ENFILE): the state's files are read and written several at once, and under `ulimit -n
 * 32` (Node holds 20 of them itself) every sync stopped on one. Those that got theirs close them
 * in a moment; one that waits holds none.
 */
export async function whenFilesFree<T>(opening: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await opening();
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if ((code !== "EMFILE" && code !== "ENFILE") || attempt >= FD_TRIES) throw error;
			await new Promise((resolve) => setTimeout(resolve, FD_WAIT_MS << attempt));
		}
	}
}

/**
 * Opens a file for reading only if it is a plain file: opened without blocking (a FIFO would wait
 * for a writer forever, holding the sync's lock fresh all the while), then checked.
 */
export async function openPlainFile(path: string): Promise<FileHandle> {
	return (await openPlain(path)).handle;
}

async function openPlain(path: string): Promise<{ handle: FileHandle; stats: Stats }> {
	const handle = await whenFilesFree(() => open(path, constants.O_NONBLOCK === undefined ? "r" : constants.O_RDONLY | constants.O_NONBLOCK)).catch(async (error: unknown) => {
		throw socketRefusal(error, await stat(path).catch(() => undefined), path);
	});
	const stats = await handle.stat();
	if (stats.isFile()) return { handle, stats };
	await handle.close();
	throw new ConfinedPathError(`${path} is not a plain file (${kindOf(stats)}); it is not read`);
}

/**
 * The most a file read whole may hold. Past it the read is refused with a sentence: a file of
 * 600 MB (a repository's `CLAUDE.md`) gave V8's "Cannot create a string longer than 0x1fffffe8
 * characters" at every sync, after holding the bytes. Callers that read what another program
 * writes pass less (`INSTRUCTION_FILE_MAX_BYTES`).
 */
export const WHOLE_FILE_MAX_BYTES = 256 * 1024 * 1024;

/** An instruction or memory file (CLAUDE.md, AGENTS.md, a memory fact): what an agent reads at every start is never near this. */
export const INSTRUCTION_FILE_MAX_BYTES = 64 * 1024 * 1024;

function refuseLarger(path: string, size: number, maxBytes: number): void {
	const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
	if (size > maxBytes) throw new ConfinedPathError(`${path} is ${mib(size)}, more than the ${mib(maxBytes)} a file read whole may hold; it is left as it is`);
}

/** Fills `buffer` from the start of an open file, read by read; the part filled (shorter when the file is). */
export async function readUpTo(handle: { read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> }, buffer: Buffer): Promise<Buffer> {
	let filled = 0;
	while (filled < buffer.length) {
		const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
		if (bytesRead === 0) break;
		filled += bytesRead;
	}
	return filled === buffer.length ? buffer : buffer.subarray(0, filled);
}

/**
 * The bytes as text, refused when they are not UTF-8 (Windows PowerShell 5 writes UTF-16LE with a
 * BOM; Latin-1 and CESU-8 are seen too): decoding would put U+FFFD in, and writing the text back
 * would change bytes that are not ours.
 */
export function utf8Text(path: string, bytes: Buffer): string {
	if (!isUtf8(bytes)) throw new Error(`${path} is not UTF-8 (${encodingGuess(bytes)}); it is left as it is (save it as UTF-8 to have it synced)`);
	return bytes.toString("utf8");
}

function encodingGuess(bytes: Buffer): string {
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return "UTF-16LE, by its byte order mark";
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return "UTF-16BE, by its byte order mark";
	return "perhaps Latin-1 or CESU-8";
}

/** The text of a plain file that is UTF-8 (see `utf8Text`); null when there is none (ENOENT). */
export async function readPlainUtf8IfThere(path: string, maxBytes = WHOLE_FILE_MAX_BYTES): Promise<string | null> {
	return readPlainBytes(path, maxBytes).then(
		(bytes) => utf8Text(path, bytes),
		(error: NodeJS.ErrnoException) => {
			if (error.code === "ENOENT") return null;
			throw error;
		},
	);
}

/** The text of a plain file (see `openPlainFile`). */
export async function readPlainFile(path: string): Promise<string> {
	return (await readPlainBytes(path)).toString("utf8");
}

/** The bytes of a plain file (see `openPlainFile`), refused past `maxBytes`. */
export async function readPlainBytes(path: string, maxBytes = WHOLE_FILE_MAX_BYTES): Promise<Buffer> {
	if (mayBlockOnFiles()) {
		try {
			return readPlainBytesSync(path, maxBytes);
		} catch (error) {
			if (!outOfFiles(error)) throw error;
		}
	}
	const { handle, stats } = await openPlain(path);
	try {
		refuseLarger(path, stats.size, maxBytes);
		return await handle.readFile();
	} finally {
		await handle.close();
	}
}

/** The text of a plain file, or null when there is none (ENOENT); any other failure throws. */
export async function readPlainFileIfThere(path: string): Promise<string | null> {
	return readPlainFile(path).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") return null;
		throw error;
	});
}

/**
 * A plain file opened for blocking reads, with its stat: opened without blocking (a FIFO would
 * wait for a writer forever) and refused, closed, unless it is a plain file. The caller closes `fd`.
 */
export function openPlainFileSync(path: string): { fd: number; stats: Stats } {
	let fd: number;
	try {
		fd = openSync(path, constants.O_NONBLOCK === undefined ? "r" : constants.O_RDONLY | constants.O_NONBLOCK);
	} catch (error) {
		throw socketRefusal(error, statSync(path, { throwIfNoEntry: false }), path);
	}
	const stats = fstatSync(fd);
	if (!stats.isFile()) {
		closeSync(fd);
		throw new ConfinedPathError(`${path} is not a plain file (${kindOf(stats)}); it is not read`);
	}
	return { fd, stats };
}

/** The bytes of a plain file, read blocking (see `openPlainFileSync`): a FIFO or a device is refused, not waited on. */
export function readPlainBytesSync(path: string, maxBytes = WHOLE_FILE_MAX_BYTES): Buffer {
	const { fd, stats } = openPlainFileSync(path);
	try {
		refuseLarger(path, stats.size, maxBytes);
		return readFileSync(fd);
	} finally {
		closeSync(fd);
	}
}

/**
 * The first `bytes` of a plain file, read blocking (a scan reads thousands of small heads: a
 * thread-pool round trip each was most of its time); a FIFO or a device is refused the same way.
 */
export function readPlainHeadSync(path: string, bytes: number): string {
	return readPlainHeadAndStatSync(path, bytes).head.toString("utf8");
}

/** The first `bytes` of a plain file as `readPlainHeadSync` reads them, and its stat from the same open (a scan that needs both makes one open). */
export function readPlainHeadAndStatSync(path: string, bytes: number, into?: Buffer, at = 0): { head: Buffer; stats: Stats } {
	const { fd, stats } = openPlainFileSync(path);
	try {
		// `into` (from `at`): where to read, a part of a larger buffer the caller keeps, with room for
		// `bytes`. Read into in place: one view of it made, for what was read.
		const buffer = into ?? Buffer.allocUnsafe(Math.min(bytes, stats.size));
		const start = into ? at : 0;
		const want = Math.min(bytes, stats.size);
		let read = 0;
		while (read < want) {
			const n = readSync(fd, buffer, start + read, want - read, read);
			if (n === 0) break;
			read += n;
		}
		return { head: start === 0 && read === buffer.length ? buffer : buffer.subarray(start, start + read), stats };
	} finally {
		closeSync(fd);
	}
}
