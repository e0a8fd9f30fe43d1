import { lstatSync, statSync } from "node:fs";
import { lstat, readlink, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { mayBlockOnFiles } from "./blocking-files";

/** Whether a folder is at `path`, links followed (a file, nothing, or no permission to look: no). */
export async function isDirectory(path: string): Promise<boolean> {
	if (mayBlockOnFiles()) {
		try {
			return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
		} catch {
			return false;
		}
	}
	return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

/**
 * Whether nothing is at `path` (nor can be: a file stands above it): a folder not made yet, which
 * lists as empty. Something else where the folder should be (a file, a FIFO, a link that leads
 * nowhere) is not an empty folder: taken for one, the facts it held looked deleted, and their
 * copies on the other side were deleted too.
 */
export async function isAbsentFolder(path: string): Promise<boolean> {
	if (mayBlockOnFiles()) {
		try {
			return lstatSync(path, { throwIfNoEntry: false }) === undefined;
		} catch (error) {
			return (error as NodeJS.ErrnoException).code === "ENOTDIR";
		}
	}
	return lstat(path).then(
		() => false,
		(error: NodeJS.ErrnoException) => error.code === "ENOENT" || error.code === "ENOTDIR",
	);
}

/**
 * Where the link at `path` leads when nothing is there (a drive not mounted, a folder moved), else
 * undefined: a folder to be made there cannot be (mkdir fails with a bare ENOENT).
 */
export async function danglingLink(path: string): Promise<string | undefined> {
	const found = await lstat(path).catch(() => undefined);
	if (!found?.isSymbolicLink()) return undefined;
	const missing = await stat(path).then(
		() => false,
		(error: NodeJS.ErrnoException) => error.code === "ENOENT" || error.code === "ENOTDIR",
	);
	return missing ? resolve(dirname(path), await readlink(path)) : undefined;
}

/** What is at `path` in words, for a message that it is no folder. */
export async function whatIsAt(path: string): Promise<string> {
	const found = await lstat(path).catch(() => undefined);
	if (!found) return "missing";
	if (found.isSymbolicLink()) {
		const target = await danglingLink(path).catch(() => undefined);
		return target === undefined ? "a link that leads to no folder" : `a link to ${target}, which is not there`;
	}
	if (found.isFIFO()) return "a FIFO";
	if (found.isFile()) return "a file";
	return "not a folder";
}

/** Why `path` is no folder, in words: `vault folder /x does not exist`, `… is a file, not a folder`. */
export async function noFolder(what: string, path: string): Promise<string> {
	const found = await whatIsAt(path);
	if (found === "missing") return `${what} ${path} does not exist${notUtf8Hint(path)}`;
	// "a link to X, which is not there" says it all.
	if (found.startsWith("a link to ")) return `${what} ${path} is ${found}`;
	return found === "not a folder" ? `${what} ${path} is not a folder` : `${what} ${path} is ${found}, not a folder`;
}

/**
 * Why `path` cannot be reached when the system says ENOTDIR (or ENOENT through a link to nothing):
 * the folder above it that is none (`.obsidian` a file), in words; undefined when none is.
 */
export async function blockedAt(path: string): Promise<string | undefined> {
	for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
		const found = await whatIsAt(dir);
		if (found === "missing") continue;
		if (found === "not a folder" || (await isDirectory(dir))) return undefined;
		return found.startsWith("a link to ") ? `${dir} is ${found}` : `${dir} is ${found}, not a folder`;
	}
	return undefined;
}

/**
 * What to add to "not there" when `path` holds U+FFFD: a byte that is not UTF-8 in a folder's name
 * (Linux takes any byte) reaches Node's arguments so, and that name opens nothing. Told only "does
 * not exist", the user who sees the folder is there has nothing to go on.
 */
export function notUtf8Hint(path: string): string {
	return path.includes("\uFFFD")
		? " (its path holds \uFFFD, which a byte that is not UTF-8 in a folder's name becomes when passed to this program, and that name opens nothing: rename the folder with UTF-8 characters)"
		: "";
}
