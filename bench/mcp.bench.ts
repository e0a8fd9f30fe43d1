import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { DIGEST_VERSION, type StoredDigest } from "../src/core/digest/session-digest";
import { RecallIndex } from "../src/core/memory/recall";
import type { HookContext } from "../src/core/plan/hook-context";
import { emptySyncState, type SyncState } from "../src/core/sync/sync-state";
import { hookContextPath } from "../src/node/plugin-paths";
import { StateFolder } from "../src/node/state-folder";
import { pick, rng } from "./seeded-random";

type Row = [string, string, string, boolean];

/**
 * The MCP server as an agent uses it: the built `dist/mcp.cjs` over stdio, driven by the SDK's
 * client, on a state of 10,000 sessions (written by the sync's own state writer) and 2,000 facts.
 * A tool call's round trip (request written, answer parsed) against the smallest SDK server that
 * echoes its argument, measured in the same run, interleaved. Target: p95 under 20 ms.
 */
const SESSIONS = 10_000;
const FACTS = 2_000;
const CALLS = 300;

const EN = "payments orders cart checkout invoice database postgres redis cache queue worker deploy staging release tests lint typescript react router auth login token session logging metrics alerts docker kubernetes terraform migration schema index backup retry timeout webhook email search pagination upload images pnpm monorepo api graphql limiter parser".split(" ");
const KO = "결제 주문 장바구니 배포 테스트 데이터베이스 캐시 로그인 인증 로그 모니터링 마이그레이션 스키마 백업 재시도 검색 페이지네이션 업로드 이미지 알림".split(" ");
const VERBS = ["Add", "Fix", "Refactor", "Speed up", "Document", "Remove", "Test", "Migrate"];


function digestOf(i: number, r: () => number, project: string): StoredDigest {
	const korean = r() < 0.15;
	const words = Array.from({ length: 3 + Math.floor(r() * 4) }, () => pick(korean ? KO : EN, r));
	const title = korean ? `${words.join(" ")} 작업` : `${pick(VERBS, r)} the ${words.slice(0, 3).join(" ")}`;
	const asked = [title, ...Array.from({ length: Math.floor(r() * 3) }, () => `${pick(VERBS, r)} ${pick(EN, r)} ${pick(EN, r)} in ${pick(EN, r)}.ts`)];
	const hash = Math.floor(r() * 0xfffffff).toString(16).padStart(7, "0");
	const day = `2026-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
	return {
		version: DIGEST_VERSION,
		sessionId: `${i.toString(16).padStart(8, "0")}-0000-4000-8000-${hash.padStart(12, "0")}`,
		agent: r() < 0.8 ? "claude-code" : "codex",
		title,
		projectPath: project,
		branch: "main",
		startedAt: `${day}T10:00:00.000Z`,
		endedAt: `${day}T10:${String(10 + Math.floor(r() * 49)).padStart(2, "0")}:00.000Z`,
		activeMinutes: 5 + Math.floor(r() * 60),
		models: ["claude-opus-4-7"],
		tasks: asked.map((ask) => ({ ask, calls: Math.floor(r() * 30), result: [`${pick(EN, r)} ${pick(EN, r)} now works with ${pick(EN, r)}.`] })),
		asked,
		done: [`commit ${hash}: ${title}`, `\`npm test\` passes`],
		open: r() < 0.3 ? [`${pick(EN, r)} ${pick(EN, r)} still needs a test`] : [],
		decisions: r() < 0.2 ? [`Chose ${pick(EN, r)} over ${pick(EN, r)} for speed`] : [],
		prompts: asked.length,
		toolCalls: Math.floor(r() * 80),
		filesTouched: Array.from({ length: 1 + Math.floor(r() * 5) }, () => `${project}/src/${pick(EN, r)}/${pick(EN, r)}.ts`),
		tools: ["Read", "Edit", "Bash"],
		subagents: [],
		tokens: { input: 1000, output: 500, cacheRead: 20_000, cacheWrite: 3_000 },
		usage: [],
	};
}

export async function writeState(dir: string, projects: string[]): Promise<void> {
	const r = rng(5);
	const state: SyncState = emptySyncState();
	for (const [n, project] of projects.entries()) state.projects[project] = { folder: `project-${n}`, repository: true };
	for (let i = 0; i < SESSIONS; i++) {
		const project = projects[i % projects.length]!;
		const digest = digestOf(i, r, project);
		state.sessions[`/home/me/.claude/projects/p${i % projects.length}/${digest.sessionId}.jsonl`] = { projectKey: project, project: state.projects[project]!.folder, projectPath: project, notePath: `AI Conversations/${state.projects[project]!.folder}/${digest.title}.md`, written: true, digest, tags: [`ai/project/${state.projects[project]!.folder}`, `ai/${pick(EN, r)}`], keywords: [] };
	}
	await new StateFolder(dir).flush(state);
	const facts = Array.from({ length: FACTS }, (_, i) => ({ file: `fact-${i}.md`, name: `${pick(EN, r)}-${pick(EN, r)}-${i}`, description: `We decided on ${pick(EN, r)} ${pick(EN, r)} for the ${pick(EN, r)} service` }));
	const context: HookContext = { version: 1, projectPath: projects[0]!, mode: "lazy", facade: "## Project memory\n", blockInFile: true, packet: "# project-0: context packet\n\n" + "- a line of the packet\n".repeat(200), packetPath: "/v/packet.md", recall: RecallIndex.build(facts).serialize(), bodies: Object.fromEntries(facts.map((f) => [f.file, `${f.description}, with the reasons, in two or three sentences of body text.`])) };
	mkdirSync(join(dir, "hooks"), { recursive: true });
	writeFileSync(hookContextPath(dir, projects[0]!), JSON.stringify(context));
}

function percentile(values: readonly number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

async function connect(args: string[], cwd: string): Promise<Client> {
	const client = new Client({ name: "bench", version: "1" });
	await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd, stderr: "inherit" }));
	return client;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
	const start = performance.now();
	await run();
	return performance.now() - start;
}

export async function benchMcp(report: (rows: Row[]) => void): Promise<void> {
	const repo = resolve(__dirname, "..", "..");
	const build = spawnSync(process.execPath, [join(repo, "esbuild.config.mjs"), "cli"], { cwd: repo, encoding: "utf8" });
	if (build.status !== 0) throw new Error(build.stderr);
	const dir = mkdtempSync(join(tmpdir(), "ai-memory-mcp-bench-"));
	try {
		const vault = join(dir, "vault");
		const projects = Array.from({ length: 20 }, (_, i) => join(dir, "code", `project-${i}`));
		for (const p of projects) mkdirSync(p, { recursive: true });
		const folder = join(vault, ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(join(folder, "state"), { recursive: true });
		writeFileSync(join(folder, "data.json"), JSON.stringify({ version: 1, projects: [{ path: projects[0], enabled: true, mode: "lazy" }] }));
		await writeState(join(folder, "state"), projects);

		const startedAt = performance.now();
		const ours = await connect([join(repo, "dist", "mcp.cjs"), "mcp", "--vault", vault], projects[0]!);
		const first = await timed(() => ours.callTool({ name: "search_sessions", arguments: { query: "redis cache", project: "all" } }));
		const ready = performance.now() - startedAt;
		const echo = await connect([join(__dirname, "mcp-echo-server.cjs")], dir);
		const r = rng(9);
		const queries = Array.from({ length: CALLS }, () => (r() < 0.15 ? `${pick(KO, r)} ${pick(KO, r)}` : `${pick(EN, r)} ${pick(EN, r)} ${pick(EN, r)}`));
		const ids = Array.from({ length: CALLS }, (_, i) => `${((i * 37) % SESSIONS).toString(16).padStart(8, "0")}`);
		// Warm up both, equally.
		for (const q of queries.slice(0, 30)) {
			await ours.callTool({ name: "search_sessions", arguments: { query: q, project: "all" } });
			await echo.callTool({ name: "echo", arguments: { query: q } });
		}
		const times = { echo: [] as number[], all: [] as number[], project: [] as number[], get: [] as number[], facts: [] as number[] };
		let found = 0;
		let largest = 0;
		for (const [i, q] of queries.entries()) {
			times.echo.push(await timed(() => echo.callTool({ name: "echo", arguments: { query: q } })));
			times.all.push(
				await timed(async () => {
					const result = await ours.callTool({ name: "search_sessions", arguments: { query: q, project: "all", limit: 10 } });
					const text = (result.content as { text: string }[])[0]?.text ?? "";
					largest = Math.max(largest, text.length);
					if (text.includes("- Id:")) found++;
				}),
			);
			times.project.push(await timed(() => ours.callTool({ name: "search_sessions", arguments: { query: q } })));
			times.get.push(await timed(() => ours.callTool({ name: "get_session", arguments: { id: ids[i]! } })));
			times.facts.push(await timed(() => ours.callTool({ name: "recall_facts", arguments: { query: q } })));
		}
		await ours.close();
		await echo.close();
		const base = percentile(times.echo, 0.95);
		const row = (name: string, values: number[], note: string): Row => [name, `${percentile(values, 0.95).toFixed(2)} ms`, `median ${percentile(values, 0.5).toFixed(2)} ms; ${(percentile(values, 0.95) / base).toFixed(2)}x of (e); ${note}`, percentile(values, 0.95) < 20];
		report([
			["(e) baseline: SDK echo server, p95", `${base.toFixed(2)} ms`, `median ${percentile(times.echo, 0.5).toFixed(2)} ms, the same transport and client`, true],
			row("search_sessions, all 10,000 sessions, p95", times.all, `${found} of ${CALLS} found sessions; answers up to ${largest} characters; target < 20 ms`),
			row("search_sessions, one project (500), p95", times.project, "target < 20 ms"),
			row("get_session by id prefix, p95", times.get, "target < 20 ms"),
			row(`recall_facts, ${FACTS} facts, p95`, times.facts, "target < 20 ms"),
			["start to first answer (reads the state)", `${ready.toFixed(0)} ms`, `first search alone ${first.toFixed(0)} ms; once per agent session`, true],
		]);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
