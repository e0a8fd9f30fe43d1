/**
 * The title evaluation: every non-empty main session of a corpus titled as the sync engine titles
 * it (`prepareSession`, with the `summary` lines of every file of the corpus resolved as the sync
 * state resolves them), then judged two ways. Against hand-written labels (eval/titles/labels.json):
 * the title names the session's subject when it contains one of the label's key words. And by
 * automatic checks that need no label: not narration, not the chat around a request ("I want
 * to…", "Can you…", "So…"), not a generic header or client boilerplate,
 * not cut in the middle of a word, not a slash command, not a pasted error, not a path, not in
 * another script or language than the prompts. A title is good when it passes both.
 * Run with `npm run eval:titles`.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { sessionFiles } from "./corpus-files";
import { parseTranscript } from "../test/fixtures/parse-transcript";
import { isEmptySession, promptsOf } from "../src/core/transcript/session-queries";
import { prepareSession } from "../src/core/ingest/prepare-session";
import { redactModelInPlace } from "../src/core/ingest/redact-model";
import { redactorFor } from "../src/core/ingest/redaction-policy";
import { isNarration } from "../src/core/digest/narration";
import { hash53 } from "../src/core/transcript/hash";
import { DEFAULT_SETTINGS } from "../src/core/settings";
import type { SessionModel } from "../src/core/transcript/session-model";

export interface TitleLabel {
	title: string;
	keywords: string[];
	lang: string;
}
export type Check = "narration" | "opener" | "header" | "cut" | "command" | "error" | "path" | "language";
export const CHECKS: readonly Check[] = ["narration", "opener", "header", "cut", "command", "error", "path", "language"];

export interface TitledSession {
	key: string;
	title: string;
	failed: Check[];
	/** Undefined when the session has no label. */
	onTopic?: boolean;
}
export interface TitleFigures {
	sessions: TitledSession[];
	labelled: number;
	/** Labelled sessions whose title is on topic and passes every check. */
	good: number;
	onTopic: number;
	/** Sessions (labelled or not) failing each check. */
	failures: Record<Check, number>;
	/** Sessions failing at least one check. */
	flawed: number;
}

export function loadTitleLabels(file: string, corpus: string): Record<string, TitleLabel> {
	const all = JSON.parse(readFileSync(file, "utf8")) as { corpora: Record<string, Record<string, TitleLabel>> };
	return all.corpora[corpus] ?? {};
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
const CJK_ALL = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;
const LETTER = /\p{L}/u;

/** Words only English uses among the languages of the corpora (English, Portuguese, Spanish). */
const ENGLISH = /\b(?:the|and|with|for|to|of|from|this|that|add|fix|should|when)\b/i;
const ROMANCE = /\b(?:de|da|do|das|dos|que|não|nao|para|com|uma|um|os|as|na|no|em|por|vc|você|pode|faca|faça|el|la|los|las|con|es|está|esta)\b/gi;

/** The language of the prompts, roughly: `cjk`, `romance` (Portuguese, Spanish) or `en`. */
export function promptLanguage(prompts: readonly string[]): "cjk" | "romance" | "en" {
	const text = prompts.join("\n").slice(0, 4000);
	const letters = [...text].filter((c) => LETTER.test(c)).length;
	const cjk = text.match(CJK_ALL)?.length ?? 0;
	if (letters > 0 && cjk / letters > 0.2) return "cjk";
	const words = text.split(/\s+/).length;
	const romance = text.match(ROMANCE)?.length ?? 0;
	return words > 0 && romance / words > 0.08 ? "romance" : "en";
}

const HEADER =
	/^(?:implement the following plan|plan(?: mode)?\b\s*:?\s*$|context\s*:?\s*$|summary\s*:?\s*$|overview\s*:?\s*$|untitled session$|this session is being continued|base directory for this skill|caveat\b|stop hook feedback|\[request interrupted|\[image\b|<[a-z-]+>|request interrupted|tool loaded|warmup$|hello\b|hi\b|hey\b)/i;
/** A title that starts as talk to the agent, not as its subject: first or second person, chit-chat. */
const OPENER = /^(?:i|i'm|im|i'd|i've|i'll|we|we're|we've|we'd|let's|lets|you|do you|can you|could you|would you|help me|there's|there is|so|ok|okay|hey|hi|also|please|pls|hmm|well)\b/i;
const ERROR = /^(?:\w*(?:error|exception)\b|traceback|uncaught|panic|fatal|warning\[|error\[|npm err|\s*at \S+ \(|e\d{4}\b)|\b\S+:\d+:\d+\b|\bexit code \d+/i;
const PATH = /^(?:[~.]?\/|@|[A-Za-z]:\\)\S+$|^\S+\/\S+\.\w{1,5}$/;
const DANGLING = /\b(?:and|or|the|a|an|to|of|with|for|in|on|from|that|which|but|so|is|e|de|para|com|o|a)$/i;

/** The checks a title fails, given the session's typed prompts (what it may have been cut from). */
export function titleChecks(title: string, prompts: readonly string[]): Check[] {
	const failed: Check[] = [];
	const t = title.trim();
	if (isNarration(t) || /^(?:i'll|i will|let me|now i|i'm going to|i am going to|here's|here is|perfect|great|done)\b/i.test(t)) failed.push("narration");
	if (OPENER.test(t)) failed.push("opener");
	if (HEADER.test(t)) failed.push("header");
	if (cutMidWord(t, prompts) || DANGLING.test(t.replace(/[…\s]+$/, ""))) failed.push("cut");
	if (/^\/[\w:-]+(?:\s|$)/.test(t) || t.includes("<command-")) failed.push("command");
	if (ERROR.test(t)) failed.push("error");
	if (PATH.test(t)) failed.push("path");
	const lang = promptLanguage(prompts);
	if ((lang === "cjk") !== CJK.test(t) && prompts.length > 0) failed.push("language");
	else if (lang === "romance" && ENGLISH.test(t) && (t.match(ROMANCE)?.length ?? 0) === 0) failed.push("language");
	return failed;
}

/** A title that is the start of a prompt, ending where the prompt's word goes on. */
function cutMidWord(title: string, prompts: readonly string[]): boolean {
	const stem = title.replace(/…$/, "");
	if (stem.length < 8) return false;
	const norm = (s: string) => s.replace(/\s+/g, " ");
	for (const p of prompts) {
		const text = norm(p);
		const at = text.indexOf(norm(stem));
		if (at < 0) continue;
		const next = text[at + norm(stem).length];
		const last = stem[stem.length - 1] ?? "";
		if (next !== undefined && /[\p{L}\p{N}]/u.test(next) && /[\p{L}\p{N}]/u.test(last) && !CJK.test(next)) return true;
	}
	return false;
}

/** True when the title contains one of the key words, at the start of a word (anywhere for CJK). */
export function onTopic(title: string, keywords: readonly string[]): boolean {
	const t = title.toLowerCase();
	return keywords.some((k) => {
		const key = k.toLowerCase();
		if (CJK.test(key)) return t.includes(key);
		let at = t.indexOf(key);
		while (at >= 0) {
			// A Latin word glued to CJK text (這是我的take home) starts a word too.
			const before = t[at - 1] ?? "";
			if (at === 0 || !/[\p{L}\p{N}]/u.test(before) || CJK.test(before)) return true;
			at = t.indexOf(key, at + 1);
		}
		return false;
	});
}

/** Every non-empty main session of the corpus with its title, as the sync engine makes it. */
export function corpusTitles(root: string): { key: string; title: string; prompts: string[] }[] {
	const settings = DEFAULT_SETTINGS;
	const spec = { enabled: settings.redaction.enabled, extraPatterns: settings.redaction.extraPatterns, offFor: [] };
	const read: { key: string; file: string; model: SessionModel }[] = [];
	// The sync state keeps every `summary` line read, keyed by its leaf; a session takes the last naming one of its messages.
	const summaries = new Map<number, string>();
	for (const file of sessionFiles(root).map((f) => join(root, f))) {
		const fileId = file.split("/").pop()!.slice(0, -".jsonl".length);
		const model = parseTranscript(readFileSync(file), fileId);
		for (const s of model.summaries) if (s.leafUuid && s.text) summaries.set(hash53(s.leafUuid), s.text);
		if (isEmptySession(model)) continue;
		redactModelInPlace(model, redactorFor(spec, model.cwd));
		read.push({ key: relative(root, file), file, model });
	}
	return read.map(({ key, file, model }) => {
		let summary: string | undefined;
		for (const [leaf, text] of summaries) if (model.index.seenUuids.has(leaf)) summary = text;
		const ready = prepareSession(model, summary, dirname(file).split("/").pop()!);
		const prompts = promptsOf(model)
			.filter((p) => p.kind === "prompt")
			.map((p) => p.text);
		return { key, title: ready.digest.title, prompts };
	});
}

export function scoreTitles(root: string, labels: Record<string, TitleLabel>): TitleFigures {
	const failures = Object.fromEntries(CHECKS.map((c) => [c, 0])) as Record<Check, number>;
	const sessions: TitledSession[] = [];
	let good = 0;
	let labelled = 0;
	let topical = 0;
	let flawed = 0;
	for (const { key, title, prompts } of corpusTitles(root)) {
		const failed = titleChecks(title, prompts);
		for (const c of failed) failures[c]++;
		if (failed.length > 0) flawed++;
		const label = labels[key];
		const hit = label ? onTopic(title, label.keywords) : undefined;
		if (label) {
			labelled++;
			if (hit) topical++;
			if (hit && failed.length === 0) good++;
		}
		sessions.push({ key, title, failed, ...(hit === undefined ? {} : { onTopic: hit }) });
	}
	return { sessions, labelled, good, onTopic: topical, failures, flawed };
}

const pct = (n: number, d: number) => (d === 0 ? "n/a" : `${((100 * n) / d).toFixed(1)} %`);

/** Prints the figures of each corpus, and each title with what it failed. */
export function report(corpusRoot: string, labelsFile: string, corpora: readonly string[], quiet: boolean): void {
	const say = (line = "") => process.stdout.write(`${line}\n`);
	for (const name of corpora) {
		const root = join(corpusRoot, name);
		try {
			statSync(root);
		} catch {
			say(`${name}: not found at ${root}, skipped`);
			continue;
		}
		const labels = loadTitleLabels(labelsFile, name);
		const f = scoreTitles(root, labels);
		say(`\n== ${name}`);
		say(`sessions: ${f.sessions.length}, labelled: ${f.labelled}`);
		say(`good titles (on topic and no flaw): ${f.good} of ${f.labelled} (${pct(f.good, f.labelled)}); on topic: ${f.onTopic} (${pct(f.onTopic, f.labelled)})`);
		say(`titles with a flaw: ${f.flawed} of ${f.sessions.length}: ${CHECKS.map((c) => `${c} ${f.failures[c]}`).join(", ")}`);
		if (quiet) continue;
		for (const s of f.sessions) {
			const mark = s.onTopic === undefined ? "  " : s.onTopic && s.failed.length === 0 ? "✓ " : "✗ ";
			const why = [...(s.onTopic === false ? ["off topic"] : []), ...s.failed].join(", ");
			say(`${mark}${s.title}${why ? `   [${why}]` : ""}${s.onTopic === false || s.failed.length > 0 ? `\n    ${s.key}${labels[s.key] ? `\n    label: ${labels[s.key]!.title}` : ""}` : ""}`);
		}
	}
}

// Run as a script (the bundle), not when a test imports the module.
if (require.main === module) {
	const repo = join(__dirname, "..", "..");
	const args = process.argv.slice(2);
	report(join(repo, "..", "shared", "corpus"), join(repo, "eval", "titles", "labels.json"), ["claude-transcripts", "claude-transcripts-2"], args.includes("--quiet"));
}
