import type { AgentId } from "../src/core/transcript/agents";
import { nodeTranscriptSource } from "../src/node/transcript-source";
import { TranscriptIndex } from "../src/core/ingest/transcript-index";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { FoldWorkerPool } from "../src/node/fold-worker-pool";
import { exitWhenFlushed, ignoreClosedOutput } from "../src/cli/closed-output";
import { blockOnFiles } from "../src/node/blocking-files";

/**
 * One agent's reader as a process of its own (bench/out/agent-read.cjs <agent> <folder>): scans
 * the folder the way a sync does and reads and folds every session file into its model on this
 * thread, nothing else (no digest, no redaction, no notes, nothing stored), like the Claude Code
 * tree's "full parse into session models". With `--workers`, on the fold workers as the CLI's
 * first sync does (which digests each session there too). Prints the number of prompts found and
 * ends as the CLI's sync does. The benchmark times it from outside against bench/read-baseline.mjs
 * on the same files.
 */
ignoreClosedOutput();
// As the CLI's sync does at its start: its own files read and listed blocking.
blockOnFiles();
const [agent, folder, workers] = process.argv.slice(2) as [AgentId, string, string | undefined];
const pool = workers === "--workers" ? FoldWorkerPool.at(join(__dirname, "fold-worker.cjs")) : undefined;
// Aider's history is read in the projects' folders: each folder under the tree is a project.
const roots = agent === "aider" ? { aider: readdirSync(folder, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(folder, d.name)) } : { [agent]: folder };
const index = new TranscriptIndex(nodeTranscriptSource(folder, pool, () => roots));
void index.refresh().then(async (read) => {
	await pool?.close();
	const prompts = read.updated.reduce((n, e) => n + e.model.counts.prompts, 0);
	process.stdout.write(`${JSON.stringify({ files: read.updated.length, prompts, failed: read.failed.length })}\n`);
	// Ended as a CLI sync ends (see `exitWhenFlushed`).
	exitWhenFlushed(0);
});
