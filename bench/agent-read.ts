import type { AgentId } from "../src/core/transcript/agents";
import { nodeTranscriptSource } from "../src/node/transcript-source";
import { TranscriptIndex } from "../src/core/ingest/transcript-index";
import { join } from "node:path";
import { FoldWorkerPool } from "../src/node/fold-worker-pool";

/**
 * One agent's reader as a process of its own (bench/out/agent-read.cjs <agent> <folder>): scans
 * the folder the way a sync does and folds every session file on the fold workers, as the CLI's
 * first sync does, nothing else (no redaction, no notes, nothing stored). Prints the number of prompts found. The benchmark times it from outside against
 * bench/read-baseline.mjs on the same files.
 */
const [agent, folder] = process.argv.slice(2) as [AgentId, string];
const pool = FoldWorkerPool.at(join(__dirname, "fold-worker.cjs"));
const index = new TranscriptIndex(nodeTranscriptSource(folder, pool, () => ({ [agent]: folder })));
void index.refresh().then(async (read) => {
	await pool?.close();
	const prompts = read.updated.reduce((n, e) => n + e.model.counts.prompts, 0);
	process.stdout.write(`${JSON.stringify({ files: read.updated.length, prompts, failed: read.failed.length })}\n`);
});
