import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePathFor, cacheParts, codeCacheDir, isBundleOf, isRestOf, restPathFor } from "../../src/node/code-cache";

/**
 * The code cache as the CLI uses it, in real child processes (the cache is written when a process
 * ends): a bundle run with it prints what it computes, whether V8 took the cache, and what the
 * cache folder then holds.
 */

let work: string;
let runner: string;

/** The child: runs `source` (a CommonJS bundle as text) through the cache in `dir`, as `cli-loader` does. */
const CHILD = `
const { runWithCodeCache, markBatchRun, markWholeRead, writeNothing, setRunFlags } = require(process.argv[2]);
const [, , , source, hash, dir, batch, end, flags] = process.argv;
if (flags === "flags") setRunFlags();
const bundled = { exports: {} };
runWithCodeCache(source, hash, { filename: __filename, dirname: __dirname, require, module: bundled }, dir);
if (batch === "nothing") writeNothing();
if (batch === "batch" || batch === "first" || batch === "light" || batch === "even") markBatchRun();
// A first sync that holds much (24 arrays of 2^18 numbers, dictionaries: well over 48 MB) or little of what it read, a mebibyte a file.
if (batch === "first") globalThis.held = Array.from({ length: 24 }, () => new Array(2 ** 18).fill(0.5));
if (batch === "first" || batch === "light") for (let i = 0; i < 20; i++) markWholeRead(2 ** 20);
// One that holds more than the bound in the end (what V8 counts as used), but never more than it read: about a mebibyte for each.
if (batch === "even") {
	globalThis.held = [];
	for (let i = 0; i < 60; i++) {
		// 2^16 numbers: half a mebibyte kept, and as much left behind by fill (one array of 2^17 would be a dictionary, several times that).
		globalThis.held.push(new Array(2 ** 16).fill(0.5));
		markWholeRead(2 ** 20);
	}
}
process.stdout.write(String(bundled.exports.answer()));
const young = process[Symbol.for("ai-memory.young-generation")];
if (young !== undefined && young !== 0) process.stdout.write(young === 2 ? " grown" : " one thread");
if (end === "exit") process.exit(0);
`;

beforeAll(async () => {
	work = await mkdtemp(join(tmpdir(), "ai-memory-code-cache-"));
	const bundle = join(work, "code-cache.cjs");
	await build({ entryPoints: [join(__dirname, "../../src/node/code-cache.ts")], bundle: true, platform: "node", format: "cjs", outfile: bundle, logLevel: "warning" });
	runner = join(work, "child.cjs");
	await writeFile(runner, CHILD);
	runner = `${runner}\u0000${bundle}`;
});

afterAll(async () => {
	await rm(work, { recursive: true, force: true });
});

/** What made a cache file: its last byte (see `cacheParts`). */
const madeBy = (file: Buffer) => file[file.length - 1];

/** A bundle as the build writes it: the module's function (see `runWithCodeCache`). */
const wrapped = (body: string) => `(function (exports, require, module, __filename, __dirname) {${body}\n})`;
const SOURCE = wrapped("function f(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; } module.exports.answer = () => f(10);");

function run(dir: string, options: { source?: string; hash?: string; batch?: boolean; first?: boolean; light?: boolean; even?: boolean; nothing?: boolean; exit?: boolean; flags?: boolean; env?: NodeJS.ProcessEnv } = {}): string {
	const [child, bundle] = runner.split("\u0000") as [string, string];
	const result = spawnSync(process.execPath, [child, bundle, options.source ?? SOURCE, options.hash ?? "00aa", dir, options.nothing ? "nothing" : options.first ? "first" : options.light ? "light" : options.even ? "even" : options.batch ? "batch" : "", options.exit ? "exit" : "", options.flags ? "flags" : ""], { encoding: "utf8", env: { ...process.env, AI_MEMORY_CODE_CACHE: "", ...options.env } });
	expect(result.stderr).toBe("");
	expect(result.status).toBe(0);
	return result.stdout;
}

describe("code cache", () => {
	it("a cache file that is a FIFO is not waited on: the run goes on without a cache", async () => {
		const dir = join(work, "fifo");
		await mkdir(dir);
		expect(spawnSync("mkfifo", [join(dir, "cli-00aa.v8-cache")]).status).toBe(0);
		expect(run(dir)).toBe("45");
	});

	it("is not made by a run that promised to write nothing (`sync --dry-run`)", async () => {
		const dir = join(work, "nothing");
		expect(run(dir, { nothing: true, exit: true })).toBe("45");
		expect(existsSync(dir)).toBe(false);
		// The next run makes it as ever.
		expect(run(dir)).toBe("45");
		expect(existsSync(join(dir, "cli-00aa.v8-cache"))).toBe(true);
	});

	it("is made by the first run and used, not rewritten, by the next", async () => {
		const dir = join(work, "a");
		expect(run(dir)).toBe("45");
		const file = join(dir, "cli-00aa.v8-cache");
		const made = await stat(file);
		expect(made.size).toBeGreaterThan(1);
		expect(made.mode & 0o777).toBe(0o600);
		expect(run(dir)).toBe("45");
		expect((await stat(file)).mtimeMs).toBe(made.mtimeMs);
	});

	it("holds V8's data from its first byte (V8 copies data that starts unaligned) and what made it in its last", async () => {
		const dir = join(work, "layout");
		run(dir, { batch: true });
		const file = await readFile(join(dir, "cli-00aa.v8-cache"));
		// V8's own header (its magic number and version hash) opens the file, as in a cache made here by the same Node.
		expect(file.subarray(0, 8)).toEqual(new Script(SOURCE).createCachedData().subarray(0, 8));
		expect(madeBy(file)).toBe(1);
		const { cachedData, made } = cacheParts(file);
		expect(made).toBe(1);
		expect(cachedData?.byteOffset).toBe(file.byteOffset);
		expect(cachedData?.length).toBe(file.length - 1);
		expect(cacheParts(Buffer.from([1]))).toEqual({ cachedData: undefined, made: 0 });
		expect(cacheParts(undefined)).toEqual({ cachedData: undefined, made: 0 });
	});

	it("is made by a run that ends with process.exit (as a sync does), and used by the next", async () => {
		const dir = join(work, "exit");
		expect(run(dir, { batch: true, exit: true })).toBe("45");
		const file = join(dir, "cli-00aa.v8-cache");
		const made = await stat(file);
		expect(madeBy(await readFile(file))).toBe(1);
		expect(run(dir, { batch: true, exit: true })).toBe("45");
		expect((await stat(file)).mtimeMs).toBe(made.mtimeMs);
	});

	it("with the CLI's V8 flags, a first sync's young generation grows, and the cache it makes still holds for the next run", async () => {
		const dir = join(work, "flags");
		const file = join(dir, "cli-00aa.v8-cache");
		expect(run(dir, { flags: true })).toBe("45");
		// Many files read whole: the young generation may grow, and this run makes the cache again.
		expect(run(dir, { flags: true, first: true, exit: true })).toBe("45 grown");
		expect(madeBy(await readFile(file))).toBe(2);
		const first = await stat(file);
		// Made under the flags a run starts with (V8 checks a hash of every flag): taken, not made again.
		expect(run(dir, { flags: true })).toBe("45");
		expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
	});

	it("a first sync that holds little of what it read keeps its young generation small, collected on one thread, and the cache it makes holds", async () => {
		const dir = join(work, "light");
		const file = join(dir, "cli-00aa.v8-cache");
		expect(run(dir, { flags: true, light: true, exit: true })).toBe("45 one thread");
		// Still a first sync's cache, made under the loader's flags: the next run takes it.
		expect(madeBy(await readFile(file))).toBe(2);
		const made = await stat(file);
		expect(run(dir, { flags: true })).toBe("45");
		expect((await stat(file)).mtimeMs).toBe(made.mtimeMs);
	});

	it("a first sync that comes to hold more than the bound, but no more than it read, keeps its young generation small", () => {
		expect(run(join(work, "even"), { flags: true, even: true, exit: true })).toBe("45 one thread");
	});

	it("is made again after the first run that read transcripts, then kept", async () => {
		const dir = join(work, "b");
		run(dir);
		const file = join(dir, "cli-00aa.v8-cache");
		expect(madeBy(await readFile(file))).toBe(0);
		run(dir, { batch: true });
		expect(madeBy(await readFile(file))).toBe(1);
		const batch = await stat(file);
		run(dir);
		run(dir, { batch: true });
		expect((await stat(file)).mtimeMs).toBe(batch.mtimeMs);
	});

	it("a first sync's cache (many files read whole) is made again by the first run that read what was appended, then kept", async () => {
		const dir = join(work, "first");
		const file = join(dir, "cli-00aa.v8-cache");
		run(dir);
		run(dir, { first: true });
		expect(madeBy(await readFile(file))).toBe(2);
		const first = await stat(file);
		run(dir);
		expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
		run(dir, { first: true });
		expect((await stat(file)).mtimeMs).toBe(first.mtimeMs);
		run(dir, { batch: true });
		expect(madeBy(await readFile(file))).toBe(1);
		const appended = await stat(file);
		run(dir, { first: true });
		run(dir);
		expect((await stat(file)).mtimeMs).toBe(appended.mtimeMs);
	});

	it("a damaged cache is refused by V8 and replaced; the code runs all the same", async () => {
		const dir = join(work, "c");
		run(dir);
		const file = join(dir, "cli-00aa.v8-cache");
		await writeFile(file, Buffer.from([1, 9, 9, 9, 9, 9, 9, 9, 9]));
		expect(run(dir)).toBe("45");
		expect((await readFile(file)).length).toBeGreaterThan(9);
	});

	it("a new build (another hash) gets its own cache and the old one goes", async () => {
		const dir = join(work, "d");
		run(dir);
		const source = SOURCE.replace("f(10)", "f(11)");
		expect(run(dir, { source, hash: "00bb" })).toBe("55");
		expect(await readdir(dir)).toEqual(["cli-00bb.v8-cache"]);
	});

	it("makes its own folders in a home that exists, and no home that does not (HOME=/nonexistent)", () => {
		const home = join(work, "no-such-home");
		const options = { batch: true, exit: true };
		expect(run(codeCacheDir({}, home, "linux"), options)).toBe("45");
		expect(existsSync(home)).toBe(false);
		expect(run(codeCacheDir({}, work, "linux"), options)).toBe("45");
		expect(existsSync(join(work, ".cache", "ai-memory"))).toBe(true);
	});

	it("AI_MEMORY_CODE_CACHE=off writes nothing; an unwritable folder costs only the compiling", async () => {
		const dir = join(work, "e");
		expect(run(dir, { env: { AI_MEMORY_CODE_CACHE: "off" } })).toBe("45");
		expect(existsSync(dir)).toBe(false);
		const file = join(work, "not-a-folder");
		await writeFile(file, "x");
		expect(run(join(file, "cache"))).toBe("45");
	});

	it("a loader runs the bundle beside it that its hash names; without it, a sentence, no stack trace", async () => {
		const dir = join(work, "beside");
		await mkdir(dir);
		const [, bundle] = runner.split("\u0000") as [string, string];
		const loader = join(dir, "cli.cjs");
		await writeFile(loader, `const { runBundleBeside, MissingBundleError } = require(${JSON.stringify(bundle)}); const m = { exports: {} }; try { runBundleBeside("00000000000000aa", { filename: __filename, dirname: __dirname, require, module: m }, ${JSON.stringify(join(dir, "cache"))}); process.stdout.write(String(m.exports.answer())); } catch (e) { if (!(e instanceof MissingBundleError)) throw e; process.stderr.write(e.message); }`);
		const missing = spawnSync(process.execPath, [loader], { encoding: "utf8" });
		expect(missing.stderr).toContain(`${join(dir, "cli.00000000000000aa.js")} holds the code of ${loader} and cannot be read (it is missing)`);
		await writeFile(bundlePathFor(loader, "00000000000000aa"), SOURCE);
		expect(spawnSync(process.execPath, [loader], { encoding: "utf8" }).stdout).toBe("45");
		// A FIFO in its place is not waited on.
		await rm(bundlePathFor(loader, "00000000000000aa"));
		expect(spawnSync("mkfifo", [bundlePathFor(loader, "00000000000000aa")]).status).toBe(0);
		expect(spawnSync(process.execPath, [loader], { encoding: "utf8", timeout: 10_000 }).stderr).toContain("is not a plain file");
	});

	it("a bundle's rest is loaded when first asked for, once, with a cache of its own; a missing rest is named", async () => {
		const dir = join(work, "rest");
		await mkdir(dir);
		const [, bundle] = runner.split("\u0000") as [string, string];
		const cache = join(dir, "cache");
		const loader = join(dir, "hook.cjs");
		// The first part as the build makes it: each late import a `requireRest` of one of the rest's exports.
		await writeFile(
			loader,
			`process.env.AI_MEMORY_CODE_CACHE = ${JSON.stringify(cache)}; const { requireRest, MissingBundleError } = require(${JSON.stringify(bundle)}); try { const a = requireRest("00000000000000bb", __filename, require, "hookrest").m0; const b = requireRest("00000000000000bb", __filename, require, "hookrest").m1; process.stdout.write(String(a.answer() + b.twice(1)) + " " + String(globalThis.restRuns)); } catch (e) { if (!(e instanceof MissingBundleError)) throw e; process.stderr.write(e.message); }`,
		);
		const missing = spawnSync(process.execPath, [loader], { encoding: "utf8" });
		expect(missing.status).toBe(0);
		expect(missing.stderr).toContain(`${join(dir, "hook.rest.00000000000000bb.js")} holds the code of ${loader} and cannot be read (it is missing)`);
		await writeFile(restPathFor(loader, "00000000000000bb"), wrapped("globalThis.restRuns = (globalThis.restRuns ?? 0) + 1; exports.m0 = { answer: () => 40 }; exports.m1 = { twice: (n) => 2 * n };"));
		// Run once though asked for twice.
		expect(spawnSync(process.execPath, [loader], { encoding: "utf8" }).stdout).toBe("42 1");
		expect(await readdir(cache)).toEqual(["hookrest-00000000000000bb.v8-cache"]);
		expect(spawnSync(process.execPath, [loader], { encoding: "utf8" }).stdout).toBe("42 1");
	});

	it("names a loader's bundles by hash: cli.cjs runs cli.<hash>.js, and knows its own from other scripts'", () => {
		expect(restPathFor("/d/hook.cjs", "0123456789abcdef")).toBe(join("/d", "hook.rest.0123456789abcdef.js"));
		expect(isRestOf("/d/hook.cjs", "hook.rest.0123456789abcdef.js")).toBe(true);
		expect(isRestOf("/d/hook.cjs", "hook.0123456789abcdef.js")).toBe(false);
		expect(isBundleOf("/d/hook.cjs", "hook.rest.0123456789abcdef.js")).toBe(false);
		expect(isRestOf("/d/ai-memory.cjs", "ai-memory-hook.rest.0123456789abcdef.js")).toBe(false);
		expect(bundlePathFor("/d/cli.cjs", "0123456789abcdef")).toBe(join("/d", "cli.0123456789abcdef.js"));
		expect(isBundleOf("/d/ai-memory.cjs", "ai-memory.0123456789abcdef.js")).toBe(true);
		expect(isBundleOf("/d/ai-memory.cjs", "ai-memory-hook.0123456789abcdef.js")).toBe(false);
		expect(isBundleOf("/d/ai-memory.cjs", "ai-memory.notes.js")).toBe(false);
	});

	it("lives in the user's cache folder, never a shared temporary one", () => {
		expect(codeCacheDir({}, "/home/u", "linux")).toBe("/home/u/.cache/ai-memory");
		expect(codeCacheDir({ XDG_CACHE_HOME: "/x" }, "/home/u", "linux")).toBe("/x/ai-memory");
		expect(codeCacheDir({}, "/Users/u", "darwin")).toBe("/Users/u/Library/Caches/ai-memory");
		expect(codeCacheDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "C:\\Users\\u", "win32")).toBe(join("C:\\Users\\u\\AppData\\Local", "ai-memory", "Cache"));
	});
});
