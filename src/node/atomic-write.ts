import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { appendFile, mkdir, rename, rm, writeFile, type FileHandle } from "node:fs/promises";
import { openPlainFile } from "./confined-path";
import { setTimeout as sleep } from "node:timers/promises";
import { dirname } from "node:path";
import { threadId } from "node:worker_threads";

let counter = 0;
const madeDirs = new Set<string>();

/**
 * Writes a file whole or not at all: to a temporary file beside it, then renamed over it. No
 * fsync: a crash may lose the latest write, never leave half of one. For vault notes and sync
 * state, where a lost write is redone by the next sync. Folders are made once per process.
 */
export async function writeFileReplacing(path: string, text: string | Uint8Array): Promise<void> {
	const dir = dirname(path);
	if (!madeDirs.has(dir)) {
		await mkdir(dir, { recursive: true });
		madeDirs.add(dir);
	}
	const temp = tempName(path);
	try {
		const encoding = typeof text === "string" ? "utf8" : undefined;
		await writeFile(temp, text, encoding).catch(async (error: NodeJS.ErrnoException) => {
			if (error.code !== "ENOENT") throw error;
			// The folder went away since it was made (the user deleted it): make it again.
			await mkdir(dir, { recursive: true });
			await writeFile(temp, text, encoding);
		});
		await rename(temp, path);
	} catch (error) {
		await rm(temp, { force: true }).catch(() => undefined);
		throw error;
	}
}

/** The same, blocking: for worker threads, where blocking stalls no one and costs less. */
export function writeFileReplacingSync(path: string, text: string): void {
	const dir = dirname(path);
	if (!madeDirs.has(dir)) {
		mkdirSync(dir, { recursive: true });
		madeDirs.add(dir);
	}
	const temp = tempName(path);
	try {
		try {
			writeFileSync(temp, text, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
			// The folder went away since it was made (the user deleted it): make it again.
			mkdirSync(dir, { recursive: true });
			writeFileSync(temp, text, "utf8");
		}
		renameSync(temp, path);
	} catch (error) {
		rmSync(temp, { force: true });
		throw error;
	}
}

/** Unique per process, thread and write: worker threads have their own counter. */
function tempName(path: string): string {
	return `${path}.${process.pid}-${threadId}.${++counter}.tmp`;
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

function processAlive(pid: number): boolean {
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

/**
 * Replaces a file that another program may be appending to (a person typing into a note, a tool
 * adding lines to CLAUDE.md), losing none of their bytes. The old file stays open from the
 * compare to after the rename: bytes that reached it meanwhile (its open handle still sees them)
 * are appended to the new file, as they would have been had they come a moment later.
 * @param read the text of the current bytes (it may refuse them by throwing)
 * @param replace writes the new file whole and renames it into place
 * @returns false, writing nothing, when the file does not hold `expected`
 */
export async function replaceKeepingAppends(path: string, expected: string | null, read: (bytes: Buffer) => string, replace: () => Promise<void> | void): Promise<boolean> {
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
		await replace();
		if (old && bytes) await carryLateAppends(old, bytes.length, path);
		return true;
	} finally {
		await old?.close();
	}
}

async function carryLateAppends(old: FileHandle, from: number, path: string): Promise<void> {
	let quiet = 0;
	// Watched until it has been still for a moment (bounded: a writer that never stops is not waited for).
	for (let round = 0; round < 50 && quiet < 2; round++) {
		if (round > 0) await sleep(LATE_APPEND_MS);
		const size = (await old.stat()).size;
		if (size <= from) {
			quiet++;
			continue;
		}
		quiet = 0;
		const late = Buffer.alloc(size - from);
		await old.read(late, 0, late.length, from);
		await appendFile(path, late);
		from = size;
	}
}
