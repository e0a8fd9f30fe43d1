import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { writeFileReplacing } from "./atomic-write";
import { readPlainFile } from "./confined-path";
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
			const text = await readPlainFile(path);
			const half = text.indexOf("\n", text.length - MAX_BYTES / 2);
			// Replaced by a rename, as every file of ours: a crash leaves the old log or the new one.
			await writeFileReplacing(path, text.slice(half + 1));
		}
	} catch {
		// Nowhere to write (or no plain file to write in): the run still answers.
	}
}

/** The last line of each hook in the log. */
export async function lastHookRuns(pluginFolder: string): Promise<Map<string, HookLogEntry>> {
	const runs = new Map<string, HookLogEntry>();
	const text = await readPlainFile(hookLogPath(pluginFolder)).catch(() => "");
	for (const line of text.split("\n")) {
		const [at, hook, status, ...rest] = line.split("\t");
		if (!at || !hook || (status !== "ok" && status !== "error")) continue;
		runs.set(hook, { at, hook, status, detail: rest.join(" ") });
	}
	return runs;
}

/** Every line of the log, oldest first (lines that are not ours are skipped). */
export async function hookLogEntries(pluginFolder: string): Promise<HookLogEntry[]> {
	const text = await readPlainFile(hookLogPath(pluginFolder)).catch(() => "");
	const entries: HookLogEntry[] = [];
	for (const line of text.split("\n")) {
		const [at, hook, status, ...rest] = line.split("\t");
		if (at && hook && (status === "ok" || status === "error")) entries.push({ at, hook, status, detail: rest.join(" ") });
	}
	return entries;
}
