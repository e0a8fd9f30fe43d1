import { lstat, stat } from "node:fs/promises";

/** Whether a folder is at `path`, links followed (a file, nothing, or no permission to look: no). */
export async function isDirectory(path: string): Promise<boolean> {
	return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

/**
 * Whether nothing is at `path` (nor can be: a file stands above it): a folder not made yet, which
 * lists as empty. Something else where the folder should be (a file, a FIFO, a link that leads
 * nowhere) is not an empty folder: taken for one, the facts it held looked deleted, and their
 * copies on the other side were deleted too.
 */
export async function isAbsentFolder(path: string): Promise<boolean> {
	return lstat(path).then(
		() => false,
		(error: NodeJS.ErrnoException) => error.code === "ENOENT" || error.code === "ENOTDIR",
	);
}

/** What is at `path` in words, for a message that it is no folder. */
export async function whatIsAt(path: string): Promise<string> {
	const found = await lstat(path).catch(() => undefined);
	if (!found) return "missing";
	if (found.isSymbolicLink()) return "a link that leads to no folder";
	if (found.isFIFO()) return "a FIFO";
	if (found.isFile()) return "a file";
	return "not a folder";
}
