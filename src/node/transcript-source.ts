import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import type { TranscriptSource } from "../core/ports";
import type { TranscriptFile } from "../core/transcript/transcript-files";
import type { FoldWorkerPool } from "./fold-worker-pool";
import { readAppended } from "./transcript-tail";
import { runFoldJob } from "./fold-worker-job";
import { readMeta } from "./subagent-meta";
import { scanTranscripts } from "./transcript-scanner";
import { scanAider, scanCodex, scanCopilot, scanGemini } from "./agent-scanners";

/** Files smaller than this are folded on the calling thread (see `foldWhole`). */
const FOLD_HERE_BYTES = 32 * 1024;

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
}

/**
 * Transcripts under a projects root, read with Node's file system (new ones in `pool`, if given).
 * @param roots the agents to read and where, asked at each scan (settings change); default: Claude Code's `root` alone.
 */
export function nodeTranscriptSource(root: string, pool?: FoldWorkerPool, roots: () => AgentRoots = () => ({ "claude-code": root })): TranscriptSource {
	return {
		// A small file costs less to fold here, blocking, than its round trip to a worker (Gemini CLI
		// writes thousands of files of a few kilobytes: measured, the round trips were most of the time).
		foldWhole: pool ? (file, spec, saveTo) => (file.size < FOLD_HERE_BYTES ? runFoldJob({ id: 0, file, spec, saveTo }) : pool.fold(file, spec, saveTo)) : undefined,
		scan: async () => {
			const where = roots();
			const found = await Promise.all([
				where["claude-code"] === undefined ? [] : scanTranscripts(where["claude-code"]),
				where.codex === undefined ? [] : scanCodex(where.codex),
				where["gemini-cli"] === undefined ? [] : scanGemini(where["gemini-cli"]),
				where["copilot-cli"] === undefined ? [] : scanCopilot(where["copilot-cli"]),
				where.aider === undefined ? [] : scanAider(where.aider),
			]);
			return found.flat();
		},
		async stat(file: TranscriptFile): Promise<TranscriptFile | undefined> {
			try {
				const s = await stat(file.path);
				return { ...file, size: s.size, mtimeMs: s.mtimeMs, ino: Number(s.ino) };
			} catch {
				return undefined;
			}
		},
		async readAppended(path, cursor, onLines, onRestart) {
			pool?.batchStarted();
			// A small file is read blocking: microseconds, against a thread-pool round trip per step.
			const small = (statSync(path, { throwIfNoEntry: false })?.size ?? Number.POSITIVE_INFINITY) < FOLD_HERE_BYTES;
			const read = await readAppended(path, cursor, onLines, { onRestart, blocking: small });
			return { cursor: read.cursor, bytesRead: read.bytesRead };
		},
		readMeta,
	};
}
