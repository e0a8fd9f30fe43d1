import { parentPort } from "node:worker_threads";
import { foldWholeTranscript, storedJson, type FoldedWhole } from "../core/sync/fold-whole";
import { writeFileReplacingSync } from "./atomic-write";
import type { FoldJob } from "./fold-worker-pool";
import { readAppended } from "./transcript-tail";
import { readMeta } from "./transcript-source";

/** Worker thread entry (built as dist/fold-worker.cjs): folds whole transcripts on request. */
parentPort?.on("message", (job: FoldJob) => {
	fold(job).then(
		(result) => parentPort?.postMessage({ id: job.id, ok: true, result }),
		(error: unknown) => parentPort?.postMessage({ id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
	);
});

async function fold(job: FoldJob): Promise<FoldedWhole> {
	const result = await foldWholeTranscript(job.file, job.spec, (onLines, onRestart) => readAppended(job.file.path, undefined, onLines, { onRestart, blocking: true }));
	if (job.saveTo === undefined) return result;
	const meta = job.file.metaPath ? await readMeta(job.file.metaPath) : undefined;
	writeFileReplacingSync(job.saveTo, storedJson(job.file, result.cursor, JSON.stringify(result.model), meta));
	return { ...result, saved: { meta } };
}
