import { spawnSync } from "node:child_process";
import esbuild from "esbuild";
import { builtinModules } from "node:module";

// Bundles the TypeScript benchmark and runs each part in its own process, so each peak RSS is its own.
await esbuild.build({
	entryPoints: { "transcript.bench": "bench/transcript.bench.ts", "fold-worker": "src/node/fold-worker.ts" },
	bundle: true,
	platform: "node",
	mainFields: ["module", "main"],
	target: "node20",
	format: "cjs",
	external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
	outdir: "bench/out",
	outExtension: { ".js": ".cjs" },
	logLevel: "warning",
});

const parts = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["tree", "tree-memory", "sync", "long", "recall", "hooks", "plugin"];
let failed = false;
for (const part of parts) {
	const run = spawnSync(process.execPath, ["--expose-gc", "bench/out/transcript.bench.cjs", part], { stdio: "inherit" });
	failed ||= run.status !== 0;
}
process.exit(failed ? 1 : 0);
