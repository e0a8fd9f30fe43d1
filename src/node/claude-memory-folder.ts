import { mayBlockOnFiles } from "./blocking-files";
import { isAbsentFolder, isDirectory, whatIsAt } from "./absent-folder";
import { lstat, readdir, realpath, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { MemoryFolder } from "../core/ports";
import { hasNameControl } from "../core/text/name-controls";
import { isStaleTemp, replaceKeepingAppends, writeFileReplacing } from "./atomic-write";
import { checkWriteFence } from "./write-fence";
import { ConfinedPathError, confinedFile, confinedFolder, INSTRUCTION_FILE_MAX_BYTES, readPlainUtf8IfThere, utf8Text } from "./confined-path";

/**
 * A project's Claude Code memory folder on disk. Writes are atomic (temp file and rename) and
 * refused when the file changed since it was read; the folder is made on the first write.
 * The model writes in this folder: the folder itself, and each file, must stay inside `root` once
 * links are followed (a `memory` link to `~` would have the facts written there), and only plain
 * files are read (a FIFO named like a fact would hang the sync).
 */
export class ClaudeMemoryFolder implements MemoryFolder {
	/**
	 * @param root where the folder must stay: Claude Code's `projects/` folder for the default
	 * place, the folder itself for one the user set (`autoMemoryDirectory`).
	 */
	constructor(
		readonly path: string,
		private readonly root: string = path,
		/** Off for a dry run: it writes nothing, not even the removal of a killed run's leftovers. */
		private readonly removeLeftovers = true,
	) {}

	/**
	 * Throws, rather than leave out, a fact it cannot read (a link, a FIFO, no permission) and a
	 * folder it cannot list: a fact left out would look deleted, and the vault's copy would go.
	 */
	async list(): Promise<Map<string, string>> {
		// The CLI tells no folder there by one blocking lstat, not a failed listing (a thousand enabled projects with no memory yet).
		const entries = mayBlockOnFiles() && (await isAbsentFolder(this.path)) ? undefined : await readdir(this.path, { withFileTypes: true }).catch(async (error: NodeJS.ErrnoException) => {
			// No folder yet is an empty one; a file, a FIFO or a dangling link there is not (see `isAbsentFolder`).
			if ((error.code === "ENOENT" || error.code === "ENOTDIR") && (await isAbsentFolder(this.path))) return undefined;
			// Checked before the message: a link out of Claude Code's folder is said to be one.
			await this.confineFolder();
			if (error.code === "ENOENT" || error.code === "ENOTDIR") throw new Error(`Claude Code's memory folder ${this.path} is ${await whatIsAt(this.path)}; make it a folder again`);
			throw new Error(`Claude Code's memory folder ${this.path} cannot be listed (${error.code ?? error.message})`);
		});
		if (entries === undefined) return new Map();
		// Checked once listed, before a file of it is read: no folder has nothing to lead out by, and a
		// thousand enabled projects with no memory yet were a walk of real paths each, every sync.
		await this.confineFolder();
		// What a killed sync left half-written here goes (never renamed into place, it is no fact).
		if (this.removeLeftovers) for (const entry of entries) if (entry.isFile() && isStaleTemp(entry.name)) await rm(join(this.path, entry.name), { force: true }).catch(() => undefined);
		const found = new Map<string, string>();
		for (const entry of entries.filter((e) => e.name.toLowerCase().endsWith(".md")).sort((a, b) => (a.name < b.name ? -1 : 1))) {
			const path = join(this.path, entry.name);
			// A name with a line break or a control character would add lines of its own to MEMORY.md's index (the model names these files).
			if (hasNameControl(entry.name)) throw new ConfinedPathError(`The memory file ${JSON.stringify(path)} has a line break or a control character in its name; it is neither read nor written (rename it)`);
			// Plain files only: a link is not a fact of this folder, wherever it points, nor read through.
			if (!entry.isFile()) throw new ConfinedPathError(`The memory file ${path} is ${entry.isSymbolicLink() ? "a link" : "not a plain file"}; it is neither read nor written (remove it, or make it a plain file)`);
			// Not UTF-8 (saved as Latin-1): refused, as unreadable, not decoded with U+FFFD and shared so.
			const text = await readPlainUtf8IfThere(path, INSTRUCTION_FILE_MAX_BYTES).catch((error: NodeJS.ErrnoException) => {
				throw error.code === undefined ? error : new Error(`The memory file ${path} cannot be read (${error.code})`);
			});
			if (text !== null) found.set(entry.name, text);
		}
		return found;
	}

	async exists(): Promise<boolean> {
		return isDirectory(this.path);
	}

	async realPath(): Promise<string | undefined> {
		return realpath(this.path).catch(() => undefined);
	}

	async write(name: string, text: string, expected: string | null): Promise<boolean> {
		const target = await this.fileOf(name);
		// As the vault's notes (`VaultFolder.write`): a fact the person made read-only stays as it is (the
		// rename replaced it, writable), and a rewrite keeps the file's mode (a private 0600 fact, secrets
		// and all, came back 0644 under the usual umask: attack round 51a).
		const mode = (await lstat(target).catch(() => undefined))?.mode;
		if (expected !== null && mode !== undefined && (mode & 0o222) === 0) throw new Error(`The memory file ${target} is read-only; it is left as it is (make it writable for the sync to update it)`);
		// The model may write the fact while we replace it: compared just before the rename, and what
		// reaches the old file meanwhile is carried over or given back (see `replaceKeepingAppends`).
		return replaceKeepingAppends(target, expected, (bytes) => utf8Text(target, bytes), (unchanged) => writeFileReplacing(target, text, mode === undefined ? undefined : mode & 0o7777, unchanged), text);
	}

	async remove(name: string, expected: string): Promise<boolean> {
		const target = await this.fileOf(name);
		// A FIFO, a folder or a link out is refused (throws), not taken for no file.
		if ((await readPlainUtf8IfThere(target, INSTRUCTION_FILE_MAX_BYTES)) !== expected) return false;
		checkWriteFence();
		await unlink(target);
		return true;
	}

	/** The folder, once links are followed, is inside the root; with no root yet, nothing under it can lead elsewhere. */
	private async confineFolder(): Promise<void> {
		if (!(await stat(this.root).then(() => true, () => false))) return;
		await confinedFolder(this.root, this.path, `Claude Code's memory folder ${this.path}`);
	}

	/** A file directly in the folder: a name that would reach elsewhere (`../x.md`, `a/b.md`) is refused, and so is a folder or file that leads out of `root`. */
	private async fileOf(name: string): Promise<string> {
		if (name === "" || name === "." || name === ".." || /[\\/\0]/.test(name)) throw new Error(`refusing a memory file name that is not a plain file name: ${JSON.stringify(name)}`);
		await this.confineFolder();
		const target = join(this.path, name);
		// No folder yet (Claude Code makes it at a session's start): the write makes it, nothing in it can lead elsewhere.
		if (!(await stat(this.path).then(() => true, () => false))) return target;
		const real = await confinedFile(this.path, target, `The memory file ${target}`);
		// A link inside the folder is written as the link (a rename replaces it), never through it.
		if (real !== undefined && real !== target) throw new ConfinedPathError(`The memory file ${target} is a link; it is neither read nor written`);
		return target;
	}
}
