import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { clearTimeout, setImmediate, setTimeout } from "node:timers";
import type { Worker } from "node:worker_threads";
import type { FoldedWhole } from "../core/ingest/fold-whole";
import type { RedactionSpec } from "../core/ingest/redaction-policy";
import type { DetailLevel } from "../core/settings";
import type { TranscriptFile } from "../core/transcript/transcript-files";
import { readPlainBytesSync } from "./confined-path";
import { markBatchRun } from "./code-cache";
import { runFoldJob } from "./fold-worker-job";

export interface FoldJob {
	id: number;
	file: TranscriptFile;
	spec: RedactionSpec | undefined;
	/** The store's folder for packs: the stored form goes there (see `runFoldJob`). */
	packTo?: string;
	/** For a session with no sub-agents: the note detail its conversation is rendered at (see `runFoldJob`). */
	detail?: DetailLevel;
}

/** A failure comes back as its message and, for a file system error, its code (a full disk reads differently from a bad file). */
type Reply = { id: number; ok: true; result: FoldedWhole } | { id: number; ok: false; error: string; code?: string };

interface Waiting {
	job: FoldJob;
	resolve: (r: FoldedWhole) => void;
	reject: (e: Error) => void;
}

/**
 * A worker's young generation (MiB). V8's default gives each worker tens of MiB of it, which a
 * fold does not need: what outlives a line is the model, small and soon sent (measured on the
 * bench tree: 8 MiB took the peak RSS of a first sync down by ~35 MiB; 16 MiB scavenges half as
 * often, the worker's GC in a profile ~800 -> ~400 ms, with the peak RSS as before).
 */
const YOUNG_GENERATION_MB = 16;

/** Workers left with nothing to do end after this long (they start again on the next job). */
const IDLE_MS = 50;

/**
 * Jobs a worker holds at once: its next ones wait in its port, so it never waits for this thread
 * to hand it one. This thread hands out none while it folds a job of its own (up to
 * `HERE_MAX_BYTES`, a tenth of a second and more), and the biggest files go first: with two in
 * hand, a worker spent 370–500 ms of a first sync of the bench tree waiting, with six about 100 ms
 * (profiles), and the sync took 5% less time (14 alternating rounds, medians 6.46 → 6.11 s). At
 * the end a worker holds a few of the smallest files at most.
 */
const JOBS_IN_HAND = 6;

/**
 * The largest transcript the calling thread takes from the queue: while it folds, it hands no
 * worker a job and takes in no reply, so a worker may wait that long once its jobs in hand are done.
 */
const HERE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Threads that fold new transcripts in parallel (a first sync of a long history uses every core):
 * worker threads and the calling thread. Jobs wait here and go to whichever worker has the fewest,
 * at most `JOBS_IN_HAND` each (a worker stuck on a long transcript holds up a few more at most, and
 * smaller ones: the biggest files go first); when every worker holds its share, the calling thread folds the next
 * waiting job itself, one at a time. One worker fewer than the cores, the calling thread the last:
 * each worker compiles and collects the same code for itself, and this thread waits otherwise
 * (measured on the bench tree, 2 cores, five interleaved runs: a first sync took 3% less time and
 * CPU than with a worker for each core, and 20-30 MiB less memory). Started on first use; ended by `close`, or once they have
 * all been idle for a moment, so their heaps are given back while the sync goes on to render the
 * notes. A worker that fails on a job (it runs out of memory) fails that job and is replaced; one
 * that fails before its first reply (its script does not load), or whose thread the system
 * refuses (`ulimit -u`), leaves the pool folding on the
 * calling thread, as it would with no worker script: slower, never a sync that does not happen.
 * Used only where the worker script exists (the built CLI); elsewhere transcripts are folded on
 * the calling thread.
 */
export class FoldWorkerPool {
	/** Each worker's jobs, in the order they were given. */
	private readonly busy = new Map<Worker, Waiting[]>();
	private readonly queue: Waiting[] = [];
	private seq = 0;
	/** Set while the calling thread folds a job of the queue (see `HERE_MAX_BYTES`). */
	private foldingHere = false;
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	/** Set when a worker could not start: jobs are then folded on this thread. */
	private broken: Error | undefined;

	private constructor(
		private readonly script: string,
		private readonly size: number,
	) {}

	/**
	 * A pool for `script`, or undefined when the script is not there.
	 * @param size worker threads; by default one fewer than the cores (at most 3, at least 1).
	 */
	static at(script: string, size = Math.max(1, Math.min(4, availableParallelism()) - 1)): FoldWorkerPool | undefined {
		return existsSync(script) && !addressSpaceLimited() ? new FoldWorkerPool(script, size) : undefined;
	}

	/** A sync of this process has transcripts to read: the code cache is worth making again (see `code-cache`). */
	batchStarted(): void {
		markBatchRun();
	}

	/**
	 * Starts a worker now, before any job: for a sync that will have much to fold (a first one), so
	 * the worker loads its code while this thread scans (measured: a fifth of a second of a worker's
	 * start in a first sync of the bench tree). It waits for a job without holding the process open,
	 * and ends with the pool, or once idle after its jobs.
	 */
	warm(): void {
		if (this.broken || this.busy.size > 0) return;
		this.startWorker()?.unref();
	}

	fold(file: TranscriptFile, spec: RedactionSpec | undefined, packTo?: string, detail?: DetailLevel): Promise<FoldedWhole> {
		markBatchRun();
		return new Promise((resolve, reject) => {
			this.queue.push({ job: { id: ++this.seq, file, spec, packTo, ...(detail === undefined ? {} : { detail }) }, resolve, reject });
			this.dispatch();
		});
	}

	async close(): Promise<void> {
		clearTimeout(this.idleTimer);
		this.idleTimer = undefined;
		const workers = [...this.busy.keys()];
		this.busy.clear();
		await Promise.all(workers.map((w) => w.terminate()));
	}

	/** Hands waiting jobs to free workers, starting workers up to the pool's size. */
	private dispatch(): void {
		if (this.broken) {
			for (const waiting of this.queue.splice(0)) runFoldJob(waiting.job).then(waiting.resolve, waiting.reject);
			return;
		}
		while (this.queue.length > 0) {
			let target: Worker | undefined;
			let fewest = JOBS_IN_HAND;
			for (const [worker, jobs] of this.busy) {
				if (jobs.length < fewest) {
					target = worker;
					fewest = jobs.length;
				}
			}
			// Another worker before a second job for one that has one.
			if (fewest > 0 && this.busy.size < this.size) target = this.startWorker() ?? target;
			if (this.broken) return this.dispatch();
			if (!target) break;
			const waiting = this.queue.shift()!;
			this.busy.get(target)!.push(waiting);
			target.postMessage(waiting.job);
		}
		this.foldHere();
		this.holdOpen();
	}

	/** The next waiting job, folded on this thread, when it folds none and the job is small enough. */
	private foldHere(): void {
		const waiting = this.queue[0];
		if (this.foldingHere || waiting === undefined || waiting.job.file.size > HERE_MAX_BYTES) return;
		this.queue.shift();
		this.foldingHere = true;
		// After the replies and jobs already waiting on this thread's loop: those go first.
		setImmediate(() => {
			runFoldJob(waiting.job)
				.then(waiting.resolve, waiting.reject)
				.finally(() => {
					this.foldingHere = false;
					this.dispatch();
				});
		});
	}

	/** A new worker, or undefined when no thread can be made: the pool folds here from then on. */
	private startWorker(): Worker | undefined {
		// Loaded when the first worker starts: a sync with nothing to read starts none.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (a `require`: the bundles run as scripts, see `node/code-cache`)
		const { Worker } = require("node:worker_threads") as typeof import("node:worker_threads");
		let worker: Worker;
		try {
			worker = new Worker(this.script, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
		} catch (error) {
			// The thread itself was refused (`ulimit -u`: EAGAIN, thrown here, not an `error` event): every sync stopped with "EAGAIN".
			this.broken ??= error as Error;
			return undefined;
		}
		this.busy.set(worker, []);
		let replied = false;
		worker.on("message", (reply: Reply) => {
			const jobs = this.busy.get(worker);
			const at = jobs?.findIndex((w) => w.job.id === reply.id) ?? -1;
			if (at < 0) return;
			const waiting = jobs!.splice(at, 1)[0]!;
			replied = true;
			if (reply.ok) waiting.resolve(reply.result);
			else waiting.reject(Object.assign(new Error(reply.error), reply.code === undefined ? {} : { code: reply.code }));
			this.dispatch();
		});
		// An error ends the worker: the job it was on fails, the one it held next and the others go
		// on (on a new worker if need be). A worker that never replied could not start: its jobs and
		// all later ones run here.
		const fail = (error: Error) => {
			const jobs = this.busy.get(worker);
			if (!jobs) return;
			this.busy.delete(worker);
			void worker.terminate();
			// Out of memory is the job's doing (a worker starts with a little), not the script's.
			if (!replied && (error as NodeJS.ErrnoException).code !== "ERR_WORKER_OUT_OF_MEMORY") {
				this.broken ??= error;
				this.queue.unshift(...jobs);
			} else {
				const [running, ...next] = jobs;
				running?.reject(error);
				this.queue.unshift(...next);
			}
			this.dispatch();
		};
		worker.on("error", fail);
		worker.on("exit", (code) => fail(new Error(`fold worker stopped (exit code ${code})`)));
		return worker;
	}

	/**
	 * Workers keep the process alive while a job is out or waiting, and not a moment longer; once
	 * all are idle, they end (see `IDLE_MS`).
	 */
	private holdOpen(): void {
		const working = this.foldingHere || this.queue.length > 0 || [...this.busy.values()].some((jobs) => jobs.length > 0);
		for (const worker of this.busy.keys()) {
			if (working) worker.ref();
			else worker.unref();
		}
		clearTimeout(this.idleTimer);
		this.idleTimer = undefined;
		if (!working && this.busy.size > 0) {
			this.idleTimer = setTimeout(() => void this.close(), IDLE_MS);
			this.idleTimer.unref();
		}
	}
}

/**
 * A limit on the process's address space (`ulimit -v`, Linux): a worker's V8 reserves its code range
 * and heap when it starts, and a reservation refused is a fatal "process OOM" that ends the whole
 * sync, not an error the pool could catch (1.5 GB let the CLI start, and every first sync died so).
 * Under such a limit transcripts are folded on the calling thread: slower, never a sync that dies.
 */
function addressSpaceLimited(): boolean {
	try {
		const line = /^Max address space\s+(\S+)/m.exec(readPlainBytesSync("/proc/self/limits").toString("utf8"));
		return line !== null && line[1] !== "unlimited";
	} catch {
		// No such file (macOS, Windows): no limit we can see.
		return false;
	}
}
