import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { readPlainBytesSync } from "./confined-path";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/**
 * V8's code cache for the CLI and the hooks, the way Node 22's `module.enableCompileCache` does
 * it (Node 20 has none). A CLI run is short, and a third of its own CPU went to parsing and compiling its bundle
 * (callgrind, one appended turn: 287 M of 2,000 M instructions): with the bytecode V8 made in an
 * earlier run, that is skipped.
 *
 * The cache is named by the bundle's content hash (V8 itself checks only the source length), kept
 * in the user's cache folder (never in a shared temporary folder: it holds code), written
 * atomically, and recreated whenever V8 rejects it (another Node, other flags). Any failure only
 * costs the compiling.
 */

/**
 * V8 doubles the young generation whenever many objects survive a collection, as a state's
 * records do; on the machines measured each page a process touches for the first time costs about
 * 14 µs (3.5 ms a megabyte), and the grown young generation was megabytes of fresh pages. Kept at
 * its first size, a sync with nothing to do went 301 → 263 ms and one appended turn 467 → 423 ms.
 * How a run reads then changes it (`markWholeRead`): the loader's flags are set back before a code
 * cache is made (V8 hashes every flag into one).
 */
const KEPT_YOUNG = "--semi-space-growth-factor=1";
/** As the loader left it: kept small, collected in parallel. */
const YOUNG_AS_LOADED = `${KEPT_YOUNG} --parallel-scavenge`;
/**
 * A run reading many transcripts whole: little survives each collection (the file being read),
 * too little to share among threads. Collected on this thread alone, Codex CLI's reader went
 * 442 → 390 ms and opencode's 1013 → 937 ms (9 alternating rounds); a sync with nothing to do,
 * whose collections find its state alive, was 2% slower so (15 rounds), and is left as it was.
 */
const YOUNG_ON_ONE_THREAD = "--no-parallel-scavenge";
/** Such a run that holds much of what it read (`HELD_BEFORE_GROWTH`): grown and collected in parallel, as V8 would have it. */
const GROWING_YOUNG = "--semi-space-growth-factor=2 --parallel-scavenge";
/** Set on `process` (which the loader and the bundle share): how the young generation is run now (see `Young`). */
const YOUNG = Symbol.for("ai-memory.young-generation");
/** As loaded, on one thread, grown: in this order only. */
const enum Young {
	AsLoaded = 0,
	OneThread = 1,
	Grows = 2,
}

/** The runs' V8 flags: set before anything is compiled, since a code cache holds only under the flags it was made with. */
export const CLI_V8_FLAGS = [
	// A first sync runs a wide code base on three threads, each compiling it for itself; optimizing
	// after more calls and inlining less keeps most of the speed for much less compiling (measured:
	// 7.8 s of CPU and 4.5 s of wall time became 6.4 s and 4.0 s on the bench tree).
	"--interrupt-budget=540000",
	"--max-inlined-bytecode-size-cumulative=200",
	// Many large regular expressions (redaction, digest, tags, facts): compiled to machine code at
	// once, not interpreted on first use and compiled again on the second (fact proposals on one
	// prompt: 31 ms that way, 9 ms this way).
	"--no-regexp-tier-up",
	// The young generation keeps its first size (see `KEPT_YOUNG`).
	KEPT_YOUNG,
];

/** Sets a V8 flag; `node:v8` is loaded only here, by a run that sets flags (a hook sets none). */
function setFlag(flag: string): void {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (a `require`: the bundles run as scripts)
	(require("node:v8") as typeof import("node:v8")).setFlagsFromString(flag);
}

/** The runs' V8 flags, set by a loader before anything is compiled (a code cache holds only under the flags it was made with). */
export function setRunFlags(): void {
	for (const flag of CLI_V8_FLAGS) setFlag(flag);
	(process as unknown as Record<symbol, unknown>)[YOUNG] = Young.AsLoaded;
}

/**
 * Whether this run read transcripts (set by the sync), and how many it read whole: the code it
 * compiled is worth caching. On `process`, which the loader and the bundle share.
 */
const BATCH = Symbol.for("ai-memory.batch-run");
const WHOLE_READS = Symbol.for("ai-memory.whole-reads");

/** Set by a run that promises to write nothing (`sync --dry-run`): not even the code cache. */
const WRITES_NOTHING = Symbol.for("ai-memory.writes-nothing");

export function writeNothing(): void {
	(process as unknown as Record<symbol, unknown>)[WRITES_NOTHING] = true;
}

export function markBatchRun(): void {
	(process as unknown as Record<symbol, unknown>)[BATCH] = true;
}

/** One more transcript read whole (a first read), not from where the last sync stopped, of `bytes`. */
export function markWholeRead(bytes = 0): void {
	const shared = process as unknown as Record<symbol, number | undefined>;
	const reads = (shared[WHOLE_READS] ?? 0) + 1;
	shared[WHOLE_READS] = reads;
	wholeBytes += bytes;
	// Not in a run whose loader set no flags (the tests', the plugin's), nor before a first sync's (or a new agent's) reading.
	const young = shared[YOUNG] as Young | undefined;
	if (reads <= FEW_WHOLE_READS || young === undefined || young === Young.Grows) return;
	if (young === Young.AsLoaded) {
		setFlag(YOUNG_ON_ONE_THREAD);
		shared[YOUNG] = Young.OneThread;
	}
	if (wholeBytes < nextLook) return;
	nextLook = wholeBytes + BYTES_BETWEEN_LOOKS;
	const held = heldBytes();
	if (held > HELD_BEFORE_GROWTH && held > HELD_PER_BYTE_READ * wholeBytes) {
		setFlag(GROWING_YOUNG);
		shared[YOUNG] = Young.Grows;
	}
}

/**
 * A run that holds much before it reads (a state of tens of thousands of projects or sessions) lets
 * its young generation grow, as one that keeps much of what it reads does: kept small, thousands of
 * collections copied what the run keeps anyway (100,000 enabled projects: 6,713 collections, 16 s
 * of a 43 s sync). The bench tree's state is 17 MB held, under the bound, and runs as loaded.
 */
export function growYoungIfHolding(): void {
	const shared = process as unknown as Record<symbol, Young | undefined>;
	const young = shared[YOUNG];
	if (young === undefined || young === Young.Grows || heldBytes() <= HELD_BEFORE_GROWTH) return;
	setFlag(GROWING_YOUNG);
	shared[YOUNG] = Young.Grows;
}

/**
 * What a run that reads many transcripts whole holds before its young generation may grow. Kept
 * small, what a run keeps is copied at more collections; grown, it is megabytes of pages touched
 * fresh. Which costs more is told by how much the run keeps, not how many files it reads: on the
 * bench's trees (48 MiB each), Copilot CLI's reader, holding 15 MB, took 777 ms grown and 592 ms
 * kept small (11 alternating rounds); Aider's, holding 184 MB, 1.82 s grown and 2.04 s kept small.
 * With this bound: 602 ms and 1.82 s; a first sync of the Claude Code tree as before. Collected
 * in parallel again then: on one thread, Gemini CLI's and Aider's were up to 9% slower.
 */
const HELD_BEFORE_GROWTH = 32 * 2 ** 20;
/**
 * And only a run that keeps more than it reads grows it: one that keeps less (Gemini CLI's reader,
 * 45 MB held of 48 MiB read) holds little more at its end than at the bound, and grown, it touched
 * 29 MB of pages more for nothing (38,300 page faults grown, 31,100 kept small; 1.64 s and
 * 1.56 s, medians of 9 alternating rounds, 1.73 s and 1.58 s in 7 more). Aider's, which keeps
 * nearly four times what it reads, grows as before.
 */
const HELD_PER_BYTE_READ = 1.5;
/** Bytes read whole between two looks at the heap (a look costs a few µs; Gemini CLI writes thousands of small files). */
const BYTES_BETWEEN_LOOKS = 2 ** 20;
let wholeBytes = 0;
let nextLook = 0;

function heldBytes(): number {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by a run that set flags already
	return (require("node:v8") as typeof import("node:v8")).getHeapStatistics().used_heap_size;
}

/**
 * What made a cache, its last byte (`cacheParts`): a run that read no transcript, one that read what was
 * appended (and a few files whole: a session's end), one that read many whole (a first sync).
 */
const MADE_BY_OTHER = 0;
const MADE_BY_BATCH = 1;
const MADE_BY_FIRST_SYNC = 2;
/** More files read whole than this is a first sync's (or a new agent's) reading. */
const FEW_WHOLE_READS = 8;

function runKind(): number {
	const shared = process as unknown as Record<symbol, unknown>;
	if (((shared[WHOLE_READS] as number | undefined) ?? 0) > FEW_WHOLE_READS) return MADE_BY_FIRST_SYNC;
	return shared[BATCH] === true ? MADE_BY_BATCH : MADE_BY_OTHER;
}

/**
 * Whether a run of `kind` makes the cache again over one `made` by another. The one kept is made
 * by the runs that come most: those that read what was appended. A first sync's holds much its
 * later runs never run, and deserializing it cost each of them 10 ms (one appended turn, bench
 * tree); one made with nothing to read lacks the reading.
 */
function replaces(kind: number, made: number): boolean {
	if (made === MADE_BY_BATCH) return false;
	return kind === MADE_BY_BATCH || (kind === MADE_BY_FIRST_SYNC && made === MADE_BY_OTHER);
}

/**
 * A cache file: V8's data, then one byte for what made it (`runKind`). The byte goes last: V8
 * copies cached data that does not start at a pointer-aligned address, and data one byte into
 * the file's buffer never did (measured: 288 more pages touched, a megabyte copied, at each start
 * of the CLI). Nothing usable in a file of one byte or none.
 */
export function cacheParts(stored: Buffer | undefined): { cachedData: Buffer | undefined; made: number } {
	if (stored === undefined || stored.length < 2) return { cachedData: undefined, made: MADE_BY_OTHER };
	return { cachedData: stored.subarray(0, stored.length - 1), made: stored[stored.length - 1]! };
}

/** Where the cache lives: `$XDG_CACHE_HOME`, `%LOCALAPPDATA%`, `~/Library/Caches` or `~/.cache`, then `ai-memory`. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir(), platform: NodeJS.Platform = process.platform): string {
	if (env.AI_MEMORY_CODE_CACHE) return env.AI_MEMORY_CODE_CACHE;
	if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "ai-memory");
	if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "ai-memory", "Cache");
	if (platform === "darwin") return join(home, "Library", "Caches", "ai-memory");
	return join(home, ".cache", "ai-memory");
}

export interface CommonJsScope {
	filename: string;
	dirname: string;
	require: NodeJS.Require;
	module: { exports: unknown };
}

/**
 * Runs a CommonJS bundle with a code cache: `source` is the bundle as the build writes it, a
 * function of `(exports, require, module, __filename, __dirname)` (esbuild.config.mjs), given to V8
 * as it is: joined to a wrapper here, V8 copied the whole source into one more string before
 * compiling it (measured with the bundle in ASCII, read as Latin-1: a sync with nothing to do
 * 340 → 322 ms, one appended turn 531 → 482 ms). The cache is written when the
 * process ends, so it holds every function the run compiled: when there was none or V8 refused
 * it, and once more by the first run that read what was appended if another kind of run made it
 * (`replaces`). `AI_MEMORY_CODE_CACHE=off` turns it off.
 */
export function runWithCodeCache(source: string, hash: string, scope: CommonJsScope, dir: string = codeCacheDir(), bundle = "cli"): void {
	const off = process.env.AI_MEMORY_CODE_CACHE === "off";
	const name = `${bundle}-${hash}.v8-cache`;
	const path = join(dir, name);
	let stored: Buffer | undefined;
	if (!off) {
		try {
			stored = readPlainBytesSync(path);
		} catch {
			stored = undefined;
		}
	}
	const { cachedData, made } = cacheParts(stored);
	// A script has no `import()` (Node's loader for it is still experimental): the build refuses a
	// bundle that keeps one (esbuild.config.mjs), so the bundle uses `require` alone.
	const script = new Script(source, { filename: scope.filename, cachedData });
	const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
	if (!off) {
		const accepted = cachedData !== undefined && script.cachedDataRejected !== true;
		// On "exit", which an explicit `process.exit` emits too (a sync ends that way: see `exitWhenFlushed`).
		process.once("exit", () => {
			if ((process as unknown as Record<symbol, unknown>)[WRITES_NOTHING] === true) return;
			const kind = runKind();
			if (accepted && !replaces(kind, made)) return;
			// The flags as the loader set them: the cache holds only under those (V8 checks a hash of every flag).
			if (((process as unknown as Record<symbol, unknown>)[YOUNG] ?? Young.AsLoaded) !== Young.AsLoaded) setFlag(YOUNG_AS_LOADED);
			writeCache(dir, bundle, name, Buffer.concat([script.createCachedData(), Buffer.from([kind])]));
		});
	}
	run(scope.module.exports, scope.require, scope.module, scope.filename, scope.dirname);
}

/**
 * The file that holds a loader's bundle, beside it and named by the bundle's hash: `cli.cjs` runs
 * `cli.<hash>.js`. Kept out of the loader, where it was a string literal that V8 scanned at every
 * start (measured: 22 ms of a sync with nothing to do, 4 ms of a hook); by its hash, so a loader
 * never runs another build's bundle, nor that bundle with this one's code cache.
 */
export function bundlePathFor(loader: string, hash: string): string {
	return join(dirname(loader), `${basename(loader).replace(/\.c?js$/, "")}.${hash}.js`);
}

/** Whether `name` is a bundle file of the loader named `loader` (any build's). */
export function isBundleOf(loader: string, name: string): boolean {
	const base = basename(loader).replace(/\.c?js$/, "");
	return name.startsWith(`${base}.`) && /^\.[0-9a-f]{16}\.js$/.test(name.slice(base.length));
}

/**
 * The rest of a bundle split in two (the hook's: see esbuild.config.mjs), beside its loader:
 * `hook.cjs` runs `hook.<hash>.js`, which loads `hook.rest.<hash>.js` only when it needs a module
 * it imports late (recall, redaction, a checkpoint, the sync queue).
 */
export function restPathFor(loader: string, hash: string): string {
	return join(dirname(loader), `${basename(loader).replace(/\.c?js$/, "")}.rest.${hash}.js`);
}

/** Whether `name` is the rest of a bundle of the loader named `loader` (any build's). */
export function isRestOf(loader: string, name: string): boolean {
	const base = basename(loader).replace(/\.c?js$/, "");
	return name.startsWith(`${base}.rest.`) && /^\.[0-9a-f]{16}\.js$/.test(name.slice(base.length + ".rest".length));
}

/** A loader's bundle could not be read: what to say instead of a stack trace. */
export class MissingBundleError extends Error {}

/** The rests loaded in this process, by path: each runs once, as a module does. */
const rests = new Map<string, unknown>();

/**
 * The exports of the rest beside the loader (see `restPathFor`), run with a code cache of its
 * own (`<cache>rest-<hash>`); called by the bundle's first part, whose `__filename` is its loader's.
 * A rest that is missing or unreadable throws `MissingBundleError`, which names it.
 */
export function requireRest(hash: string, loader: string, require: NodeJS.Require, cache: string): unknown {
	const path = restPathFor(loader, hash);
	if (!rests.has(path)) {
		const module = { exports: {} as unknown };
		runWithCodeCache(readBundle(path, loader), hash, { filename: path, dirname: dirname(path), require, module }, codeCacheDir(), cache);
		rests.set(path, module.exports);
	}
	return rests.get(path);
}

/** A bundle file's text (ASCII, see esbuild.config.mjs), or `MissingBundleError` naming it. */
function readBundle(path: string, loader: string): string {
	try {
		// Latin-1: the build writes the bundle in ASCII, so each byte is a character, copied as it is
		// into a one-byte string (no UTF-8 decoding; half the memory of a two-byte string).
		return readPlainBytesSync(path).toString("latin1");
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "it is missing" : error instanceof Error ? error.message : String(error);
		throw new MissingBundleError(`${path} holds the code of ${loader} and cannot be read (${why}): build again (npm run build:cli), or install the hooks again`);
	}
}

/**
 * Runs the bundle beside the loader (see `bundlePathFor`) with the code cache. A bundle that is
 * missing or unreadable throws `MissingBundleError`, which names it.
 */
export function runBundleBeside(hash: string, scope: CommonJsScope, dir: string = codeCacheDir(), bundle = "cli"): void {
	runWithCodeCache(readBundle(bundlePathFor(scope.filename, hash), scope.filename), hash, scope, dir, bundle);
}

function writeCache(dir: string, bundle: string, name: string, data: Buffer): void {
	const temp = join(dir, `.${name}.${process.pid}.tmp`);
	try {
		// The cache's own folders only (`.cache/ai-memory`), never what they hang from: a `HOME`
		// that does not exist (a service's `/nonexistent`, a typo) was made, as root anywhere.
		if (!existsSync(dirname(dirname(dir)))) return;
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		// `wx`: never through a link left under its name.
		writeFileSync(temp, data, { mode: 0o600, flag: "wx" });
		renameSync(temp, join(dir, name));
		// Caches of other builds are of no more use.
		for (const other of readdirSync(dir)) if (other.startsWith(`${bundle}-`) && /^[a-z]+-[0-9a-f]+\.v8-cache$/.test(other) && other !== name) rmSync(join(dir, other), { force: true });
	} catch {
		// A folder we may not write to, or a full disk: the next run compiles again; no half-written cache stays.
		try {
			rmSync(temp, { force: true });
		} catch {
			// Not even that: it is a hidden file in our cache folder, replaced at the next write.
		}
	}
}
