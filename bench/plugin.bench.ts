import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import Module, { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { scanTranscripts } from "../src/node/transcript-scanner";
import manifest from "../manifest.json";
import { stubApp } from "../test/stubs/app";
import * as obsidianStub from "../test/stubs/obsidian";
import type { App, PluginManifest } from "../test/stubs/obsidian";

/**
 * The plugin as Obsidian runs it: the production bundle (`main.js`, built here) loaded with
 * `require`, its `obsidian` answered by the in-repo stub, in a DOM (happy-dom).
 *
 * - `onload`: what a person waits for at every start of Obsidian. The first call in a fresh
 *   process (cold code) and the median of many, against an empty `Plugin` subclass measured the
 *   same way; target under 10 ms.
 * - catch-up sync: the first start of the plugin on the generated 264 MiB tree (1,000 sessions):
 *   from the layout being ready to the status bar saying the sync ended, notes into the stub's
 *   in-memory vault and state into the plugin's folder on disk (as the plugin's `VaultSync` and
 *   `VaultNoteStore` do it, without the CLI's worker threads), against the baseline of the same
 *   run (read + JSON.parse every line); then "Sync AI conversations" with nothing changed.
 *
 * `node bench/run.mjs plugin`; not part of the test run.
 */
export interface PluginBenchHelpers {
	report(rows: [string, string, string, boolean][]): void;
	ensureTree(root: string): Promise<void>;
	baseline(paths: string[]): Promise<number>;
	/** The benchmark's folder: the tree is `<work>/projects`. */
	work: string;
}

interface LoadedPlugin {
	app: App;
	commands: obsidianStub.Command[];
	statusBarItems: HTMLElement[];
	/** As Obsidian loads a plugin (`Component.load` runs `onload`): `unload` then runs `onunload`. */
	load(): void;
	unload(): void;
}
type PluginClass = new (app: App, manifest: PluginManifest) => LoadedPlugin;

const repoRoot = resolve(__dirname, "..", "..");
const pluginManifest = { ...manifest, dir: ".obsidian/plugins/ai-conversation-memory" };
const ONLOAD_RUNS = 300;
const SYNC_ROUNDS = 2;

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** A window for the stub's DOM (status bar item, ribbon icon), as the app has one. */
export function installDom(): void {
	if ("document" in globalThis) return;
	const { Window } = createRequire(__filename)("happy-dom") as typeof import("happy-dom");
	const window = new Window();
	const target = globalThis as Record<string, unknown>;
	for (const key of Object.getOwnPropertyNames(window)) {
		if (key in target) continue;
		try {
			target[key] = (window as unknown as Record<string, unknown>)[key];
		} catch {
			// a getter that needs its own window: not one the plugin uses
		}
	}
	target.window = window;
	target.document = window.document;
}

type Load = (this: unknown, request: string, parent: { filename?: string } | null | undefined, isMain: boolean) => unknown;

/** `require(main.js)` with its `require("obsidian")` answered by the stub, as the test does it. */
function loadBundle(path: string): PluginClass {
	const loader = Module as unknown as { _load: Load };
	const load = loader._load;
	loader._load = function (request, parent, isMain) {
		if (request === "obsidian" && parent?.filename === path) return obsidianStub;
		return load.call(this, request, parent, isMain);
	};
	try {
		const exported = createRequire(path)(path) as { default?: PluginClass } | PluginClass;
		return typeof exported === "function" ? exported : exported.default!;
	} finally {
		loader._load = load;
	}
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
	const start = performance.now();
	while (!check()) {
		if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 2));
	}
}

/** Median, 95th percentile and first of `runs` onloads, each on a new app and plugin (unloaded after, untimed). */
async function timeOnload(Plugin: PluginClass, runs: number): Promise<{ first: number; median: number; p95: number }> {
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const plugin = new Plugin(stubApp(new obsidianStub.Vault(), "/nonexistent-vault"), pluginManifest);
		const start = performance.now();
		plugin.load();
		times.push(performance.now() - start);
		plugin.unload();
	}
	return { first: times[0] ?? Number.NaN, median: median(times), p95: percentile(times, 0.95) };
}

/** Vault writes, counted as the app would see them: a created file, or a process that changed the text. */
function countWrites(vault: obsidianStub.Vault): () => number {
	let writes = 0;
	const create = vault.create.bind(vault);
	const process = vault.process.bind(vault);
	vault.create = async (path, data) => {
		writes++;
		return create(path, data);
	};
	vault.process = (file, fn) =>
		process(file, (data) => {
			const next = fn(data);
			if (next !== data) writes++;
			return next;
		});
	return () => writes;
}

export async function benchPlugin(h: PluginBenchHelpers): Promise<void> {
	const build = spawnSync(process.execPath, [join(repoRoot, "esbuild.config.mjs"), "production"], { cwd: repoRoot, encoding: "utf8" });
	if (build.status !== 0) throw new Error(`building main.js failed:\n${build.stderr}`);
	const bundle = join(repoRoot, "main.js");
	installDom();

	// onload: the first ones in this process are the cold ones a person waits for at start.
	class EmptyPlugin extends obsidianStub.Plugin {
		override onload(): void {}
	}
	const requireStart = performance.now();
	const Plugin = loadBundle(bundle);
	const requireMs = performance.now() - requireStart;
	const plugin = await timeOnload(Plugin, ONLOAD_RUNS);
	const empty = await timeOnload(EmptyPlugin, ONLOAD_RUNS);
	h.report([
		["(a) baseline: empty Plugin subclass onload", `${(empty.median * 1000).toFixed(1)} µs`, `median of ${ONLOAD_RUNS}; first ${(empty.first * 1000).toFixed(0)} µs`, true],
		["main.js evaluated (require, once)", `${requireMs.toFixed(1)} ms`, `${(statSync(bundle).size / 1024).toFixed(0)} KiB bundle`, true],
		["plugin onload, first in the process (cold)", `${plugin.first.toFixed(2)} ms`, "target < 10 ms", plugin.first < 10],
		["plugin onload, median", `${plugin.median.toFixed(3)} ms`, `of ${ONLOAD_RUNS}; 95th percentile ${plugin.p95.toFixed(3)} ms; target < 10 ms`, plugin.median < 10],
	]);

	// Catch-up sync of the generated tree, through the plugin.
	const root = join(h.work, "projects");
	await h.ensureTree(root);
	const files = await scanTranscripts(root);
	const paths = files.map((f) => f.path);
	const totalBytes = files.reduce((n, f) => n + f.size, 0);
	await h.baseline(paths); // warm the page cache
	const savedConfigDir = process.env.CLAUDE_CONFIG_DIR;
	process.env.CLAUDE_CONFIG_DIR = h.work; // the plugin reads <config dir>/projects
	// Each round's state goes to a folder of its own, removed only at the end (see benchSync).
	const vaults = join(h.work, "plugin-vaults");
	await rm(vaults, { recursive: true, force: true });
	const a: number[] = [];
	const catchUp: number[] = [];
	let notes = 0;
	let written = 0;
	let again = Number.NaN;
	let writtenAgain = Number.NaN;
	try {
		for (let round = 0; round < SYNC_ROUNDS; round++) {
			const vaultDir = join(vaults, `round-${round}`);
			await mkdir(vaultDir, { recursive: true });
			spawnSync("sync");
			gc();
			const start = performance.now();
			await h.baseline(paths);
			a.push(performance.now() - start);
			gc();

			const vault = new obsidianStub.Vault();
			const writes = countWrites(vault);
			const app = stubApp(vault, vaultDir);
			const p = new Plugin(app, pluginManifest);
			p.load();
			const status = p.statusBarItems[0];
			if (!status) throw new Error("the plugin added no status bar item");
			const state = () => status.textContent ?? "";
			const syncStart = performance.now();
			app.workspace.ready();
			await until("the catch-up sync to start", () => /syncing/i.test(state()), 60_000);
			await until("the catch-up sync to end", () => !/syncing/i.test(state()), 30 * 60_000);
			catchUp.push(performance.now() - syncStart);
			if (/problem/i.test(state())) process.stdout.write(`  status: ${state()}; ${obsidianStub.Notice.shown.slice(-3).join(" | ")}\n`);
			notes = vault.getFiles().length;
			written = writes();

			if (round === SYNC_ROUNDS - 1) {
				// Nothing changed since: "Sync AI conversations" reads no transcript and writes nothing.
				const command = p.commands.find((c) => c.id === "sync-ai-conversations");
				const shown = obsidianStub.Notice.shown.length;
				const before = writes();
				const againStart = performance.now();
				void command?.callback?.();
				await until("the notice of the sync asked for", () => obsidianStub.Notice.shown.length > shown, 5 * 60_000);
				again = performance.now() - againStart;
				writtenAgain = writes() - before;
			}
			p.unload();
		}
	} finally {
		if (savedConfigDir === undefined) delete process.env.CLAUDE_CONFIG_DIR;
		else process.env.CLAUDE_CONFIG_DIR = savedConfigDir;
		await rm(vaults, { recursive: true, force: true });
	}
	const aMin = Math.min(...a);
	const syncMin = Math.min(...catchUp);
	const MiB = 1024 * 1024;
	process.stdout.write(`\nplugin catch-up: ${files.filter((f) => f.kind === "session").length} sessions, ${files.length} files, ${(totalBytes / MiB).toFixed(0)} MiB (${h.work})\n`);
	h.report([
		["(a) baseline: read + JSON.parse every line", `${aMin.toFixed(0)} ms`, "", true],
		["catch-up sync into an empty vault (plugin)", `${syncMin.toFixed(0)} ms`, `${(syncMin / aMin).toFixed(2)}x of (a), best of ${SYNC_ROUNDS}; ${written} writes, ${notes} files in the vault`, written > 0],
		["Sync AI conversations, nothing changed", `${again.toFixed(0)} ms`, `${writtenAgain} writes, target 0`, writtenAgain === 0],
		["peak RSS of the process", `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`, "plugin and its models, the in-memory vault's notes, the stub DOM", true],
	]);
}
