import { lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import { readPlainBytesSync, readPlainHeadSync } from "./confined-path";

/**
 * Whether git tracks `rel` (a path relative to the repository at `root`, with `/` between its
 * parts), from the repository's index file, without running git. A file a repository ships came
 * with the repository, from whoever wrote it (an Aider history committed to a public repository
 * is its author's sessions, not the user's). An index in version 4 (its paths compressed), one
 * that cannot be read, or no repository: not tracked, as far as anyone here can tell.
 */
export function trackedByGit(root: string, rel: string): boolean {
	const index = indexOf(root);
	if (index === undefined) return false;
	let bytes: Buffer;
	try {
		bytes = readPlainBytesSync(index);
	} catch {
		return false;
	}
	if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "DIRC" || bytes.readUInt32BE(4) > 3) return false;
	const name = Buffer.from(rel, "utf8");
	const needle = Buffer.concat([name, Buffer.from([0])]);
	// An entry's path follows its 16-bit flags, whose low 12 bits are the path's length (0xfff past that).
	for (let at = bytes.indexOf(needle, 12); at >= 2; at = bytes.indexOf(needle, at + 1)) {
		if ((bytes.readUInt16BE(at - 2) & 0xfff) === Math.min(name.length, 0xfff)) return true;
	}
	return false;
}

/** The index file of the repository whose work tree is `root`: `.git/index`, or a linked worktree's (`.git` a file naming its folder). */
function indexOf(root: string): string | undefined {
	const dotGit = join(root, ".git");
	const found = lstatSync(dotGit, { throwIfNoEntry: false });
	if (found?.isDirectory()) return join(dotGit, "index");
	if (!found?.isFile()) return undefined;
	try {
		const text = readPlainHeadSync(dotGit, 4096).trim();
		return text.startsWith("gitdir:") ? join(resolve(root, text.slice("gitdir:".length).trim()), "index") : undefined;
	} catch {
		return undefined;
	}
}
