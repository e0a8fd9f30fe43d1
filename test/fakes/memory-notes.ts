import type { NoteStore } from "../../src/core/ports";

/** A vault as a map of path to text, counting writes. */
export class MemoryNotes implements NoteStore {
	readonly files = new Map<string, string>();
	writes = 0;
	async read(path: string): Promise<string | null> {
		return this.files.get(path) ?? null;
	}
	/** Runs before each write: lets a test change a note "meanwhile". */
	beforeWrite?: (path: string) => void;
	async write(path: string, text: string, expected: string | null): Promise<boolean> {
		this.beforeWrite?.(path);
		if ((this.files.get(path) ?? null) !== expected) return false;
		this.writes++;
		this.files.set(path, text);
		return true;
	}
	async list(folder: string): Promise<string[]> {
		return [...this.files.keys()].filter((p) => p.startsWith(`${folder}/`) && !p.slice(folder.length + 1).includes("/")).sort();
	}
	async move(moves: readonly { from: string; to: string }[]): Promise<{ from: string; to: string }[]> {
		const made = moves.filter((m) => this.files.has(m.from) && !this.files.has(m.to));
		for (const m of made) {
			this.files.set(m.to, this.files.get(m.from)!);
			this.files.delete(m.from);
		}
		return made;
	}
	async listTree(folder: string): Promise<string[]> {
		return [...this.files.keys()].filter((p) => (folder === "" || p.startsWith(`${folder}/`)) && p.endsWith(".md") && !p.split("/").some((part) => part.startsWith("."))).sort();
	}
	/** A folder is there while a file is in it (a map of files has no empty folders). */
	async isFolder(folder: string): Promise<boolean> {
		return [...this.files.keys()].some((p) => p.startsWith(`${folder}/`));
	}
	async remove(path: string, expected: string): Promise<boolean> {
		if (this.files.get(path) !== expected) return false;
		this.files.delete(path);
		return true;
	}
}
