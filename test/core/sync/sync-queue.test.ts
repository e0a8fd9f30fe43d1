import { describe, expect, it } from "vitest";
import { debounceBatch, mergeSyncJobs, SyncQueue, type SyncJob, type TimerFunctions } from "../../../src/core/sync/sync-queue";

/** A run the test finishes by hand. */
function deferred<T = void>() {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

/** Lets every pending promise callback run. */
async function settle(): Promise<void> {
	for (let i = 0; i < 10; i++) await Promise.resolve();
}

/** A queue whose runs are recorded and ended by the test. */
function controlledQueue() {
	const jobs: SyncJob[] = [];
	const runs: Array<ReturnType<typeof deferred<string>>> = [];
	const errors: Array<{ error: unknown; job: SyncJob }> = [];
	let concurrent = 0;
	let maxConcurrent = 0;
	const queue = new SyncQueue<string>(
		async (job) => {
			jobs.push(job);
			const run = deferred<string>();
			runs.push(run);
			concurrent++;
			maxConcurrent = Math.max(maxConcurrent, concurrent);
			try {
				return await run.promise;
			} finally {
				concurrent--;
			}
		},
		{ onError: (error, job) => errors.push({ error, job }) },
	);
	return { queue, jobs, runs, errors, maxConcurrent: () => maxConcurrent };
}

describe("mergeSyncJobs", () => {
	it("unites paths in first-seen order", () => {
		expect(mergeSyncJobs({ paths: ["a", "b"] }, { paths: ["b", "c"] })).toEqual({ paths: ["a", "b", "c"] });
	});

	it("lets a full request absorb path requests, either way round", () => {
		expect(mergeSyncJobs({}, { paths: ["a"] })).toEqual({});
		expect(mergeSyncJobs({ paths: ["a"] }, {})).toEqual({});
	});

	it("adds up the flags", () => {
		expect(mergeSyncJobs({ paths: ["a"], manual: true }, { paths: ["b"] })).toEqual({ paths: ["a", "b"], manual: true });
		expect(mergeSyncJobs({ rebuild: true }, { manual: true })).toEqual({ manual: true, rebuild: true });
	});
});

describe("SyncQueue", () => {
	it("runs a request and resolves with its result", async () => {
		const { queue, jobs, runs } = controlledQueue();
		const outcome = queue.request({ paths: ["a"] });
		await settle();
		expect(jobs).toEqual([{ paths: ["a"] }]);
		expect(queue.running).toBe(true);
		runs[0]?.resolve("report");
		await expect(outcome).resolves.toEqual({ status: "done", result: "report" });
		await queue.whenIdle();
		expect(queue.running).toBe(false);
	});

	it("never runs two jobs at once and coalesces what arrives meanwhile into one follow-up", async () => {
		const { queue, jobs, runs, maxConcurrent } = controlledQueue();
		const first = queue.request({ paths: ["a"] });
		await settle();
		const second = queue.request({ paths: ["b"] });
		const third = queue.request({ paths: ["c", "b"], manual: true });
		const fourth = queue.request({ paths: ["d"] });
		await settle();
		expect(jobs).toHaveLength(1);
		expect(queue.pending).toEqual({ paths: ["b", "c", "d"], manual: true });

		runs[0]?.resolve("one");
		await expect(first).resolves.toEqual({ status: "done", result: "one" });
		await settle();
		expect(jobs).toEqual([{ paths: ["a"] }, { paths: ["b", "c", "d"], manual: true }]);
		runs[1]?.resolve("two");
		for (const outcome of [second, third, fourth]) await expect(outcome).resolves.toEqual({ status: "done", result: "two" });
		await queue.whenIdle();
		expect(jobs).toHaveLength(2);
		expect(maxConcurrent()).toBe(1);
	});

	it("lets a full request absorb the path requests waiting with it", async () => {
		const { queue, jobs, runs } = controlledQueue();
		void queue.request({ paths: ["a"] });
		await settle();
		void queue.request({ paths: ["b"] });
		void queue.request({});
		void queue.request({ paths: ["c"] });
		runs[0]?.resolve("");
		await settle();
		expect(jobs[1]).toEqual({});
		runs[1]?.resolve("");
		await queue.whenIdle();
		expect(jobs).toHaveLength(2);
	});

	it("joins requests of the same tick into one run", async () => {
		const { queue, jobs, runs } = controlledQueue();
		void queue.request({ paths: ["a"] });
		void queue.request({ paths: ["b"] });
		await settle();
		expect(jobs).toEqual([{ paths: ["a", "b"] }]);
		runs[0]?.resolve("");
		await queue.whenIdle();
	});

	it("does not change a caller's job or paths array", async () => {
		const { queue, jobs, runs } = controlledQueue();
		const paths = ["a"];
		const job = { paths };
		void queue.request(job);
		void queue.request({ paths: ["b"] });
		await settle();
		expect(job).toEqual({ paths: ["a"] });
		expect(paths).toEqual(["a"]);
		expect(jobs[0]).toEqual({ paths: ["a", "b"] });
		runs[0]?.resolve("");
		await queue.whenIdle();
	});

	it("reports a failed run to the callback, resolves its requests as failed, and goes on", async () => {
		const { queue, jobs, runs, errors } = controlledQueue();
		const failing = queue.request({ paths: ["a"] });
		await settle();
		const next = queue.request({ paths: ["b"] });
		const boom = new Error("disk full");
		runs[0]?.reject(boom);
		await expect(failing).resolves.toEqual({ status: "failed", error: boom });
		expect(errors).toEqual([{ error: boom, job: { paths: ["a"] } }]);
		await settle();
		runs[1]?.resolve("ok");
		await expect(next).resolves.toEqual({ status: "done", result: "ok" });
		expect(jobs).toHaveLength(2);
	});

	it("survives a run that throws synchronously and an error callback that throws", async () => {
		let calls = 0;
		// Not async: it throws before any promise exists.
		const run = (): Promise<void> => {
			calls++;
			throw new Error("sync throw");
		};
		const queue = new SyncQueue(run,
			{
				onError: () => {
					throw new Error("reporter broke");
				},
			},
		);
		await expect(queue.request()).resolves.toMatchObject({ status: "failed" });
		await expect(queue.request()).resolves.toMatchObject({ status: "failed" });
		expect(calls).toBe(2);
	});

	it("stop(): lets the running job finish, starts no other, and ends waiting requests as stopped", async () => {
		const { queue, jobs, runs } = controlledQueue();
		const running = queue.request({ paths: ["a"] });
		await settle();
		const waiting = queue.request({ paths: ["b"] });
		let stopped = false;
		const stopping = queue.stop().then(() => {
			stopped = true;
		});
		await expect(waiting).resolves.toEqual({ status: "stopped" });
		await settle();
		expect(stopped).toBe(false);
		runs[0]?.resolve("last");
		await stopping;
		await expect(running).resolves.toEqual({ status: "done", result: "last" });
		await expect(queue.request({ paths: ["c"] })).resolves.toEqual({ status: "stopped" });
		await settle();
		expect(jobs).toEqual([{ paths: ["a"] }]);
	});

	it("stop() when idle resolves at once, and a request of the same tick never runs", async () => {
		const { queue, jobs } = controlledQueue();
		const request = queue.request({ paths: ["a"] });
		await queue.stop();
		await expect(request).resolves.toEqual({ status: "stopped" });
		expect(jobs).toEqual([]);
	});

	it("whenIdle() waits for follow-ups requested while running, including those requested from a finished run", async () => {
		const { queue, jobs, runs } = controlledQueue();
		void queue.request({ paths: ["a"] }).then(() => queue.request({ paths: ["again"] }));
		await settle();
		let idle = false;
		const idling = queue.whenIdle().then(() => {
			idle = true;
		});
		runs[0]?.resolve("");
		await settle();
		expect(jobs).toEqual([{ paths: ["a"] }, { paths: ["again"] }]);
		expect(idle).toBe(false);
		runs[1]?.resolve("");
		await idling;
		expect(queue.running).toBe(false);
	});
});

/** Timers on a clock the test moves by hand. */
class FakeTimers implements TimerFunctions {
	now = 0;
	private nextId = 1;
	private readonly pending = new Map<number, { at: number; fn: () => void }>();

	setTimeout(callback: () => void, ms: number): unknown {
		const id = this.nextId++;
		this.pending.set(id, { at: this.now + ms, fn: callback });
		return id;
	}

	clearTimeout(handle: unknown): void {
		this.pending.delete(handle as number);
	}

	get active(): number {
		return this.pending.size;
	}

	advance(ms: number): void {
		const end = this.now + ms;
		for (;;) {
			const due = [...this.pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
			if (!due) break;
			this.pending.delete(due[0]);
			this.now = due[1].at;
			due[1].fn();
		}
		this.now = end;
	}
}

describe("debounceBatch", () => {
	function setup(maxWaitMs?: number) {
		const timers = new FakeTimers();
		const batches: string[][] = [];
		const batch = debounceBatch<string>((items) => batches.push(items), { waitMs: 100, maxWaitMs, timers });
		return { timers, batches, batch };
	}

	it("hands over a burst once, after the quiet time, each item once", () => {
		const { timers, batches, batch } = setup();
		batch.add("a");
		timers.advance(50);
		batch.add("b");
		timers.advance(50);
		batch.add("a");
		timers.advance(99);
		expect(batches).toEqual([]);
		timers.advance(1);
		expect(batches).toEqual([["a", "b"]]);
		expect(timers.active).toBe(0);
		timers.advance(1_000);
		expect(batches).toHaveLength(1);
	});

	it("starts a new batch after handing one over", () => {
		const { timers, batches, batch } = setup();
		batch.add("a");
		timers.advance(100);
		batch.add("a");
		timers.advance(100);
		expect(batches).toEqual([["a"], ["a"]]);
	});

	it("without maxWaitMs, waits as long as adds keep coming", () => {
		const { timers, batches, batch } = setup();
		for (let i = 0; i < 100; i++) {
			batch.add(`p${i % 3}`);
			timers.advance(90);
		}
		expect(batches).toEqual([]);
		timers.advance(10);
		expect(batches).toEqual([["p0", "p1", "p2"]]);
	});

	it("with maxWaitMs, hands over along the way while adds keep coming", () => {
		const { timers, batches, batch } = setup(1_000);
		for (let i = 0; i < 25; i++) {
			batch.add("s");
			timers.advance(90);
		}
		// 2,250 ms of adds every 90 ms: handed over at 1,000 and 2,000 ms (the second batch started at 1,080).
		expect(batches).toEqual([["s"], ["s"]]);
		timers.advance(100);
		expect(batches).toEqual([["s"], ["s"], ["s"]]);
		expect(timers.active).toBe(0);
	});

	it("flush() hands over now; cancel() drops and leaves no timer", () => {
		const { timers, batches, batch } = setup(1_000);
		batch.add("a");
		batch.flush();
		expect(batches).toEqual([["a"]]);
		expect(timers.active).toBe(0);
		batch.add("b");
		expect(batch.size).toBe(1);
		batch.cancel();
		expect(batch.size).toBe(0);
		expect(timers.active).toBe(0);
		timers.advance(5_000);
		expect(batches).toEqual([["a"]]);
		batch.flush();
		expect(batches).toEqual([["a"]]);
	});
});
