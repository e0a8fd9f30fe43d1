import { watch as chokidarWatch, type ChokidarOptions, type FSWatcher } from "chokidar";
import type { Stats } from "node:fs";
import { readdir, stat, statfs } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
// Node's timers, not the window's: the watcher runs under plain Node too.
import { clearTimeout, setTimeout } from "node:timers";
import { debounceBatch, type DebouncedBatch } from "../core/sync/sync-queue";

/**
 * Watches Claude Code's projects folder (`~/.claude/projects`) and names the transcripts that
 * changed, debounced into one call per burst. chokidar's native watcher by default; its polling
 * when asked, when the folder is on a network file system, or once the native watcher fails
 * (ENOSPC: the inotify limit); and, while the folder does not exist yet, a check for it every
 * poll interval. Initial files are not reported (the caller syncs everything once at start),
 * except those of a folder that appears later.
 */

/** `native`: OS events; `polling`: stat every interval; `waiting`: the root is not there yet. */
export type WatchMode = "native" | "polling" | "waiting";

export interface TranscriptWatchOptions {
	/** Quiet time after the last change before `onChange` is called. */
	debounceMs: number;
	/** The transcripts (`.jsonl`) and sub-agent `.meta.json` files that were added or grew, each once. */
	onChange: (paths: string[]) => void;
	/** Poll from the start instead of using OS events. */
	usePolling?: boolean;
	/** Polling interval, and how often a missing root is looked for. Default 2,000 ms. */
	pollIntervalMs?: number;
	/** The longest `onChange` waits while changes keep coming. Default max(10 × debounceMs, 10 s). */
	maxWaitMs?: number;
	/**
	 * The watcher changed how it watches. After a switch to `polling` or a root that appeared,
	 * changes in between may not be named: a caller that cares syncs everything once.
	 */
	onModeChange?: (mode: WatchMode, reason: string) => void;
	/** Errors that do not stop the watching (an unreadable folder, `onChange` throwing). */
	onError?: (error: Error) => void;
	/** For tests: creates the chokidar watcher. */
	createWatcher?: (path: string, options: ChokidarOptions) => FSWatcher;
	/** Which paths under the root can hold a session (its parts, relative to the root): Claude Code's layout by default. */
	layout?: WatchLayout;
}

/** Whether a path (split into its parts below the root) is watched: a folder on the way to a session file, or one. */
export type WatchLayout = (parts: readonly string[], kind: "file" | "dir" | undefined) => boolean;

/** `projects/<project>/*.jsonl`, `<project>/<session>/subagents/agent-*.jsonl|*.meta.json`. */
export const CLAUDE_LAYOUT: WatchLayout = (parts, kind) => {
	const name = parts[parts.length - 1] ?? "";
	const file = kind === "file";
	switch (parts.length) {
		case 1: // a project folder
			return !file;
		case 2: // a session, an old-layout sub-agent, or a session's folder
			return file ? WATCHED_FILE.test(name) : true;
		case 3: // inside a session's folder: only subagents/
			return name === "subagents" && !file;
		case 4: // a sub-agent's transcript or meta file
			return kind !== "dir" && WATCHED_FILE.test(name);
		default:
			return false;
	}
};

/** Codex CLI, below `<home>/sessions`: `YYYY/MM/DD/rollout-*.jsonl`. */
export const CODEX_LAYOUT: WatchLayout = (parts, kind) => (parts.length < 4 ? kind !== "file" : parts.length === 4 && kind !== "dir" && /^rollout-.*\.jsonl$/.test(parts[3]!));

/** Copilot CLI, below `<home>/session-state`: `<session id>/events.jsonl`. */
export const COPILOT_LAYOUT: WatchLayout = (parts, kind) => (parts.length === 1 ? kind !== "file" : parts.length === 2 && kind !== "dir" && parts[1] === "events.jsonl");

/**
 * Aider, in a project's folder: its chat history alone, `name` relative to the project (see
 * `aiderHistoryName`); only the folders on the way to it are watched.
 */
export function aiderLayout(name: string): WatchLayout {
	const want = name.split("/");
	return (parts, kind) => {
		if (parts.length > want.length || parts.some((part, i) => part !== want[i])) return false;
		return parts.length === want.length ? kind !== "dir" : kind !== "file";
	};
}

/** Gemini CLI, below `<home>/tmp`: `<project>/chats/session-*.jsonl`, and `<project>/chats/<session>/<agent>.jsonl`. */
export const GEMINI_LAYOUT: WatchLayout = (parts, kind) => {
	if (parts.length === 1) return kind !== "file";
	if (parts[1] !== "chats") return false;
	if (parts.length === 2) return kind !== "file";
	if (parts.length === 3) return kind === "file" ? /\.jsonl?$/.test(parts[2]!) : true;
	return parts.length === 4 && kind !== "dir" && parts[3]!.endsWith(".jsonl");
};

/**
 * opencode, below its data folder: the databases (`opencode*.db`) and their WAL, where every write
 * lands first; and the older JSON sessions, `storage/session/<project>/<session>.json`. Nothing
 * else (its `snapshot/` git folders, logs).
 */
export const OPENCODE_LAYOUT: WatchLayout = (parts, kind) => {
	const name = parts[parts.length - 1] ?? "";
	if (parts.length === 1) return kind === "dir" ? name === "storage" : kind === "file" ? /^opencode(?:-[\w.-]+)?\.db(?:-wal)?$/.test(name) : name === "storage" || /^opencode.*\.db/.test(name);
	if (parts[0] !== "storage" || parts[1] !== "session") return false;
	if (parts.length <= 3) return kind !== "file";
	return parts.length === 4 && kind !== "dir" && name.endsWith(".json");
};

export interface TranscriptWatcher {
	readonly mode: WatchMode;
	/** Resolves once watching (its initial scan done) or waiting for the root. */
	readonly ready: Promise<void>;
	/** Hands what changed and waits for its quiet time to `onChange` now (before a restart). */
	flush(): void;
	/** Stops everything: no timer, watcher or handle is left, and `onChange` is not called again. */
	close(): Promise<void>;
}

const DEFAULT_POLL_MS = 2_000;
/**
 * Events in one burst past which the OS may have dropped some: Linux queues 16,384 inotify events
 * by default (`max_queued_events`) and drops what comes past them while the process does not read
 * (its thread busy: a long render in Obsidian), with nothing said that Node passes on; a quarter of
 * that, counted as Node hears them (chokidar's raw events). After such a burst every session
 * file the layout names is named (the sync reads only what grew): a change made in the storm, to
 * another session, waited for that session's next change or the next start (attack round 46c).
 */
const STORM_EVENTS = 4_096;
/**
 * A root check this late means the thread was held that long (Obsidian's one thread, busy): what
 * changed meanwhile waited in the kernel's queue, which may have overflowed. The burst heard after
 * such a hold is taken as a storm too (the look costs a walk of the tree and a sync that reads only
 * what grew).
 */
const STALL_MS = 500;
/** projects/<project>/<session>/subagents/agent-*.jsonl is three folders below the root. */
const MAX_DEPTH = 3;
const WATCHED_FILE = /\.(?:jsonl|meta\.json)$/;

/** Starts watching `root`; see `TranscriptWatchOptions`. */
export function watchTranscripts(root: string, options: TranscriptWatchOptions): TranscriptWatcher {
	return new Watcher(resolve(root), options);
}

class Watcher implements TranscriptWatcher {
	mode: WatchMode = "waiting";
	readonly ready: Promise<void>;
	private closed = false;
	private current: FSWatcher | undefined;
	/** Every change of watcher runs in this chain, one after the other; `close` waits for it. */
	private chain: Promise<void> = Promise.resolve();
	/** While waiting: the next look for the root; while watching: the next check it is still there. */
	private rootCheck: ReturnType<typeof setTimeout> | undefined;
	/** The one look, after a watcher is ready, for what it missed while it started. */
	private settle: ReturnType<typeof setTimeout> | undefined;
	private rootIno = 0;
	private readonly batch: DebouncedBatch<string>;
	private readonly pollMs: number;
	private reported: WatchMode | undefined;
	private markReady: () => void = () => undefined;
	/** Events heard since the last delivery (see `STORM_EVENTS`). */
	private heard = 0;
	/** When the first of them was heard. */
	private firstHeardAt: number | undefined;
	/** When a root check last found the thread had been held (see `STALL_MS`). */
	private stalledAt = -Infinity;

	constructor(
		private readonly root: string,
		private readonly options: TranscriptWatchOptions,
	) {
		this.pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
		this.batch = debounceBatch<string>((paths) => this.deliver(paths), {
			waitMs: options.debounceMs,
			maxWaitMs: options.maxWaitMs ?? Math.max(10 * options.debounceMs, 10_000),
			timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
		});
		this.ready = new Promise((resolveReady) => {
			this.markReady = resolveReady;
		});
		this.step(() => this.start(true));
	}

	flush(): void {
		if (!this.closed) this.batch.flush();
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.batch.cancel();
		this.clearTimers();
		this.markReady();
		await this.chain;
		const fsw = this.current;
		this.current = undefined;
		await fsw?.close();
	}

	/** Queues a change of watcher; skipped once closed. */
	private step(change: () => Promise<void>): void {
		this.chain = this.chain.then(() => (this.closed ? undefined : change())).catch((error: unknown) => this.report(error));
	}

	/** Watches the root if it is there, else looks for it again in a poll interval. */
	private async start(atLaunch: boolean): Promise<void> {
		const info = await stat(this.root).catch(() => undefined);
		if (this.closed) return;
		if (!info?.isDirectory()) {
			this.setMode("waiting", `${this.root} does not exist (yet)`);
			this.markReady();
			this.rootCheck = setTimeout(() => {
				this.rootCheck = undefined;
				this.step(() => this.start(false));
			}, this.pollMs);
			return;
		}
		this.rootIno = info.ino;
		const network = this.options.usePolling !== true && (await isNetworkFileSystem(this.root));
		if (this.closed) return;
		const polling = this.options.usePolling === true || network;
		const reason = network ? `${this.root} is on a network file system` : polling ? "polling asked for" : "watching";
		// A root that appeared after launch: what it holds already is new to the caller.
		this.watch(polling, atLaunch, atLaunch ? reason : `${this.root} appeared; ${reason}`);
	}

	private watch(polling: boolean, ignoreInitial: boolean, reason: string): void {
		const create = this.options.createWatcher ?? chokidarWatch;
		const fsw = create(this.root, {
			ignoreInitial,
			usePolling: polling,
			interval: this.pollMs,
			binaryInterval: this.pollMs,
			depth: MAX_DEPTH,
			// Claude Code appends all the time; the reader takes complete lines only.
			awaitWriteFinish: false,
			// A linked folder or file is not followed: the sync never reads through a link (it names
			// it among what it passed over), so changes behind one only woke it for nothing.
			followSymlinks: false,
			persistent: true,
			ignored: (path: string, stats?: Stats) => this.ignored(path, stats?.isFile() ? "file" : stats?.isDirectory() ? "dir" : undefined),
		});
		this.current = fsw;
		const named = (path: string) => {
			if (this.current === fsw && !this.closed && this.isSessionFile(path)) this.batch.add(path);
		};
		// Each event Node had from the OS, before chokidar throttles a file's changes (see `STORM_EVENTS`).
		fsw.on("raw", () => {
			if (this.current !== fsw) return;
			if (this.heard++ === 0) this.firstHeardAt = Date.now();
		});
		fsw.on("add", named);
		fsw.on("change", named);
		fsw.on("unlinkDir", (path) => {
			// chokidar says so for the root only now and then: the check below is what counts.
			if (resolve(path) === this.root) this.guardRoot(fsw, 0);
		});
		fsw.on("error", (error: unknown) => {
			if (this.current !== fsw) return;
			if (!polling && isWatchLimitError(error)) {
				this.replace(fsw, async () => this.watch(true, true, `the native watcher failed (${messageOf(error)}); polling every ${this.pollMs} ms`));
			} else {
				this.report(error);
			}
		});
		fsw.once("ready", () => {
			if (this.current !== fsw || this.closed) return;
			this.setMode(polling ? "polling" : "native", reason);
			this.markReady();
			this.settle = setTimeout(() => {
				this.settle = undefined;
				this.reconcile(fsw).catch((error: unknown) => this.report(error));
			}, 2 * this.pollMs);
		});
		this.guardRoot(fsw);
	}

	/**
	 * Checks the root is still the folder being watched, every poll interval (one `stat`): when it
	 * is removed or replaced, the watcher goes back to waiting for it.
	 */
	private guardRoot(fsw: FSWatcher, delay = this.pollMs): void {
		this.clearRootCheck();
		const due = Date.now() + delay;
		this.rootCheck = setTimeout(() => {
			this.rootCheck = undefined;
			// Late: the thread was held (see `STALL_MS`).
			if (Date.now() - due > STALL_MS) this.stalledAt = Date.now();
			void this.checkRoot(fsw);
		}, delay);
	}

	private async checkRoot(fsw: FSWatcher): Promise<void> {
		const info = await stat(this.root).catch(() => undefined);
		if (this.closed || this.current !== fsw) return;
		if (info?.isDirectory() && info.ino === this.rootIno) this.guardRoot(fsw);
		else this.replace(fsw, () => this.start(false));
	}

	private clearRootCheck(): void {
		if (this.rootCheck !== undefined) clearTimeout(this.rootCheck);
		this.rootCheck = undefined;
	}

	private clearTimers(): void {
		this.clearRootCheck();
		if (this.settle !== undefined) clearTimeout(this.settle);
		this.settle = undefined;
	}

	/**
	 * What chokidar missed while it started: a file or folder made between its reading a folder
	 * and its baseline for that folder (with polling, the baseline stat comes a moment after
	 * `ready`, and a new transcript's appends are then never seen; natively, a new project folder
	 * made between the read and the watch). Walks the tree by the same rules, hands the unknown
	 * entries to chokidar and names the transcripts among them.
	 */
	private async reconcile(fsw: FSWatcher): Promise<void> {
		const entries = await this.walk();
		if (this.current !== fsw || this.closed) return;
		const watched = fsw.getWatched();
		const added: string[] = [];
		for (const entry of entries) {
			const under = added.find((a) => entry.path.startsWith(a + sep));
			if (under === undefined && watched[dirname(entry.path)]?.includes(basename(entry.path))) continue;
			if (under === undefined) {
				added.push(entry.path);
				fsw.add(entry.path);
			}
			if (!entry.dir) this.batch.add(entry.path);
		}
	}

	/** Every folder and file under the root the layout keeps. */
	private async walk(): Promise<Array<{ path: string; dir: boolean }>> {
		const entries: Array<{ path: string; dir: boolean }> = [];
		const walk = async (dir: string): Promise<void> => {
			const children = await readdir(dir, { withFileTypes: true }).catch(() => []);
			for (const child of children) {
				const path = join(dir, child.name);
				const kind = child.isDirectory() ? "dir" : child.isFile() ? "file" : undefined;
				if (!kind || this.ignored(path, kind)) continue;
				entries.push({ path, dir: kind === "dir" });
				if (kind === "dir") await walk(path);
			}
		};
		await walk(this.root);
		return entries;
	}

	/** Closes `fsw` and then runs `next`, once, unless closed meanwhile. */
	private replace(fsw: FSWatcher, next: () => Promise<void>): void {
		if (this.current !== fsw || this.closed) return;
		this.current = undefined;
		this.clearTimers();
		this.step(async () => {
			await fsw.close();
			if (!this.closed) await next();
		});
	}

	/** A file the layout names as holding sessions (a transcript, a sub-agent's meta file, a database or its WAL). */
	private isSessionFile(path: string): boolean {
		const rel = relative(this.root, path);
		if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return false;
		return (this.options.layout ?? CLAUDE_LAYOUT)(rel.split(sep), "file");
	}

	/** Keeps only what can hold a session file, by the layout (Claude Code's by default). Called with and without stats. */
	private ignored(path: string, kind: "file" | "dir" | undefined): boolean {
		const rel = relative(this.root, path);
		if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return false;
		return !(this.options.layout ?? CLAUDE_LAYOUT)(rel.split(sep), kind);
	}

	private deliver(paths: string[]): void {
		if (this.closed) return;
		// A hold counts for the burst it let through, heard as it ended or after it began; one long
		// before (Obsidian busy at its start) is no reason to look at every file at the next change.
		const held = this.stalledAt >= (this.firstHeardAt ?? Date.now()) - STALL_MS;
		const storm = this.mode === "native" && (this.heard >= STORM_EVENTS || held);
		this.heard = 0;
		this.firstHeardAt = undefined;
		if (storm) {
			this.step(async () => {
				const all = (await this.walk()).filter((e) => !e.dir && this.isSessionFile(e.path)).map((e) => e.path);
				this.handOver([...new Set([...paths, ...all])]);
			});
			return;
		}
		this.handOver(paths);
	}

	private handOver(paths: string[]): void {
		if (this.closed) return;
		try {
			this.options.onChange(paths.sort());
		} catch (error) {
			this.report(error);
		}
	}

	private setMode(mode: WatchMode, reason: string): void {
		this.mode = mode;
		if (this.reported !== mode) {
			this.reported = mode;
			try {
				this.options.onModeChange?.(mode, reason);
			} catch (error) {
				this.report(error);
			}
		}
	}

	private report(error: unknown): void {
		if (this.closed) return;
		try {
			this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
		} catch {
			// A reporter that throws must not stop the watching.
		}
	}
}

/** Out of OS watches or file handles: the native watcher cannot cover the tree. */
function isWatchLimitError(error: unknown): boolean {
	const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
	const syscall = typeof error === "object" && error !== null && "syscall" in error ? String(error.syscall) : "";
	return code === "ENOSPC" || code === "EMFILE" || code === "ENFILE" || (syscall === "watch" && code !== "ENOENT" && code !== "EACCES" && code !== "EPERM");
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * File systems on which OS events miss what other machines write: NFS, SMB/CIFS, 9p (WSL's view
 * of Windows drives), AFS, Coda, NCP, Ceph (Linux `statfs` magic numbers); UNC paths on Windows.
 */
const NETWORK_FS_TYPES = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x01021997, 0x5346414f, 0x73757245, 0x564c, 0x00c36400]);

async function isNetworkFileSystem(path: string): Promise<boolean> {
	if (process.platform === "win32") return /^\\\\(?!\?\\(?![Uu][Nn][Cc]\\))/.test(path);
	if (process.platform !== "linux") return false;
	try {
		const info = await statfs(path);
		return NETWORK_FS_TYPES.has(info.type >>> 0);
	} catch {
		return false;
	}
}
