// Topic-tag evaluation over the real transcripts in ../shared/corpus.
//
// For every non-empty main session (sub-agent transcripts are left out) of each corpus, the tags
// are worked out as the sync engine does (src/core/sync/sync-engine.ts): each session prepared on
// its own (`prepareSession`: digest, prompt terms, file/command/tool signals, its own project from
// its cwd), the keyword stats built over all sessions of the corpus, then `topicTags` with the
// default settings (prefix `ai/`, no rules, max 5). The sources are bundled with esbuild into a
// temporary folder on each run, so the figures are always those of the code in the working tree.
//
//   node scripts/eval/tags.mjs                 figures, and the tags of every session
//   node scripts/eval/tags.mjs --quiet         figures only
//   node scripts/eval/tags.mjs --json out.json also writes { corpus: { session: [tags] } }
//   node scripts/eval/tags.mjs --score FILE    scores such a file (eval/tags/before.json: the tags of
//                                              the code before the evidence rules) instead
//   node scripts/eval/tags.mjs --with-context  also passes each session's project path and git
//                                              branches (TagInput.projectPath/branches), as the sync
//                                              engine's tagInput() (src/core/plan/plan-sync.ts) does
//
// Labels: eval/tags/labels.json for the first corpus (every tag the code produced, judged "good" —
// a topic a person would file the session under — or "bad"), eval/tags/labels-2.json for the second
// (good and bad tags written from the sessions before their tags were looked at, so a produced tag
// may be in neither list: it is counted apart as not labelled). Precision = good / labelled tags
// produced; recall = good tags produced / all good tags in the labels.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForNode } from "../node-bundle.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const corpusRoot = resolve(repo, "..", "shared", "corpus");
const CORPORA = ["claude-transcripts", "claude-transcripts-2"];
/** Each corpus's labels: the first corpus's judged from the code's tags, the second's written from the sessions first. */
const LABELS = { "claude-transcripts": join(repo, "eval", "tags", "labels.json"), "claude-transcripts-2": join(repo, "eval", "tags", "labels-2.json") };

const args = process.argv.slice(2);
const quiet = args.includes("--quiet");
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;
const withContext = args.includes("--with-context");
const scoreFile = args.includes("--score") ? args[args.indexOf("--score") + 1] : undefined;
const saved = scoreFile ? JSON.parse(readFileSync(scoreFile, "utf8")) : undefined;

const entry = `
export { parseTranscript } from "./test/fixtures/parse-transcript";
export { isEmptySession } from "./src/core/transcript/session-queries";
export { prepareSession, promptText } from "./src/core/ingest/prepare-session";
export { buildKeywordStats, topicTags } from "./src/core/digest/topic-tags";
export { redactModelInPlace } from "./src/core/ingest/redact-model";
export { redactorFor } from "./src/core/ingest/redaction-policy";
export { DEFAULT_SETTINGS } from "./src/core/settings";
`;
const core = saved ? undefined : await loadCore();

/** The core functions the sync engine uses, bundled from src/ (CommonJS, loaded with require). */
async function loadCore() {
	const dir = mkdtempSync(join(tmpdir(), "ai-memory-eval-"));
	try {
		const outfile = join(dir, "core.cjs");
		await bundleForNode({ stdin: { contents: entry, resolveDir: repo, loader: "ts", sourcefile: "eval-entry.ts" }, outfile });
		return createRequire(import.meta.url)(outfile);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const print = (line = "") => process.stdout.write(`${line}\n`);

/** Main session transcripts: `.jsonl` files, not `agent-*.jsonl`, not under a `subagents/` folder. */
function sessionFiles(dir) {
	return readdirSync(dir)
		.sort()
		.flatMap((name) => {
			const path = join(dir, name);
			if (statSync(path).isDirectory()) return name === "subagents" || name === "memory" ? [] : sessionFiles(path);
			return name.endsWith(".jsonl") && !name.startsWith("agent-") ? [path] : [];
		});
}

/** Tags of every non-empty main session of one corpus, keyed by its path in the corpus. */
function corpusTags(root) {
	const { DEFAULT_SETTINGS: settings } = core;
	const spec = { enabled: settings.redaction.enabled, extraPatterns: settings.redaction.extraPatterns, offFor: [] };
	const sessions = [];
	for (const file of sessionFiles(root)) {
		const fileId = file.split("/").pop().slice(0, -".jsonl".length);
		const model = core.parseTranscript(readFileSync(file), fileId);
		if (core.isEmptySession(model)) continue;
		core.redactModelInPlace(model, core.redactorFor(spec, model.cwd));
		const ready = core.prepareSession(model, undefined, dirname(file).split("/").pop());
		sessions.push({ key: relative(root, file), model, ready });
	}
	const stats = core.buildKeywordStats(sessions.map((s) => s.ready.terms.map((t) => t.term)));
	const out = new Map();
	for (const { key, model, ready } of sessions) {
		const d = ready.digest;
		const input = {
			project: ready.project,
			files: [...d.filesTouched, ...d.filesRead],
			tools: d.tools,
			prompts: core.promptText(model),
			commands: d.commands,
			occurrences: ready.terms,
			signals: ready.signals,
			...(withContext ? { projectPath: d.projectPath, branches: model.branches } : {}),
		};
		const tags = core.topicTags(input, stats, { prefix: settings.tagPrefix, rules: settings.keywordRules, max: 5 });
		out.set(key, { tags, title: d.title, project: ready.project });
	}
	return out;
}

const pct = (n, d) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)} %`);
const dump = {};

for (const name of CORPORA) {
	const root = join(corpusRoot, name);
	if (!saved && !existsSync(root)) {
		print(`${name}: not found at ${root}, skipped`);
		continue;
	}
	const result = saved ? new Map(Object.entries(saved[name] ?? {}).map(([key, tags]) => [key, { tags, title: "" }])) : corpusTags(root);
	dump[name] = Object.fromEntries([...result].map(([k, v]) => [k, v.tags]));
	const topicCounts = [...result.values()].map((r) => r.tags.length - 1);
	const topics = topicCounts.reduce((a, b) => a + b, 0);
	print(`\n== ${name}${saved ? ` (as saved in ${scoreFile})` : withContext ? " (with project paths and branches)" : ""}`);
	print(`sessions: ${result.size}`);
	print(`tags per session: ${(topics / Math.max(result.size, 1)).toFixed(2)} topic tags + the project tag (${topics} topic tags in all; sessions with none: ${topicCounts.filter((n) => n === 0).length})`);
	if (LABELS[name] && existsSync(LABELS[name])) {
		const labels = JSON.parse(readFileSync(LABELS[name], "utf8")).sessions;
		let good = 0;
		let bad = 0;
		let goodTopics = 0;
		let badTopics = 0;
		let allGood = 0;
		let allGoodTopics = 0;
		// A session's tags hold the project tag and 5 topics: more good tags than that cannot all be produced.
		let attainable = 0;
		const unlabelled = [];
		const badProduced = [];
		for (const [key, { tags }] of result) {
			const judged = labels[key]?.tags ?? {};
			const goods = Object.values(judged).filter((v) => v === "good").length;
			allGood += goods;
			attainable += Math.min(goods, 6);
			for (const [tag, verdict] of Object.entries(judged)) if (verdict === "good" && !tag.includes("/project/")) allGoodTopics++;
			tags.forEach((tag, i) => {
				const verdict = judged[tag];
				if (verdict === undefined) unlabelled.push(`${key}: ${tag}`);
				else if (verdict === "good") {
					good++;
					if (i > 0) goodTopics++;
				} else {
					bad++;
					if (i > 0) badTopics++;
					badProduced.push(`${tag} (${labels[key]?.why?.[tag] ?? "bad"})`);
				}
			});
		}
		print(`precision, all tags: ${pct(good, good + bad)} (${good} good of ${good + bad} labelled)`);
		print(`precision, topic tags (project tag left out): ${pct(goodTopics, goodTopics + badTopics)} (${goodTopics} good of ${goodTopics + badTopics})`);
		print(`recall of good tags: ${pct(good, allGood)} (${good} of ${allGood}); of good topic tags: ${pct(goodTopics, allGoodTopics)} (${goodTopics} of ${allGoodTopics})`);
		print(`recall of what six tags a session can hold: ${pct(good, attainable)} (${good} of ${attainable})`);
		if (badProduced.length > 0) print(`bad tags produced: ${badProduced.join(", ")}`);
		if (unlabelled.length > 0) print(`not labelled: ${unlabelled.length} of ${good + bad + unlabelled.length} tags produced${quiet ? "" : `:\n  ${unlabelled.join("\n  ")}`}`);
	}
	if (!quiet) {
		print("");
		for (const [key, { tags, title }] of result) print(`${key}${title ? `\n  ${title.replace(/\s+/g, " ").slice(0, 90)}` : ""}\n  → ${tags.join(" ")}`);
	}
}

if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(dump, null, "\t")}\n`);
