import { lstat } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Whether nothing is at `path` and the nearest thing that is on its way is a folder: a folder not
 * made yet, which lists as empty. Anything else where a folder should be (a file, a FIFO, a link
 * that leads nowhere, a file in place of a folder above it) is not an empty folder: taken for one,
 * the facts it held looked deleted, and their copies on the other side were deleted too.
 */
export async function isAbsentFolder(path: string): Promise<boolean> {
	let at = path;
	for (let depth = 0; depth < 256; depth++) {
		const found = await lstat(at).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : null));
		if (found === null) return false;
		if (found !== undefined) return at !== path && found.isDirectory();
		const up = dirname(at);
		if (up === at) return true;
		at = up;
	}
	return false;
}

/** What is at `path` in words, for a message that it is no folder. */
export async function whatIsAt(path: string): Promise<string> {
	const found = await lstat(path).catch(() => undefined);
	if (!found) return "missing, under something that is not a folder";
	if (found.isSymbolicLink()) return "a link that leads to no folder";
	if (found.isFIFO()) return "a FIFO";
	if (found.isFile()) return "a file";
	return "not a folder";
}
