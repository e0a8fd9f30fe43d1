import { skipsBulk } from "./bulk-fields";
import { statSync } from "node:fs";
import { setTimeout } from "node:timers";
import { stat } from "node:fs/promises";
import type { TranscriptSource } from "../core/ports";
import type { TailCursor, TranscriptFile } from "../core/transcript/transcript-files";
import type { RawLine } from "../core/transcript/jsonl-lines";
import type { FoldWorkerPool } from "./fold-worker-pool";
import { markWholeRead } from "./code-cache";
import { hasSettled, isDocument, readAppended, readWholeBytes, SETTLE_MS } from "./transcript-tail";
import { runFoldJob } from "./fold-worker-job";
import { readMeta } from "./subagent-meta";
import { scanTranscripts, type PassedOver } from "./transcript-scanner";
import { scanAider, scanCodex, scanCopilot, scanGemini, type Prefetched } from "./agent-scanners";
import { foldWholeTranscript } from "../core/ingest/fold-whole";
import { OpencodeSessions } from "./opencode-sessions";
import { describeWriteError } from "../core/write-error";

/** Files smaller than this are folded on the calling thread (see `foldWhole`). */
const FOLD_HERE_BYTES = 32 * 1024;
/** Reads of at most this much are made blocking: one chunk of `readAppended`. */
const BLOCKING_READ_BYTES = 256 * 1024;

/** Where each agent keeps its sessions on this device, as a sync reads them (see `agentHomes`); absent: not read. */
export interface AgentRoots {
	/** Claude Code's `projects/` folder. */
	"claude-code"?: string;
	/** Codex CLI's home (`~/.codex`). */
	codex?: string;
	/** Gemini CLI's folder (`~/.gemini`). */
	"gemini-cli"?: string;
	/** Copilot CLI's folder (`~/.copilot`). */
	"copilot-cli"?: string;
	/** The projects whose folders may hold Aider's chat history. */
	aider?: readonly string[];
	/** opencode's data folder (`~/.local/share/opencode`). */
	opencode?: string;
}

/**
 * A read that held back a last line whole but without its `\n`, written a moment ago (it may be
 * the first half of a write, see `SETTLE_MS`), goes on once that moment is over, from before that
 * line: the sync tells what the file holds now. Left to the next sync, a sync started right after
 * such a write (a transcript rewritten in place, a hook at a session's end) told the old text. A
 * file still being written then holds it back again, for the next read. Not a whole-file document
 * (Gemini CLI's `.json`), which is read whole each time.
 */
async function readOnOnceSettled(path: string, read: { cursor: TailCursor; bytesRead: number }, onLines: (lines: RawLine[]) => void, options: { onRestart: () => void; blocking: boolean; skipBulk: boolean }): Promise<{ cursor: TailCursor; bytesRead: number }> {
	if (read.cursor.settling !== true || isDocument(path)) return { cursor: read.cursor, bytesRead: read.bytesRead };
	// Waited until the clock says so, not once: a timer counts from the event loop's cached time,
	// so after a long synchronous stretch (a busy machine) it fires early, and the read found the
	// line still settling.
	const mtimeMs = read.cursor.mtimeMs ?? Date.now();
	while (!hasSettled(mtimeMs)) {
		const age = Date.now() - mtimeMs;
		await new Promise((done) => setTimeout(done, Math.min(2 * SETTLE_MS, Math.max(0, SETTLE_MS - age)) + 1));
	}
	const more = await readAppended(path, read.cursor, onLines, options);
	return { cursor: more.cursor, bytesRead: read.bytesRead + more.bytesRead };
}

/**
 * Transcripts under a projects root, read with Node's file system (new ones in `pool`, if given).
 * @param roots the agents to read and where, asked at each scan (settings change); default: Claude Code's `root` alone.
 */
export function nodeTranscriptSource(root: string, pool?: FoldWorkerPool, roots: () => AgentRoots = () => ({ "claude-code": root })): TranscriptSource {
	// Files the last scan read whole, each given to its first read (and to nothing else): see `scanGemini`.
	let prefetched: Prefetched = new Map();
	// What the last scan of the agents' folders did not read (see `scanTranscripts`).
	let passed: PassedOver[] = [];
	// opencode's sessions are rows of one database: read here, through one open view of it, never on a worker.
	let opencode: OpencodeSessions | undefined;
	const opencodeOf = (path: string) => (opencode?.owns(path) ? opencode : undefined);
	return {
		// A small file costs less to fold here, blocking, than its round trip to a worker (Gemini CLI
		// writes thousands of files of a few kilobytes: measured, the round trips were most of the time).
		foldWhole: pool
			? (file, spec, packTo, detail) => {
					markWholeRead(file.size);
					const sessions = opencodeOf(file.path);
					if (sessions) return foldWholeTranscript(file, spec, (onLines) => sessions.read(file.path, onLines), detail);
					const whole = prefetched.get(file.path);
					prefetched.delete(file.path);
					return file.size < FOLD_HERE_BYTES ? runFoldJob({ id: 0, file, spec, packTo, ...(detail === undefined ? {} : { detail }) }, whole) : pool.fold(file, spec, packTo, detail);
				}
			: undefined,
		foldsHere: pool ? (file) => opencodeOf(file.path) !== undefined || file.size < FOLD_HERE_BYTES : undefined,
		scan: async (known) => {
			const where = roots();
			prefetched = new Map();
			passed = [];
			if (where.opencode === undefined) opencode = undefined;
			else if (opencode === undefined || opencode.dataDir !== where.opencode) opencode = new OpencodeSessions(where.opencode);
			// An agent's folder that cannot be listed (a link loop in it, a file where a folder was) is
			// named among what the sync passed over; the other agents' sessions are read all the same.
			const scanned = (dir: string, scan: () => Promise<TranscriptFile[]>) =>
				scan().catch((error: unknown) => {
					const at = (error as NodeJS.ErrnoException).path;
					passed.push({ path: dir, reason: `not read this time: ${describeWriteError(error)}${at && at !== dir ? ` at ${at}` : ""}` });
					return [];
				});
			const found = await Promise.all([
				where["claude-code"] === undefined ? [] : scanned(where["claude-code"], () => scanTranscripts(where["claude-code"]!, passed)),
				where.codex === undefined ? [] : scanned(where.codex, () => scanCodex(where.codex!, passed)),
				where["gemini-cli"] === undefined ? [] : scanned(where["gemini-cli"], () => scanGemini(where["gemini-cli"]!, known, prefetched, passed)),
				where["copilot-cli"] === undefined ? [] : scanned(where["copilot-cli"], () => scanCopilot(where["copilot-cli"]!, passed)),
				where.aider === undefined ? [] : scanned(where.aider.join(", "), () => scanAider(where.aider!, undefined, passed)),
				opencode === undefined ? [] : scanned(opencode.dataDir, () => opencode!.scan([...(known?.values() ?? [])], passed)),
			]);
			return found.flat();
		},
		passedOver: () => passed,
		async stat(file: TranscriptFile): Promise<TranscriptFile | undefined> {
			const sessions = opencodeOf(file.path);
			if (sessions) return sessions.stat(file);
			try {
				const s = await stat(file.path);
				return { ...file, size: s.size, mtimeMs: s.mtimeMs, ino: Number(s.ino), ctimeMs: s.ctimeMs };
			} catch {
				return undefined;
			}
		},
		async readAppended(path, cursor, onLines, onRestart, size, agent) {
			const skipBulk = skipsBulk(agent);
			const sessions = opencodeOf(path);
			// Each a transcript read whole (opencode's sessions are, each time: `readsWhole`), not from where the last sync stopped.
			if (cursor === undefined || sessions !== undefined) markWholeRead(size);
			if (sessions) {
				// Read whole each time (`readsWhole`): what was folded before is dropped first.
				if (cursor !== undefined) onRestart();
				return sessions.read(path, onLines);
			}
			pool?.batchStarted();
			const whole = prefetched.get(path);
			if (whole) {
				prefetched.delete(path);
				// Read by the scan, at the stamp the caller has: a file read from its start is these bytes.
				if (cursor === undefined) {
					const read = readWholeBytes(whole.bytes, whole.ino, onLines, hasSettled(whole.mtimeMs), whole.mtimeMs, isDocument(path), skipBulk);
					return readOnOnceSettled(path, read, onLines, { onRestart, blocking: whole.bytes.length <= BLOCKING_READ_BYTES, skipBulk });
				}
			}
			// What one read takes is read blocking: microseconds from the page cache, against a
			// thread-pool round trip per step (open, stat, read, close; measured: a Codex file of 35 KB
			// cost a third more read through the pool). Longer reads go through the pool, chunk by chunk.
			const length = (size ?? statSync(path, { throwIfNoEntry: false })?.size ?? Number.POSITIVE_INFINITY) - (cursor?.offset ?? 0);
			const small = length <= BLOCKING_READ_BYTES;
			const read = await readAppended(path, cursor, onLines, { onRestart, blocking: small, skipBulk });
			return readOnOnceSettled(path, read, onLines, { onRestart, blocking: small, skipBulk });
		},
		readMeta,
	};
}
