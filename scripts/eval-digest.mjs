import { spawnSync } from "node:child_process";
import { bundleForNode } from "./node-bundle.mjs";

// Bundles the digest evaluation (TypeScript) and runs it; arguments pass through.
await bundleForNode({ entryPoints: { "digest-eval": "eval/digest-eval.ts" }, outdir: "eval/out", outExtension: { ".js": ".cjs" } });
const run = spawnSync(process.execPath, ["eval/out/digest-eval.cjs", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
