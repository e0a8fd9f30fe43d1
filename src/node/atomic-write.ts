import { chmodSync, closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writevSync } from "node:fs";
import { appendFile, open, readdir, readlink, realpath, rename, rm, stat, writeFile, type FileHandle } from "node:fs/promises";
import { openPlainFile, readPlainBytes, readUpTo, whenFilesFree } from "./confined-path";
import { basename, dirname, join } from "node:path";
import { setTimeout } from "node:timers";
import { currentThreadId } from "./thread-id";
import { makeFolder } from "./make-folder";
import { mayBlockOnFiles, outOfFiles } from "./blocking-files";
import { checkWriteFence } from "./write-fence";

let counter = 0;
const madeDirs = new Set<string>();

/**
 * The state's files (and the hooks' checkpoints): they hold conversation text, and what the hooks
 * hand Claude Code as context. Under `umask 000` they were made 0666, for any local user to read
 * and to write words into the next session's context.
 */
export const PRIVATE_FILE_MODE = 0o600;
/** Their folders: in a folder any user may write to, a private file could be replaced by another user's. */
export const PRIVATE_FOLDER_MODE = 0o700;

/** The mode of the folders a file of `mode` needs: private for a private file, else as the umask makes them. */
function folderModeFor(mode: number | undefined): number | undefined {
	return mode === PRIVATE_FILE_MODE ? PRIVATE_FOLDER_MODE : undefined;
}

/**
 * Writes a file whole or not at all: to a temporary file beside it, then renamed over it. No
 * fsync: a crash may lose the latest write, never leave half of one. For vault notes and sync
 * state, where a lost write is redone by the next sync. Folders are made once per process.
 */
export async function writeFileReplacing(path: string, text: string | Uint8Array, mode?: number, unchanged?: () => boolean, fenced = true): Promise<void> {
	if (mayBlockOnFiles()) {
		try {
			return writeFileReplacingSync(path, typeof text === "string" ? text : [text], mode, unchanged, fenced);
		} catch (error) {
			if (!outOfFiles(error)) throw error;
		}
	}
	const dir = dirname(path);
	if (!madeDirs.has(dir)) {
		await makeFolder(dir, folderModeFor(mode));
		madeDirs.add(dir);
	}
	let temp = tempName(path);
	let made = false;
	try {
		// `wx`: a new file or none (see `tempName`).
		const options = { encoding: typeof text === "string" ? ("utf8" as const) : null, flag: "wx", ...(mode === undefined ? {} : { mode }) };
		const create = async (): Promise<void> => {
			for (let tries = 1; ; tries++) {
				try {
					return await whenFilesFree(() => writeFile(temp, text, options));
				} catch (error) {
					if ((error as NodeJS.ErrnoException).code !== "EEXIST" || tries >= TEMP_TRIES) throw error;
					temp = tempName(path, true);
				}
			}
		};
		await create().catch(async (error: NodeJS.ErrnoException) => {
			if (error.code !== "ENOENT") throw error;
			// The folder went away since it was made (the user deleted it): make it again.
			await makeFolder(dir, folderModeFor(mode));
			await create();
		});
		made = true;
		if (unchanged && !unchanged()) throw new ReplacedMeanwhile(path);
		if (fenced) checkWriteFence();
		await rename(temp, path);
	} catch (error) {
		// Ours to remove, half-written (a full disk) too; a name found taken is another's.
		if (made || (error as NodeJS.ErrnoException).code !== "EEXIST") await rm(temp, { force: true }).catch(() => undefined);
		throw namedForTarget(error, temp, path);
	}
}

/**
 * The same, blocking: for worker threads, where blocking stalls no one and costs less. Parts are
 * written one after another. `mode`: exactly this mode, whatever the umask (a note keeps its own).
 */
export function writeFileReplacingSync(path: string, text: string | readonly Uint8Array[], mode?: number, unchanged?: () => boolean, fenced = true): void {
	const dir = dirname(path);
	if (!madeDirs.has(dir)) {
		mkdirSync(dir, { recursive: true, mode: folderModeFor(mode) });
		madeDirs.add(dir);
	}
	let temp = tempName(path);
	let made = false;
	const create = (): void => {
		for (let tries = 1; ; tries++) {
			try {
				return writeWhole(temp, text);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "EEXIST" || tries >= TEMP_TRIES) throw error;
				temp = tempName(path, true);
			}
		}
	};
	try {
		try {
			create();
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			// The folder went away since it was made (the user deleted it): make it again.
			mkdirSync(dir, { recursive: true, mode: folderModeFor(mode) });
			create();
		}
		made = true;
		if (mode !== undefined) chmodSync(temp, mode);
		if (unchanged && !unchanged()) throw new ReplacedMeanwhile(path);
		if (fenced) checkWriteFence();
		renameSync(temp, path);
	} catch (error) {
		// Ours to remove, half-written (a full disk) too; a name found taken is another's.
		if (made || (error as NodeJS.ErrnoException).code !== "EEXIST") rmSync(temp, { force: true });
		throw namedForTarget(error, temp, path);
	}
}

/** A new file holding `text`, or the parts one after another (no copy of them joined); never one already there (`wx`: a link is not followed). */
function writeWhole(path: string, text: string | readonly Uint8Array[]): void {
	if (typeof text === "string") return writeFileSync(path, text, { encoding: "utf8", flag: "wx" });
	const fd = openSync(path, "wx");
	try {
		const total = text.reduce((n, part) => n + part.byteLength, 0);
		// `writev` may write less than asked (a signal, a full pipe): what is left goes again.
		for (let done = 0, parts = [...text]; done < total; ) {
			const wrote = writevSync(fd, parts);
			done += wrote;
			parts = rest(parts, wrote);
		}
	} finally {
		closeSync(fd);
	}
}

/** The parts after the first `n` bytes of them. */
function rest(parts: readonly Uint8Array[], n: number): Uint8Array[] {
	const out: Uint8Array[] = [];
	let skip = n;
	for (const part of parts) {
		if (skip >= part.byteLength) skip -= part.byteLength;
		else {
			out.push(skip === 0 ? part : part.subarray(skip));
			skip = 0;
		}
	}
	return out;
}

/**
 * A failed write names the file it was for, not our temporary file, which is gone by then: "the sync
 * stopped writing …/sync-state.json.12213-0.38.tmp" sent the user looking for a file that is not there.
 * A write through a handle names none (`ENOSPC: no space left on device, write` was all `hooks
 * install` said on a full disk): it is given the file's.
 */
function namedForTarget(error: unknown, temp: string, path: string): unknown {
	const failed = error as NodeJS.ErrnoException | undefined;
	if (failed?.path === temp || (typeof failed?.code === "string" && failed.path === undefined)) failed.path = path;
	return error;
}

/**
 * Unique per process, thread and write: worker threads have their own counter. Its pid tells a killed
 * writer's leftover (`isStaleTemp`). The name can be guessed, so a temporary file is always made new
 * (`wx`): a link planted under it (a vault synced from elsewhere, a hostile checkout) had our text
 * written through it to wherever it led. Taken already, the next name is one no one can guess.
 */
export function tempName(path: string, unguessable = false): string {
	// `crypto` loaded here only, for a name found taken: loading it (OpenSSL's start) was 8 to 15 ms of every CLI run.
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (a `require`: the bundles run as scripts, see `node/code-cache`)
	counter += unguessable ? 1 + (require("node:crypto") as typeof import("node:crypto")).randomInt(2 ** 40) : 1;
	return `${path}.${process.pid}-${currentThreadId()}.${counter}.tmp`;
}

/** How many names a temporary file is tried under before its write fails. */
const TEMP_TRIES = 8;

/**
 * The file was replaced by another program since it was read (an editor that saves by writing a new
 * file and renaming it over the old one, as vim, JetBrains IDEs and many tools do): ours would put
 * their text away for good. The write is not done; the next sync does it.
 */
export class ReplacedMeanwhile extends Error {
	constructor(readonly path: string) {
		super(`${path} was replaced by another program while it was written`);
	}
}

/** Whether `path` is still the file `read` was (the same inode), or still absent when it was. */
function stillTheFile(path: string, read: { dev: number; ino: number } | undefined): boolean {
	const now = statSync(path, { throwIfNoEntry: false });
	return read === undefined ? now === undefined : now !== undefined && now.dev === read.dev && now.ino === read.ino;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

const TEMP = /\.(\d+)-\d+\.\d+\.tmp$/;

/**
 * Whether a file name is one of our temporary files whose process is gone (killed mid-write,
 * `kill -9`): such a file is never renamed into place, and may go.
 */
export function isStaleTemp(name: string, alive: (pid: number) => boolean = processAlive): boolean {
	const pid = TEMP.exec(name)?.[1];
	return pid !== undefined && !alive(Number(pid));
}

/**
 * Removes the temporary files of `path` that a killed process left beside it (`kill -9` mid-write:
 * never renamed into place), in a folder that is not ours alone (a project's, where a leftover would
 * show in `git status` for good). Only ours, by their name, and only those whose process is gone.
 */
export async function removeStaleTemps(path: string): Promise<void> {
	await removeStaleTempsIn(dirname(path), `${basename(path)}.`);
}

/** Removes the temporary files a killed process left directly in `folder` (see `isStaleTemp`), those of names starting with `prefix` only. */
export async function removeStaleTempsIn(folder: string, prefix = ""): Promise<void> {
	const names = await readdir(folder).catch(() => [] as string[]);
	for (const name of names) if (name.startsWith(prefix) && isStaleTemp(name)) await rm(join(folder, name), { force: true }).catch(() => undefined);
}

/** Whether a process with this id runs (one of another user counts: it is there). */
export function processAlive(pid: number): boolean {
	if (pid === process.pid) return true;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/** How long after a replace the old file is watched for bytes still coming in. */
const LATE_APPEND_MS = 3;
/** How long at most the old file is watched: a writer that never stops is not waited for. */
const WATCH_MS = 250;
/**
 * A file written this recently when it was replaced has a writer at work (a script appending, a
 * model writing its memory): its old file must stay still longer before the watch ends, since a
 * write of theirs held off the CPU between its open and its write still goes there (the others,
 * written long ago, cost no more).
 */
const BUSY_MS = 50;
const QUIET_ROUNDS = 2;
const QUIET_ROUNDS_BUSY = 6;
/**
 * How long a file emptied in place is waited on: a save truncates, then writes, and a busy machine
 * may pause the saver between the two; the empty file is its text only if it stays empty so long.
 */
const EMPTIED_MS = 2_000;

/**
 * Replaces a file that another program may be writing to (a person typing into a note, a tool
 * adding lines to CLAUDE.md, an editor saving it), losing none of their bytes. The old file stays
 * open from the compare to after the rename, and what reached it meanwhile (its open handle still
 * sees it) is kept: bytes appended to it are appended to the new file, as they would have been had
 * they come a moment later; a file rewritten in place (an editor's save: Obsidian, VS Code and vim
 * truncate the file and write it whole) is newer than our write, which yields to it: the new file
 * gets their text back, and the write counts as not done (the next sync does it).
 * @param read the text of the current bytes (it may refuse them by throwing)
 * @param replace writes `written` whole and renames it into place
 * @param written needed only when `expected` is a text: a file expected to be absent is never replaced
 * @returns false when the file does not hold `expected` (nothing written), or when another
 * program rewrote it meanwhile (their text kept)
 */
export async function replaceKeepingAppends(path: string, expected: string | null, read: (bytes: Buffer) => string, replace: (unchanged: () => boolean) => Promise<void> | void, written?: string | Uint8Array): Promise<boolean> {
	// A file not there is not opened to be told so (an error made for each of a thousand new notes, measured).
	const old = !existsSync(path)
		? undefined
		: await openPlainFile(path).catch((error: NodeJS.ErrnoException) => {
				if (error.code === "ENOENT") return undefined;
				throw error;
			});
	try {
		const bytes = old ? await old.readFile() : undefined;
		if ((bytes === undefined ? null : read(bytes)) !== expected) return false;
		// Checked again right before the rename: a file renamed over this one since it was opened is newer than ours.
		const id = old ? await old.stat() : undefined;
		try {
			await replace(() => stillTheFile(path, id));
		} catch (error) {
			if (error instanceof ReplacedMeanwhile) return false;
			throw error;
		}
		if (old && bytes) return await carryLateWrites(old, bytes, path, typeof written === "string" ? Buffer.from(written, "utf8") : Buffer.from(written ?? []), 0);
		return true;
	} finally {
		await old?.close();
	}
}

/**
 * Watches the replaced file until it has been still for a moment (bounded in time: a writer that
 * never stops is not waited for). Its whole text is compared once, then again whenever its size or
 * time moves: still starting with what was read, it was appended to; else it was rewritten in
 * place, and is watched on until it is still, then kept. Emptied, it is watched longer (a save
 * truncates, then writes: the empty file between is not their text, and yielding to it would put
 * an empty note in place while their text goes to the file no longer there).
 */
async function carryLateWrites(old: FileHandle, original: Buffer, path: string, written: Buffer, depth: number): Promise<boolean> {
	let kept = original;
	let ours = written;
	let rewritten: { text: Buffer; mode: number } | undefined;
	let seen: { size: number; mtimeMs: number } | undefined;
	let quiet = 0;
	let still = QUIET_ROUNDS;
	const start = Date.now();
	// Read empty and emptied a moment before: a save between its truncation and its write (held off
	// the CPU on a busy machine, its text came after a watch of a few rounds and went to the old file).
	let emptiedUntil = 0;
	const waitingOnEmpty = () => (rewritten ? rewritten.text.length === 0 : kept.length === 0) && Date.now() < Math.max(emptiedUntil, rewritten ? start + EMPTIED_MS : 0);
	const stillEnough = () => !waitingOnEmpty() && (rewritten ? quiet >= 1 || rewritten.text.length === 0 : quiet >= still);
	// Rewritten: given back as soon as it has been still for one round (its next save would go to the new file, over ours).
	for (let round = 0; !stillEnough() && (waitingOnEmpty() || Date.now() - start < WATCH_MS); round++) {
		if (round > 0) await sleep(LATE_APPEND_MS);
		const now = await old.stat();
		if (round === 0 && Date.now() - now.mtimeMs < BUSY_MS) still = QUIET_ROUNDS_BUSY;
		if (round === 0 && original.length === 0 && Date.now() - now.mtimeMs < EMPTIED_MS) emptiedUntil = now.mtimeMs + EMPTIED_MS;
		if (seen && now.size === seen.size && now.mtimeMs === seen.mtimeMs) {
			quiet++;
			continue;
		}
		seen = { size: now.size, mtimeMs: now.mtimeMs };
		const current = await readUpTo(old, Buffer.alloc(now.size));
		// An empty file that gets text is a save completing (truncated when it was read), not an append.
		if (!rewritten && current.length >= kept.length && kept.length > 0 && current.subarray(0, kept.length).equals(kept)) {
			if (current.length === kept.length) {
				quiet++;
				continue;
			}
			ours = await carryLate(path, ours, current.subarray(kept.length), depth);
			kept = current;
		} else if (current.length !== kept.length || !current.equals(kept)) rewritten = { text: current, mode: now.mode };
		else {
			quiet++;
			continue;
		}
		quiet = 0;
	}
	if (!rewritten) return true;
	await yieldTo(path, rewritten.text, ours, rewritten.mode);
	return false;
}

/**
 * How deep late bytes are put in place by a rewrite of the new file (each rewrite is watched the
 * same way). Programs that append without pause put bytes into every replaced file, so a chain
 * goes on while they write: measured in the race tests, chains of up to 13 rewrites; at 3 the
 * rest was appended out of order (each level is bounded by `WATCH_MS`).
 */
const MAX_REORDERS = 16;

/**
 * Puts bytes that reached the old file after the rename into the new one, right after what it held
 * then (`ours`), and returns what the new file holds now. An appender that opened the old file
 * wrote them before any byte a later append put into the new file, so they go before those:
 * appended after them, a script's line 138 came after its line 139. So the new file is opened,
 * read and rewritten whole, and watched as the first one was (what reaches it after the read is
 * carried the same way); past a few levels, or when it no longer starts with ours, they are appended.
 */
async function carryLate(path: string, ours: Buffer, late: Buffer, depth: number): Promise<Buffer> {
	const next = depth < MAX_REORDERS ? await openPlainFile(path).catch(() => undefined) : undefined;
	if (next) {
		try {
			const bytes = await next.readFile();
			if (bytes.length >= ours.length && bytes.subarray(0, ours.length).equals(ours)) {
				const merged = Buffer.concat([ours, late, bytes.subarray(ours.length)]);
				const info = await next.stat();
				// Not written (a full disk): the new file is as it was, and the bytes are appended as before.
				const rewritten = await writeDurably(path, merged, { mode: info.mode & 0o7777, owner: { uid: info.uid, gid: info.gid } }).then(() => true, () => false);
				if (rewritten) {
					await carryLateWrites(next, bytes, path, merged, depth + 1);
					return await readPlainBytes(path).catch(() => merged);
				}
			}
		} finally {
			await next.close();
		}
	}
	await appendFile(path, late);
	return Buffer.concat([ours, late]);
}

/** The new file gets the other program's text, if it still holds ours (else someone wrote it since: theirs stays). Whole or not at all, with the old file's mode. */
async function yieldTo(path: string, theirs: Buffer, ours: Buffer, mode: number): Promise<void> {
	const now = await readPlainBytes(path).catch(() => undefined);
	if (now === undefined || !now.equals(ours)) return;
	// Never held back by a lost lock (see `write-fence`): the bytes are the other program's.
	await writeFileReplacing(path, theirs, mode & 0o7777, undefined, false);
}

/**
 * Writes the file whole, by a temporary file beside it renamed over it: the temporary file has our
 * name (its pid tells a killed writer's leftover, which the next write removes), the existing
 * file's mode and owner (when we may give it: root syncing a user's project), or the mode given, and reaches the disk
 * before the rename (this is the user's file: a crash must leave the old text or the new).
 */
export async function writeDurably(target: string, text: string | Uint8Array, keep: { mode: number; owner?: { uid: number; gid: number } } | undefined, unchanged?: () => boolean): Promise<void> {
	let temp = tempName(target);
	let made = false;
	try {
		let handle: FileHandle | undefined;
		for (let tries = 1; !handle; tries++) {
			handle = await open(temp, "wx", keep?.mode ?? 0o666).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== "EEXIST" || tries >= TEMP_TRIES) throw error;
				temp = tempName(target, true);
				return undefined;
			});
		}
		made = true;
		try {
			await handle.writeFile(text, typeof text === "string" ? "utf8" : null);
			if (keep) {
				// Exactly the mode (the umask took bits from it).
				await handle.chmod(keep.mode);
				if (keep.owner && process.getuid?.() === 0) await handle.chown(keep.owner.uid, keep.owner.gid);
			}
			await handle.sync();
		} finally {
			await handle.close();
		}
		if (unchanged && !unchanged()) throw new ReplacedMeanwhile(target);
		checkWriteFence();
		await rename(temp, target);
	} catch (error) {
		if (made) await rm(temp, { force: true }).catch(() => undefined);
		throw namedForTarget(error, temp, target);
	}
}

/**
 * A file of the user's that another program reads (Claude Code's `settings.json`, an agent's MCP
 * configuration) replaced whole (`writeDurably`): through a link, the link kept; with the file's
 * mode and owner, `newMode` for a new one. What a killed run left beside it goes first (with
 * write-file-atomic, a `settings.json.<hash>` stayed for good after `kill -9`).
 */
export async function writeUserFile(path: string, text: string, newMode?: number): Promise<void> {
	const target = await realpath(path).catch(() => path);
	// A link to a file not there (a dotfiles folder not checked out): renamed over, the link was
	// replaced by a file of ours and the person's link was gone.
	const link = target === path ? await readlink(path).catch(() => undefined) : undefined;
	if (link !== undefined) throw new Error(`${path} is a link to ${link}, which is not there; nothing was changed (restore that file, or remove the link, then run the command again)`);
	const existing = await stat(target).catch(() => undefined);
	await removeStaleTemps(target);
	await writeDurably(target, text, existing ? { mode: existing.mode & 0o7777, owner: { uid: existing.uid, gid: existing.gid } } : newMode === undefined ? undefined : { mode: newMode });
}
