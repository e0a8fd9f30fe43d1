import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { appendFile, mkdir, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { AgentId } from "../src/core/transcript/agents";
import { performance } from "node:perf_hooks";
import { openTranscriptIndex } from "../src/node/transcript-index";
import { scanTranscripts } from "../src/node/transcript-scanner";
import { generateLongTranscript, generateTree, loadSources } from "./corpus-generator";
import { benchRecall } from "./recall.bench";
import { benchHooks } from "./hooks.bench";
import { benchMcp } from "./mcp.bench";
import { benchPlugin } from "./plugin.bench";
import { benchSessions } from "./sessions.bench";
import { generateOpencodeData } from "./opencode-db-generator";

/**
 * Transcript engine benchmark. `tree`: a >= 256 MiB projects tree of 1,000 sessions;
 * `long`: one 1 GiB transcript. Every figure is compared with a baseline measured in the same run
 * (machines here are noisy: ratios, not absolute times).
 */
const MiB = 1024 * 1024;
const repoRoot = resolve(__dirname, "..", "..");
const work = process.env.BENCH_DIR ?? join(tmpdir(), "ai-memory-bench");
const SOURCES = [join(repoRoot, "..", "shared", "corpus", "claude-transcripts"), join(repoRoot, "examples", "claude-projects")];
// `ids`: each session's uuids its own (before, replicas of one source in one folder shared theirs).
const TREE = { sessions: 1000, bytes: 264 * MiB, ids: "per-session" };
const LONG_BYTES = 1024 * MiB;

const mode = process.argv[2] ?? "tree";

function peakRssMiB(): number {
	return process.resourceUsage().maxRSS / 1024;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
	const start = performance.now();
	const value = await fn();
	return [performance.now() - start, value];
}

/** The baseline: read every file whole and JSON.parse every line, nothing else. */
async function baseline(paths: string[]): Promise<number> {
	let records = 0;
	for (const path of paths) {
		const text = await readFile(path, "utf8");
		for (const line of text.split("\n")) {
			if (line === "") continue;
			try {
				JSON.parse(line);
				records++;
			} catch {
				// counted by the engine, not here
			}
		}
	}
	return records;
}

async function ensureTree(root: string): Promise<void> {
	const marker = join(root, ".generated.json");
	const want = JSON.stringify(TREE);
	if (existsSync(marker) && (await readFile(marker, "utf8")) === want) return;
	const sources = await loadSources(SOURCES);
	process.stdout.write(`generating ${TREE.sessions} sessions (~${TREE.bytes / MiB} MiB) from ${sources.length} real transcripts…\n`);
	const made = await generateTree(root, sources, TREE.sessions, TREE.bytes);
	await writeFile(marker, want);
	process.stdout.write(`  ${made.files} files, ${(made.bytes / MiB).toFixed(0)} MiB\n`);
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function benchTree(): Promise<void> {
	const root = join(work, "projects");
	await ensureTree(root);
	const files = await scanTranscripts(root);
	const paths = files.map((f) => f.path);
	const totalBytes = files.reduce((n, f) => n + f.size, 0);
	const sessions = files.filter((f) => f.kind === "session").length;
	await baseline(paths); // warm the page cache for both sides

	const a: number[] = [];
	const b: number[] = [];
	let index = openTranscriptIndex(root);
	for (let round = 0; round < 2; round++) {
		index = openTranscriptIndex(root); // let the previous round's models go
		gc();
		a.push((await time(() => baseline(paths)))[0]);
		gc();
		b.push((await time(() => index.refresh()))[0]);
	}
	const c: number[] = [];
	for (let i = 0; i < 7; i++) c.push((await time(() => index.refresh()))[0]);

	const target = files.find((f) => f.kind === "session")!.path;
	const turn = await oneTurn(target);
	const d: number[] = [];
	const dScan: number[] = [];
	const size = files.find((f) => f.path === target)!.size;
	try {
		for (let i = 0; i < 7; i++) {
			await appendFile(target, turn);
			d.push((await time(() => index.refreshPaths([target])))[0]);
			await appendFile(target, turn);
			dScan.push((await time(() => index.refresh()))[0]);
		}
	} finally {
		await truncate(target, size); // the tree is shared by the other parts
	}
	const aMin = Math.min(...a);
	const bMin = Math.min(...b);
	const rows: [string, string, string, boolean][] = [
		["(a) baseline: read + JSON.parse every line", `${aMin.toFixed(0)} ms`, "", true],
		["(b) full parse into session models", `${bMin.toFixed(0)} ms`, `${(bMin / aMin).toFixed(2)}x of (a), target <= 1.5x`, bMin / aMin <= 1.5],
		["(c) re-scan, nothing changed", `${median(c).toFixed(1)} ms`, `${((median(c) / aMin) * 100).toFixed(2)}% of (a), target < 100 ms`, median(c) < 100],
		["(d) re-read one appended turn (watcher path)", `${median(d).toFixed(2)} ms`, `${((median(d) / aMin) * 100).toFixed(3)}% of (a), target < 20 ms`, median(d) < 20],
		["(d') same, with a full re-scan", `${median(dScan).toFixed(1)} ms`, "", true],
	];
	process.stdout.write(`\ntree: ${sessions} sessions, ${files.length} files, ${(totalBytes / MiB).toFixed(0)} MiB (${work})\n`);
	report(rows);
}

/** A realistic turn: a prompt and an answer, in the shape of the session's own lines. */
async function oneTurn(path: string): Promise<string> {
	const text = await readFile(path, "utf8");
	const sessionId = /"sessionId":"([^"]+)"/.exec(text)?.[1] ?? "s";
	const now = new Date().toISOString();
	const user = { type: "user", uuid: crypto.randomUUID(), parentUuid: null, sessionId, timestamp: now, cwd: "/home/dev/project", message: { role: "user", content: "and add a test for it" } };
	const reply = { type: "assistant", uuid: crypto.randomUUID(), parentUuid: user.uuid, sessionId, timestamp: now, message: { id: `msg_${crypto.randomUUID()}`, model: "claude-opus-4-7", role: "assistant", content: [{ type: "text", text: "Added `health.test.ts`; it passes." }], usage: { input_tokens: 12, output_tokens: 30 } } };
	return `${JSON.stringify(user)}\n${JSON.stringify(reply)}\n`;
}

/** Peak memory of one full parse of the tree, in a process that does nothing else. */
async function benchTreeMemory(): Promise<void> {
	const root = join(work, "projects");
	await ensureTree(root);
	const index = openTranscriptIndex(root);
	await index.refresh();
	gc();
	const heap = process.memoryUsage().heapUsed / MiB;
	report([["peak RSS of a full parse of the tree", `${peakRssMiB().toFixed(0)} MiB`, `target < 300 MiB; ${heap.toFixed(0)} MiB of heap kept for ${index.loaded().length} models`, peakRssMiB() < 300]]);
}

/**
 * The whole job, as a person runs it: `node dist/cli.cjs sync` in a process of its own, timed from
 * the outside (process start, worker threads and exit included), each against a baseline run the
 * same way, in alternating rounds (this machine is noisy); medians.
 * - The full sync of the tree into an empty vault (notes, indexes, the Bases file, the state)
 *   against a fresh process that reads every transcript and `JSON.parse`s every line, the fastest
 *   way found (bench/read-baseline.mjs): the physical floor of the job.
 * - A sync with nothing changed, and a sync after one turn is appended to the longest session,
 *   against `node -e 0`: what a hook or a person waits for on every sync.
 */
async function benchSync(): Promise<void> {
	const root = join(work, "projects");
	await ensureTree(root);
	const cli = join(repoRoot, "dist", "cli.cjs");
	if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build:cli`);
	const files = await scanTranscripts(root);
	const sessions = files.filter((f) => f.kind === "session");
	const totalBytes = files.reduce((n, f) => n + f.size, 0);
	const readBaseline = (whole: boolean) => nodeProcess([join(repoRoot, "bench", "read-baseline.mjs"), root, ...(whole ? ["--whole"] : [])]);
	// `--claude-dir` is the folder that holds `projects/`.
	const sync = (vault: string) => nodeProcess([cli, "sync", "--vault", vault, "--claude-dir", work, "--json"]);
	await readBaseline(false); // warm the page cache
	// Each round writes into a folder of its own, removed only at the end: on ext4 without a journal
	// (this machine's /tmp), creating thousands of files within 30 s of deleting as many makes the
	// kernel scan the recently deleted inodes (measured: a tenth of the run), which a real first
	// sync never meets.
	const vaults = join(work, "vaults");
	await rm(vaults, { recursive: true, force: true });
	const base: Measured[] = [];
	const whole: Measured[] = [];
	const full: Measured[] = [];
	let written = 0;
	let vault = "";
	for (let round = 0; round < SYNC_ROUNDS; round++) {
		vault = join(vaults, `round-${round}`);
		await mkdir(vault, { recursive: true });
		// Flush what the last round wrote, so its write-back does not slow this one down.
		spawnSync("sync");
		// Alternate which goes first, so a drift in the machine's speed hits both sides alike.
		const first = round % 2 === 0;
		if (first) base.push(await readBaseline(false));
		const run = await sync(vault);
		if (!first) base.push(await readBaseline(false));
		whole.push(await readBaseline(true));
		full.push(run);
		const report = syncReport(run);
		written = report.notesWritten.length;
		report.errors.slice(0, 5).forEach((e) => process.stdout.write(`  error: ${e}\n`));
	}

	// Two baselines at once: how much a second core adds to work like a first sync's (reading,
	// parsing, allocating), the most two fold threads can get from this machine.
	const pairs: number[] = [];
	for (let round = 0; round < SYNC_ROUNDS; round++) {
		spawnSync("sync");
		const both = await Promise.all([readBaseline(false), readBaseline(false)]);
		pairs.push(Math.max(...both.map((m) => m.ms)));
	}

	// Nothing changed since the last round's sync, then one turn appended to the longest session.
	spawnSync("sync");
	const empty: Measured[] = [];
	const again: Measured[] = [];
	for (let round = 0; round < QUICK_ROUNDS; round++) {
		empty.push(await nodeProcess(["-e", "0"]));
		again.push(await sync(vault));
	}
	const target = sessions.reduce((a, b) => (b.size > a.size ? b : a));
	const empty2: Measured[] = [];
	const appended: Measured[] = [];
	try {
		for (let round = 0; round < QUICK_ROUNDS; round++) {
			empty2.push(await nodeProcess(["-e", "0"]));
			// A new turn each time (new uuids): a replayed one would be folded as a duplicate.
			await appendFile(target.path, await oneTurn(target.path));
			appended.push(await sync(vault));
		}
	} finally {
		// The tree is shared by the other parts: give the session back its own bytes.
		await truncate(target.path, target.size);
	}
	await rm(vaults, { recursive: true, force: true });

	const againWrites = again.map(syncReport).map((r) => r.notesWritten.length + r.contextWritten.length + r.memoryWritten.length);
	const appendedReads = appended.map(syncReport).map((r) => r.transcriptsRead);
	const aMs = median(base.map((m) => m.ms));
	const wMs = median(whole.map((m) => m.ms));
	const fMs = median(full.map((m) => m.ms));
	const eMs = median(empty.map((m) => m.ms));
	const e2Ms = median(empty2.map((m) => m.ms));
	const nMs = median(again.map((m) => m.ms));
	const dMs = median(appended.map((m) => m.ms));
	const peak = Math.max(...full.map((m) => m.rssMiB));
	const range = (ms: Measured[], by = 1) => `${(Math.min(...ms.map((m) => m.ms)) / by).toFixed(2)}–${(Math.max(...ms.map((m) => m.ms)) / by).toFixed(2)}`;
	process.stdout.write(`\nsync (CLI): ${sessions.length} sessions, ${files.length} files, ${(totalBytes / MiB).toFixed(0)} MiB; medians of ${SYNC_ROUNDS} and ${QUICK_ROUNDS} alternating rounds, each a new process timed from outside; peak RSS ${RSS_HOW}\n`);
	report([
		["(a) baseline: a process reads + JSON.parses all", `${aMs.toFixed(0)} ms`, `range ${range(base, 1000)} s; peak RSS ${Math.max(...base.map((m) => m.rssMiB)).toFixed(0)} MiB`, true],
		["(a') same, each file decoded as one string", `${wMs.toFixed(0)} ms`, `${(wMs / aMs).toFixed(2)}x of (a); for reference only`, true],
		["(a2) two of (a) at once, the later's end", `${median(pairs).toFixed(0)} ms`, `two cores do ${((2 * aMs) / median(pairs)).toFixed(2)}x the work of one here (2.00 would be two whole cores); for reference only`, true],
		["full sync into an empty vault", `${fMs.toFixed(0)} ms`, `${(fMs / aMs).toFixed(2)}x of (a) (${(fMs / wMs).toFixed(2)}x of (a')), target <= 2x; range ${range(full, 1000)} s; ${written} files written${faultsAgainst(full, base, "(a)")}`, fMs / aMs <= 2],
		["peak RSS of the full sync", `${peak.toFixed(0)} MiB`, `target < 300 MiB; median ${median(full.map((m) => m.rssMiB)).toFixed(0)} MiB`, peak < 300],
		["(b) baseline: node -e 0", `${eMs.toFixed(0)} ms`, `peak RSS ${Math.max(...empty.map((m) => m.rssMiB)).toFixed(0)} MiB`, true],
		["sync with nothing changed", `${nMs.toFixed(0)} ms`, `${(nMs / eMs).toFixed(2)}x of (b), target <= 4x; ${Math.max(...againWrites)} files written, target 0; peak RSS ${Math.max(...again.map((m) => m.rssMiB)).toFixed(0)} MiB${faultsAgainst(again, empty, "node -e 0")}`, nMs / eMs <= 4 && Math.max(...againWrites) === 0],
		["sync after one appended turn", `${dMs.toFixed(0)} ms`, `${(dMs / e2Ms).toFixed(2)}x of (b) (${e2Ms.toFixed(0)} ms in these rounds), target <= 4x; ${(target.size / MiB).toFixed(1)} MiB session, ${Math.max(...appendedReads)} transcript read${faultsAgainst(appended, empty2, "node -e 0")}`, dMs / e2Ms <= 4 && appendedReads.every((n) => n === 1)],
	]);
}

const SYNC_ROUNDS = Number(process.env.BENCH_SYNC_ROUNDS ?? 5);
const QUICK_ROUNDS = 9;

/**
 * The median run's page faults against the baseline's, for the report (nothing without GNU time).
 * On this kind of machine a page touched for the first time costs about 11 µs, and unlike time the
 * count does not swing with the machine's load: a change of a few milliseconds shows in it.
 */
function faultsAgainst(ours: readonly Measured[], base: readonly Measured[], baseline: string): string {
	if ([...ours, ...base].some((m) => Number.isNaN(m.faults))) return "";
	return `; ${median(ours.map((m) => m.faults)).toFixed(0)} page faults (${baseline} ${median(base.map((m) => m.faults)).toFixed(0)})`;
}

interface Measured {
	ms: number;
	rssMiB: number;
	/** Minor page faults (GNU time's `%R`, wait4's `ru_minflt`); NaN without GNU time. */
	faults: number;
	stdout: string;
}

/**
 * Peak RSS from outside: GNU time's `%M` is the kernel's `ru_maxrss` for the child (wait4), exact
 * and covering every thread, with nothing sampled; it costs the same exec of a small program for
 * each side. Without it (no GNU time), /proc/<pid>/status is read every 5 ms: VmHWM is the peak
 * the kernel keeps, so only growth in the last few milliseconds before exit could be missed.
 */
const GNU_TIME = "/usr/bin/time";
// BENCH_RSS=proc uses the /proc fallback even where GNU time is installed (to compare the two).
const hasGnuTime = process.env.BENCH_RSS !== "proc" && /^\d+$/.test(spawnSync(GNU_TIME, ["-f", "%M", "true"], { encoding: "utf8" }).stderr?.trim() ?? "");
const RSS_FILE = join(work, `rss-${process.pid}.txt`);
const RSS_HOW = hasGnuTime ? "from GNU time (wait4 ru_maxrss)" : "from /proc/<pid>/status VmHWM, read every 5 ms";

/** Runs `node <args>` as a new process; wall time seen from here (spawn to exit), peak RSS from outside. */
let rssFiles = 0;

/**
 * A run that has not ended by then hung, and is run again (twice at most): Node 20 can deadlock as
 * a process ends (its main thread waits for background compile jobs that wait for a collection
 * only the main thread makes). Seen in 3 to 7 of 100 runs of opencode's baseline, none of the
 * readers'; one such run stalled the whole benchmark.
 */
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 120_000);

async function nodeProcess(args: string[], attempt = 1): Promise<Measured> {
	// A file of its own for each run: two may run at once.
	const rssFile = `${RSS_FILE}.${rssFiles++}`;
	const [command, argv] = hasGnuTime ? [GNU_TIME, ["-f", "%M %R", "-o", rssFile, process.execPath, ...args]] : [process.execPath, args];
	const start = performance.now();
	// A process group of its own: a hung run is ended with GNU time around it.
	const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"], detached: true });
	let hung = false;
	const timer = setTimeout(() => {
		hung = true;
		process.kill(-child.pid!, "SIGKILL");
	}, RUN_TIMEOUT_MS);
	let hwm = Number.NaN;
	const poll = hasGnuTime ? undefined : setInterval(() => (hwm = Math.max(Number.isNaN(hwm) ? 0 : hwm, vmHwmKiB(child.pid))), 5);
	const out: Buffer[] = [];
	const err: Buffer[] = [];
	child.stdout.on("data", (b: Buffer) => out.push(b));
	child.stderr.on("data", (b: Buffer) => err.push(b));
	// Timed to the exit; the output may still be draining then ("close" comes after both).
	let ms = 0;
	child.on("exit", () => (ms = performance.now() - start));
	const status = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
	clearTimeout(timer);
	if (poll) clearInterval(poll);
	if (hung) {
		await rm(rssFile, { force: true });
		if (attempt >= 3) throw new Error(`node ${args.join(" ")} hung ${attempt} times`);
		process.stdout.write(`  a run did not end in ${RUN_TIMEOUT_MS / 1000} s and is run again: node ${args.join(" ")}\n`);
		return nodeProcess(args, attempt + 1);
	}
	if (status !== 0) throw new Error(`node ${args.join(" ")} exited with ${status}: ${Buffer.concat(err).toString()}`);
	// GNU time writes "Command exited with non-zero status …" first when it did: the last line is "%M %R".
	const [kib, faults] = hasGnuTime ? ((await readFile(rssFile, "utf8")).trim().split("\n").pop() ?? "").split(" ").map(Number) : [hwm, Number.NaN];
	await rm(rssFile, { force: true });
	return { ms, rssMiB: (kib ?? Number.NaN) / 1024, faults: faults ?? Number.NaN, stdout: Buffer.concat(out).toString() };
}

function vmHwmKiB(pid: number | undefined): number {
	try {
		return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
	} catch {
		return 0; // gone, or no /proc
	}
}

interface SyncReportJson {
	transcriptsRead: number;
	notesWritten: string[];
	contextWritten: string[];
	memoryWritten: string[];
	errors: string[];
}

function syncReport(run: Measured): SyncReportJson {
	return JSON.parse(run.stdout) as SyncReportJson;
}

/**
 * Each other agent's reader against the read-and-parse baseline on the same files, both fresh
 * processes timed from outside, in alternating rounds. The files are the recordings of the real
 * clients (test/fixtures/agents), copied many times with other session ids into a tree of the
 * size a person's history reaches.
 */
async function benchAgents(): Promise<void> {
	const fixtures = join(repoRoot, "test", "fixtures", "agents");
	const trees: [AgentId, string, string][] = [
		["codex", join(fixtures, "codex"), join(work, "agents", "codex")],
		["gemini-cli", join(fixtures, "gemini-cli", "0.61.0", "home"), join(work, "agents", "gemini")],
		["copilot-cli", join(fixtures, "copilot-cli", "1.0.102"), join(work, "agents", "copilot")],
		["aider", join(fixtures, "aider", "0.86", "project"), join(work, "agents", "aider")],
		["opencode", join(fixtures, "opencode", "1.18.33", "data"), join(work, "agents", "opencode")],
	];
	const rows: [string, string, string, boolean][] = [];
	// BENCH_AGENTS=codex,aider measures those alone.
	const only = process.env.BENCH_AGENTS?.split(",");
	for (const [agent, from, to] of trees) {
		if (only && !only.includes(agent)) continue;
		// opencode's sessions are rows of one SQLite database: its baseline reads every row of it with the same library.
		const bytes = agent === "opencode" ? await opencodeData(from, to, OPENCODE_PAYLOAD) : await replicate(agent, from, to, 48 * MiB);
		const reader = join(repoRoot, "bench", "out", "agent-read.cjs");
		const baselineArgs = agent === "opencode" ? [join(repoRoot, "bench", "out", "opencode-read-baseline.cjs"), to] : [join(repoRoot, "bench", "read-baseline.mjs"), to];
		const base: Measured[] = [];
		const ours: Measured[] = [];
		const baseline = () => nodeProcess(baselineArgs);
		await baseline(); // warm the page cache
		await nodeProcess([reader, agent, to]); // and make the reader's code cache, as the CLI's first run does
		for (let round = 0; round < 5; round++) {
			if (round % 2 === 0) base.push(await baseline());
			ours.push(await nodeProcess([reader, agent, to]));
			if (round % 2 === 1) base.push(await baseline());
		}
		const b = median(base.map((m) => m.ms));
		const o = median(ours.map((m) => m.ms));
		const read = JSON.parse(ours[0]!.stdout) as { files: number; prompts: number; failed: number };
		// Aider's Markdown has no JSON: its parse is the split into messages Aider's own reader makes.
		const floor = agent === "aider" ? "reading + Aider's split into messages" : agent === "opencode" ? "reading every session, message and part row with the same library + JSON.parse" : "reading + JSON.parse of every line";
		const what = agent === "opencode" ? `${read.files} sessions, ${(bytes / MiB).toFixed(0)} MiB of JSON in a ${(sizeOfData(to) / MiB).toFixed(0)} MiB database` : `${read.files} ${agent === "aider" ? "sessions" : "files"}, ${(bytes / MiB).toFixed(0)} MiB`;
		rows.push([`${agent} reader (${what})`, `${o.toFixed(0)} ms`, `${(o / b).toFixed(2)}x of ${floor} (${b.toFixed(0)} ms), target <= 1.5x; ${read.prompts} prompts, ${read.failed} failed${faultsAgainst(ours, base, "baseline")}`, o / b <= 1.5 && read.failed === 0]);
	}
	process.stdout.write(`\nother agents' readers: medians of 5 alternating rounds, each a new process timed from outside\n`);
	report(rows);
}

/** JSON (messages' and parts') in the generated opencode database: about a year of a heavy user's sessions without the event log's bulk. */
const OPENCODE_PAYLOAD = 12 * MiB;

/** The generated opencode data folder (made once: SQLite writes it, which takes a minute). Returns the JSON bytes in it. */
async function opencodeData(fixture: string, to: string, payload: number): Promise<number> {
	const marker = join(to, ".complete");
	if (existsSync(marker)) return Number(readFileSync(marker, "utf8"));
	await rm(to, { recursive: true, force: true });
	process.stdout.write("generating an opencode database…\n");
	const made = await generateOpencodeData(fixture, to, payload);
	await writeFile(marker, String(made.payload));
	return made.payload;
}

function sizeOfData(dir: string): number {
	return ["opencode.db", "opencode.db-wal"].reduce((n, f) => n + (existsSync(join(dir, f)) ? statSync(join(dir, f)).size : 0), 0);
}

/** A copy of a Gemini CLI file in the same project folder (a person's projects are few, their sessions many). */
function geminiCopyPath(to: string, f: string, tag: string): string {
	const parts = f.split("/");
	const name = parts[parts.length - 1]!;
	// Session files get another name; a sub-agent's folder (its parent's id) another id, as the file's content does.
	const renamed = parts.map((p, i) => (i === parts.length - 1 ? (name.startsWith("session-") ? name.replace(/-([0-9a-f]{4})([0-9a-f]{4})\.jsonl$/, `-${tag}$2.jsonl`) : name.replace(/^([0-9a-f]{4})([0-9a-f]{4})-/, `${tag}$2-`)) : /^[0-9a-f]{8}-/.test(p) ? p.replace(/^([0-9a-f]{4})/, tag) : p));
	return join(to, ...renamed);
}

/**
 * Aider's history, many times: 64 projects, each with one file of the fixture's sessions over and
 * over (each copy's starts a day later), as a person's repositories with months of Aider in each.
 */
async function replicateAider(from: string, to: string, bytes: number): Promise<number> {
	const marker = join(to, ".complete");
	const files = () => (readdirSync(to, { recursive: true }) as string[]).filter((f) => f.endsWith(".aider.chat.history.md"));
	if (existsSync(marker)) return files().reduce((n, f) => n + statSync(join(to, f)).size, 0);
	await rm(to, { recursive: true, force: true });
	const text = readFileSync(join(from, ".aider.chat.history.md"), "utf8");
	const projects = 64;
	const copies = Math.ceil(bytes / projects / Buffer.byteLength(text));
	let total = 0;
	for (let p = 0; p < projects; p++) {
		const parts: string[] = [];
		for (let copy = 0; copy < copies; copy++) {
			const day = new Date(Date.UTC(2024, 0, 1) + (p * copies + copy) * 86_400_000).toISOString().slice(0, 10);
			parts.push(text.replace(/started at \d{4}-\d\d-\d\d/g, `started at ${day}`));
		}
		const file = join(to, `project-${p}`, ".aider.chat.history.md");
		await mkdir(dirname(file), { recursive: true });
		await writeFile(file, parts.join(""));
		total += Buffer.byteLength(parts.join(""));
	}
	await writeFile(marker, "");
	return total;
}

/** Copies an agent's recorded tree again and again, each copy's session ids changed, until it holds `bytes`. */
async function replicate(agent: AgentId, from: string, to: string, bytes: number): Promise<number> {
	if (agent === "aider") return replicateAider(from, to, bytes);
	const files = (readdirSync(from, { recursive: true }) as string[]).filter((f) => f.endsWith(".jsonl") || f.endsWith(".project_root"));
	const marker = join(to, ".complete");
	const sizeOf = () => (readdirSync(to, { recursive: true }) as string[]).filter((f) => f.endsWith(".jsonl")).reduce((n, f) => n + statSync(join(to, f)).size, 0);
	if (existsSync(marker)) return sizeOf();
	await rm(to, { recursive: true, force: true });
	let total = 0;
	for (let copy = 0; total < bytes; copy++) {
		const tag = copy.toString(16).padStart(4, "0");
		for (const f of files) {
			const text = readFileSync(join(from, f), "utf8");
			// Another session id in each copy (uuids: their first group; Gemini's eight-character names too).
			const changed = text.replace(/\b([0-9a-f]{4})([0-9a-f]{4})-([0-9a-f]{4})-/g, (_m, _a: string, b: string, c: string) => `${tag}${b}-${c}-`);
			const path =
				agent === "codex" ? join(to, "sessions", "2026", "12", `c${tag}`, f.split("/").pop()!.replace(/^rollout-(.*)-([0-9a-f]{4})/, `rollout-$1-${tag}`))
				: agent === "copilot-cli" ? join(to, "session-state", `${tag}-${f.split("/").at(-2)!}`, "events.jsonl")
				: geminiCopyPath(to, f, tag);
			await mkdir(dirname(path), { recursive: true });
			await writeFile(path, changed);
			if (f.endsWith(".jsonl")) total += Buffer.byteLength(changed);
		}
	}
	await writeFile(marker, "");
	return total;
}

async function benchLong(): Promise<void> {
	const root = join(work, "long", "projects");
	const project = join(root, "-home-dev-long");
	const path = join(project, "long-session.jsonl");
	if (!existsSync(path)) {
		await mkdir(project, { recursive: true });
		const sources = await loadSources(SOURCES);
		process.stdout.write(`generating one ${LONG_BYTES / MiB} MiB transcript…\n`);
		await generateLongTranscript(path, sources, LONG_BYTES);
	}
	const size = (await scanTranscripts(root))[0]?.size ?? 0;
	const index = openTranscriptIndex(root);
	const [ms] = await time(() => index.refresh());
	const model = index.loaded()[0]?.model;
	const rows: [string, string, string, boolean][] = [
		[`parse one ${(size / MiB).toFixed(0)} MiB transcript`, `${(ms / 1000).toFixed(1)} s`, `${(size / MiB / (ms / 1000)).toFixed(0)} MiB/s; ${model?.counts.records ?? 0} records, ${model?.counts.elidedEvents ?? 0} events elided`, true],
		["peak RSS", `${peakRssMiB().toFixed(0)} MiB`, "target < 300 MiB", peakRssMiB() < 300],
	];
	report(rows);
}

function report(rows: [string, string, string, boolean][]): void {
	for (const [name, value, note, ok] of rows) {
		process.stdout.write(`${ok ? "ok  " : "FAIL"} ${name.padEnd(46)} ${value.padStart(10)}  ${note}\n`);
	}
	if (rows.some((r) => !r[3])) process.exitCode = 1;
}

async function main(): Promise<void> {
	await mkdir(work, { recursive: true });
	if (mode === "tree") await benchTree();
	else if (mode === "tree-memory") await benchTreeMemory();
	else if (mode === "sync") await benchSync();
	else if (mode === "long") await benchLong();
	else if (mode === "agents") await benchAgents();
	else if (mode === "recall") benchRecall(report);
	else if (mode === "hooks") benchHooks(report);
	else if (mode === "mcp") await benchMcp(report);
	else if (mode === "plugin") await benchPlugin({ report, ensureTree, baseline, work });
	else if (mode === "sessions") await benchSessions(report, work);
	else throw new Error(`unknown mode ${mode}`);
}

void main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});

