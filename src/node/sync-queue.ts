import { open, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { openPlainFile, readUpTo } from "./confined-path";
import { isAlive } from "./sync-lock";

/**
 * One place in line for the syncs Claude Code's hooks start in the background: a sync waiting for
 * the lock will read every transcript once it has it, so a second one waiting beside it has nothing
 * of its own to read. Thirty sessions ending at once (parallel agents) started thirty Node processes
 * that each waited up to two minutes for the lock, then synced in turn for nothing.
 *
 * The place is the file `<state dir>/sync.queued` (this host and pid), made atomically by the hook
 * (then handed to the sync it starts: a burst of hooks all ran before the first sync had started)
 * or by the sync, and given up as soon as that sync holds the lock: from then on it may be reading
 * what a session is still writing, so the next hook's sync waits in its turn.
 */

const QUEUE_FILE = "sync.queued";

/** A place held longer than this is stale whoever holds it: a hook's sync waits 120 s at most for the lock. */
const DEFAULT_MAX_AGE_MS = 150_000;

export interface SyncQueueOptions {
	maxAgeMs?: number;
	/** For tests: this host's name and process id, and its parent's. */
	host?: string;
	pid?: number;
	parentPid?: number;
}

/** The place taken: `leave` gives it up (again and again: once is enough); `handTo` gives it to the sync a hook started. */
export interface SyncQueuePlace {
	leave(): Promise<void>;
	handTo(pid: number): Promise<void>;
}

/** What a place that holds nothing does (a sync that does not queue holds one). */
export const NO_PLACE: SyncQueuePlace = { leave: () => Promise.resolve(), handTo: () => Promise.resolve() };

/**
 * Takes the one place in line; undefined when a live sync already waits in it. A place that cannot
 * be taken for any other reason (no state folder yet, a read-only one) is no reason to skip the
 * sync: a place is given that holds nothing.
 */
export async function joinSyncQueue(stateDir: string, options: SyncQueueOptions = {}): Promise<SyncQueuePlace | undefined> {
	const path = join(stateDir, QUEUE_FILE);
	const host = options.host ?? hostname();
	const text = `${options.pid ?? process.pid}\n${host}\n`;
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			const handle = await open(path, "wx", 0o600);
			try {
				await handle.writeFile(text, "utf8");
			} finally {
				await handle.close();
			}
			return placeAt(path, text);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") return NO_PLACE;
		}
		// Handed to this process by the hook that started it, or about to be: the hook writes the pid it
		// started, and a busy machine may run this far first (then the place holds the hook's own).
		const held = await readQueueText(path);
		if (held === text) return placeAt(path, text);
		if (held === `${options.parentPid ?? process.ppid}\n${host}\n`) {
			await writeFile(path, text, { mode: 0o600 }).catch(() => undefined);
			return placeAt(path, text);
		}
		if (!(await isStale(path, options))) return undefined;
		await unlink(path).catch(() => undefined);
	}
	return NO_PLACE;
}

function placeAt(path: string, text: string): SyncQueuePlace {
	let left = false;
	// Only while it is still ours: one taken over as stale belongs to its new holder.
	const ours = async () => !left && (await readQueueText(path)) === text;
	return {
		async leave() {
			if (await ours()) await unlink(path).catch(() => undefined);
			left = true;
		},
		async handTo(pid) {
			if (await ours()) await writeFile(path, `${pid}\n${text.split("\n")[1] ?? ""}\n`, { mode: 0o600 }).catch(() => undefined);
			left = true;
		},
	};
}

/** Whether the place's holder is gone (this host's process no longer there) or it is older than a wait can be. */
async function isStale(path: string, options: SyncQueueOptions): Promise<boolean> {
	const info = await stat(path).catch(() => undefined);
	if (!info) return true;
	if (Date.now() - info.mtimeMs > (options.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) return true;
	const [pid, host] = ((await readQueueText(path)) ?? "").split("\n");
	// Being written (empty for a moment): held.
	if (pid === "" || host === undefined) return false;
	return host === (options.host ?? hostname()) && !isAlive(Number(pid));
}

async function readQueueText(path: string): Promise<string | undefined> {
	try {
		const handle = await openPlainFile(path);
		try {
			return (await readUpTo(handle, Buffer.alloc(1024))).toString("utf8");
		} finally {
			await handle.close();
		}
	} catch {
		return undefined;
	}
}
