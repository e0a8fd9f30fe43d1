import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { closeSync, lstatSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, statSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendHookLog, hookLogEntries, hookLogPath, lastHookRuns, logDetail } from "../../src/node/hook-log";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "hook-log-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** A hook's logging alone, in a process of its own: 30 lines, starting when told. */
const CHILD = `
const { appendHookLog } = require(process.argv[2]);
process.stdin.once("data", async () => {
	for (let i = 0; i < 30; i++) await appendHookLog(process.argv[3], { at: new Date().toISOString(), hook: "user-prompt-submit", status: "ok", detail: "child=" + process.argv[4] + " line=" + i });
	process.exit(0);
});
`;

const entry = (detail: string) => ({ at: "2026-12-01T10:00:00.000Z", hook: "session-start", status: "ok" as const, detail });

describe("hooks.log", () => {
	it("appends a line a run, and doctor reads the last of each hook", async () => {
		await appendHookLog(dir, entry("project=/a printed=1B"));
		await appendHookLog(dir, entry("project=/a printed=2B"));
		expect(readFileSync(hookLogPath(dir), "utf8").split("\n")).toHaveLength(3);
		expect((await lastHookRuns(dir)).get("session-start")?.detail).toBe("project=/a printed=2B");
	});

	it("keeps no terminal escape or bidirectional override a path held", async () => {
		await appendHookLog(dir, entry('file="/r/\u001b]52;c;cGF5\u0007x\u001b[2J\u202egnp/CLAUDE.md"'));
		const line = readFileSync(hookLogPath(dir), "utf8");
		for (const c of ["\u001b", "\u0007", "\u009b", "\u202e"]) expect(line).not.toContain(c);
		expect(line).toContain('file="/r/xgnp/CLAUDE.md"');
	});

	it.skipIf(process.platform === "win32")("never waits on a FIFO in its place: a hook (and a recall tool) that logs returns at once", async () => {
		expect(spawnSync("mkfifo", [hookLogPath(dir)]).status).toBe(0);
		const started = Date.now();
		await appendHookLog(dir, entry("project=/a"));
		expect(Date.now() - started).toBeLessThan(2000);
		expect(lstatSync(hookLogPath(dir)).isFIFO()).toBe(true);
	});

	it.skipIf(process.platform === "win32")("never appends through a link in its place (to ~/.bashrc, say), nor trims through one", async () => {
		const elsewhere = join(dir, "bashrc");
		writeFileSync(elsewhere, "export PATH=/usr/bin\n");
		symlinkSync(elsewhere, hookLogPath(dir));
		await appendHookLog(dir, entry("project=/a"));
		expect(readFileSync(elsewhere, "utf8")).toBe("export PATH=/usr/bin\n");
	});

	it("past its bound, moves the whole log aside as hooks.log.1 and starts a new one; doctor reads both", async () => {
		writeFileSync(hookLogPath(dir), `${"2026-12-01T09:00:00.000Z\tsession-start\tok\told\n".repeat(20_000)}`);
		await appendHookLog(dir, entry("project=/new"));
		await appendHookLog(dir, entry("project=/newer"));
		expect(readFileSync(`${hookLogPath(dir)}.1`, "utf8").endsWith("ok\tproject=/new\n")).toBe(true);
		expect(readFileSync(hookLogPath(dir), "utf8")).toBe("2026-12-01T10:00:00.000Z\tsession-start\tok\tproject=/newer\n");
		const details = (await hookLogEntries(dir)).map((e) => e.detail);
		expect(details.slice(-2)).toEqual(["project=/new", "project=/newer"]);
		expect(details.length).toBeLessThanOrEqual(512 * 1024 / 20);
		expect((await lastHookRuns(dir)).get("session-start")?.detail).toBe("project=/newer");
	});

	it("loses no line that hooks running at once append while one of them turns the log over (13 of 20 were lost)", async () => {
		const bundle = join(dir, "hook-log.cjs");
		await build({ entryPoints: [resolve(__dirname, "../../src/node/hook-log.ts")], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: bundle, logLevel: "silent" });
		writeFileSync(join(dir, "child.cjs"), CHILD);
		writeFileSync(hookLogPath(dir), `${"2026-12-01T09:00:00.000Z\tsession-start\tok\told\n".repeat(Math.floor((512 * 1024 - 200) / 43))}`);
		// Each child appends as a hook does, its lines one after another; all start together.
		const children = Array.from({ length: 12 }, (_, c) => spawn(process.execPath, [join(dir, "child.cjs"), bundle, dir, String(c)], { stdio: ["pipe", "ignore", "inherit"] }));
		for (const child of children) child.stdin.end("go");
		await Promise.all(children.map((child) => once(child, "exit")));
		const kept = new Set((await hookLogEntries(dir)).map((e) => e.detail));
		const lost = children.flatMap((_, c) => Array.from({ length: 30 }, (_, i) => `child=${c} line=${i}`)).filter((d) => !kept.has(d));
		expect(lost).toEqual([]);
		expect(lstatSync(`${hookLogPath(dir)}.lock`, { throwIfNoEntry: false })).toBeUndefined();
	});

	it("takes a turn-over lock a killed run left for gone once it is old, so the log does not grow for ever", async () => {
		const lock = `${hookLogPath(dir)}.lock`;
		writeFileSync(lock, "");
		utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
		writeFileSync(hookLogPath(dir), `${"2026-12-01T09:00:00.000Z\tsession-start\tok\told\n".repeat(20_000)}`);
		await appendHookLog(dir, entry("project=/a"));
		expect(readFileSync(`${hookLogPath(dir)}.1`, "utf8").endsWith("ok\tproject=/a\n")).toBe(true);
		expect(lstatSync(lock, { throwIfNoEntry: false })).toBeUndefined();
	});

	it("keeps a detail of megabytes (a 10 MiB cwd from a hook's input) as its first 2,000 characters, and the log's earlier lines with it", async () => {
		for (let i = 0; i < 30; i++) await appendHookLog(dir, entry(`project=/a session=${i}`));
		await appendHookLog(dir, entry(`project=- cwd=/x${"/abcdefgh".repeat(1024 * 1024)}`));
		const lines = readFileSync(hookLogPath(dir), "utf8").split("\n").filter(Boolean);
		expect(lines).toHaveLength(31);
		expect(lines[30]!.length).toBeLessThan(2100);
		expect(lines[30]!.endsWith("…")).toBe(true);
		expect((await hookLogEntries(dir)).map((e) => e.detail).slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => `project=/a session=${i}`));
	});

	it("cuts a long detail before the word the cut falls in: a token cut short is one redaction no longer finds", () => {
		const token = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
		const cut = logDetail(`${"x".repeat(1980)} key=${token} more`);
		expect(cut).toBe(`${"x".repeat(1980)} …`);
		expect(logDetail("a\tb\nc")).toBe("a b c");
	});

	it("reads only the log's tail, from a whole line: a log something else grew to 300 MB is neither read whole nor refused", async () => {
		// Sparse: 300 MB of zero bytes (no line break) cost no disk, then a line cut by the tail's start and two whole lines.
		const fd = openSync(hookLogPath(dir), "w");
		const cut = "2026-12-01T09:00:00.000Z\tsession-end\tok\tcut\n".padStart(600 * 1024, "x");
		writeSync(fd, `${cut}2026-12-01T09:30:00.000Z\tsession-start\tok\tproject=/a\n2026-12-01T10:00:00.000Z\tsession-end\tok\tproject=/b\n`, 300 * 1024 * 1024);
		closeSync(fd);
		const started = Date.now();
		expect((await hookLogEntries(dir)).map((e) => e.detail)).toEqual(["project=/a", "project=/b"]);
		expect([...(await lastHookRuns(dir)).keys()]).toEqual(["session-start", "session-end"]);
		expect(Date.now() - started).toBeLessThan(2000);
		await appendHookLog(dir, entry("project=/new"));
		await appendHookLog(dir, entry("project=/newer"));
		expect(statSync(hookLogPath(dir)).size).toBeLessThan(1000);
		expect((await hookLogEntries(dir)).map((e) => e.detail).slice(-2)).toEqual(["project=/new", "project=/newer"]);
	});
});
