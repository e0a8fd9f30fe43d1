import type { StoredTranscript, TranscriptStore } from "../core/ports";
import { TranscriptIndex } from "../core/sync/transcript-index";
import { nodeTranscriptSource } from "./transcript-source";

export { TranscriptIndex };
export type { IndexedTranscript, RefreshResult } from "../core/sync/transcript-index";

/** A transcript index over a projects root on disk, optionally backed by a state store. */
export function openTranscriptIndex(root: string, store?: TranscriptStore, prepare?: (entry: StoredTranscript) => StoredTranscript): TranscriptIndex {
	return new TranscriptIndex(nodeTranscriptSource(root), store, prepare);
}
