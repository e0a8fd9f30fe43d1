import { readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { writeFileReplacing } from "./atomic-write";
import type { NoteStore } from "../core/ports";

/**
 * The vault as a plain folder, for the CLI when Obsidian is closed. Writes are atomic (temp file
 * and rename), so Obsidian or a sync client never sees half a note. Paths may not leave the vault.
 */
export class VaultFolder implements NoteStore {
	private readonly root: string;

	constructor(root: string) {
		this.root = resolve(root);
	}

	async read(path: string): Promise<string | null> {
		try {
			return await readFile(this.resolve(path), "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
			throw error;
		}
	}

	async write(path: string, text: string): Promise<void> {
		await writeFileReplacing(this.resolve(path), text);
	}

	private resolve(path: string): string {
		const target = resolve(join(this.root, ...path.split("/")));
		if (target !== this.root && !target.startsWith(this.root + sep)) throw new Error(`refusing to write outside the vault: ${path}`);
		return target;
	}
}
