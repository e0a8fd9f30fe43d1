import { spawnSync } from "node:child_process";
import { bundleForNode } from "../scripts/node-bundle.mjs";

// Every process the benchmark starts, baselines and ours alike, runs without NODE_EXTRA_CA_CERTS:
// Node loads and parses the certificates it names at every start, before any script (50 ms of a
// 110 ms `node -e 0` on the machines here, whose environment sets it), and nothing of ours makes a
// TLS connection. Kept, it made each start-up baseline 50 ms longer and every ratio to it smaller
// than Node's own start gives. `AI_MEMORY_BENCH_KEEP_ENV=1` keeps it (the runs before 2026-12-07 had it).
if (process.env.NODE_EXTRA_CA_CERTS !== undefined && process.env.AI_MEMORY_BENCH_KEEP_ENV !== "1") {
	process.stdout.write(`NODE_EXTRA_CA_CERTS (${process.env.NODE_EXTRA_CA_CERTS}) left out of every process timed: see bench/run.mjs\n`);
	delete process.env.NODE_EXTRA_CA_CERTS;
}

// Bundles the TypeScript benchmark and runs each part in its own process, so each peak RSS is its own.
await bundleForNode({
	entryPoints: { "transcript.bench": "bench/transcript.bench.ts", "mcp-echo-server": "bench/mcp-echo-server.ts" },
	outdir: "bench/out",
	outExtension: { ".js": ".cjs" },
	// The Sessions view's benchmark builds the view against the in-repo stub, as its tests do.
	alias: { obsidian: "./test/stubs/obsidian.ts" },
});

const parts = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["tree", "tree-memory", "sync", "agents", "long", "recall", "hooks", "mcp", "plugin", "sessions"];
// `sync` times the built CLI (dist/cli.cjs) from outside: build it from these sources first; the
// other agents' readers (`agents`) are built as the CLI is, into bench/out.
for (const [part, target] of [["sync", "cli"], ["agents", "bench"]]) {
	if (!parts.includes(part)) continue;
	const build = spawnSync(process.execPath, ["esbuild.config.mjs", target], { stdio: ["ignore", "ignore", "inherit"] });
	if (build.status !== 0) process.exit(1);
}
let failed = false;
for (const part of parts) {
	const run = spawnSync(process.execPath, ["--expose-gc", "bench/out/transcript.bench.cjs", part], { stdio: "inherit" });
	failed ||= run.status !== 0;
}
process.exit(failed ? 1 : 0);
