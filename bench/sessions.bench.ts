import { mkdir, rm } from "node:fs/promises";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import MiniSearch from "minisearch";
import { digestSession, storedDigest } from "../src/core/digest/session-digest";
import { conversationTerms } from "../src/core/search/conversation-terms";
import { scanSessions, ConversationIndex, type SearchDoc } from "../src/core/search/conversation-index";
import { foldLines } from "../src/core/transcript/fold";
import { splitCompleteLines } from "../src/core/transcript/jsonl-lines";
import { createSession, serializeSession } from "../src/core/transcript/session-model";
import { emptySyncState, type SessionRecord } from "../src/core/sync/sync-state";
import { SessionCatalog } from "../src/node/session-catalog";
import { StateFolder } from "../src/node/state-folder";
import { SessionsView } from "../src/obsidian/sessions-view";
import { stubApp } from "../test/stubs/app";
import { Vault } from "../test/stubs/obsidian";
import { installDom } from "./plugin.bench";
import { pick, rng } from "./seeded-random";

/**
 * The Sessions view on 10,000 sessions, in-process, against baselines measured in the same run:
 *
 * - open: the view built in a DOM (happy-dom) on a state folder the sync's own code wrote (records
 *   and stored models of 10,000 folded sessions), from `open()` to the list on screen; baseline (o):
 *   reading and `JSON.parse`-ing the same session files, the least any list of them costs. Target
 *   under 200 ms.
 * - search: 300 queries typed as people type them (1–3 words, the last one half typed), over every
 *   prompt, reply and digest; our index against (s) a linear scan of the same text and against
 *   minisearch 7 with the same words (`conversationTerms`), for the choice of index. Target p95 under 50 ms.
 *
 * `node bench/run.mjs sessions`.
 */
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const QUERIES = 300;

/** The words of the generated sessions: programming words, then a long tail of names, drawn by rank like real text (Zipf). */
const COMMON = "the a to and of in is it for that this with on be we can fix add use test file error code function type value return change update make run check build new now should not all when from by".split(" ");
const TOPICS = "payments orders cart checkout invoice database postgres redis cache queue worker deploy staging release tests lint typescript react router auth login token refresh session logging metrics alerts docker kubernetes terraform migration schema index backup retry timeout webhook email search pagination upload images pnpm monorepo graphql parser tokenizer renderer compiler bundler watcher scheduler limiter throttle encoder decoder serializer endpoint handler middleware controller service repository adapter gateway proxy client server socket stream buffer channel".split(" ");
const SYLLABLES = "ka lo mi ne su ra to vi ze ba do fu gi ha ju ko li mo nu pe qu ri sa te wu xo yi zo".split(" ");
const NAMES = Array.from({ length: 30_000 }, (_, i) => {
	let n = i;
	let w = "";
	do {
		w += SYLLABLES[n % SYLLABLES.length];
		n = Math.floor(n / SYLLABLES.length);
	} while (n > 0);
	return `${w}${["Store", "Query", "Config", "View", "Job", "Event", "Rule", "Map"][i % 8]}`;
});
const WORDS = [...COMMON, ...TOPICS, ...NAMES];
const PROJECTS = ["shop-api", "web", "cli", "infra", "docs", "mobile", "billing", "search"];

/** A word by rank: rank k about as often as 1/k (log-uniform ranks). */
const zipf = (r: () => number, from = 0) => WORDS[Math.min(WORDS.length - 1, from + Math.floor(Math.pow(WORDS.length - from, r())) - 1)]!;
const sentence = (r: () => number, n: number) => Array.from({ length: n }, () => zipf(r)).join(" ");

/** One session's transcript lines, in Claude Code's shapes: a few prompts, each answered. */
function transcript(i: number, r: () => number): string {
	const day = new Date(Date.UTC(2024, 0, 1) + Math.floor((i / SESSIONS) * 700) * 86_400_000 + Math.floor(r() * 36_000_000));
	const cwd = `/home/dev/${PROJECTS[i % PROJECTS.length]}`;
	const sessionId = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
	const lines: unknown[] = [];
	let t = day.getTime();
	let uuid = 0;
	const env = () => ({ parentUuid: null, isSidechain: false, userType: "external", cwd, sessionId, version: "2.1.114", gitBranch: "main", timestamp: new Date((t += 20_000)).toISOString(), uuid: `${sessionId.slice(0, 24)}${String(uuid++).padStart(12, "0")}` });
	const turns = 2 + Math.floor(r() * 8);
	for (let k = 0; k < turns; k++) {
		lines.push({ ...env(), type: "user", message: { role: "user", content: `${sentence(r, 8)} ${pick(TOPICS, r)} ${sentence(r, 12)}.` } });
		const id = `msg_${i}_${k}`;
		lines.push({ ...env(), type: "assistant", requestId: `req_${id}`, message: { model: r() < 0.7 ? "claude-sonnet-4-5" : "claude-opus-4-5", id, type: "message", role: "assistant", content: [{ type: "text", text: `${sentence(r, 30)}. ${sentence(r, 40)}.` }], stop_reason: null, usage: { input_tokens: 20 + Math.floor(r() * 400), output_tokens: 50 + Math.floor(r() * 900), cache_read_input_tokens: Math.floor(r() * 40_000), cache_creation_input_tokens: Math.floor(r() * 4000) } } });
	}
	return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

/** A state folder as the sync leaves it: each session folded, digested, stored (records and models). */
async function writeState(dir: string): Promise<SearchDoc[]> {
	await rm(dir, { recursive: true, force: true });
	await mkdir(join(dir, "models"), { recursive: true });
	const folder = new StateFolder(dir);
	const state = emptySyncState();
	const r = rng(42);
	const docs: SearchDoc[] = [];
	for (let i = 0; i < SESSIONS; i++) {
		const path = `/home/dev/.claude/projects/p/${i}.jsonl`;
		const bytes = new TextEncoder().encode(transcript(i, r));
		const model = createSession(String(i));
		foldLines(model, splitCompleteLines(bytes, 1).lines);
		const digest = digestSession(model);
		const project = PROJECTS[i % PROJECTS.length]!;
		const tags = [`ai/${pick(TOPICS, r)}`, `ai/${zipf(r, COMMON.length)}`.toLowerCase()];
		const record: SessionRecord = { projectKey: `/home/dev/${project}`, project, projectPath: `/home/dev/${project}`, notePath: `AI Conversations/${project}/${i}.md`, written: true, digest: storedDigest(digest), tags, keywords: [] };
		state.sessions[path] = record;
		await folder.save({ file: { path, projectDir: "p", kind: "session", fileId: String(i), size: bytes.length, mtimeMs: 0, ino: i }, cursor: { offset: bytes.length, nextLineNo: 0, ino: i, head: "" }, model: serializeSession(model) });
		docs.push({ id: path, turns: [] });
	}
	await folder.flush(state);
	return docs;
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function queries(): string[] {
	const r = rng(7);
	return Array.from({ length: QUERIES }, () => {
		const n = 1 + Math.floor(r() * 3);
		// Words people search for: not the commonest ones.
		const words = Array.from({ length: n }, () => zipf(r, COMMON.length).toLowerCase());
		// The last word half typed, as the box sees it while someone types.
		const last = words[n - 1]!;
		words[n - 1] = last.slice(0, Math.max(3, Math.ceil(last.length * 0.6)));
		return words.join(" ");
	});
}

/** A query typed into the view's search box (with the DOM's own Event: Node has one the DOM refuses). */
function typeInto(view: SessionsView, q: string): void {
	const box = view.contentEl.querySelector<HTMLInputElement>(".acm-sessions-search")!;
	box.value = q;
	box.dispatchEvent(new (box.ownerDocument.defaultView as unknown as { Event: typeof Event }).Event("input"));
}

function timeEach(list: readonly string[], fn: (q: string) => unknown): number[] {
	return list.map((q) => {
		const start = performance.now();
		fn(q);
		return performance.now() - start;
	});
}

const dirBytes = (d: string) => readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0);

const heap = () => {
	(globalThis as { gc?: () => void }).gc?.();
	return process.memoryUsage().heapUsed;
};

export async function benchSessions(report: (rows: [string, string, string, boolean][]) => void, work: string): Promise<void> {
	installDom();
	const dir = join(work, "sessions-state");
	const made = performance.now();
	await writeState(dir);
	process.stdout.write(`  state of ${SESSIONS} sessions written in ${((performance.now() - made) / 1000).toFixed(1)} s\n`);

	// (o) the baseline: every session file read and parsed.
	const baselineRuns: number[] = [];
	const wholeRuns: number[] = [];
	const openRuns: number[] = [];
	const rowsRuns: number[] = [];
	let view: SessionsView | undefined;
	for (let round = 0; round < 5; round++) {
		const b0 = performance.now();
		JSON.parse(readFileSync(join(dir, "sync-state.json"), "utf8"));
		for (const name of readdirSync(join(dir, "catalog"))) JSON.parse(readFileSync(join(dir, "catalog", name), "utf8"));
		baselineRuns.push(performance.now() - b0);
		const w0 = performance.now();
		for (const name of readdirSync(join(dir, "sessions"))) JSON.parse(readFileSync(join(dir, "sessions", name), "utf8"));
		wholeRuns.push(performance.now() - w0);
		if (view) {
			// The last round's view closed, and its index filling stopped, before this round starts.
			await (view as unknown as { close(): Promise<void> }).close();
			await view.indexed;
		}
		const app = stubApp(new Vault(), "/nonexistent");
		const leaf = app.workspace.getLeaf();
		const catalog = new SessionCatalog(dir);
		view = new SessionsView(leaf as never, { source: () => catalog, prices: () => ({}), writeDashboard: async () => "" });
		const r0 = performance.now();
		await new SessionCatalog(dir).rows();
		rowsRuns.push(performance.now() - r0);
		const o0 = performance.now();
		await (view as unknown as { open(parent: Node): Promise<void> }).open(document.body);
		openRuns.push(performance.now() - o0);
	}
	const rowsInDom = view!.contentEl.querySelectorAll(".acm-session-row").length;
	const i0 = performance.now();
	await view!.indexed;
	const indexMs = performance.now() - i0;

	// The view's own path first, while nothing else of this benchmark is in memory.
	const qs = queries();
	for (const q of qs.slice(0, 20)) typeInto(view!, q);
	const tView = timeEach(qs, (q) => typeInto(view!, q));

	// The same documents for the three ways to search.
	const catalog = new SessionCatalog(dir);
	const rows = (await catalog.rows()).sessions;
	const docs = (await Promise.all(rows.map((row) => catalog.searchDoc(row.id)))).filter((d): d is SearchDoc => d !== undefined);
	const h0 = heap();
	const b1 = performance.now();
	const ours = new ConversationIndex();
	for (const d of docs) ours.add(d);
	const oursBuild = performance.now() - b1;
	const oursHeap = heap() - h0;
	const h1 = heap();
	const b2 = performance.now();
	const mini = new MiniSearch<{ id: number; text: string; doc: string; turn: number }>({ fields: ["text"], storeFields: ["doc", "turn"], tokenize: conversationTerms, processTerm: (t) => t, searchOptions: { prefix: (_term, i, terms) => i === terms.length - 1, combineWith: "AND" } });
	let unit = 0;
	for (const d of docs) mini.addAll(d.turns.map((t) => ({ id: unit++, text: t.text, doc: d.id, turn: t.turn })));
	const miniBuild = performance.now() - b2;
	const miniHeap = heap() - h1;

	for (const q of qs.slice(0, 20)) {
		ours.search(q);
		mini.search(q);
		scanSessions(docs, q);
	}
	const tOurs = timeEach(qs, (q) => ours.search(q, { limit: 1000 }));
	// The two baselines on the first 100 queries: a scan of 10,000 sessions takes a while.
	const tMini = timeEach(qs.slice(0, 100), (q) => mini.search(q));
	const tScan = timeEach(qs.slice(0, 100), (q) => scanSessions(docs, q, 1000));
	const found = qs.filter((q) => ours.search(q, { limit: 1 }).length > 0).length;
	const scanFound = qs.slice(0, 100).filter((q) => scanSessions(docs, q, 1).length > 0).length;
	const p95 = percentile(tOurs, 0.95);
	const open = percentile(openRuns, 0.5);
	const base = percentile(baselineRuns, 0.5);
	const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
	report([
		[`(o) baseline: read + parse ${SESSIONS} catalog entries`, `${base.toFixed(0)} ms`, `median of 5; ${mb(dirBytes(join(dir, "catalog")))} (the whole records: ${mb(dirBytes(join(dir, "sessions")))}, ${percentile(wholeRuns, 0.5).toFixed(0)} ms)`, true],
		["  of which: SessionCatalog.rows()", `${percentile(rowsRuns, 0.5).toFixed(0)} ms`, "the catalog read, rows made and sorted", true],
		["view opens: records read, list on screen", `${open.toFixed(0)} ms`, `${(open / base).toFixed(2)}x (o); ${rowsInDom} rows in the DOM; target < 200 ms`, open < 200],
		["search index filled from the stored models", `${(indexMs / 1000).toFixed(1)} s`, "in the background, the list usable meanwhile", true],
		[`(s) baseline: linear scan, p95`, `${percentile(tScan, 0.95).toFixed(1)} ms`, `median ${percentile(tScan, 0.5).toFixed(1)} ms; ${scanFound} of the first 100 queries found sessions (whole words only)`, true],
		["search (ConversationIndex), p95", `${p95.toFixed(1)} ms`, `median ${percentile(tOurs, 0.5).toFixed(2)} ms, ${(percentile(tScan, 0.95) / p95).toFixed(0)}x faster than (s); ${found} found; target < 50 ms`, p95 < 50],
		["search through the view (input to list), p95", `${percentile(tView, 0.95).toFixed(1)} ms`, `median ${percentile(tView, 0.5).toFixed(1)} ms`, percentile(tView, 0.95) < 50],
		["minisearch 7, same words, p95", `${percentile(tMini, 0.95).toFixed(1)} ms`, `median ${percentile(tMini, 0.5).toFixed(2)} ms (the first 100 queries)`, true],
		["build: ConversationIndex / minisearch", `${oursBuild.toFixed(0)} ms`, `minisearch ${miniBuild.toFixed(0)} ms; heap ${mb(oursHeap)} / ${mb(miniHeap)}`, true],
	]);
	await (view as unknown as { close(): Promise<void> }).close();
}
