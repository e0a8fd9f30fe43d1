import { statSync, utimesSync } from "node:fs";
import { lstat, open, unlink, utimes } from "node:fs/promises";
import { openPlainFile, readPlainBytesSync, readUpTo } from "./confined-path";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
// Node's timers, not the window's: this runs in the CLI and hooks too.
import { clearInterval, setInterval, setTimeout } from "node:timers";
import { PRIVATE_FOLDER_MODE } from "./atomic-write";
import { makeFolder } from "./make-folder";

/**
 * The lock that keeps the plugin, the CLI and a Claude Code hook from syncing one vault at once:
 * a file `<state dir>/sync.lock`, created atomically (`open(…, "wx")`), holding who took it.
 * Its holder touches it while it holds it, so a lock whose file has not changed for `maxAgeMs`
 * is stale whoever wrote it; one from this host whose process is gone is stale at once.
 */

export type SyncTool = "plugin" | "cli" | "hook";

/** What the lock file holds. */
export interface SyncLockHolder {
	pid: number;
	host: string;
	tool: SyncTool;
	/** When it was taken (ISO 8601). */
	since: string;
	/** Tells this taking apart from any other (a pid can come back). */
	token?: string;
}

const SYNC_LOCK_FILE = "sync.lock";

/** `<state dir>/sync.lock`. */
export function syncLockPath(stateDir: string): string {
	return join(stateDir, SYNC_LOCK_FILE);
}

/** Another sync holds the lock. `holder` is undefined when its file could not be read yet. */
export class SyncLockBusyError extends Error {
	override readonly name = "SyncLockBusyError";
	constructor(
		readonly path: string,
		readonly holder: SyncLockHolder | undefined,
	) {
		super(`another sync is running (${holder ? describeSyncLockHolder(holder) : `lock file ${path}`})`);
	}
}

/**
 * This process held the lock and no longer does: it was stopped (SIGSTOP, a suspended machine) past
 * the lock's stale time, and another sync broke the lock and took it. Nothing more is written: the
 * other sync writes what this one would have.
 */
export class SyncLockLostError extends Error {
	override readonly name = "SyncLockLostError";
	constructor(readonly path: string) {
		super(`this sync was paused longer than its lock lasts (${path}), and another sync took the lock meanwhile: it stopped without writing more, the other sync does the rest`);
	}
}

const TOOL_NAMES: Record<SyncTool, string> = {
	plugin: "the Obsidian plugin",
	cli: "the ai-memory CLI",
	hook: "a Claude Code hook",
};

/** "the Obsidian plugin, pid 1234, since 10:02:03" (local time; the host when it is not this one). */
export function describeSyncLockHolder(holder: SyncLockHolder, thisHost = hostname()): string {
	const tool = TOOL_NAMES[holder.tool] ?? String(holder.tool);
	const host = holder.host && holder.host !== thisHost ? ` on ${holder.host}` : "";
	const since = new Date(holder.since);
	const time = Number.isNaN(since.getTime()) ? String(holder.since) : [since.getHours(), since.getMinutes(), since.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
	return `${tool}, pid ${holder.pid}${host}, since ${time}`;
}

export interface SyncLockOptions {
	/**
	 * A lock file unchanged for this long is stale, whoever holds it (its holder touches it far more
	 * often). Default 30 s: a dead holder whose pid another process took since blocks no longer.
	 */
	maxAgeMs?: number;
	/** Time between two tries while waiting. Default 100 ms. */
	retryMs?: number;
	/** How often the holder touches its file. Default a fifth of `maxAgeMs`. */
	heartbeatMs?: number;
	/** For tests: this host's name and process id. */
	host?: string;
	pid?: number;
}

export interface AcquireOptions {
	tool: SyncTool;
	/** How long to wait for a held lock before giving up. Default 0: one try. */
	waitMs?: number;
	/** Aborted: the wait ends with an error, the lock not taken (the plugin was unloaded meanwhile). */
	signal?: AbortSignal;
}

const DEFAULT_MAX_AGE_MS = 30_000;
/** A lock file of another host dated this far in the future was not written by a live holder's clock: garbage. */
const FUTURE_SKEW_MS = 60_000;
/** One of this host (or no one's) this far in the future: its holder's heartbeat sets this clock's time, so none wrote it (a lock 55 s ahead blocked syncs for 85 s). */
const LOCAL_FUTURE_SKEW_MS = 5_000;
/** An unreadable lock file this young may be one being written: wait for it rather than break it. */
const UNREADABLE_GRACE_MS = 5_000;
/** How every lock file starts (`JSON.stringify` keeps the holder's key order). */
const LOCK_START = '{"pid":';
/** A `.break` file this old was left by a breaker that died. */
const BREAKER_STALE_MS = 10_000;

/**
 * One process's handle on the lock file. `acquire` takes it (or throws `SyncLockBusyError` with
 * who holds it), `release` gives it back; a released handle can be acquired again.
 */
export class SyncLock {
	private ours: { text: string; holder: SyncLockHolder } | undefined;
	private heartbeat: ReturnType<typeof setInterval> | undefined;
	private readonly maxAgeMs: number;
	private readonly retryMs: number;
	private readonly heartbeatMs: number;
	private readonly host: string;
	private readonly pid: number;

	constructor(
		readonly path: string,
		options: SyncLockOptions = {},
	) {
		this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
		this.retryMs = options.retryMs ?? 100;
		this.heartbeatMs = options.heartbeatMs ?? Math.max(1_000, Math.floor(this.maxAgeMs / 6));
		this.host = options.host ?? hostname();
		this.pid = options.pid ?? process.pid;
	}

	/** True while this handle holds the lock. */
	get held(): boolean {
		return this.ours !== undefined;
	}

	/**
	 * Takes the lock, breaking a stale one, trying again until `waitMs` has passed.
	 * @throws SyncLockBusyError with the holder when another sync keeps it.
	 */
	async acquire(options: AcquireOptions): Promise<SyncLockHolder> {
		if (this.ours) throw new Error(`${this.path} is already held by this process`);
		const giveUpAt = Date.now() + Math.max(0, options.waitMs ?? 0);
		await makeFolder(dirname(this.path), PRIVATE_FOLDER_MODE);
		for (;;) {
			// Taken after its caller went away, the sync it waited for would write for no one.
			if (options.signal?.aborted) throw new Error(`gave up waiting for ${this.path}: the sync was stopped`);
			const holder: SyncLockHolder = { pid: this.pid, host: this.host, tool: options.tool, since: new Date().toISOString(), token: lockToken() };
			const text = `${JSON.stringify(holder)}\n`;
			if (await createExclusive(this.path, text)) {
				this.ours = { text, holder };
				this.startHeartbeat();
				return holder;
			}
			const current = await this.read();
			// Gone since (released, or a link that was no lock): try again at once.
			if (current === undefined) continue;
			if (this.isStale(current) && (await this.breakStale(current))) continue;
			if (Date.now() >= giveUpAt) throw new SyncLockBusyError(this.path, current.holder);
			await sleep(Math.min(this.retryMs, Math.max(1, giveUpAt - Date.now())));
		}
	}

	/**
	 * Throws `SyncLockLostError` unless the lock file still holds this taking: called (blocking, a
	 * small read) right before each write a sync commits, so a sync resumed after another took the
	 * lock over writes nothing more. A holder whose file went unrefreshed for a fifth of the stale
	 * time (its heartbeat could not run: the process was stopped, or its thread held) refreshes it
	 * now, so no one breaks it between this check and the write.
	 */
	assertHeld(): void {
		const ours = this.ours;
		let text: string | undefined;
		try {
			text = readPlainBytesSync(this.path, LOCK_TEXT_MAX).toString("utf8");
		} catch {
			text = undefined;
		}
		if (!ours || text !== ours.text) throw new SyncLockLostError(this.path);
		try {
			if (Date.now() - statSync(this.path).mtimeMs > this.heartbeatMs) {
				const now = new Date();
				utimesSync(this.path, now, now);
			}
		} catch {
			// Gone since the read: the next check says so.
		}
	}

	/** Who holds the lock now, if anyone (stale or not). */
	async holder(): Promise<SyncLockHolder | undefined> {
		return (await this.read())?.holder;
	}

	/** Removes the lock file if it is still ours; another's lock is left alone. */
	async release(): Promise<void> {
		const ours = this.ours;
		this.stopHeartbeat();
		this.ours = undefined;
		if (!ours) return;
		const text = await readLockText(this.path).catch(() => undefined);
		if (text === ours.text) await unlink(this.path).catch(ignoreMissing);
	}

	private async read(): Promise<{ text: string | undefined; holder: SyncLockHolder | undefined; mtimeMs: number } | undefined> {
		try {
			const info = await lstat(this.path);
			// We only ever make a plain file: a link (dangling or not) is no one's lock; a folder is no lock at all.
			if (info.isSymbolicLink()) {
				await unlink(this.path).catch(ignoreMissing);
				return undefined;
			}
			if (!info.isFile()) throw new Error(`${this.path} is not a lock file (it is ${info.isDirectory() ? "a folder" : "no plain file"}): remove it, and syncs can run again`);
			// One another user made unreadable is a lock of no one we know: stale once old enough (its folder lets it go).
			const text = await readLockText(this.path).catch((error: unknown) => {
				if (codeOf(error) === "EACCES" || codeOf(error) === "EPERM") return undefined;
				throw error;
			});
			return { text, holder: text === undefined ? undefined : parseHolder(text), mtimeMs: info.mtimeMs };
		} catch (error) {
			if (codeOf(error) === "ENOENT") return undefined;
			throw error;
		}
	}

	private isStale(current: { text: string | undefined; holder: SyncLockHolder | undefined; mtimeMs: number }): boolean {
		const age = Date.now() - current.mtimeMs;
		const skew = current.holder && current.holder.host !== this.host ? FUTURE_SKEW_MS : LOCAL_FUTURE_SKEW_MS;
		if (age > this.maxAgeMs || age < -skew) return true;
		if (!current.holder) return age > UNREADABLE_GRACE_MS || (current.text !== undefined && !mayBeBeingWritten(current.text));
		return current.holder.host === this.host && !isAlive(current.holder.pid);
	}

	/**
	 * Removes a stale lock, if it still holds what was judged stale. Breakers take turns through
	 * `<lock>.break` (created like the lock), so two of them never remove each other's new lock.
	 * False when another process is breaking it now: try again later.
	 */
	private async breakStale(stale: { text: string | undefined; mtimeMs: number }): Promise<boolean> {
		const breaker = `${this.path}.break`;
		if (!(await createExclusive(breaker, `${this.pid}\n`))) {
			// A breaker that died mid-break (a few file operations) must not block everyone.
			const info = await lstat(breaker).catch(() => undefined);
			if (info && !info.isFile()) throw new Error(`${breaker} is not a file of ours (it is ${info.isDirectory() ? "a folder" : "no plain file"}): remove it, and syncs can run again`);
			if (info && Date.now() - info.mtimeMs > BREAKER_STALE_MS) await unlink(breaker).catch(ignoreMissing);
			return false;
		}
		try {
			// Still what was judged stale: the same text, or (unreadable) the same file's time.
			const now = await lstat(this.path).catch(() => undefined);
			const text = stale.text === undefined ? undefined : await readLockText(this.path).catch(() => undefined);
			if (stale.text === undefined ? now?.mtimeMs === stale.mtimeMs : text === stale.text) await unlink(this.path).catch(ignoreMissing);
		} finally {
			await unlink(breaker).catch(ignoreMissing);
		}
		return true;
	}

	private startHeartbeat(): void {
		this.heartbeat = setInterval(() => void this.touch(), this.heartbeatMs);
		// The lock never keeps a process alive by itself.
		if (typeof this.heartbeat === "object" && "unref" in this.heartbeat) this.heartbeat.unref();
	}

	private stopHeartbeat(): void {
		if (this.heartbeat !== undefined) clearInterval(this.heartbeat);
		this.heartbeat = undefined;
	}

	/** Refreshes the file's time while it is still ours, so no one takes it for stale. */
	private async touch(): Promise<void> {
		const ours = this.ours;
		if (!ours) return;
		const text = await readLockText(this.path).catch(() => undefined);
		if (text !== ours.text || this.ours !== ours) return;
		const now = new Date();
		await utimes(this.path, now, now).catch(() => undefined);
	}
}

/** Takes the lock at `path`; the handle releases it. Throws `SyncLockBusyError` when held. */
export async function acquireSyncLock(path: string, options: AcquireOptions & SyncLockOptions): Promise<SyncLock> {
	const lock = new SyncLock(path, options);
	await lock.acquire(options);
	return lock;
}

/** Creates `path` holding `text` only if it does not exist (atomically): false when it does. */
async function createExclusive(path: string, text: string): Promise<boolean> {
	let handle;
	try {
		handle = await open(path, "wx");
	} catch (error) {
		if (codeOf(error) === "EEXIST") return false;
		throw error;
	}
	try {
		await handle.writeFile(text, "utf8");
		await handle.close();
	} catch (error) {
		// A lock we could not fill in (disk full…) must not be left behind as an unreadable one.
		await handle.close().catch(() => undefined);
		await unlink(path).catch(() => undefined);
		// A write through a handle names no file ("ENOSPC: no space left on device, write" was all `projects add` said): this one names the lock.
		const failed = error as NodeJS.ErrnoException;
		if (typeof failed.code === "string" && failed.path === undefined) failed.path = path;
		throw error;
	}
	return true;
}

/** Ours is a few hundred bytes: more is no lock of ours, read no further (a 3 GB file gave a raw "greater than 2 GiB" at every sync). */
const LOCK_TEXT_MAX = 64 * 1024;

/** The lock's text, its first `LOCK_TEXT_MAX` bytes at most (a FIFO refused, not waited on). */
async function readLockText(path: string): Promise<string> {
	const handle = await openPlainFile(path);
	try {
		return (await readUpTo(handle, Buffer.alloc(LOCK_TEXT_MAX))).toString("utf8");
	} finally {
		await handle.close();
	}
}

/**
 * Whether text that names no holder can be a lock caught between its creation and the end of its
 * one write: empty or cut short, so a start of our format with no line break yet. Anything else
 * never becomes a lock: broken at once, not kept for the grace (a garbage file written now
 * refused every sync for its first seconds).
 */
function mayBeBeingWritten(text: string): boolean {
	return !text.includes("\n") && (LOCK_START.startsWith(text) || text.startsWith(LOCK_START));
}

function parseHolder(text: string): SyncLockHolder | undefined {
	try {
		const data = JSON.parse(text) as Partial<SyncLockHolder> | null;
		if (!data || typeof data !== "object") return undefined;
		if (typeof data.pid !== "number" || typeof data.host !== "string" || typeof data.tool !== "string" || typeof data.since !== "string") return undefined;
		return { pid: data.pid, host: data.host, tool: data.tool, since: data.since, ...(typeof data.token === "string" ? { token: data.token } : {}) };
	} catch {
		return undefined;
	}
}

/** Whether a process of this host runs under `pid` (EPERM: it runs, under another user). */
export function isAlive(pid: number): boolean {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return codeOf(error) === "EPERM";
	}
}

function codeOf(error: unknown): string | undefined {
	return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

function ignoreMissing(error: unknown): void {
	if (codeOf(error) !== "ENOENT") throw error;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Tells this holder's lock file from any other: process, time and chance. Not a secret, so not
 * `crypto.randomUUID`, whose module was a fortieth of a short sync's start.
 */
function lockToken(): string {
	return `${process.pid.toString(36)}-${process.hrtime.bigint().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
