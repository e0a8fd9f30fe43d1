let thread = 0;

/**
 * This thread's id, which temporary files and model packs are named by: 0 on the main thread,
 * told by a worker thread's entry (`fold-worker`, the only one) with `setThreadId`. Not read from
 * `worker_threads` here: loading it for this was 5 ms of every sync that writes (and of a hook).
 */
export function currentThreadId(): number {
	return thread;
}

/** Called first by a worker thread's entry, with `worker_threads`' `threadId`. */
export function setThreadId(id: number): void {
	thread = id;
}
