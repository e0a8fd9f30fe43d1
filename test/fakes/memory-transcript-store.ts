import type { StoredTranscript, TranscriptStore } from "../../src/core/ports";
import type { TranscriptFile } from "../../src/core/transcript/transcript-files";

/** What a store keeps between runs: stamps, and each entry as the JSON it was saved as. */
export interface TranscriptShelf {
	readonly files: Map<string, TranscriptFile>;
	readonly models: Map<string, string>;
}

/**
 * The state folder's transcripts in memory. Entries are kept as JSON, so a load hands out a copy
 * (as from disk) and a model folded further after its save does not change what was stored.
 * `reopen` is the next run over the same shelf.
 */
export class MemoryTranscriptStore implements TranscriptStore {
	constructor(readonly shelf: TranscriptShelf = { files: new Map(), models: new Map() }) {}

	reopen(): MemoryTranscriptStore {
		return new MemoryTranscriptStore(this.shelf);
	}

	async known(): Promise<TranscriptFile[]> {
		return [...this.shelf.files.values()].map((f) => ({ ...f }));
	}

	async load(path: string): Promise<StoredTranscript | undefined> {
		const json = this.shelf.models.get(path);
		return json === undefined ? undefined : (JSON.parse(json) as StoredTranscript);
	}

	async save(entry: StoredTranscript, json?: string): Promise<void> {
		this.shelf.files.set(entry.file.path, { ...entry.file });
		this.shelf.models.set(entry.file.path, json ?? JSON.stringify(entry));
	}

	async forget(path: string): Promise<void> {
		this.shelf.files.delete(path);
		this.shelf.models.delete(path);
	}
}
