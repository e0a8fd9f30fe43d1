import { readdir, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { MemoryFolder } from "../core/ports";
import { writeFileReplacing } from "./atomic-write";

/**
 * A project's Claude Code memory folder on disk. Writes are atomic (temp file and rename) and
 * refused when the file changed since it was read; the folder is made on the first write.
 */
export class ClaudeMemoryFolder implements MemoryFolder {
	constructor(readonly path: string) {}

	async list(): Promise<Map<string, string>> {
		const entries = await readdir(this.path, { withFileTypes: true }).catch(() => []);
		const found = new Map<string, string>();
		for (const entry of entries.filter((e) => e.isFile() && e.name.toLowerCase().endsWith(".md")).sort((a, b) => (a.name < b.name ? -1 : 1))) {
			const text = await readFile(join(this.path, entry.name), "utf8").catch(() => null);
			if (text !== null) found.set(entry.name, text);
		}
		return found;
	}

	async write(name: string, text: string, expected: string | null): Promise<boolean> {
		const target = this.fileOf(name);
		if ((await readFile(target, "utf8").catch(() => null)) !== expected) return false;
		await writeFileReplacing(target, text);
		return true;
	}

	async remove(name: string, expected: string): Promise<boolean> {
		const target = this.fileOf(name);
		if ((await readFile(target, "utf8").catch(() => null)) !== expected) return false;
		await unlink(target);
		return true;
	}

	/** A file directly in the folder: a name that would reach elsewhere (`../x.md`, `a/b.md`) is refused. */
	private fileOf(name: string): string {
		if (name === "" || name === "." || name === ".." || /[\\/\0]/.test(name)) throw new Error(`refusing a memory file name that is not a plain file name: ${JSON.stringify(name)}`);
		return join(this.path, name);
	}
}
