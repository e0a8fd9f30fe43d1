// Compares the SQLite readers considered for opencode's database (see README.md here):
//   cd bench/sqlite-candidates && npm ci && node run.mjs [data folder …]
// Default data folders: the recorded fixture, and the bench's generated database (npm run bench agents makes it).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = join(here, "..", "..");
const outfile = join(here, "build", "compare.cjs");
await build({ entryPoints: [join(here, "compare.mjs")], bundle: true, platform: "node", format: "cjs", target: "node20", outfile, loader: { ".wasm": "binary" }, define: { "import.meta.url": "undefined" }, nodePaths: [join(here, "node_modules")], logLevel: "warning" });
const folders = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [join(root, "test", "fixtures", "agents", "opencode", "1.18.33", "data"), join(tmpdir(), "ai-memory-bench", "agents", "opencode")].filter((f) => existsSync(f));
const ROUNDS = 3;
for (const folder of folders) {
	process.stdout.write(`\n${folder}\n`);
	for (const candidate of ["journeyapps-wa-sqlite", "wa-sqlite-1.0.0", "sql.js", "node:sqlite"]) {
		const runs = [];
		for (let i = 0; i < ROUNDS; i++) {
			const r = spawnSync(process.execPath, [outfile, candidate, folder], { encoding: "utf8" });
			if (r.status !== 0) {
				runs.push({ error: r.stderr.trim().split("\n").slice(-3).join(" ") });
				break;
			}
			runs.push(JSON.parse(r.stdout));
		}
		const ok = runs.filter((r) => r.readMs !== undefined);
		const median = (k) => ok.map((r) => r[k]).sort((a, b) => a - b)[Math.floor(ok.length / 2)];
		if (ok.length === 0) process.stdout.write(`  ${candidate.padEnd(24)} ${runs[0].unavailable ?? runs[0].error}\n`);
		else process.stdout.write(`  ${candidate.padEnd(24)} load ${String(median("loadMs")).padStart(5)} ms   read ${String(median("readMs")).padStart(6)} ms   rows ${ok[0].rows}   peak RSS ${median("rssMiB")} MiB   (medians of ${ok.length})\n`);
	}
}
