/**
 * Whether this process may block on its files. The CLI may: while it syncs it waits on nothing
 * else, and a blocking read or write from the page cache costs microseconds where a promise costs
 * a thread-pool round trip per step (open, stat, read, close, rename), time the process spends
 * idle. Obsidian's window must never block, so the plugin leaves it off; worker threads write
 * blocking already.
 */
let blocking = false;

/** From here on, reads and writes of the sync's own files block (the CLI's sync, at its start). */
export function blockOnFiles(): void {
	blocking = true;
}

export function mayBlockOnFiles(): boolean {
	return blocking;
}

/** Out of file descriptors: the promise form waits for some to close and tries again; a blocking call cannot wait. */
export function outOfFiles(error: unknown): boolean {
	const code = (error as NodeJS.ErrnoException | undefined)?.code;
	return code === "EMFILE" || code === "ENFILE";
}
