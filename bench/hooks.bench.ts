import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";

type Row = [string, string, string, boolean];

/**
 * Each hook end to end as Claude Code runs it: a new `node dist/cli.cjs hook …` process with the
 * hook JSON on stdin, against `node -e 0` measured in the same run (interleaved, median of many).
 * Targets: session-start and a user-prompt-submit that does not fire within 1.3x of bare Node.
 */
export function benchHooks(report: (rows: Row[]) => void): void {
	const repo = resolve(__dirname, "..", "..");
	const cli = join(repo, "dist", "cli.cjs");
	const build = spawnSync(process.execPath, [join(repo, "esbuild.config.mjs"), "cli"], { cwd: repo, encoding: "utf8" });
	if (build.status !== 0) throw new Error(build.stderr);
	const dir = mkdtempSync(join(tmpdir(), "ai-memory-hooks-bench-"));
	try {
		const project = join(dir, "shop-api");
		const vault = join(dir, "vault");
		mkdirSync(project);
		mkdirSync(vault);
		const target = join(dir, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		cpSync(join(repo, "examples", "claude-projects", "-tmp-ai-memory-demo-shop-api"), target, { recursive: true });
		for (const f of readdirSync(target, { recursive: true }) as string[]) {
			const p = join(target, f);
			if (statSync(p).isFile()) writeFileSync(p, readFileSync(p, "utf8").split("/tmp/ai-memory-demo/shop-api").join(project));
		}
		const sync = spawnSync(process.execPath, [cli, "projects", "add", project, "--mode", "lazy", "--vault", vault], { encoding: "utf8" });
		if (sync.status !== 0) throw new Error(sync.stderr);
		const first = spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(dir, "claude")], { encoding: "utf8" });
		if (first.status !== 0) throw new Error(first.stderr);
		const transcript = join(target, readdirSync(target).find((f) => f.endsWith(".jsonl"))!);
		const input = (event: string, extra: Record<string, unknown> = {}) => JSON.stringify({ session_id: "bench", transcript_path: transcript, cwd: project, hook_event_name: event, ...extra });
		const cases: [string, string[], string | undefined][] = [
			["node -e 0", ["-e", "0"], undefined],
			["session-start (lazy: prints the facade)", [cli, "hook", "session-start", "--vault", vault], input("SessionStart", { source: "startup" })],
			["user-prompt-submit, no trigger", [cli, "hook", "user-prompt-submit", "--vault", vault], input("UserPromptSubmit", { prompt: "add a unit test for the parser" })],
			["user-prompt-submit, recall fires", [cli, "hook", "user-prompt-submit", "--vault", vault], input("UserPromptSubmit", { prompt: "continue where we left off with the cart total" })],
			["pre-compact (checkpoint, starts a sync)", [cli, "hook", "pre-compact", "--vault", vault], input("PreCompact", { trigger: "manual" })],
			["session-end (starts a sync)", [cli, "hook", "session-end", "--vault", vault], input("SessionEnd", { reason: "other" })],
		];
		const times = cases.map(() => [] as number[]);
		const printed = cases.map(() => 0);
		for (let round = 0; round < 25; round++) {
			cases.forEach(([, args, stdin], i) => {
				const start = performance.now();
				const run = spawnSync(process.execPath, args, { input: stdin ?? "", encoding: "utf8" });
				times[i]!.push(performance.now() - start);
				if (run.status !== 0) throw new Error(`${cases[i]![0]} exited ${run.status}: ${run.stderr}`);
				printed[i] = run.stdout.length;
			});
		}
		const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
		const base = median(times[0]!);
		report(
			cases.map(([name], i) => {
				const ms = median(times[i]!);
				const ratio = ms / base;
				const target = i === 1 || i === 2 ? ratio <= 1.3 : true;
				return [name, `${ms.toFixed(0)} ms`, i === 0 ? "baseline, median of 25" : `${ratio.toFixed(2)}x of node -e 0${i === 1 || i === 2 ? ", target <= 1.3x" : ""}; printed ${printed[i]} chars`, target];
			}),
		);
	} finally {
		// Let the background syncs the hooks started finish before the folder goes.
		spawnSync("sleep", ["2"]);
		rmSync(dir, { recursive: true, force: true });
	}
}
