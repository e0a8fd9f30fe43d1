import { parentPort, threadId } from "node:worker_threads";
import type { FoldJob } from "./fold-worker-pool";
import { runFoldJob } from "./fold-worker-job";
import { setThreadId } from "./thread-id";

// Before anything is written: temporary files and packs are named by it.
setThreadId(threadId);

/** Worker thread entry (built as dist/fold-worker.cjs): folds whole transcripts on request. */
parentPort?.on("message", (job: FoldJob) => {
	runFoldJob(job).then(
		(result) => {
			// The conversation (most of a note) as UTF-8 bytes whose buffer is handed over, not cloned
			// into the calling thread's heap (see `ConversationText`).
			const bytes = result.conversation instanceof Uint8Array ? result.conversation : undefined;
			parentPort?.postMessage({ id: job.id, ok: true, result }, bytes ? [bytes.buffer as ArrayBuffer] : []);
		},
		(error: unknown) => {
			const code = (error as { code?: unknown } | undefined)?.code;
			parentPort?.postMessage({ id: job.id, ok: false, error: error instanceof Error ? error.message : String(error), ...(typeof code === "string" ? { code } : {}) });
		},
	);
});
