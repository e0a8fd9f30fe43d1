import { performance } from "node:perf_hooks";
import type { FactInfo } from "../src/core/memory/fact-file";
import { RecallIndex } from "../src/core/memory/recall";
import { pick, rng } from "./seeded-random";

/**
 * Recall over 10,000 facts, in-process: build the index (done at sync time), load it from its
 * stored JSON (what a hook does), and answer prompts. Compared with the obvious baseline measured
 * in the same run: a linear scan that lower-cases every description and looks for each query word.
 */
const FACTS = 10_000;
const QUERIES = 300;

const EN = "payments orders cart checkout invoice database postgres redis cache queue worker deploy staging release tests lint typescript react router auth login token session logging metrics alerts docker kubernetes terraform migration schema index backup retry timeout webhook email search pagination upload images pnpm monorepo api graphql".split(" ");
const KO = "결제 주문 장바구니 배포 테스트 데이터베이스 캐시 로그인 인증 로그 모니터링 마이그레이션 스키마 백업 재시도 검색 페이지네이션 업로드 이미지 알림".split(" ");
const VERBS = ["always use", "never touch", "prefer", "we decided on", "remember that", "run", "keep", "avoid"];


function makeFacts(): FactInfo[] {
	const r = rng(7);
	return Array.from({ length: FACTS }, (_, i) => {
		const korean = r() < 0.2;
		const words = Array.from({ length: 3 + Math.floor(r() * 5) }, () => pick(korean ? KO : EN, r));
		const description = korean ? `${words.join(" ")}는 항상 먼저 확인한다` : `${pick(VERBS, r)} ${words.join(" ")} for the ${pick(EN, r)} service`;
		return { file: `fact-${i}.md`, name: `${words[0]}-${words[1]}-${i}`, description, modified: `2026-${String(1 + (i % 12)).padStart(2, "0")}-01T00:00:00Z` };
	});
}

function makeQueries(): string[] {
	const r = rng(11);
	return Array.from({ length: QUERIES }, () => (r() < 0.2 ? `지난번 ${pick(KO, r)} ${pick(KO, r)} 어떻게 했지?` : `Continue where we left off with the ${pick(EN, r)} ${pick(EN, r)} and ${pick(EN, r)}`));
}

function naive(facts: readonly FactInfo[], query: string, limit: number): FactInfo[] {
	const words = query.toLowerCase().split(/\s+/).filter((w) => w.length > 2);
	const scored: [FactInfo, number][] = [];
	for (const f of facts) {
		const text = `${f.name} ${f.description}`.toLowerCase();
		const hits = words.filter((w) => text.includes(w)).length;
		if (hits > 0) scored.push([f, hits]);
	}
	return scored.sort((a, b) => b[1] - a[1]).slice(0, limit).map(([f]) => f);
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

function timeEach(queries: readonly string[], fn: (q: string) => unknown): number[] {
	return queries.map((q) => {
		const start = performance.now();
		fn(q);
		return performance.now() - start;
	});
}

export function benchRecall(report: (rows: [string, string, string, boolean][]) => void): void {
	const facts = makeFacts();
	const queries = makeQueries();
	const start = performance.now();
	const built = RecallIndex.build(facts);
	const buildMs = performance.now() - start;
	const json = JSON.stringify(built.serialize());
	const loadStart = performance.now();
	const index = RecallIndex.restore(JSON.parse(json));
	const loadMs = performance.now() - loadStart;
	for (const q of queries.slice(0, 20)) index.recall(q, 5); // warm up both, equally
	for (const q of queries.slice(0, 20)) naive(facts, q, 5);
	const ours = timeEach(queries, (q) => index.recall(q, 5));
	const base = timeEach(queries, (q) => naive(facts, q, 5));
	const p50 = percentile(ours, 0.5);
	const p95 = percentile(ours, 0.95);
	const baseP50 = percentile(base, 0.5);
	const found = queries.filter((q) => index.recall(q, 5).length > 0).length;
	report([
		[`(r) baseline: linear scan of ${FACTS} descriptions`, `${baseP50.toFixed(2)} ms`, "median per prompt", true],
		["recall(prompt, 5), median", `${p50.toFixed(2)} ms`, `${(p50 / baseP50).toFixed(2)}x of (r); target well under 20 ms`, p50 < 20],
		["recall(prompt, 5), 95th percentile", `${p95.toFixed(2)} ms`, `${found} of ${QUERIES} prompts found facts`, p95 < 20],
		["load the stored index (a hook's start)", `${loadMs.toFixed(0)} ms`, `${(json.length / 1024 / 1024).toFixed(1)} MiB of JSON`, true],
		["build the index (at sync time)", `${buildMs.toFixed(0)} ms`, "", true],
	]);
}
