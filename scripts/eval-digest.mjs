import { spawnSync } from "node:child_process";
import { builtinModules } from "node:module";
import esbuild from "esbuild";

// Bundles the digest evaluation (TypeScript) and runs it; arguments pass through.
await esbuild.build({
	entryPoints: { "digest-eval": "eval/digest-eval.ts" },
	bundle: true,
	platform: "node",
	mainFields: ["module", "main"],
	target: "node20",
	format: "cjs",
	external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
	outdir: "eval/out",
	outExtension: { ".js": ".cjs" },
	logLevel: "warning",
});
const run = spawnSync(process.execPath, ["eval/out/digest-eval.cjs", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
