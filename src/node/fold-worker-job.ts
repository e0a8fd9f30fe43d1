import { skipsBulk } from "./bulk-fields";
import { foldWholeTranscript, partialModel, storedJsonParts, type FoldedWhole } from "../core/ingest/fold-whole";
import { redactMeta } from "../core/ingest/redact-model";
import { isSessionKeptOut, redactionKey, redactorFor } from "../core/ingest/redaction-policy";
import { keptOutOfStore } from "./kept-out";
import { appendToPack } from "./model-pack";
import { stampedFolded } from "../core/transcript/fold-revision";
import { withFirstUuid } from "../core/transcript/transcript-files";
import type { FoldJob } from "./fold-worker-pool";
import { hasSettled, isDocument, readAppended, readWholeBytes } from "./transcript-tail";
import { readMeta } from "./subagent-meta";

const utf8 = new TextEncoder();

/**
 * One job of a fold worker: read, fold, redact and digest a whole transcript, and store its model
 * when asked to. Run on a worker thread (`fold-worker.ts`), or on the calling thread when no
 * worker can start. Stored models go to the thread's pack (`appendToPack`). With `job.detail`, a session's conversation is rendered too and, once the
 * whole model is stored, only its partial form goes back (see `partialModel`).
 */
export async function runFoldJob(job: FoldJob, bytes?: { bytes: Buffer; ino: number; mtimeMs: number }): Promise<FoldedWhole> {
	// `bytes`: the file as the scan read it whole, on the calling thread (see `Prefetched`).
	const skipBulk = skipsBulk(job.file.agent);
	const folded = await foldWholeTranscript(job.file, job.spec, (onLines, onRestart) => (bytes ? Promise.resolve(readWholeBytes(bytes.bytes, bytes.ino, onLines, hasSettled(bytes.mtimeMs), bytes.mtimeMs, isDocument(job.file.path), skipBulk)) : readAppended(job.file.path, undefined, onLines, { onRestart, blocking: true, skipBulk })), job.detail);
	// The conversation as bytes from here on, on either thread: out of the heap, and written as they are (see `ConversationText`).
	const result = typeof folded.conversation === "string" ? { ...folded, conversation: utf8.encode(folded.conversation) } : folded;
	if (job.packTo === undefined || isSessionKeptOut(job.spec, result.model, keptOutOfStore)) return result;
	const read = job.file.metaPath ? await readMeta(job.file.metaPath) : undefined;
	const meta = job.spec ? redactMeta(read, redactorFor(job.spec, result.model.cwd)) : read;
	const redaction = redactionKey(job.spec, result.model.cwd);
	const at = { ...appendToPack(job.packTo, storedJsonParts(withFirstUuid(stampedFolded(job.file), result.model.firstUuid), result.cursor, result.model, meta, redaction)), redaction };
	if (job.detail !== undefined && job.file.kind === "session") return { ...result, model: partialModel(result.model), partial: true, saved: { meta, at } };
	return { ...result, saved: { meta, at } };
}
