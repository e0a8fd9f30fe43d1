import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { threadId } from "node:worker_threads";

let counter = 0;
const madeDirs = new Set<string>();

/**
 * Writes a file whole or not at all: to a temporary file beside it, then renamed over it. No
 * fsync: a crash may lose the latest write, never leave half of one. For vault notes and sync
 * state, where a lost write is redone by the next sync. Folders are made once per process.
 */
export async function writeFileReplacing(path: string, text: string): Promise<void> {
	const dir = dirname(path);
	if (!madeDirs.has(dir)) {
		await mkdir(dir, { recursive: true });
		madeDirs.add(dir);
	}
	const temp = tempName(path);
	try {
		await writeFile(temp, text, "utf8").catch(async (error: NodeJS.ErrnoException) => {
			if (error.code !== "ENOENT") throw error;
			// The folder went away since it was made (the user deleted it): make it again.
			await mkdir(dir, { recursive: true });
			await writeFile(temp, text, "utf8");
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
