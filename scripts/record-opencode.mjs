// Records the opencode fixtures (test/fixtures/agents/opencode/<version>/) with the real client and
// the Chat Completions stub (see that folder's README). Usage: npm run record:opencode [-- 1.1.65]
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = `${root}.cache/record-opencode/record-opencode.mjs`;
await build({ entryPoints: [`${root}test/e2e/harness/record-opencode.ts`], bundle: true, platform: "node", format: "esm", target: "node20", outfile, logLevel: "warning" });
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(r.status ?? 1);
