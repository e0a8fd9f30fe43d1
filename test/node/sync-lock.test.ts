import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, symlink, truncate, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { acquireSyncLock, describeSyncLockHolder, SyncLock, SyncLockBusyError, SyncLockLostError, syncLockPath, type SyncLockHolder } from "../../src/node/sync-lock";

/**
 * Real contention: child Node processes take the same lock through the same module (bundled by
 * esbuild for them). No assertion depends on how fast anything runs: waits are generous and end
 * as soon as the awaited thing happens.
 */

let work: string;
let bundle: string;
let lockPath: string;
const children = new Set<ChildProcess>();

/** The child: takes the lock, says `held <pid>`, releases on `release`, exits on `exit`. */
const CHILD = `
const { SyncLock } = require(process.argv[2]);
const readline = require("node:readline");
const lock = new SyncLock(process.argv[3], { retryMs: 10 });
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", async (line) => {
	if (line === "acquire") {
		try {
			await lock.acquire({ tool: "hook", waitMs: 60000 });
			process.stdout.write("held " + process.pid + "\\n");
		} catch (error) {
			process.stdout.write("busy " + error.message + "\\n");
		}
	} else if (line === "release") {
		await lock.release();
		process.stdout.write("released\\n");
	} else if (line === "exit") {
		process.exit(0);
	}
});
process.stdout.write("up\\n");
`;

/** The contention child: takes the lock `rounds` times, logging enter/leave around a pause. */
const CONTENDER = `
const { SyncLock } = require(process.argv[2]);
const { appendFileSync } = require("node:fs");
const [, , , lockPath, log, rounds] = process.argv;
const lock = new SyncLock(lockPath, { retryMs: 5 });
// All start together on "go", so they really contend.
process.stdout.write("up\\n");
process.stdin.once("data", async () => {
	for (let i = 0; i < Number(rounds); i++) {
		await lock.acquire({ tool: "cli", waitMs: 120000 });
		appendFileSync(log, "enter " + process.pid + "\\n");
		await new Promise((r) => setTimeout(r, 20));
		appendFileSync(log, "leave " + process.pid + "\\n");
		await lock.release();
	}
	process.exit(0);
});
`;

beforeAll(async () => {
	work = await mkdtemp(join(tmpdir(), "sync-lock-"));
	bundle = join(work, "sync-lock.cjs");
	await build({ entryPoints: [resolve(__dirname, "../../src/node/sync-lock.ts")], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: bundle, logLevel: "silent" });
	await writeFile(join(work, "child.cjs"), CHILD);
	await writeFile(join(work, "contender.cjs"), CONTENDER);
});

afterAll(async () => {
	await rm(work, { recursive: true, force: true });
});

let stateDir: string;
beforeEach(async () => {
	stateDir = await mkdtemp(join(work, "state-"));
	lockPath = syncLockPath(stateDir);
});

afterEach(async () => {
	for (const child of children) {
		if (child.exitCode === null && child.signalCode === null) {
			child.kill("SIGKILL");
			await once(child, "exit");
		}
	}
	children.clear();
});

/** A child process holding a line reader on its output. */
async function startChild() {
	const child = spawn(process.execPath, [join(work, "child.cjs"), bundle, lockPath], { stdio: ["pipe", "pipe", "inherit"] });
	children.add(child);
	const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
	const next = async () => {
		const line = await lines.next();
		if (line.done) throw new Error("child ended");
		return line.value;
	};
	const send = (command: string) => child.stdin.write(`${command}\n`);
	expect(await next()).toBe("up");
	return { child, next, send };
}

async function childHolding() {
	const c = await startChild();
	c.send("acquire");
	expect(await c.next()).toBe(`held ${c.child.pid}`);
	return c;
}

/** The pid of a process that has run and exited, so no process has it now. */
async function deadPid(): Promise<number> {
	const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
	await once(child, "exit");
	return child.pid!;
}

function lockText(holder: Partial<SyncLockHolder>): string {
	return `${JSON.stringify({ pid: 1, host: hostname(), tool: "cli", since: new Date().toISOString(), ...holder })}\n`;
}

async function busyError(promise: Promise<unknown>): Promise<SyncLockBusyError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(SyncLockBusyError);
	return error as SyncLockBusyError;
}

describe("SyncLock", () => {
	it("assertHeld: passes while the file is its own, refreshing one its heartbeat could not (a stopped process); throws once another sync took it, or it was released", async () => {
		const lock = await acquireSyncLock(lockPath, { tool: "cli", maxAgeMs: 30_000 });
		expect(() => lock.assertHeld()).not.toThrow();
		const old = new Date(Date.now() - 20_000);
		await utimes(lockPath, old, old);
		lock.assertHeld();
		expect(Date.now() - (await stat(lockPath)).mtimeMs).toBeLessThan(5_000);
		// Broken as stale by another sync while this process was stopped, and taken.
		await writeFile(lockPath, `${JSON.stringify({ pid: process.pid + 1, host: hostname(), tool: "hook", since: new Date().toISOString(), token: "x" })}\n`);
		expect(() => lock.assertHeld()).toThrow(SyncLockLostError);
		await rm(lockPath);
		expect(() => lock.assertHeld()).toThrow(SyncLockLostError);
		await lock.release();
		expect(() => lock.assertHeld()).toThrow(SyncLockLostError);
	});

	it("takes a free lock, writes who holds it, and release removes it", async () => {
		const lock = new SyncLock(lockPath);
		const holder = await lock.acquire({ tool: "plugin" });
		expect(holder).toMatchObject({ pid: process.pid, host: hostname(), tool: "plugin" });
		expect(JSON.parse(await readFile(lockPath, "utf8"))).toEqual(holder);
		expect(lock.held).toBe(true);
		await lock.release();
		expect(existsSync(lockPath)).toBe(false);
		expect(lock.held).toBe(false);
		// and can be taken again
		await lock.acquire({ tool: "plugin" });
		await lock.release();
	});

	it("creates the state folder when it is missing", async () => {
		const lock = await acquireSyncLock(syncLockPath(join(stateDir, "not", "yet")), { tool: "cli" });
		expect(existsSync(lock.path)).toBe(true);
		await lock.release();
	});

	it("two handles in one process: the second is told who holds it", async () => {
		const first = await acquireSyncLock(lockPath, { tool: "plugin" });
		const error = await busyError(new SyncLock(lockPath).acquire({ tool: "cli" }));
		expect(error.holder).toMatchObject({ pid: process.pid, tool: "plugin" });
		await first.release();
	});

	it("another process holds it: waits briefly, then says who holds it", async () => {
		const { child } = await childHolding();
		const error = await busyError(new SyncLock(lockPath, { retryMs: 10 }).acquire({ tool: "cli", waitMs: 200 }));
		expect(error.holder).toMatchObject({ pid: child.pid, host: hostname(), tool: "hook" });
		expect(error.message).toMatch(new RegExp(`^another sync is running \\(a Claude Code hook, pid ${child.pid}, since \\d\\d:\\d\\d:\\d\\d\\)$`));
		// The holder's lock was not touched.
		expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ pid: child.pid });
	});

	it("another process releases while we wait: we get it", async () => {
		const c = await childHolding();
		const lock = new SyncLock(lockPath, { retryMs: 10 });
		const waiting = lock.acquire({ tool: "cli", waitMs: 60_000 });
		c.send("release");
		expect(await c.next()).toBe("released");
		expect(await waiting).toMatchObject({ pid: process.pid, tool: "cli" });
		// and now the child waits for us
		c.send("acquire");
		await expect(lock.holder()).resolves.toMatchObject({ pid: process.pid });
		await lock.release();
		expect(await c.next()).toBe(`held ${c.child.pid}`);
	});

	it("a wait aborted by its caller ends with a sentence, and the lock freed later is not taken", async () => {
		const first = await acquireSyncLock(lockPath, { tool: "cli" });
		const stopping = new AbortController();
		const lock = new SyncLock(lockPath, { retryMs: 10 });
		const waiting = lock.acquire({ tool: "plugin", waitMs: 60_000, signal: stopping.signal });
		stopping.abort();
		await expect(waiting).rejects.toThrow(`gave up waiting for ${lockPath}: the sync was stopped`);
		await first.release();
		expect(lock.held).toBe(false);
		expect(existsSync(lockPath)).toBe(false);
	});

	it("a holder that was killed leaves a stale lock that the next taker breaks", async () => {
		const { child } = await childHolding();
		child.kill("SIGKILL");
		await once(child, "exit");
		expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ pid: child.pid });
		const lock = new SyncLock(lockPath);
		expect(await lock.acquire({ tool: "cli" })).toMatchObject({ pid: process.pid });
		await lock.release();
	});

	it("breaks a lock of this host whose process is gone", async () => {
		await writeFile(lockPath, lockText({ pid: await deadPid(), tool: "plugin" }));
		const lock = await acquireSyncLock(lockPath, { tool: "cli" });
		expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ pid: process.pid, tool: "cli" });
		await lock.release();
	});

	it("keeps a fresh lock of another host (its pid says nothing here), and breaks it once older than the max age", async () => {
		await writeFile(lockPath, lockText({ pid: await deadPid(), host: "other-machine", tool: "plugin" }));
		const error = await busyError(acquireSyncLock(lockPath, { tool: "cli", maxAgeMs: 60_000 }));
		expect(error.holder).toMatchObject({ host: "other-machine", tool: "plugin" });
		expect(error.message).toContain("the Obsidian plugin, pid");
		expect(error.message).toContain("on other-machine");

		const old = new Date(Date.now() - 61_000);
		await utimes(lockPath, old, old);
		const lock = await acquireSyncLock(lockPath, { tool: "cli", maxAgeMs: 60_000 });
		expect(lock.held).toBe(true);
		await lock.release();
	});

	it("breaks any lock, even of a live process, once it is older than the max age", async () => {
		const { child } = await childHolding();
		const old = new Date(Date.now() - 11 * 60_000);
		await utimes(lockPath, old, old);
		const lock = await acquireSyncLock(lockPath, { tool: "cli" });
		expect(lock.held).toBe(true);
		await lock.release();
		child.kill("SIGKILL");
	});

	it("a dead holder's lock whose pid another live process took since blocks for the max age only (30 s by default)", async () => {
		// This test's own pid stands for the reused one: alive, but not the holder.
		await writeFile(lockPath, lockText({ pid: process.ppid, tool: "plugin" }));
		await busyError(acquireSyncLock(lockPath, { tool: "cli" }));
		const old = new Date(Date.now() - 31_000);
		await utimes(lockPath, old, old);
		const lock = await acquireSyncLock(lockPath, { tool: "cli" });
		expect(lock.held).toBe(true);
		await lock.release();
	});

	it("a garbage lock dated in the future, a dangling link and a folder: broken, broken, and a clear message", async () => {
		await writeFile(lockPath, "garbage");
		const future = new Date(Date.now() + 3_600_000);
		await utimes(lockPath, future, future);
		const first = await acquireSyncLock(lockPath, { tool: "cli" });
		await first.release();
		await symlink(join(work, "nowhere"), lockPath);
		const second = await acquireSyncLock(lockPath, { tool: "cli" });
		expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ pid: process.pid });
		await second.release();
		await mkdir(lockPath);
		await expect(acquireSyncLock(lockPath, { tool: "cli" })).rejects.toThrow(/is not a lock file \(it is a folder\): remove it/);
		await rm(lockPath, { recursive: true });
	});

	it("breaks a lock of this host dated in the future, even of a live process (its heartbeat sets this clock's time); another host's gets a minute of skew", async () => {
		const live = { pid: process.ppid, host: hostname(), tool: "cli", since: new Date().toISOString() };
		await writeFile(lockPath, JSON.stringify(live));
		const ahead = new Date(Date.now() + 55_000);
		await utimes(lockPath, ahead, ahead);
		const lock = await acquireSyncLock(lockPath, { tool: "cli" });
		await lock.release();
		await writeFile(lockPath, JSON.stringify({ ...live, host: "elsewhere" }));
		await utimes(lockPath, ahead, ahead);
		await expect(acquireSyncLock(lockPath, { tool: "cli" })).rejects.toThrow(/another sync is running/);
		await rm(lockPath);
	});

	it("a folder in place of the breakers' file (`.break`) gives a clear message, not a raw error", async () => {
		await writeFile(lockPath, "garbage");
		const old = new Date(Date.now() - 3_600_000);
		await utimes(lockPath, old, old);
		await mkdir(`${lockPath}.break`);
		await utimes(`${lockPath}.break`, old, old);
		await expect(acquireSyncLock(lockPath, { tool: "cli" })).rejects.toThrow(/sync\.lock\.break is not a file of ours \(it is a folder\): remove it, and syncs can run again/);
		await rm(`${lockPath}.break`, { recursive: true });
	});

	it("waits for an unreadable lock being written, and breaks one left unreadable", async () => {
		await writeFile(lockPath, "");
		const error = await busyError(acquireSyncLock(lockPath, { tool: "cli" }));
		expect(error.holder).toBeUndefined();
		expect(error.message).toBe(`another sync is running (lock file ${lockPath})`);
		const old = new Date(Date.now() - 60_000);
		await utimes(lockPath, old, old);
		const lock = await acquireSyncLock(lockPath, { tool: "cli" });
		await lock.release();
	});

	it("garbage written just now is broken at once; a lock cut short before its line break is waited for, for the grace only", async () => {
		for (const garbage of ["garbage", "{}\n", `${lockText({ pid: process.ppid }).replace('"host"', '"hostname"')}`, "x".repeat(100_000), '{"pid":1}\n']) {
			await writeFile(lockPath, garbage);
			const lock = await acquireSyncLock(lockPath, { tool: "cli" });
			await lock.release();
		}
		for (const partial of ['{"pi', `${lockText({ pid: process.ppid }).slice(0, 30)}`]) {
			await writeFile(lockPath, partial);
			expect((await busyError(acquireSyncLock(lockPath, { tool: "cli" }))).holder).toBeUndefined();
			const old = new Date(Date.now() - 6_000);
			await utimes(lockPath, old, old);
			const lock = await acquireSyncLock(lockPath, { tool: "cli" });
			await lock.release();
		}
	});

	it("a huge file in the lock's place (3 GB, sparse) is read no further than a lock's size, and broken as garbage", async () => {
		await writeFile(lockPath, "");
		await truncate(lockPath, 3 * 1024 ** 3);
		const old = new Date(Date.now() - 60_000);
		await utimes(lockPath, old, old);
		const lock = await acquireSyncLock(lockPath, { tool: "cli" });
		expect(JSON.parse(await readFile(lockPath, "utf8"))).toMatchObject({ tool: "cli", pid: process.pid });
		await lock.release();
	});

	it("release() leaves a lock that is no longer ours", async () => {
		const lock = await acquireSyncLock(lockPath, { tool: "plugin" });
		// Someone judged ours stale and took it.
		const theirs = lockText({ pid: 4242, host: "elsewhere" });
		await writeFile(lockPath, theirs);
		await lock.release();
		expect(await readFile(lockPath, "utf8")).toBe(theirs);
	});

	it("the holder keeps its lock fresh while it holds it", async () => {
		const lock = await acquireSyncLock(lockPath, { tool: "plugin", heartbeatMs: 20 });
		const old = new Date(Date.now() - 60_000);
		await utimes(lockPath, old, old);
		await expect.poll(async () => (await stat(lockPath)).mtimeMs, { timeout: 10_000, interval: 20 }).toBeGreaterThan(old.getTime() + 30_000);
		await lock.release();
	});

	it.each([
		["a free lock", false],
		["a stale lock they all want to break", true],
	])("several processes taking it in turns never hold it at once, starting from %s", async (_, stale) => {
		if (stale) await writeFile(lockPath, lockText({ pid: await deadPid() }));
		const log = join(stateDir, "log");
		const rounds = 4;
		const contenders = Array.from({ length: 4 }, () => {
			const child = spawn(process.execPath, [join(work, "contender.cjs"), bundle, lockPath, log, String(rounds)], { stdio: ["pipe", "pipe", "inherit"] });
			children.add(child);
			const exit = once(child, "exit").then(([code]) => code as number);
			const up = Promise.race([once(child.stdout, "data"), exit.then((code) => Promise.reject(new Error(`contender exited with ${code}`)))]);
			return { child, up, exit };
		});
		await Promise.all(contenders.map((c) => c.up));
		for (const { child } of contenders) child.stdin.write("go\n");
		expect(await Promise.all(contenders.map((c) => c.exit))).toEqual([0, 0, 0, 0]);
		const lines = (await readFile(log, "utf8")).trim().split("\n");
		expect(lines).toHaveLength(4 * rounds * 2);
		for (let i = 0; i < lines.length; i += 2) {
			const [enter, pid] = lines[i]!.split(" ");
			expect(enter).toBe("enter");
			expect(lines[i + 1]).toBe(`leave ${pid}`);
		}
		expect(existsSync(lockPath)).toBe(false);
	}, 60_000);
});

describe("describeSyncLockHolder", () => {
	it("names the tool, the pid and the local time it was taken; the host only when it is another", () => {
		// Tests run with TZ=UTC.
		const holder: SyncLockHolder = { pid: 1234, host: "this-host", tool: "plugin", since: "2025-03-01T10:02:03.456Z" };
		expect(describeSyncLockHolder(holder, "this-host")).toBe("the Obsidian plugin, pid 1234, since 10:02:03");
		expect(describeSyncLockHolder({ ...holder, tool: "cli" }, "laptop")).toBe("the ai-memory CLI, pid 1234 on this-host, since 10:02:03");
		expect(describeSyncLockHolder({ ...holder, tool: "hook" }, "this-host")).toBe("a Claude Code hook, pid 1234, since 10:02:03");
	});
});
