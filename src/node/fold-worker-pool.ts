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
 * Worker threads that fold new transcripts in parallel (a first sync of a long history uses every
 * core). Started on first use, ended by `close`. Used only where the worker script exists (the
 * built CLI); elsewhere transcripts are folded on the calling thread.
 */
export class FoldWorkerPool {
	private workers: Worker[] = [];
	private next = 0;
	private seq = 0;
	private readonly waiting = new Map<number, { resolve: (r: FoldedWhole) => void; reject: (e: Error) => void }>();

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
		const workers = this.workers;
		this.workers = [];
		await Promise.all(workers.map((w) => w.terminate()));
	}

	private start(): void {
		for (let i = 0; i < this.size; i++) {
			const worker = new Worker(this.script);
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
	}
}
