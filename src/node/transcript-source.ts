import { stat } from "node:fs/promises";
import { readPlainFile } from "./confined-path";
import type { TranscriptSource } from "../core/ports";
import { isObject } from "../core/transcript/parse-line";
import type { SubagentMeta } from "../core/transcript/link-subagents";
import type { TranscriptFile } from "../core/transcript/transcript-files";
import type { FoldWorkerPool } from "./fold-worker-pool";
import { readAppended } from "./transcript-tail";
import { scanTranscripts } from "./transcript-scanner";

/** Transcripts under a projects root, read with Node's file system (new ones in `pool`, if given). */
export function nodeTranscriptSource(root: string, pool?: FoldWorkerPool): TranscriptSource {
	return {
		foldWhole: pool ? (file, spec, saveTo) => pool.fold(file, spec, saveTo) : undefined,
		scan: () => scanTranscripts(root),
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
			const read = await readAppended(path, cursor, onLines, { onRestart });
			return { cursor: read.cursor, bytesRead: read.bytesRead };
		},
		readMeta,
	};
}

export async function readMeta(path: string): Promise<SubagentMeta | undefined> {
	try {
		const value: unknown = JSON.parse(await readPlainFile(path));
		if (!isObject(value)) return undefined;
		const text = (v: unknown) => (typeof v === "string" ? v : undefined);
		return { agentType: text(value.agentType), description: text(value.description), worktreePath: text(value.worktreePath) };
	} catch {
		return undefined;
	}
}
