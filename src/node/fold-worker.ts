import { parentPort } from "node:worker_threads";
import { foldWholeTranscript } from "../core/sync/fold-whole";
import type { FoldJob } from "./fold-worker-pool";
import { readAppended } from "./transcript-tail";

/** Worker thread entry (built as dist/fold-worker.cjs): folds whole transcripts on request. */
parentPort?.on("message", (job: FoldJob) => {
	foldWholeTranscript(job.file, job.spec, (onLines, onRestart) => readAppended(job.file.path, undefined, onLines, { onRestart })).then(
		(result) => parentPort?.postMessage({ id: job.id, ok: true, result }),
		(error: unknown) => parentPort?.postMessage({ id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
	);
});
