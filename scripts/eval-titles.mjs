import { spawnSync } from "node:child_process";
import { bundleForNode } from "./node-bundle.mjs";

// Bundles the title evaluation (TypeScript) and runs it; arguments pass through (`--quiet`: figures only).
await bundleForNode({ entryPoints: { "title-eval": "eval/title-eval.ts" }, outdir: "eval/out", outExtension: { ".js": ".cjs" } });
const run = spawnSync(process.execPath, ["eval/out/title-eval.cjs", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
