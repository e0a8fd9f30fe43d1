import { closeSync, constants, fstatSync, openSync, writeFileSync, type Stats } from "node:fs";
import { lstat, open, rename, unlink } from "node:fs/promises";
import { mayBlockOnFiles } from "./blocking-files";
import { openPlainFile, readUpTo } from "./confined-path";
import { join } from "node:path";
import { printable } from "../core/text/printable";

/**
 * `<plugin folder>/hooks.log`: one line per hook run, so that `ai-memory doctor` can say when each
 * hook last ran and what it did, and a failure (hooks fail open: Claude Code never sees one) leaves
 * a trace. Tab-separated: time (ISO 8601), hook, `ok` or `error`, then `key=value` details or the
 * error. Past half a megabyte it becomes `hooks.log.1` (the one before it goes), and a new one starts.
 */

const HOOK_LOG = "hooks.log";
const MAX_BYTES = 512 * 1024;
/** A lock left by a run killed while it turned the log over is taken for gone after this long (a rename takes microseconds). */
const STALE_TURN_MS = 10_000;

export function hookLogPath(pluginFolder: string): string {
	return join(pluginFolder, HOOK_LOG);
}

/** The log before the current one: what a turn-over moved aside, and what the runs that still held it open wrote since. */
function previousLogPath(pluginFolder: string): string {
	return `${hookLogPath(pluginFolder)}.1`;
}

export interface HookLogEntry {
	at: string;
	hook: string;
	status: "ok" | "error";
	/** `key=value` details, or the error message. */
	detail: string;
}

/**
 * The most of a detail a line keeps: the paths in it come from the hook's input, and can be
 * megabytes long (a 10 MiB `cwd` made one line of the log, and the trim it set off kept none of the
 * log's earlier lines).
 */
const DETAIL_MAX = 2000;

/**
 * A detail as a line keeps it: on one line, its first `DETAIL_MAX` characters, without the word the
 * cut fell in (a token cut short is no longer one redaction finds, and its start would stay).
 */
export function logDetail(detail: string): string {
	const line = (text: string) => text.replace(/[\r\n\t]+/g, " ");
	return detail.length <= DETAIL_MAX ? line(detail) : `${line(detail.slice(0, DETAIL_MAX + 1).replace(/\S*$/, ""))}…`;
}

function formatHookLogLine(entry: HookLogEntry): string {
	// A folder or file named with terminal escapes (an instructions file in a cloned repository) would act on `tail hooks.log`.
	return `${entry.at}\t${entry.hook}\t${entry.status}\t${printable(logDetail(entry.detail)).trim()}\n`;
}

/**
 * Opened to append only when it is a plain file of its own: not through a link (appended to
 * whatever it points at), and without blocking (a FIFO would wait for a reader forever, and every
 * hook and recall tool with it).
 */
const APPEND = constants.O_NOFOLLOW === undefined ? "a" : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Appends one line; never throws (a hook that cannot log still answers). */
export async function appendHookLog(pluginFolder: string, entry: HookLogEntry): Promise<void> {
	const path = hookLogPath(pluginFolder);
	try {
		// A hook blocks on its files (see `blockOnFiles`): four thread-pool round trips were a twentieth of it.
		const after = mayBlockOnFiles() ? appendNow(path, formatHookLogLine(entry)) : await appendLater(path, formatHookLogLine(entry));
		if (after !== undefined && after.size > MAX_BYTES) await turnOver(pluginFolder, after);
	} catch {
		// Nowhere to write (or no plain file to write in): the run still answers.
	}
}

/** The line appended, blocking; the file as it is then, or undefined when it is no plain file (nothing written). */
function appendNow(path: string, line: string): Stats | undefined {
	const fd = openSync(path, APPEND, 0o644);
	try {
		if (!fstatSync(fd).isFile()) return undefined;
		writeFileSync(fd, line);
		return fstatSync(fd);
	} finally {
		closeSync(fd);
	}
}

/** `appendNow` with promises (the MCP server, the plugin: no blocking there). */
async function appendLater(path: string, line: string): Promise<Stats | undefined> {
	const handle = await open(path, APPEND, 0o644);
	try {
		if (!(await handle.stat()).isFile()) return undefined;
		await handle.appendFile(line, "utf8");
		return await handle.stat();
	} finally {
		await handle.close();
	}
}

/**
 * Moves the full log aside as `hooks.log.1`, whole, by a rename: a run that opened it before the
 * rename still writes its line into it, and that line is read there (a trim that wrote the log's
 * tail into a new file lost every line other hooks appended meanwhile: 13 of 20 in a burst). One
 * run at a time, and only the file this run wrote to: a second run moving the next, new log over
 * `hooks.log.1` would drop the full one.
 */
async function turnOver(pluginFolder: string, written: { ino: number; dev: number }): Promise<void> {
	const path = hookLogPath(pluginFolder);
	const lock = `${path}.lock`;
	const take = () => open(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
	const taken = await take().catch(async (error: NodeJS.ErrnoException) => {
		// Another run is at it (it moves this file too); or one was killed at it, long ago: its lock goes.
		const held = error.code === "EEXIST" ? await lstat(lock).catch(() => undefined) : undefined;
		if (!held || Date.now() - held.mtimeMs <= STALE_TURN_MS) return undefined;
		await unlink(lock).catch(() => undefined);
		return take().catch(() => undefined);
	});
	if (!taken) return;
	try {
		await taken.close();
		const now = await lstat(path);
		if (now.isFile() && now.ino === written.ino && now.dev === written.dev) await rename(path, previousLogPath(pluginFolder));
	} finally {
		await unlink(lock).catch(() => undefined);
	}
}

/**
 * The whole lines among the last `bytes` of the log: the hooks keep it under `MAX_BYTES`, but
 * something else may grow it (a log of 300 MB took `doctor` 26 s to read whole).
 */
async function readLogTail(path: string, bytes: number): Promise<string> {
	const handle = await openPlainFile(path);
	try {
		const size = (await handle.stat()).size;
		// One byte more than asked: when it is a line break, the tail starts on a whole line.
		const start = Math.max(0, size - bytes - 1);
		const tail = await readUpTo({ read: (buffer, offset, length, position) => handle.read(buffer, offset, length, start + position) }, Buffer.alloc(size - start));
		if (start === 0) return tail.toString("utf8");
		const firstBreak = tail.indexOf(0x0a);
		return firstBreak < 0 ? "" : tail.subarray(firstBreak + 1).toString("utf8");
	} finally {
		await handle.close();
	}
}

/** The log's recent lines: the current log's last `MAX_BYTES`, after as much of the previous one's end as makes `MAX_BYTES` in all. */
async function recentLog(pluginFolder: string): Promise<string> {
	const current = await readLogTail(hookLogPath(pluginFolder), MAX_BYTES).catch(() => "");
	const room = MAX_BYTES - Buffer.byteLength(current, "utf8");
	const previous = room > 0 ? await readLogTail(previousLogPath(pluginFolder), room).catch(() => "") : "";
	return `${previous}${current}`;
}

/** The last line of each hook in the log. */
export async function lastHookRuns(pluginFolder: string): Promise<Map<string, HookLogEntry>> {
	const runs = new Map<string, HookLogEntry>();
	const text = await recentLog(pluginFolder);
	for (const line of text.split("\n")) {
		const [at, hook, status, ...rest] = line.split("\t");
		if (!at || !hook || (status !== "ok" && status !== "error")) continue;
		runs.set(hook, { at, hook, status, detail: rest.join(" ") });
	}
	return runs;
}

/** Every recent line of the log, oldest first (lines that are not ours are skipped). */
export async function hookLogEntries(pluginFolder: string): Promise<HookLogEntry[]> {
	const text = await recentLog(pluginFolder);
	const entries: HookLogEntry[] = [];
	for (const line of text.split("\n")) {
		const [at, hook, status, ...rest] = line.split("\t");
		if (at && hook && (status === "ok" || status === "error")) entries.push({ at, hook, status, detail: rest.join(" ") });
	}
	return entries;
}
