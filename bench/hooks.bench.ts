import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { shellWords } from "../src/node/hook-install";

type Row = [string, string, string, boolean];

/**
 * Each hook end to end as Claude Code runs it: the command `hooks install` wrote, a new process with the
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
		// The commands exactly as `hooks install` writes them into Claude Code's settings.
		const install = spawnSync(process.execPath, [cli, "hooks", "install", "--vault", vault, "--claude-dir", join(dir, "claude")], { encoding: "utf8" });
		if (install.status !== 0) throw new Error(install.stderr);
		const installed = (JSON.parse(readFileSync(join(dir, "claude", "settings.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
		// Past the variables the command sets for Node (`NODE_OPTIONS=`, `NODE_EXTRA_CA_CERTS=`) and Node itself:
		// its arguments. The variables are set for every case here, `node -e 0` too: the same Node, started alike.
		const commandEnv: Record<string, string> = {};
		const argsOf = (event: string) => {
			const words = shellWords(installed[event]![0]!.hooks[0]!.command);
			for (let word = words[0]; word !== undefined && /^[A-Za-z_]\w*=/.test(word); word = words[0]) {
				commandEnv[word.slice(0, word.indexOf("="))] = word.slice(word.indexOf("=") + 1);
				words.shift();
			}
			return words.slice(1);
		};
		const input = (event: string, extra: Record<string, unknown> = {}) => JSON.stringify({ session_id: "bench", transcript_path: transcript, cwd: project, hook_event_name: event, ...extra });
		const cases: [string, string[], string | undefined][] = [
			["node -e 0", ["-e", "0"], undefined],
			["session-start (lazy: the facade is in CLAUDE.md)", argsOf("SessionStart"), input("SessionStart", { source: "startup" })],
			["user-prompt-submit, no trigger", argsOf("UserPromptSubmit"), input("UserPromptSubmit", { prompt: "add a unit test for the parser" })],
			["user-prompt-submit, recall fires", argsOf("UserPromptSubmit"), input("UserPromptSubmit", { prompt: "continue where we left off with the cart total" })],
			["pre-compact (checkpoint, starts a sync)", argsOf("PreCompact"), input("PreCompact", { trigger: "manual" })],
			["session-end (starts a sync)", argsOf("SessionEnd"), input("SessionEnd", { reason: "other" })],
		];
		// Flush what the setup (and the parts before) wrote: their write-back slowed the first rounds' file reads.
		spawnSync("sync");
		const times = cases.map(() => [] as number[]);
		const printed = cases.map(() => 0);
		const time = (i: number) => {
			const [, args, stdin] = cases[i]!;
			const start = performance.now();
			const run = spawnSync(process.execPath, args, { input: stdin ?? "", encoding: "utf8", env: { ...process.env, ...commandEnv } });
			times[i]!.push(performance.now() - start);
			if (run.status !== 0) throw new Error(`${cases[i]![0]} exited ${run.status}: ${run.stderr}`);
			printed[i] = run.stdout.length;
		};
		// The hooks that print, interleaved with the baseline; then those that start a background
		// sync, each after the last one's sync has ended (it would slow whatever runs beside it).
		for (let round = 0; round < 25; round++) for (const i of [0, 1, 2, 3]) time(i);
		const lock = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "state", "sync.lock");
		for (let round = 0; round < 8; round++) {
			for (const i of [4, 5]) {
				time(i);
				spawnSync("sleep", ["0.3"]);
				for (let wait = 0; wait < 100 && existsSync(lock); wait++) spawnSync("sleep", ["0.1"]);
			}
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
		spawnSync("sleep", ["1"]);
		rmSync(dir, { recursive: true, force: true });
	}
}
