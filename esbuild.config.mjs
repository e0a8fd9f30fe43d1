import { builtinModules } from "node:module";
import esbuild from "esbuild";
import process from "node:process";

// `production`: the plugin bundle the community scanner rebuilds (main.js); `cli`: dist/cli.cjs;
// no argument: watch the plugin for development.
const mode = process.argv[2] ?? "watch";
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const plugin = {
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

const cli = {
	entryPoints: { cli: "src/cli/main.ts", hook: "src/cli/hook-entry.ts", "fold-worker": "src/node/fold-worker.ts" },
	bundle: true,
	// `obsidian` is not external: if anything in the CLI graph imported it, the build would fail.
	external: nodeBuiltins,
	format: "cjs",
	target: "node20",
	platform: "node",
	// ESM builds first: jsonc-parser's CommonJS build loads its parts dynamically, which a bundle cannot.
	mainFields: ["module", "main"],
	logLevel: "info",
	banner: { js: "#!/usr/bin/env node" },
	// Smaller is faster to start: a hook runs on every prompt (measured: parsing the bundle was a third of a hook's time).
	minify: true,
	outdir: "dist",
	outExtension: { ".js": ".cjs" },
};

if (mode === "production") {
	// The CLI goes inside main.js as text: "Install Claude Code hooks" writes it beside the plugin,
	// so plugin-only users need no npm install for the hooks.
	const text = async (entry) => (await esbuild.build({ ...cli, entryPoints: [entry], outdir: undefined, outExtension: undefined, write: false, logLevel: "warning" })).outputFiles[0]?.text ?? "";
	const [cliSource, hookSource] = await Promise.all([text("src/cli/main.ts"), text("src/cli/hook-entry.ts")]);
	await esbuild.build({ ...plugin, define: { AI_MEMORY_CLI_SOURCE: JSON.stringify(cliSource), AI_MEMORY_HOOK_SOURCE: JSON.stringify(hookSource) } });
} else if (mode === "cli") {
	await esbuild.build(cli);
} else {
	const context = await esbuild.context(plugin);
	await context.watch();
}
