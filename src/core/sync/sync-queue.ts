/**
 * One sync at a time: the plugin's watcher, its commands and its start-up catch-up all ask this
 * queue for a sync; it runs one job, and whatever is asked while it runs waits as one merged
 * follow-up job. Pure: no clock, no timers of its own (the debounce below takes them injected).
 */

/** What a sync is asked to do. Two requests merge into one job that does both. */
export interface SyncJob {
	/** Transcripts that changed (as a watcher names them); absent: look at everything. */
	paths?: readonly string[];
	/** Asked for by the user (a command): worth a report even when nothing changed. */
	manual?: boolean;
	/** Re-render every note, recreating deleted ones (the CLI's `--full`). */
	rebuild?: boolean;
	/** Only this project (its path); two different projects, or one and everything, merge into everything. */
	project?: string;
}

/**
 * The job that does what both do: a full request absorbs path requests (it looks at everything),
 * paths are united in first-seen order, and the flags add up.
 */
export function mergeSyncJobs(a: SyncJob, b: SyncJob): SyncJob {
	const merged: SyncJob = {};
	if (a.paths && b.paths) merged.paths = [...new Set([...a.paths, ...b.paths])];
	if (a.manual || b.manual) merged.manual = true;
	if (a.rebuild || b.rebuild) merged.rebuild = true;
	if (a.project !== undefined && a.project === b.project) merged.project = a.project;
	return merged;
}

/** How a request ended: its job ran (`done` or `failed`), or the queue stopped before it ran. */
export type SyncOutcome<R> = { status: "done"; result: R } | { status: "failed"; error: unknown } | { status: "stopped" };

export interface SyncQueueOptions {
	/** Every failed run, with the job it ran; the queue goes on. Never throws out of the queue. */
	onError?: (error: unknown, job: SyncJob) => void;
}

/**
 * Runs `run` for one job at a time. A request made while a job runs (or before the queued one
 * starts) is merged into the single next job, so a burst of requests costs at most one more run.
 * Requests made in the same tick while idle share one run too.
 */
export class SyncQueue<R = void> {
	private next: { job: SyncJob; waiters: Array<(outcome: SyncOutcome<R>) => void> } | undefined;
	private active: SyncJob | undefined;
	/** The loop that runs jobs; `draining` turns false in the same step that finds nothing left. */
	private pump: Promise<void> = Promise.resolve();
	private draining = false;
	private stopped = false;

	constructor(
		private readonly run: (job: SyncJob) => Promise<R>,
		private readonly options: SyncQueueOptions = {},
	) {}

	/** True while a job runs. */
	get running(): boolean {
		return this.active !== undefined;
	}

	/** The merged job waiting for the running one to finish, if any. */
	get pending(): SyncJob | undefined {
		return this.next?.job;
	}

	/**
	 * Asks for a sync. Resolves when a run that covers this request has ended (never rejects: a
	 * failure is `{ status: "failed" }`, and is also handed to `onError`).
	 */
	request(job: SyncJob = {}): Promise<SyncOutcome<R>> {
		if (this.stopped) return Promise.resolve({ status: "stopped" });
		return new Promise((resolve) => {
			if (this.next) {
				this.next.job = mergeSyncJobs(this.next.job, job);
				this.next.waiters.push(resolve);
			} else {
				this.next = { job: copyJob(job), waiters: [resolve] };
			}
			if (!this.draining) {
				this.draining = true;
				this.pump = this.drain();
			}
		});
	}

	/** Resolves once no job runs and none waits. */
	async whenIdle(): Promise<void> {
		while (this.draining) await this.pump;
	}

	/**
	 * No new run starts (the waiting job and later requests end as `stopped`); resolves when the
	 * running job, if any, has finished.
	 */
	async stop(): Promise<void> {
		this.stopped = true;
		const waiting = this.next;
		this.next = undefined;
		for (const resolve of waiting?.waiters ?? []) resolve({ status: "stopped" });
		await this.whenIdle();
	}

	private async drain(): Promise<void> {
		// Requests of the same tick join the first one.
		await Promise.resolve();
		while (this.next && !this.stopped) {
			const { job, waiters } = this.next;
			this.next = undefined;
			this.active = job;
			let outcome: SyncOutcome<R>;
			try {
				outcome = { status: "done", result: await this.run(job) };
			} catch (error) {
				outcome = { status: "failed", error };
				try {
					this.options.onError?.(error, job);
				} catch {
					// A reporter that throws must not stop the queue.
				}
			}
			this.active = undefined;
			for (const resolve of waiters) resolve(outcome);
		}
		this.draining = false;
	}
}

function copyJob(job: SyncJob): SyncJob {
	return mergeSyncJobs(job, job);
}

/** The timer functions the debounce uses; the plugin passes the window's, tests fake ones. */
export interface TimerFunctions {
	setTimeout(callback: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

export interface DebouncedBatch<T> {
	/** Adds an item (kept once) and restarts the quiet period. */
	add(item: T): void;
	/** Hands over what is collected now, if anything. */
	flush(): void;
	/** Drops what is collected; nothing is handed over until the next `add`. */
	cancel(): void;
	/** Items collected and not handed over yet. */
	readonly size: number;
}

export interface DebounceOptions {
	/** Quiet time after the last `add` before the batch is handed over. */
	waitMs: number;
	/**
	 * The longest a batch waits after its first `add`, even while adds keep coming (a session
	 * that streams for minutes still gets synced along the way). Default: no limit.
	 */
	maxWaitMs?: number;
	timers: TimerFunctions;
}

/**
 * Collects items and hands them over, each once and in first-seen order, after `waitMs` without
 * a new one (or `maxWaitMs` after the first). `flush` is called outside any timer when forced.
 */
export function debounceBatch<T>(flush: (items: T[]) => void, options: DebounceOptions): DebouncedBatch<T> {
	const { timers, waitMs, maxWaitMs } = options;
	let items = new Set<T>();
	let quiet: unknown;
	let deadline: unknown;
	let armed = false;

	const disarm = () => {
		if (!armed) return;
		armed = false;
		timers.clearTimeout(quiet);
		if (deadline !== undefined) timers.clearTimeout(deadline);
		quiet = deadline = undefined;
	};
	const fire = () => {
		disarm();
		if (items.size === 0) return;
		const batch = [...items];
		items = new Set();
		flush(batch);
	};

	return {
		add(item: T) {
			items.add(item);
			if (armed) timers.clearTimeout(quiet);
			else if (maxWaitMs !== undefined) deadline = timers.setTimeout(fire, Math.max(maxWaitMs, waitMs));
			armed = true;
			quiet = timers.setTimeout(fire, waitMs);
		},
		flush: fire,
		cancel() {
			disarm();
			items = new Set();
		},
		get size() {
			return items.size;
		},
	};
}
