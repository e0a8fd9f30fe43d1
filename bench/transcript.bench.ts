import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { openTranscriptIndex } from "../src/node/transcript-index";
import { scanTranscripts } from "../src/node/transcript-scanner";
import { generateLongTranscript, generateTree, loadSources } from "./corpus-generator";
import { rm } from "node:fs/promises";
import { migrateSettings } from "../src/core/settings";
import { VaultFolder } from "../src/node/vault-folder";
import { VaultSync } from "../src/node/vault-sync";
import type { SyncReport } from "../src/core/sync/sync-engine";
import { FoldWorkerPool } from "../src/node/fold-worker-pool";
import { benchRecall } from "./recall.bench";
import { benchHooks } from "./hooks.bench";
import { benchPlugin } from "./plugin.bench";

/**
 * Transcript engine benchmark. `tree`: a >= 256 MiB projects tree of 1,000 sessions;
 * `long`: one 1 GiB transcript. Every figure is compared with a baseline measured in the same run
 * (machines here are noisy: ratios, not absolute times).
 */
const MiB = 1024 * 1024;
const repoRoot = resolve(__dirname, "..", "..");
const work = process.env.BENCH_DIR ?? join(tmpdir(), "ai-memory-bench");
const SOURCES = [join(repoRoot, "..", "shared", "corpus", "claude-transcripts"), join(repoRoot, "examples", "claude-projects")];
const TREE = { sessions: 1000, bytes: 264 * MiB };
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
	for (let i = 0; i < 7; i++) {
		await appendFile(target, turn);
		d.push((await time(() => index.refreshPaths([target])))[0]);
		await appendFile(target, turn);
		dScan.push((await time(() => index.refresh()))[0]);
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
 * The whole job, as the CLI runs it: a separate process syncs the tree into an empty vault (notes,
 * index, base, state), then another syncs again with nothing changed. Each sync is timed from the
 * outside, process start included, against a baseline taken just before it; best of three rounds.
 */
async function benchSync(): Promise<void> {
	const root = join(work, "projects");
	await ensureTree(root);
	const paths = (await scanTranscripts(root)).map((f) => f.path);
	await baseline(paths); // warm the page cache
	// Each round writes into a folder of its own, removed only at the end: on ext4 without a journal
	// (this machine's /tmp), creating thousands of files within 30 s of deleting as many makes the
	// kernel scan the recently deleted inodes (measured: a tenth of the run), which a real first
	// sync never meets.
	const vaults = join(work, "vaults");
	await rm(vaults, { recursive: true, force: true });
	const a: number[] = [];
	const full: number[] = [];
	let written = 0;
	let vault = "";
	for (let round = 0; round < 3; round++) {
		vault = join(vaults, `round-${round}`);
		await mkdir(vault, { recursive: true });
		// Flush what the last round wrote, so its write-back does not slow this one down.
		spawnSync("sync");
		gc();
		a.push((await time(() => baseline(paths)))[0]);
		const [ms, report] = await time(() => syncInChild(root, vault));
		full.push(ms);
		written = report.notesWritten.length;
		report.errors.slice(0, 5).forEach((e) => process.stdout.write(`  error: ${e}\n`));
	}
	const [again, second] = await time(() => syncInChild(root, vault));
	await rm(vaults, { recursive: true, force: true });
	const aMin = Math.min(...a);
	const fullMin = Math.min(...full);
	report([
		["(a) baseline: read + JSON.parse every line", `${aMin.toFixed(0)} ms`, "", true],
		["full sync into an empty vault (CLI process)", `${fullMin.toFixed(0)} ms`, `${(fullMin / aMin).toFixed(2)}x of (a), target <= 2x; ${written} files written`, fullMin / aMin <= 2],
		["re-sync with nothing changed (CLI process)", `${again.toFixed(0)} ms`, `${second.notesWritten.length} files written, target 0`, second.notesWritten.length === 0 && second.contextWritten.length === 0],
	]);
}

/** One sync in a fresh process, as `ai-memory sync` does it (worker threads included). */
async function syncInChild(root: string, vault: string): Promise<SyncReport> {
	const child = spawnSync(process.execPath, [__filename, "sync-once", root, vault], { encoding: "utf8", maxBuffer: 64 * MiB });
	if (child.status !== 0) throw new Error(`sync failed: ${child.stderr}`);
	return JSON.parse(child.stdout) as SyncReport;
}

async function syncOnce(root: string, vault: string): Promise<void> {
	const pool = FoldWorkerPool.at(join(__dirname, "fold-worker.cjs"));
	const stateDir = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "state");
	const report = await new VaultSync(root, stateDir, new VaultFolder(vault), { pool, vaultPath: vault }).run(migrateSettings({}).settings);
	await pool?.close();
	process.stdout.write(JSON.stringify(report));
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
	else if (mode === "sync-once") await syncOnce(process.argv[3] ?? "", process.argv[4] ?? "");
	else if (mode === "long") await benchLong();
	else if (mode === "recall") benchRecall(report);
	else if (mode === "hooks") benchHooks(report);
	else if (mode === "plugin") await benchPlugin({ report, ensureTree, baseline, work });
	else throw new Error(`unknown mode ${mode}`);
}

void main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});

