import { spawnSync } from "node:child_process";
import { closeSync, lstatSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendHookLog, hookLogEntries, hookLogPath, lastHookRuns } from "../../src/node/hook-log";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "hook-log-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

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

	it("keeps under its bound by dropping its older half, replacing the file whole", async () => {
		writeFileSync(hookLogPath(dir), `${"2026-12-01T09:00:00.000Z\tsession-start\tok\told\n".repeat(20_000)}`);
		await appendHookLog(dir, entry("project=/new"));
		const text = readFileSync(hookLogPath(dir), "utf8");
		expect(text.length).toBeLessThanOrEqual(512 * 1024);
		expect(text.endsWith("ok\tproject=/new\n")).toBe(true);
		expect(text.startsWith("2026-12-01T09:00:00.000Z\t")).toBe(true);
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
		expect(statSync(hookLogPath(dir)).size).toBeLessThanOrEqual(256 * 1024);
		expect(readFileSync(hookLogPath(dir), "utf8").endsWith("ok\tproject=/new\n")).toBe(true);
	});
});
