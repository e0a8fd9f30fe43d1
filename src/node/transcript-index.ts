import type { TranscriptStore } from "../core/ports";
import type { RedactionSpec } from "../core/ingest/redaction-policy";
import type { FoldWorkerPool } from "./fold-worker-pool";
import { TranscriptIndex } from "../core/ingest/transcript-index";
import { keptOutOfStore } from "./kept-out";
import { nodeTranscriptSource, type AgentRoots } from "./transcript-source";

export { TranscriptIndex };
export type { IndexedTranscript, RefreshResult } from "../core/ingest/transcript-index";

/** A transcript index over a projects root on disk, optionally backed by a state store. */
export function openTranscriptIndex(root: string, store?: TranscriptStore, redaction?: () => RedactionSpec, pool?: FoldWorkerPool, roots?: () => AgentRoots): TranscriptIndex {
	return new TranscriptIndex(nodeTranscriptSource(root, pool, roots), store, redaction, keptOutOfStore);
}
