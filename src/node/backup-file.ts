import { lstat } from "node:fs/promises";
import { writeDurably } from "./atomic-write";
import { readPlainFile } from "./confined-path";

/**
 * The copy of an agent's settings file kept before our first install (`<file>.bak-ai-memory`). The
 * name is ours: a link there is not followed, either way. Written through, it overwrote whatever it
 * led to; read through, uninstalling would have put that file's text into the settings.
 */
export async function readBackup(path: string): Promise<string | null> {
	const found = await lstat(path).catch((error: NodeJS.ErrnoException) => {
		if (error.code === "ENOENT") return undefined;
		throw error;
	});
	if (found === undefined) return null;
	if (!found.isFile()) throw new Error(`${path} is ${found.isSymbolicLink() ? "a link" : "not a plain file"}, not a backup of ours; nothing was changed (remove it, then run the command again)`);
	return readPlainFile(path);
}

/** Writes the backup in place of whatever plain file was there (never through a link: see `readBackup`). */
export async function writeBackup(path: string, text: string, mode?: number): Promise<void> {
	await readBackup(path);
	const existing = await lstat(path).catch(() => undefined);
	await writeDurably(path, text, existing ? { mode: existing.mode & 0o7777 } : mode === undefined ? undefined : { mode });
}
