import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { joinSyncQueue } from "../../src/node/sync-queue";

/** One folder for the file's tests, each test's state folder a new one inside it. */
let root: string;
let state: string;
let made = 0;
beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), "sync-queue-"));
});
beforeEach(async () => {
	state = join(root, String(made++));
	await mkdir(state);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("joinSyncQueue: one hook-started sync waits for the lock, the others leave it that one", () => {
	it("gives the place to one waiting sync at a time, and again once it is left", async () => {
		const first = await joinSyncQueue(state, { host: "here", pid: process.pid });
		expect(first).toBeDefined();
		// This test's own process holds it: alive, so the second sync goes home.
		expect(await joinSyncQueue(state, { host: "here", pid: 99_999_999 })).toBeUndefined();
		await first!.leave();
		const second = await joinSyncQueue(state, { host: "here", pid: 4242 });
		expect(second).toBeDefined();
		expect(await readFile(join(state, "sync.queued"), "utf8")).toBe("4242\nhere\n");
	});

	it("hands the place from the hook to the sync it started, which holds it until it has the lock", async () => {
		const hook = await joinSyncQueue(state, { host: "here", pid: 10 });
		await hook!.handTo(process.pid);
		// The hook is gone; its sync (alive) holds the place: another hook's sync goes home, the started one finds it its own.
		expect(await joinSyncQueue(state, { host: "here", pid: 11 })).toBeUndefined();
		const sync = await joinSyncQueue(state, { host: "here", pid: process.pid });
		expect(sync).toBeDefined();
		await sync!.leave();
		expect(await joinSyncQueue(state, { host: "here", pid: 12 })).toBeDefined();
	});

	it("takes the place its hook holds still, before the hook has handed it over (a busy machine)", async () => {
		await joinSyncQueue(state, { host: "here", pid: 20, parentPid: 1 });
		const sync = await joinSyncQueue(state, { host: "here", pid: process.pid, parentPid: 20 });
		expect(sync).toBeDefined();
		expect(await readFile(join(state, "sync.queued"), "utf8")).toBe(`${process.pid}\nhere\n`);
		// Any other process still finds it held.
		expect(await joinSyncQueue(state, { host: "here", pid: 21, parentPid: 1 })).toBeUndefined();
	});

	it("takes over a place whose holder is gone or has waited longer than a wait can last", async () => {
		await writeFile(join(state, "sync.queued"), "99999999\nhere\n");
		expect(await joinSyncQueue(state, { host: "here", pid: 1 })).toBeDefined();
		// Another host's holder cannot be asked: only its age tells.
		await writeFile(join(state, "sync.queued"), `${process.pid}\nelsewhere\n`);
		expect(await joinSyncQueue(state, { host: "here", pid: 2 })).toBeUndefined();
		const old = new Date(Date.now() - 10 * 60_000);
		await utimes(join(state, "sync.queued"), old, old);
		expect(await joinSyncQueue(state, { host: "here", pid: 3 })).toBeDefined();
	});

	it("leaves a place taken over by another alone, and never keeps a sync from running when no place can be made", async () => {
		const mine = await joinSyncQueue(state, { host: "here", pid: 5 });
		await writeFile(join(state, "sync.queued"), "6\nhere\n");
		await mine!.leave();
		expect(await readFile(join(state, "sync.queued"), "utf8")).toBe("6\nhere\n");
		// No state folder yet (a first sync): the sync runs.
		expect(await joinSyncQueue(join(state, "absent"), { host: "here", pid: 7 })).toBeDefined();
	});
});
