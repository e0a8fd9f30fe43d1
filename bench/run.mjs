import { spawnSync } from "node:child_process";
import { bundleForNode } from "../scripts/node-bundle.mjs";

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
