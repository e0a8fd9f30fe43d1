import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { FoldedWhole } from "../core/sync/fold-whole";
import type { RedactionSpec } from "../core/sync/redaction-policy";
import type { TranscriptFile } from "../core/transcript/transcript-files";

export interface FoldJob {
	id: number;
	file: TranscriptFile;
	spec: RedactionSpec | undefined;
	saveTo?: string;
}

type Reply = { id: number; ok: true; result: FoldedWhole } | { id: number; ok: false; error: string };

/**
 * A worker's young generation (MiB). V8's default gives each worker tens of MiB of it, which a
 * fold does not need: what survives a line is the model, small and soon serialized (measured on
 * the bench tree: 8 MiB costs no time and takes the peak RSS of a first sync down by ~35 MiB).
 */
const YOUNG_GENERATION_MB = 8;

/** Workers left with nothing to do end after this long (they start again on the next job). */
const IDLE_MS = 50;

/**
 * Worker threads that fold new transcripts in parallel (a first sync of a long history uses every
 * core). Started on first use; ended by `close`, or as soon as they have been idle for a moment,
 * so the memory of their heaps is given back while the sync goes on to render the notes. Used
 * only where the worker script exists (the built CLI); elsewhere transcripts are folded on the
 * calling thread.
 */
export class FoldWorkerPool {
	private workers: Worker[] = [];
	private next = 0;
	private seq = 0;
	private readonly waiting = new Map<number, { resolve: (r: FoldedWhole) => void; reject: (e: Error) => void }>();
	private idleTimer: ReturnType<typeof setTimeout> | undefined;

	private constructor(
		private readonly script: string,
		private readonly size: number,
	) {}

	/** A pool for `script`, or undefined when the script is not there. */
	static at(script: string, size = Math.max(1, Math.min(4, availableParallelism()))): FoldWorkerPool | undefined {
		return existsSync(script) ? new FoldWorkerPool(script, size) : undefined;
	}

	fold(file: TranscriptFile, spec: RedactionSpec | undefined, saveTo?: string): Promise<FoldedWhole> {
		if (this.workers.length === 0) this.start();
		const id = ++this.seq;
		const worker = this.workers[this.next++ % this.workers.length]!;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.holdOpen();
			worker.postMessage({ id, file, spec, saveTo } satisfies FoldJob);
		});
	}

	async close(): Promise<void> {
		clearTimeout(this.idleTimer);
		const workers = this.workers;
		this.workers = [];
		await Promise.all(workers.map((w) => w.terminate()));
	}

	private start(): void {
		for (let i = 0; i < this.size; i++) {
			const worker = new Worker(this.script, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
			worker.on("message", (reply: Reply) => {
				const waiter = this.waiting.get(reply.id);
				if (!waiter) return;
				this.waiting.delete(reply.id);
				this.holdOpen();
				if (reply.ok) waiter.resolve(reply.result);
				else waiter.reject(new Error(reply.error));
			});
			worker.on("error", (error) => {
				for (const waiter of this.waiting.values()) waiter.reject(error);
				this.waiting.clear();
				this.holdOpen();
			});
			this.workers.push(worker);
		}
	}

	/** Workers keep the process alive while a job is out, and not a moment longer. */
	private holdOpen(): void {
		for (const worker of this.workers) {
			if (this.waiting.size > 0) worker.ref();
			else worker.unref();
		}
		clearTimeout(this.idleTimer);
		this.idleTimer = undefined;
		if (this.waiting.size === 0 && this.workers.length > 0) {
			this.idleTimer = setTimeout(() => {
				if (this.waiting.size === 0) void this.close();
			}, IDLE_MS);
			this.idleTimer.unref();
		}
	}
}
