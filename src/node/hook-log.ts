import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { writeFileReplacing } from "./atomic-write";
import { openPlainFile, readUpTo } from "./confined-path";
import { join } from "node:path";
import { printable } from "../core/text/printable";

/**
 * `<plugin folder>/hooks.log`: one line per hook run, so that `ai-memory doctor` can say when each
 * hook last ran and what it did, and a failure (hooks fail open: Claude Code never sees one) leaves
 * a trace. Tab-separated: time (ISO 8601), hook, `ok` or `error`, then `key=value` details or the
 * error. Kept under about half a megabyte by dropping its older half.
 */

const HOOK_LOG = "hooks.log";
const MAX_BYTES = 512 * 1024;

export function hookLogPath(pluginFolder: string): string {
	return join(pluginFolder, HOOK_LOG);
}

export interface HookLogEntry {
	at: string;
	hook: string;
	status: "ok" | "error";
	/** `key=value` details, or the error message. */
	detail: string;
}

function formatHookLogLine(entry: HookLogEntry): string {
	// A folder or file named with terminal escapes (an instructions file in a cloned repository) would act on `tail hooks.log`.
	return `${entry.at}\t${entry.hook}\t${entry.status}\t${printable(entry.detail).replace(/[\r\n\t]+/g, " ").trim()}\n`;
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
		const handle = await open(path, APPEND, 0o644);
		let size: number;
		try {
			const before = await handle.stat();
			if (!before.isFile()) return;
			await handle.appendFile(formatHookLogLine(entry), "utf8");
			size = (await handle.stat()).size;
		} finally {
			await handle.close();
		}
		if (size > MAX_BYTES) {
			// Replaced by a rename, as every file of ours: a crash leaves the old log or the new one.
			await writeFileReplacing(path, await readLogTail(path, MAX_BYTES / 2));
		}
	} catch {
		// Nowhere to write (or no plain file to write in): the run still answers.
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

/** The log's recent lines: its last `MAX_BYTES`, all a log the hooks kept holds. */
function recentLog(pluginFolder: string): Promise<string> {
	return readLogTail(hookLogPath(pluginFolder), MAX_BYTES).catch(() => "");
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
