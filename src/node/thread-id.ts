let thread: number | undefined;

/**
 * This thread's id (temporary files and model packs are named by it), `worker_threads` loaded on
 * first use: the hooks, which run on every prompt, mostly write nothing, and loading it cost them 3 ms.
 */
export function currentThreadId(): number {
	// A `require`, not `import()`: the bundles run through V8's code cache, as a script (see `node/code-cache`).
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
	return (thread ??= (require("node:worker_threads") as typeof import("node:worker_threads")).threadId);
}
