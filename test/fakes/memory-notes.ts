import type { NoteStore } from "../../src/core/ports";

/** A vault as a map of path to text, counting writes. */
export class MemoryNotes implements NoteStore {
	readonly files = new Map<string, string>();
	writes = 0;
	async read(path: string): Promise<string | null> {
		return this.files.get(path) ?? null;
	}
	async write(path: string, text: string): Promise<void> {
		this.writes++;
		this.files.set(path, text);
	}
}
