import { builtinModules } from "node:module";
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import esbuild from "esbuild";
import process from "node:process";
import { dirname, join } from "node:path";

// `production` (`npm run build`): the plugin bundle the community scanner rebuilds (main.js) and
// the CLI beside it (dist/cli.cjs, dist/hook.cjs, dist/mcp.cjs, dist/fold-worker.cjs); `cli`: the CLI alone
// (tests and benchmarks, faster); `bench`: the benchmark's reader processes, built as the CLI is;
// no argument (`npm run dev`): watch the plugin for development.
const mode = process.argv[2] ?? "watch";
/** `ai-memory --version`. */
const version = JSON.parse(await readFile(new URL("./package.json", import.meta.url), "utf8")).version;
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * re2js (the user's redaction patterns, in linear time) names a method `eval`: renamed in the
 * bundles, so main.js holds no `eval(` at all (the community scanner's rule, checked by .ci/run).
 * No code in them reads a property called `eval` for the global function.
 */
const noEvalNames = { mangleProps: /^eval$/ };

/**
 * SQLite (wa-sqlite, for opencode's database) comes as WebAssembly: its bytes go inside the bundle
 * (a plugin is main.js alone), and its module never needs a URL of its own (`import.meta` is empty in CommonJS).
 */
const wasmInside = { loader: { ".wasm": "binary" }, define: { "import.meta.url": "undefined" } };

/**
 * gray-matter's default engines: js-yaml, and a JavaScript engine that runs `eval`. Ours passes its
 * own YAML engine (the `yaml` package) on every call and reads nothing else
 * (src/core/notes/frontmatter.ts), so the bundles get none of them: no `eval` in main.js, no js-yaml.
 */
const grayMatterEngines = {
	name: "gray-matter-without-engines",
	setup(build) {
		build.onResolve({ filter: /^\.\/(lib\/)?engines$/ }, (args) => (/[\\/]node_modules[\\/]gray-matter[\\/]/.test(args.importer) ? { path: "gray-matter-engines", namespace: "gray-matter-engines" } : undefined));
		build.onLoad({ filter: /.*/, namespace: "gray-matter-engines" }, () => ({ contents: "module.exports = {};", loader: "js" }));
	},
};

const plugin = {
	...noEvalNames,
	...wasmInside,
	plugins: [grayMatterEngines],
	entryPoints: ["src/main.ts"],
	bundle: true,
	external: [
		"obsidian",
		"electron",
		"@codemirror/autocomplete",
		"@codemirror/collab",
		"@codemirror/commands",
		"@codemirror/language",
		"@codemirror/lint",
		"@codemirror/search",
		"@codemirror/state",
		"@codemirror/view",
		"@lezer/common",
		"@lezer/highlight",
		"@lezer/lr",
		...nodeBuiltins,
	],
	format: "cjs",
	target: "es2022",
	platform: "browser",
	logLevel: "info",
	sourcemap: mode === "production" ? false : "inline",
	treeShaking: true,
	minify: mode === "production",
	outfile: "main.js",
};

/**
 * Commander loads `child_process` when it loads, for subcommands that are programs of their own,
 * which this CLI has none of; loading it was 13 ms of every sync (a twentieth of one appended turn).
 * Commander gets it on first use instead.
 */
const lazyChildProcess = {
	name: "lazy-child-process",
	setup(build) {
		build.onResolve({ filter: /^(node:)?child_process$/ }, (args) => (/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: "child_process", namespace: "lazy-child-process" } : undefined));
		build.onLoad({ filter: /.*/, namespace: "lazy-child-process" }, () => ({
			contents: 'module.exports = new Proxy({}, { get: (_, key) => require("node:child_process")[key] });',
			loader: "js",
		}));
	},
};

/**
 * The MCP SDK's server imports its default JSON Schema validator (Ajv), which compiles schemas
 * into functions with `new Function`; our server passes a validator of its own (it never asks a
 * client for input, the one thing that validator checks), so the bundles get a stand-in instead.
 */
const noAjv = {
	name: "no-ajv",
	setup(build) {
		build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, (args) => (/[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(args.importer) ? { path: "ajv-provider", namespace: "no-ajv" } : undefined));
		build.onLoad({ filter: /.*/, namespace: "no-ajv" }, () => ({
			contents: 'export class AjvJsonSchemaValidator { constructor() { throw new Error("no JSON Schema validator in this build: pass jsonSchemaValidator"); } }',
			loader: "js",
		}));
	},
};

/**
 * zod (the MCP SDK's schemas) exports its error messages in every language it has, a quarter of a
 * megabyte; the CLI answers in English only, so the bundles keep that one.
 */
const zodEnglishOnly = {
	name: "zod-english-only",
	setup(build) {
		build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: join(args.resolveDir, "..", "locales", "en.js"), namespace: "zod-en" } : undefined));
		build.onLoad({ filter: /.*/, namespace: "zod-en" }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, loader: "js", resolveDir: dirname(args.path) }));
	},
};

/** SQLite's WebAssembly as the CLI reads it: a file beside the script (`dist/wa-sqlite.wasm`). */
const SQLITE_WASM = "node_modules/@journeyapps/wa-sqlite/dist/wa-sqlite.wasm";

/**
 * The CLI reads SQLite's WebAssembly from the file beside it, when a database is first read: inside
 * cli.cjs its 1.5 MB of base64 cost every run (measured: +60 ms and +12 MiB for a sync with nothing
 * to do, +20 MiB peak for a full sync). The plugin keeps it inside main.js and writes it beside the
 * CLI it installs (src/obsidian/hooks-commands.ts).
 */
const wasmBeside = {
	name: "sqlite-wasm-beside",
	setup(build) {
		build.onResolve({ filter: /^\.\/sqlite-wasm$/ }, (args) => (/[\\/]src[\\/]node$/.test(args.resolveDir) ? { path: "sqlite-wasm", namespace: "sqlite-wasm-beside" } : undefined));
		build.onLoad({ filter: /.*/, namespace: "sqlite-wasm-beside" }, () => ({ contents: `const { readSqliteWasm } = require("./src/node/sqlite-wasm-file.ts"); exports.sqliteWasm = readSqliteWasm(__dirname);`, loader: "js", resolveDir: process.cwd() }));
	},
};

/**
 * re2js (the user's own redaction patterns, RE2 in JavaScript) is half of the hook's bundle and a
 * sixth of the CLI's, and is loaded only when a user has patterns of their own: the CLI's bundles
 * require it from `re2js.cjs` beside them (built once, shared by the CLI, the hook, the MCP server
 * and the fold worker), so a hook does not read and decode it at every prompt.
 */
const re2Beside = {
	name: "re2js-beside",
	setup(build) {
		build.onResolve({ filter: /^re2js$/ }, () => ({ path: "re2js", namespace: "re2js-beside" }));
		build.onLoad({ filter: /.*/, namespace: "re2js-beside" }, () => ({ contents: `module.exports = require(require("node:path").join(__dirname, ${JSON.stringify(RE2_FILE)}));`, loader: "js" }));
	},
};
const RE2_FILE = "re2js.cjs";

const cli = {
	...noEvalNames,
	...wasmInside,
	define: { ...wasmInside.define, AI_MEMORY_VERSION: JSON.stringify(version) },
	bundle: true,
	plugins: [lazyChildProcess, noAjv, zodEnglishOnly, grayMatterEngines, wasmBeside, re2Beside],
	// `obsidian` is not external: if anything in the CLI graph imported it, the build would fail.
	external: nodeBuiltins,
	format: "cjs",
	target: "node20",
	// esbuild's table holds Node's `\p{…}` patterns unsupported and turns each literal into a
	// `new RegExp(…)` made again at every call (a pattern tested on every word of a session: 189,000
	// made on the main thread alone in a first sync of the bench tree); every Node this runs on has
	// them, as the plugin's es2022 target does.
	supported: { "regexp-unicode-property-escapes": true },
	platform: "node",
	// ESM builds first: jsonc-parser's CommonJS build loads its parts dynamically, which a bundle cannot.
	mainFields: ["module", "main"],
	logLevel: "warning",
	// Smaller is faster to start: a hook runs on every prompt (measured: parsing the bundle was a third of a hook's time).
	minify: true,
};

/** What a bundle file holds around the bundle: a CommonJS module's function, as Node's own loader wraps one. */
const BUNDLE_HEAD = "(function (exports, require, module, __filename, __dirname) {";
const BUNDLE_TAIL = "\n})";

/**
 * The bundle with each character past ASCII written as its `\\u` escape, so a loader reads it as
 * a one-byte string, a plain copy of its bytes (`runBundleBeside`); one CJK character in a pattern
 * made all of it two-byte. esbuild's `charset: "ascii"` leaves regular expression literals as they
 * are; an escape means the same character in a string, a template, a pattern or a name alike. A
 * character after a backslash (an identity escape, `\\…`) would change meaning: the build stops.
 */
function asciiOnly(text, entry) {
	return text.replace(/(\\*)([\u0080-\uffff])/g, (_m, slashes, c) => {
		if (slashes.length % 2 === 1) throw new Error(`${entry}: the bundle escapes ${JSON.stringify(c)} with a backslash; write it as \\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
		return `${slashes}\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
	});
}

const bundleText = async (entry, plugins = []) => (await esbuild.build({ ...cli, plugins: [...plugins, ...cli.plugins], entryPoints: [entry], write: false })).outputFiles[0]?.text ?? "";

/** Where a first part names its rest's hash, until the rest is built (see `splitScript`). */
const REST_HASH = "__AI_MEMORY_REST_HASH__";

/**
 * A bundle in two parts: what every run needs, and the rest, the modules it imports late
 * (`await import("./x")`), which esbuild puts inside a CommonJS bundle all the same. The hook's
 * rest (recall, redaction, checkpoints, the sync queue) was seven eighths of its bundle, read,
 * decoded and deserialized from the code cache at every prompt that prints nothing (measured:
 * 146 → 134 ms, `node -e 0` 102 ms). Each late import becomes a `require` of the rest
 * (`requireRest`, src/node/code-cache.ts), which exports every such module by a name of its own;
 * a module both parts import is in both, so no code may count on one copy (none keeps state).
 */
async function splitScript(entry, cacheName) {
	const late = new Map();
	const restApart = {
		name: "rest-apart",
		setup(build) {
			build.onResolve({ filter: /^\./ }, async (args) => {
				if (args.kind !== "dynamic-import" || args.namespace === "rest-apart") return undefined;
				const found = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: "import-statement" });
				if (found.errors.length > 0) return { errors: found.errors };
				if (found.namespace !== "file") return undefined;
				if (!late.has(found.path)) late.set(found.path, `m${late.size}`);
				return { path: found.path, namespace: "rest-apart" };
			});
			build.onLoad({ filter: /.*/, namespace: "rest-apart" }, (args) => ({
				contents: `module.exports = require("./src/node/code-cache.ts").requireRest(${JSON.stringify(REST_HASH)}, __filename, require, ${JSON.stringify(cacheName)})[${JSON.stringify(late.get(args.path))}];`,
				loader: "js",
				resolveDir: process.cwd(),
			}));
		},
	};
	const first = await bundleText(entry, [restApart]);
	const restEntry = [...late].map(([path, key]) => `export * as ${key} from ${JSON.stringify(path)};`).join("\n");
	const built = await esbuild.build({ ...cli, stdin: { contents: restEntry, resolveDir: process.cwd(), loader: "js" }, write: false });
	const rest = wrapped(built.outputFiles[0]?.text ?? "", `${entry} (rest)`);
	const restHash = hashOf(rest);
	if (!first.includes(REST_HASH)) throw new Error(`${entry}: no late import to put apart`);
	return { text: first.split(REST_HASH).join(restHash), rest: { hash: restHash, bundle: rest } };
}

/**
 * `cli.cjs`: a small loader that runs the CLI bundle, a file beside it named by the bundle's hash
 * (`cli.<hash>.js`), with V8's code cache (src/node/code-cache.ts); by the hash, so a loader never
 * runs another build's bundle, nor a cache of another build. Returns the script as the plugin
 * carries it: `{ loader, hash, bundle }`.
 */
async function script(entry, loader, name, { split = false } = {}) {
	const { text, rest } = split ? await splitScript(entry, `${name.toLowerCase()}rest`) : { text: await bundleText(entry), rest: undefined };
	const bundle = wrapped(text, entry);
	const hash = hashOf(bundle);
	const built = await esbuild.build({
		...cli,
		entryPoints: [loader],
		write: false,
		banner: { js: "#!/usr/bin/env node" },
		define: { ...cli.define, [`AI_MEMORY_${name}_BUNDLE_HASH`]: JSON.stringify(hash) },
	});
	return { loader: built.outputFiles[0]?.text ?? "", hash, bundle, ...(rest ? { rest } : {}) };
}

/** A bundle's text as its file holds it (see `script`). */
function wrapped(text, entry) {
	// The bundle runs as a script (the code cache), where `import()` fails: every module comes by `require`.
	if (/\bimport\(/.test(text)) throw new Error(`${entry}: the bundle keeps an import(); use require for Node's modules loaded late`);
	// Written as the function V8 compiles, so a loader hands V8 the file's text as it is: a wrapper
	// added at run time made V8 copy the whole source into one more string first (see `runWithCodeCache`).
	return `${BUNDLE_HEAD}${asciiOnly(text, entry)}${BUNDLE_TAIL}`;
}

const hashOf = (bundle) => createHash("sha256").update(bundle).digest("hex").slice(0, 16);

const cliScript = () => script("src/cli/main.ts", "src/cli/cli-loader.ts", "CLI");
/** `hook.cjs`, the same way: Claude Code starts it on every prompt. */
const hookScript = () => script("src/cli/hook-entry.ts", "src/cli/hook-loader.ts", "HOOK", { split: true });
/** `mcp.cjs`, the same way: the MCP server, kept out of cli.cjs (the SDK would make every other command slower to start). */
const mcpScript = () => script("src/cli/mcp-entry.ts", "src/cli/mcp-loader.ts", "MCP");

/** `re2js.cjs`: re2js alone, built as the CLI is (its method named `eval` renamed, see `noEvalNames`). */
const re2Text = async () => (await esbuild.build({ ...cli, plugins: [], entryPoints: ["re2js"], write: false })).outputFiles[0]?.text ?? "";

/** Whole or not at all: tests build the CLI while others run it, and a half-written script would fail them. */
async function writeWhole(path, text, mode = 0o644) {
	const temp = `${path}.${process.pid}.tmp`;
	await writeFile(temp, text, { mode });
	await rename(temp, path);
}

/**
 * A loader and its bundle (see `script`), the rest first and the bundle next, so a loader never
 * names a bundle that is not there yet; then other builds' bundles of the same loader go.
 */
async function writeScript(dir, name, { loader, hash, bundle, rest }) {
	if (rest) await writeWhole(join(dir, `${name}.rest.${rest.hash}.js`), rest.bundle);
	await writeWhole(join(dir, `${name}.${hash}.js`), bundle);
	await writeWhole(join(dir, `${name}.cjs`), loader, 0o755);
	const keep = new Set([`${name}.${hash}.js`, ...(rest ? [`${name}.rest.${rest.hash}.js`] : [])]);
	for (const other of await readdir(dir)) if (new RegExp(`^${name}\\.(rest\\.)?[0-9a-f]{16}\\.js$`).test(other) && !keep.has(other)) await rm(join(dir, other), { force: true });
}

/** The fold worker's script, in ASCII as the bundles are: each fold thread reads and compiles it as a one-byte string. */
const foldWorkerText = async () => asciiOnly(await bundleText("src/node/fold-worker.ts"), "src/node/fold-worker.ts");

/** dist/: the CLI, the hook script, the MCP server and the fold worker; returns the three scripts. */
async function buildCli() {
	await mkdir("dist", { recursive: true });
	const [worker, cliSource, hookSource, mcpSource] = await Promise.all([foldWorkerText(), cliScript(), hookScript(), mcpScript()]);
	await writeWhole("dist/fold-worker.cjs", worker);
	await writeScript("dist", "cli", cliSource);
	await writeScript("dist", "hook", hookSource);
	await writeScript("dist", "mcp", mcpSource);
	await writeWhole("dist/wa-sqlite.wasm", await readFile(SQLITE_WASM));
	const re2Source = await re2Text();
	await writeWhole(`dist/${RE2_FILE}`, re2Source);
	return { cliSource, hookSource, mcpSource, re2Source };
}

/**
 * bench/out/: the other agents' readers and opencode's baseline, each a process the benchmark
 * times, built as the CLI is (minified, SQLite's WebAssembly read from the file beside them, no
 * gray-matter engines), so what is timed is the code the CLI runs; the readers run as the CLI
 * does too (a loader that sets its V8 flags and uses V8's code cache).
 */
async function buildBenchReaders() {
	await mkdir("bench/out", { recursive: true });
	await esbuild.build({ ...cli, entryPoints: { "opencode-read-baseline": "bench/opencode-read-baseline.ts" }, outdir: "bench/out", outExtension: { ".js": ".cjs" } });
	await writeWhole("bench/out/fold-worker.cjs", await foldWorkerText());
	await writeScript("bench/out", "agent-read", await script("bench/agent-read.ts", "bench/agent-read-loader.ts", "READER"));
	await writeWhole("bench/out/wa-sqlite.wasm", await readFile(SQLITE_WASM));
	await writeWhole(`bench/out/${RE2_FILE}`, await re2Text());
}

if (mode === "production") {
	// The CLI goes inside main.js as text too: "Install Claude Code hooks" writes it beside the
	// plugin, so plugin-only users need no npm install for the hooks.
	const { cliSource, hookSource, mcpSource, re2Source } = await buildCli();
	await esbuild.build({ ...plugin, define: { ...wasmInside.define, AI_MEMORY_CLI_SOURCE: JSON.stringify(cliSource), AI_MEMORY_HOOK_SOURCE: JSON.stringify(hookSource), AI_MEMORY_MCP_SOURCE: JSON.stringify(mcpSource), AI_MEMORY_RE2_SOURCE: JSON.stringify(re2Source) } });
} else if (mode === "cli") {
	await buildCli();
} else if (mode === "bench") {
	await buildBenchReaders();
} else {
	const context = await esbuild.context(plugin);
	await context.watch();
}
