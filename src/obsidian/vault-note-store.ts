import { normalizePath, TFile, type Vault } from "obsidian";
import type { NoteStore } from "../core/ports";

/**
 * Notes through Obsidian's Vault API: `create` for new notes (after their folders), `process` for
 * existing ones, so Obsidian's cache and open editors stay in step. Paths are normalized.
 */
export class VaultNoteStore implements NoteStore {
	/**
	 * @param trash how a note is deleted: the plugin passes `FileManager.trashFile`, which follows the user's setting.
	 * @param rename how a note is moved: the plugin passes `FileManager.renameFile`, which updates the links to it.
	 */
	constructor(
		private readonly vault: Vault,
		private readonly trash: (file: TFile) => Promise<void>,
		private readonly rename: (file: TFile, newPath: string) => Promise<void>,
	) {}

	async move(moves: readonly { from: string; to: string }[]): Promise<{ from: string; to: string }[]> {
		const made: { from: string; to: string }[] = [];
		for (const move of moves) {
			const file = this.fileAt(move.from);
			const target = normalizePath(move.to);
			if (!file || this.vault.getAbstractFileByPath(target)) continue;
			await this.ensureFolder(target.split("/").slice(0, -1).join("/"));
			await this.rename(file, target);
			made.push(move);
		}
		return made;
	}

	async listTree(folder: string): Promise<string[]> {
		const root = folder === "" ? "" : `${normalizePath(folder)}/`;
		return this.vault
			.getMarkdownFiles()
			.map((f) => f.path)
			.filter((p) => p.startsWith(root) && !p.split("/").some((part) => part.startsWith(".")))
			.sort();
	}

	async list(folder: string): Promise<string[]> {
		const found = this.vault.getFolderByPath(normalizePath(folder));
		return (found?.children ?? []).filter((c): c is TFile => c instanceof TFile).map((c) => c.path).sort();
	}

	async isFolder(folder: string): Promise<boolean> {
		return this.vault.getFolderByPath(normalizePath(folder)) !== null;
	}

	async remove(path: string, expected: string): Promise<boolean> {
		const file = this.fileAt(path);
		if (!file || (await this.vault.read(file)) !== expected) return false;
		await this.trash(file);
		return true;
	}

	async read(path: string): Promise<string | null> {
		const target = normalizePath(path);
		const file = this.fileAt(path);
		if (file) return this.vault.read(file);
		// Not a note gone, which a new one would replace: a create there said only Obsidian's "File already exists." (the CLI says this).
		if (this.vault.getFolderByPath(target)) throw new Error(`The note ${target} is not a plain file (a folder); it is neither read nor written`);
		return null;
	}

	async write(path: string, text: string, expected: string | null): Promise<boolean> {
		const target = normalizePath(path);
		const file = this.fileAt(path);
		if (file) {
			if (expected === null) return false;
			// The check and the write happen in one step: an edit made since our read is never overwritten.
			let swapped = false;
			await this.vault.process(file, (current) => {
				swapped = current === expected;
				return swapped ? text : current;
			});
			return swapped;
		}
		if (expected !== null) return false;
		await this.ensureFolder(target.split("/").slice(0, -1).join("/"));
		await this.vault.create(target, text);
		return true;
	}

	/**
	 * The note at `path`: as `normalizePath` spells it, else as the vault does. A name in NFD (a file
	 * manager on Linux named it so, and the vault told its rename so) is NFC once normalized, and
	 * was not found under it: the note was taken for deleted by the person (attack round 49a).
	 */
	private fileAt(path: string): TFile | null {
		return this.vault.getFileByPath(normalizePath(path)) ?? this.vault.getFileByPath(path);
	}

	private async ensureFolder(folder: string): Promise<void> {
		if (folder === "" || this.vault.getFolderByPath(folder)) return;
		await this.ensureFolder(folder.split("/").slice(0, -1).join("/"));
		try {
			await this.vault.createFolder(folder);
		} catch (error) {
			// Another write created it meanwhile; anything else is a real failure.
			if (this.vault.getFolderByPath(folder)) return;
			// Obsidian says "Folder already exists." of a file there: the file is what to move.
			if (this.vault.getFileByPath(folder)) throw new Error(`the file "${folder}" stands where a folder of the path should be`);
			throw error;
		}
	}
}
