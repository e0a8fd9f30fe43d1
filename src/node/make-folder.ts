import { mkdirSync } from "node:fs";
import { mkdir } from "node:fs/promises";

/**
 * `mkdir -p`. Node's promise form reports ENOENT, naming the deepest folder, when one on the way
 * cannot be made: out of inodes, the sync ended with "ENOENT: no such file or directory, mkdir
 * '…/state/hooks'", which says nothing of a full disk. The blocking form reports the real cause,
 * so it is asked again: the error then says what to fix (ENOSPC, EACCES).
 */
export async function makeFolder(path: string, mode?: number): Promise<void> {
	const options = { recursive: true, ...(mode === undefined ? {} : { mode }) };
	try {
		await mkdir(path, options);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
		mkdirSync(path, options);
	}
}
