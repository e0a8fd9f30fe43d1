// Records example Claude Code transcripts into examples/claude-projects/ with the real
// CLI and the scripted stub API (see test/e2e/README.md). Usage: npm run record:examples
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}.cache/record-examples/record-examples.mjs`;
await build({
	entryPoints: [`${root}test/e2e/harness/record-examples.ts`],
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node20",
	outfile,
	logLevel: "warning",
});
const r = spawnSync(process.execPath, [outfile], { stdio: "inherit" });
process.exit(r.status ?? 1);
