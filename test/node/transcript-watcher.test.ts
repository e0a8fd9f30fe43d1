import { spawn } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, type Stats } from "node:fs";
import { appendFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { watch, type ChokidarOptions } from "chokidar";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { aiderLayout, CODEX_LAYOUT, COPILOT_LAYOUT, GEMINI_LAYOUT, OPENCODE_LAYOUT, watchTranscripts, type TranscriptWatcher, type TranscriptWatchOptions, type WatchMode } from "../../src/node/transcript-watcher";

/**
 * Real file system, real chokidar. Nothing asserts how fast an event arrives: every wait ends as
 * soon as the awaited call came (or fails after a generous timeout), and "only once" is shown by
 * the order of calls (a later sentinel change arrives alone), not by waiting for silence.
 */

const DEBOUNCE_MS = 250;
const POLL_MS = 100;
const WAIT = { timeout: 20_000, interval: 25 };

let dir: string;
let root: string;
const watchers: TranscriptWatcher[] = [];

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "watch-"));
	root = join(dir, "projects");
});

afterEach(async () => {
	await Promise.all(watchers.splice(0).map((w) => w.close()));
	await rm(dir, { recursive: true, force: true });
});

function line(n: number): string {
	return `${JSON.stringify({ type: "user", n })}\n`;
}

/** Starts a watcher that records its calls. */
function start(options: Partial<TranscriptWatchOptions> = {}) {
	const calls: string[][] = [];
	const modes: Array<{ mode: WatchMode; reason: string }> = [];
	const errors: Error[] = [];
	const w = watchTranscripts(root, {
		debounceMs: DEBOUNCE_MS,
		pollIntervalMs: POLL_MS,
		onChange: (paths) => calls.push(paths),
		onModeChange: (mode, reason) => modes.push({ mode, reason }),
		onError: (error) => errors.push(error),
		...options,
	});
	watchers.push(w);
	/** Waits until `count` calls have come. */
	const calledTimes = (count: number) => vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(count), WAIT);
	return { watcher: w, calls, modes, errors, calledTimes };
}

/**
 * Appends to `file` until `seen()` holds. Polling has a blind spot just after a watcher is ready
 * (fs.watchFile takes its baseline stat a moment later, so a change made before it is the
 * baseline): Claude Code keeps appending, and so does this.
 */
async function appendUntil(file: string, seen: () => boolean): Promise<void> {
	let n = 0;
	await vi.waitFor(async () => {
		if (!seen()) await appendFile(file, line(1000 + n++));
		expect(seen()).toBe(true);
	}, { timeout: WAIT.timeout, interval: 300 });
}

async function project(name: string, files: Record<string, string> = {}): Promise<string> {
	const folder = join(root, name);
	await mkdir(folder, { recursive: true });
	for (const [file, text] of Object.entries(files)) {
		await mkdir(resolve(folder, file, ".."), { recursive: true });
		await writeFile(join(folder, file), text);
	}
	return folder;
}

describe("watchTranscripts", { timeout: 60_000 }, () => {
	it("reports an appended transcript once, after the debounce, and not the files there at start", async () => {
		const folder = await project("-home-me-shop", { "s1.jsonl": line(1), "s2.jsonl": line(1) });
		const { watcher: w, calls, calledTimes, modes } = start();
		await w.ready;
		expect(w.mode).toBe("native");
		expect(modes).toEqual([{ mode: "native", reason: "watching" }]);

		await appendFile(join(folder, "s1.jsonl"), line(2));
		await calledTimes(1);
		expect(calls).toEqual([[join(folder, "s1.jsonl")]]);

		// A later change comes alone: nothing more was pending for s1.
		await appendFile(join(folder, "s2.jsonl"), line(2));
		await calledTimes(2);
		expect(calls).toEqual([[join(folder, "s1.jsonl")], [join(folder, "s2.jsonl")]]);
	});

	it("hands what waits out its quiet time over at once when flushed, and nothing once closed", async () => {
		const folder = await project("-home-me-shop", { "s1.jsonl": line(1) });
		const { watcher: w, calls } = start({ debounceMs: 60_000 });
		await w.ready;
		await appendFile(join(folder, "s1.jsonl"), line(2));
		// Flushed until chokidar has told it of the append: long before the minute's quiet time.
		await vi.waitFor(() => {
			w.flush();
			expect(calls).toEqual([[join(folder, "s1.jsonl")]]);
		}, WAIT);
		await appendFile(join(folder, "s1.jsonl"), line(3));
		await w.close();
		w.flush();
		expect(calls).toHaveLength(1);
	});

	it("turns a burst of appends to several transcripts into one call naming each once", async () => {
		const folder = await project("-home-me-shop", { "a.jsonl": "", "b.jsonl": "" });
		const { watcher: w, calls, calledTimes } = start({ debounceMs: 500 });
		await w.ready;
		for (let i = 0; i < 50; i++) appendFileSync(join(folder, i % 2 ? "a.jsonl" : "b.jsonl"), line(i));
		await calledTimes(1);
		expect(calls[0]).toEqual([join(folder, "a.jsonl"), join(folder, "b.jsonl")]);

		await appendFile(join(folder, "a.jsonl"), line(99));
		await calledTimes(2);
		expect(calls).toHaveLength(2);
		expect(calls[1]).toEqual([join(folder, "a.jsonl")]);
	});

	it("sees a new session in a new project folder, and sub-agents in both layouts, but nothing else", async () => {
		await project("-home-me-shop");
		const { watcher: w, calls, calledTimes } = start();
		await w.ready;

		const folder = join(root, "-home-me-new");
		await mkdir(folder);
		await writeFile(join(folder, "notes.txt"), "not a transcript");
		await writeFile(join(folder, "abc.jsonl"), line(1));
		await calledTimes(1);
		expect(calls.flat()).toContain(join(folder, "abc.jsonl"));
		expect(calls.flat()).not.toContain(join(folder, "notes.txt"));

		const subagents = join(folder, "abc", "subagents");
		await mkdir(subagents, { recursive: true });
		await mkdir(join(folder, "abc", "tool-results"), { recursive: true });
		await writeFile(join(folder, "abc", "tool-results", "out.jsonl"), "{}\n");
		await writeFile(join(folder, "abc", "stray.jsonl"), "{}\n");
		await writeFile(join(subagents, "agent-x1.jsonl"), line(1));
		await writeFile(join(subagents, "agent-x1.meta.json"), "{}");
		await writeFile(join(folder, "agent-old.jsonl"), line(1));
		const expected = [join(folder, "abc", "subagents", "agent-x1.jsonl"), join(folder, "abc", "subagents", "agent-x1.meta.json"), join(folder, "agent-old.jsonl")];
		// A folder just made may be watched a moment after a file in it was written (under load): Claude Code writes on, and so does this.
		for (const file of expected) await appendUntil(file, () => calls.flat().includes(file));
		await vi.waitFor(() => expect(new Set(calls.flat())).toEqual(new Set([join(folder, "abc.jsonl"), ...expected])), WAIT);

		// A sentinel shows nothing else was on its way.
		await appendFile(join(folder, "abc.jsonl"), line(2));
		await vi.waitFor(() => expect(calls.at(-1)).toEqual([join(folder, "abc.jsonl")]), WAIT);
		const seen = new Set(calls.flat());
		expect(seen.has(join(folder, "abc", "tool-results", "out.jsonl"))).toBe(false);
		expect(seen.has(join(folder, "abc", "stray.jsonl"))).toBe(false);
		expect(seen.has(join(folder, "notes.txt"))).toBe(false);
	});

	it("does not follow a link to a folder elsewhere: what changes behind it is not named (the sync does not read through links)", async () => {
		const folder = await project("-home-me-shop", { "s1.jsonl": line(1) });
		const elsewhere = join(dir, "elsewhere");
		await mkdir(elsewhere);
		await writeFile(join(elsewhere, "old.jsonl"), line(1));
		await symlink(elsewhere, join(root, "-home-me-linked"));
		const { watcher: w, calls, calledTimes } = start();
		await w.ready;
		await appendFile(join(elsewhere, "old.jsonl"), line(2));
		await writeFile(join(elsewhere, "new.jsonl"), line(1));
		// A sentinel in a real folder comes alone: nothing behind the link was on its way.
		await appendUntil(join(folder, "s1.jsonl"), () => calls.length > 0);
		await calledTimes(1);
		expect(calls.flat()).toEqual([join(folder, "s1.jsonl")]);
	});

	it("works by polling when asked", async () => {
		const folder = await project("-home-me-shop", { "s1.jsonl": line(1) });
		const { watcher: w, calls, modes } = start({ usePolling: true });
		await w.ready;
		expect(w.mode).toBe("polling");
		expect(modes.map((m) => m.mode)).toEqual(["polling"]);

		await appendUntil(join(folder, "s1.jsonl"), () => calls.length > 0);
		expect(new Set(calls.flat())).toEqual(new Set([join(folder, "s1.jsonl")]));

		const fresh = await project("-home-me-other", { "new.jsonl": line(1) });
		await appendUntil(join(fresh, "new.jsonl"), () => calls.flat().includes(join(fresh, "new.jsonl")));
	});

	it("waits for a projects folder that does not exist yet, then reports what appears in it", async () => {
		const { watcher: w, calls, modes } = start();
		await w.ready;
		expect(w.mode).toBe("waiting");

		const folder = await project("-home-me-shop", { "first.jsonl": line(1) });
		await vi.waitFor(() => expect(calls.flat()).toContain(join(folder, "first.jsonl")), WAIT);
		await vi.waitFor(() => expect(w.mode).toBe("native"), WAIT);
		expect(modes.map((m) => m.mode)).toEqual(["waiting", "native"]);

		await appendFile(join(folder, "first.jsonl"), line(2));
		const before = calls.length;
		await vi.waitFor(() => expect(calls.length).toBeGreaterThan(before), WAIT);
		expect(calls.at(-1)).toEqual([join(folder, "first.jsonl")]);
	});

	it("goes back to waiting when the projects folder is removed, and picks it up again", async () => {
		await project("-home-me-shop", { "s.jsonl": line(1) });
		const { watcher: w, calls } = start();
		await w.ready;
		await rm(root, { recursive: true });
		await vi.waitFor(() => expect(w.mode).toBe("waiting"), WAIT);

		const folder = await project("-home-me-again", { "t.jsonl": line(1) });
		await vi.waitFor(() => expect(calls.flat()).toContain(join(folder, "t.jsonl")), WAIT);
		expect(calls.flat()).not.toContain(join(root, "-home-me-shop", "s.jsonl"));
	});

	it("switches to polling when the native watcher fails (ENOSPC) and keeps going", async () => {
		const folder = await project("-home-me-shop", { "s.jsonl": line(1) });
		const created: ChokidarOptions[] = [];
		const { watcher: w, calls, modes, errors } = start({
			createWatcher: (path, options) => {
				created.push(options);
				const fsw = watch(path, options);
				if (created.length === 1) {
					// The error Node gives when inotify's watch limit is reached.
					const error = Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${path}'`), { code: "ENOSPC", syscall: "watch", errno: -28 });
					fsw.once("ready", () => fsw.emit("error", error));
				}
				return fsw;
			},
		});
		await vi.waitFor(() => expect(w.mode).toBe("polling"), WAIT);
		expect(created.map((o) => o.usePolling)).toEqual([false, true]);
		// (The failure came with the first scan's end: the native watcher was never announced.)
		expect(modes.at(-1)?.mode).toBe("polling");
		expect(modes.at(-1)?.reason).toContain("ENOSPC");
		expect(errors).toEqual([]);

		await appendUntil(join(folder, "s.jsonl"), () => calls.length > 0);
		expect(new Set(calls.flat())).toEqual(new Set([join(folder, "s.jsonl")]));
	});

	it("picks up what chokidar missed while starting (polling's blind spot), and watches it from then on", async () => {
		const folder = await project("-home-me-shop", { "known.jsonl": line(1), "missed.jsonl": line(1) });
		const missed = join(folder, "missed.jsonl");
		// chokidar does not see missed.jsonl during its first scan, as when it is made in the blind spot.
		let blind = true;
		const { watcher: w, calls } = start({
			usePolling: true,
			createWatcher: (path, options) => {
				const ours = options.ignored as (p: string, s?: Stats) => boolean;
				return watch(path, { ...options, ignored: (p: string, s?: Stats) => (blind && p === missed) || ours(p, s) });
			},
		});
		await w.ready;
		blind = false;
		await vi.waitFor(() => expect(calls.flat()).toContain(missed), WAIT);
		const before = calls.length;
		await appendUntil(missed, () => calls.length > before);
		expect(calls.slice(before).flat()).toEqual(expect.arrayContaining([missed]));
		expect(calls.flat()).not.toContain(join(folder, "known.jsonl"));
	});

	it("after a storm of events, as many as the OS may drop some of, names every session file (the quiet one's change was lost with them)", async () => {
		const folder = await project("-home-me-shop", { "storm.jsonl": line(1), "quiet.jsonl": line(1) });
		const quiet = join(folder, "quiet.jsonl");
		let fsw: ReturnType<typeof watch> | undefined;
		const { watcher: w, calls } = start({
			// chokidar hears nothing of quiet.jsonl, as when its events were past the kernel's queue.
			createWatcher: (path, options) => {
				const ours = options.ignored as (p: string, s?: Stats) => boolean;
				return (fsw = watch(path, { ...options, ignored: (p: string, s?: Stats) => p === quiet || ours(p, s) }));
			},
		});
		await w.ready;
		// The look after the start names it once (chokidar does not watch it): from then on only a storm can.
		await vi.waitFor(() => expect(calls.flat()).toContain(quiet), WAIT);
		const before = calls.length;
		// What the kernel passed on of a storm of appends to one file: thousands of changes of it, and
		// none of quiet.jsonl, whose append was among the events dropped.
		await appendFile(quiet, line(2));
		for (let i = 0; i < 5_000; i++) fsw!.emit("raw", "change", "storm.jsonl", {});
		fsw!.emit("change", join(folder, "storm.jsonl"));
		await vi.waitFor(() => expect(calls.slice(before).flat()).toContain(join(folder, "storm.jsonl")), WAIT);
		expect(calls.slice(before).flat()).toContain(quiet);
	});

	it("after its thread was held while files changed, names every session file (the kernel may have dropped their events)", async () => {
		const folder = await project("-home-me-shop", { "busy.jsonl": line(1), "quiet.jsonl": line(1) });
		const quiet = join(folder, "quiet.jsonl");
		const { watcher: w, calls } = start({
			createWatcher: (path, options) => {
				const ours = options.ignored as (p: string, s?: Stats) => boolean;
				return watch(path, { ...options, ignored: (p: string, s?: Stats) => p === quiet || ours(p, s) });
			},
		});
		await w.ready;
		await vi.waitFor(() => expect(calls.flat()).toContain(quiet), WAIT);
		const before = calls.length;
		appendFileSync(quiet, line(2));
		appendFileSync(join(folder, "busy.jsonl"), line(2));
		// The thread held past a root check, as a long render holds Obsidian's.
		const until = Date.now() + POLL_MS * 2 + 1_000;
		while (Date.now() < until);
		await vi.waitFor(() => expect(calls.slice(before).flat()).toContain(join(folder, "busy.jsonl")), WAIT);
		expect(calls.slice(before).flat()).toContain(quiet);
	});

	it("after a hold long before a change, names only the changed file", async () => {
		const folder = await project("-home-me-shop", { "busy.jsonl": line(1), "other.jsonl": line(1) });
		const { watcher: w, calls } = start();
		await w.ready;
		await vi.waitFor(() => expect(w.mode).toBe("native"), WAIT);
		// Held past a root check with nothing changing, then a change a while after.
		const until = Date.now() + POLL_MS * 2 + 1_000;
		while (Date.now() < until);
		await new Promise((done) => setTimeout(done, 1_500));
		const before = calls.length;
		appendFileSync(join(folder, "busy.jsonl"), line(2));
		await vi.waitFor(() => expect(calls.length).toBeGreaterThan(before), WAIT);
		expect(calls.slice(before)).toEqual([[join(folder, "busy.jsonl")]]);
	});

	it("names only the changed file after a burst the OS keeps whole", async () => {
		const folder = await project("-home-me-shop", { "busy.jsonl": line(1), "other.jsonl": line(1) });
		let fsw: ReturnType<typeof watch> | undefined;
		const { watcher: w, calls } = start({
			createWatcher: (path, options) => (fsw = watch(path, options)),
		});
		await w.ready;
		for (let i = 0; i < 500; i++) fsw!.emit("raw", "change", "busy.jsonl", {});
		fsw!.emit("change", join(folder, "busy.jsonl"));
		await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0), WAIT);
		expect(calls).toEqual([[join(folder, "busy.jsonl")]]);
	});

	it("reports other watcher errors and a throwing onChange without stopping", async () => {
		const folder = await project("-home-me-shop", { "s.jsonl": line(1) });
		let first = true;
		const seen: string[][] = [];
		const { watcher: w, errors } = start({
			onChange: (paths) => {
				seen.push(paths);
				if (first) {
					first = false;
					throw new Error("sync refused");
				}
			},
		});
		await w.ready;
		await appendFile(join(folder, "s.jsonl"), line(2));
		await vi.waitFor(() => expect(seen).toHaveLength(1), WAIT);
		expect(errors.map((e) => e.message)).toEqual(["sync refused"]);
		await appendFile(join(folder, "s.jsonl"), line(3));
		await vi.waitFor(() => expect(seen).toHaveLength(2), WAIT);
		expect(w.mode).toBe("native");
	});

	it("close(): no call comes after it, even for a change pending in the debounce", async () => {
		const folder = await project("-home-me-shop", { "s.jsonl": line(1) });
		const changed: string[] = [];
		// A long debounce: the change below is certainly still pending when close() runs.
		const { watcher: w, calls } = start({ debounceMs: 60_000, maxWaitMs: 60_000 });
		await w.ready;
		const spy = start({ onChange: (paths) => changed.push(...paths) });
		await spy.watcher.ready;
		await appendFile(join(folder, "s.jsonl"), line(2));
		// The second watcher seeing it means the first one has it pending by now.
		await vi.waitFor(() => expect(changed).toContain(join(folder, "s.jsonl")), WAIT);
		await w.close();
		await spy.watcher.close();
		expect(calls).toEqual([]);
	});

	it("close() leaves no watcher, poller or timer behind (in-process count)", async () => {
		await project("-home-me-shop", { "s.jsonl": line(1) });
		const handles = () => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap" || r === "StatWatcher").length;
		const before = handles();
		for (const usePolling of [false, true]) {
			const { watcher: w } = start({ usePolling });
			await w.ready;
			expect(handles()).toBeGreaterThan(before);
			await w.close();
			// Node lists a closed handle until its close callback has run, a loop turn later.
			await vi.waitFor(() => expect(handles()).toBe(before), WAIT);
		}
	});
});

describe("watchTranscripts in a process of its own", { timeout: 60_000 }, () => {
	let script: string;
	let bundle: string;

	beforeAll(async () => {
		bundle = join(tmpdir(), `transcript-watcher-${process.pid}-${Date.now()}.cjs`);
		await build({ entryPoints: [resolve(__dirname, "../../src/node/transcript-watcher.ts")], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: bundle, logLevel: "silent" });
		script = `${bundle}.run.cjs`;
		// Two watchers on one root: `slow` (a two-minute debounce) still has the change pending when
		// `quick` reports it; both close, and then nothing is left to do: the process must end.
		await writeFile(
			script,
			`
const { appendFileSync, mkdirSync } = require("node:fs");
const { join } = require("node:path");
const { watchTranscripts } = require(${JSON.stringify(bundle)});
const [, , root, mode] = process.argv;
const common = { pollIntervalMs: 50, usePolling: mode === "polling" };
let slowCalls = 0;
let done = false;
const slow = watchTranscripts(root, { ...common, debounceMs: 120000, maxWaitMs: 120000, onChange: () => slowCalls++ });
const quick = watchTranscripts(root, {
	...common,
	debounceMs: 50,
	onChange: async (paths) => {
		await Promise.all([slow.close(), quick.close()]);
		if (!done) process.stdout.write("closed after " + paths.length + ", slow calls " + slowCalls + "\\n");
		done = true;
	},
});
// Written until seen (polling has a blind spot just after ready); never keeps the process alive.
Promise.all([slow.ready, quick.ready]).then(() => {
	const write = () => {
		mkdirSync(join(root, "p"), { recursive: true });
		appendFileSync(join(root, "p", "s.jsonl"), "{}\\n");
	};
	write();
	setInterval(write, 300).unref();
});
`,
		);
	});

	afterAll(async () => {
		await rm(bundle, { force: true });
		await rm(script, { force: true });
	});

	it.each(["native", "polling", "waiting"])("the process exits by itself after close() (%s)", async (mode) => {
		if (mode !== "waiting") await mkdir(join(root, "p"), { recursive: true });
		const child = spawn(process.execPath, [script, root, mode], { stdio: ["ignore", "pipe", "inherit"] });
		let out = "";
		child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
		const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
		const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
		clearTimeout(timer);
		expect({ code, signal, out }).toEqual({ code: 0, signal: null, out: "closed after 1, slow calls 0\n" });
	});
});

describe("the other agents' layouts", () => {
	it("Codex: YYYY/MM/DD/rollout-*.jsonl below sessions/, nothing else", () => {
		expect(CODEX_LAYOUT(["2026"], "dir")).toBe(true);
		expect(CODEX_LAYOUT(["2026", "12", "01", "rollout-2026-12-01T10-00-00-0a.jsonl"], "file")).toBe(true);
		expect(CODEX_LAYOUT(["2026", "12", "01", "notes.txt"], "file")).toBe(false);
		expect(CODEX_LAYOUT(["history.jsonl"], "file")).toBe(false);
		expect(CODEX_LAYOUT(["2026", "12", "01", "x", "rollout-a.jsonl"], "file")).toBe(false);
	});

	it("watches a Codex sessions folder with its layout: a new rollout three folders down is named", async () => {
		await mkdir(join(root, "2026", "12", "01"), { recursive: true });
		const w = start({ layout: CODEX_LAYOUT });
		await w.watcher.ready;
		const path = join(root, "2026", "12", "01", "rollout-2026-12-01T10-00-00-0a.jsonl");
		await writeFile(path, line(1));
		await writeFile(join(root, "2026", "12", "01", "other.txt"), "x");
		await w.calledTimes(1);
		expect(w.calls.flat()).toEqual([path]);
	});

	it("Copilot CLI: <session id>/events.jsonl below session-state/, nothing else", () => {
		expect(COPILOT_LAYOUT(["3a92c195-4d69-45c0-9415-8a55d979f152"], "dir")).toBe(true);
		expect(COPILOT_LAYOUT(["3a92c195-4d69-45c0-9415-8a55d979f152", "events.jsonl"], "file")).toBe(true);
		expect(COPILOT_LAYOUT(["3a92c195-4d69-45c0-9415-8a55d979f152", "workspace.yaml"], "file")).toBe(false);
		expect(COPILOT_LAYOUT(["3a92c195-4d69-45c0-9415-8a55d979f152", "checkpoints"], "dir")).toBe(false);
	});

	it("Aider: the chat history in the project's folder, no folder below it", () => {
		const layout = aiderLayout(".aider.chat.history.md");
		expect(layout([".aider.chat.history.md"], "file")).toBe(true);
		expect(layout([".aider.chat.history.md"], undefined)).toBe(true);
		expect(layout([".aider.input.history"], "file")).toBe(false);
		expect(layout(["src"], "dir")).toBe(false);
		expect(layout(["src", ".aider.chat.history.md"], "file")).toBe(false);
	});

	it("Aider with a chat-history-file in a folder: that folder on the way, and the file, nothing beside", () => {
		const layout = aiderLayout("notes/aider.md");
		expect(layout(["notes"], "dir")).toBe(true);
		expect(layout(["notes"], "file")).toBe(false);
		expect(layout(["notes", "aider.md"], "file")).toBe(true);
		expect(layout(["notes", "other.md"], "file")).toBe(false);
		expect(layout([".aider.chat.history.md"], "file")).toBe(false);
		expect(layout(["notes", "aider.md", "x"], "file")).toBe(false);
	});

	it("watches a project's folder with Aider's layout: its history growing is named, nothing else", async () => {
		await mkdir(join(root, "src"), { recursive: true });
		const w = start({ layout: aiderLayout(".aider.chat.history.md") });
		await w.watcher.ready;
		const path = join(root, ".aider.chat.history.md");
		await writeFile(join(root, "README.md"), "x");
		await writeFile(join(root, "src", "a.jsonl"), line(1));
		await writeFile(path, "\n# aider chat started at 2026-11-30 09:12:03\n\n");
		await w.calledTimes(1);
		expect(w.calls.flat()).toEqual([path]);
	});

	it("Gemini CLI: <project>/chats/session-*.jsonl and sub-agents one folder deeper, below tmp/", () => {
		expect(GEMINI_LAYOUT(["demo"], "dir")).toBe(true);
		expect(GEMINI_LAYOUT(["demo", "chats"], "dir")).toBe(true);
		expect(GEMINI_LAYOUT(["demo", "logs.json"], "file")).toBe(false);
		expect(GEMINI_LAYOUT(["demo", "chats", "session-2026-12-01T15-36-25212a91.jsonl"], "file")).toBe(true);
		expect(GEMINI_LAYOUT(["demo", "chats", "f17111ec-2c36-47af-b37c-0cb47f648841"], "dir")).toBe(true);
		expect(GEMINI_LAYOUT(["demo", "chats", "f17111ec-2c36-47af-b37c-0cb47f648841", "e263ffee.jsonl"], "file")).toBe(true);
		expect(GEMINI_LAYOUT(["demo", "tool-outputs", "x.jsonl"], "file")).toBe(false);
	});

	it("opencode: its databases and their WAL, and the older JSON sessions; not its snapshots, logs or -shm", () => {
		expect(OPENCODE_LAYOUT(["opencode.db"], "file")).toBe(true);
		expect(OPENCODE_LAYOUT(["opencode.db-wal"], "file")).toBe(true);
		expect(OPENCODE_LAYOUT(["opencode-beta.db"], "file")).toBe(true);
		expect(OPENCODE_LAYOUT(["opencode.db-shm"], "file")).toBe(false);
		expect(OPENCODE_LAYOUT(["auth.json"], "file")).toBe(false);
		expect(OPENCODE_LAYOUT(["snapshot"], "dir")).toBe(false);
		expect(OPENCODE_LAYOUT(["log"], "dir")).toBe(false);
		expect(OPENCODE_LAYOUT(["storage"], "dir")).toBe(true);
		expect(OPENCODE_LAYOUT(["storage", "session"], "dir")).toBe(true);
		expect(OPENCODE_LAYOUT(["storage", "message"], "dir")).toBe(false);
		expect(OPENCODE_LAYOUT(["storage", "session", "864845f3"], "dir")).toBe(true);
		expect(OPENCODE_LAYOUT(["storage", "session", "864845f3", "ses_dcd8fa738ffeJk36E7SCGcsKxQ.json"], "file")).toBe(true);
		expect(OPENCODE_LAYOUT(["storage", "session", "864845f3", "x", "y.json"], "file")).toBe(false);
	});

	it("watches opencode's data folder: a write to the WAL is named, the -shm beside it is not", async () => {
		await mkdir(root, { recursive: true });
		await writeFile(join(root, "opencode.db"), "");
		const w = start({ layout: OPENCODE_LAYOUT });
		await w.watcher.ready;
		await writeFile(join(root, "opencode.db-shm"), "x");
		const wal = join(root, "opencode.db-wal");
		await appendUntil(wal, () => w.calls.flat().includes(wal));
		expect(new Set(w.calls.flat())).toEqual(new Set([wal]));
	});
});
