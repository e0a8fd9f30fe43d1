/**
 * When a prompt deserves the project's memory (the context packet and the facts recall picks):
 * the UserPromptSubmit hook asks this for every prompt. Pure and deterministic, no model.
 *
 * In this order:
 * 1. **negative intent** suppresses: the user asks for a fresh start ("fresh start", "ignore previous
 *    context", "don't use memory", "without context", "새로 시작", "忽略之前", "前の会話を無視"…);
 * 2. **intent** fires: the prompt refers to earlier work ("remember", "last time", "continue",
 *    "where we left off", "as before", "지난번", "이어서", "之前", "上次", "继续", "前回", "続き"…);
 * 3. **complexity** fires: a multi-step or orchestration request (three numbered steps or more,
 *    "and then", "step by step", "make a plan", a sequence such as first/then/finally, a long
 *    prompt with many clauses), where the project's history is worth its tokens.
 *
 * Code (fenced blocks and inline `code`) is left out first: a pasted loop's `continue` is no intent.
 * English words match whole words; Korean, Chinese and Japanese phrases match inside the text.
 */

/** Per project (the `triggers` key of a project in data.json); every field optional. */
export interface RecallTriggerSettings {
	/** false: the hook never recalls for this project. Default true. */
	enabled?: boolean;
	/** More phrases that fire, in addition to the built-in ones. */
	intents?: string[];
	/** More phrases that suppress, in addition to the built-in ones. */
	negatives?: string[];
	/** false: only intent fires, never complexity. Default true. */
	complexity?: boolean;
}

export type TriggerDecision =
	| { fire: true; reason: "intent" | "complexity"; match: string }
	| { fire: false; reason: "disabled" | "negative" | "none"; match?: string };

/** The settings from whatever data.json holds (hand-edited, older, newer): unusable parts are dropped. */
export function readTriggerSettings(raw: unknown): RecallTriggerSettings {
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
	const o = raw as Record<string, unknown>;
	const phrases = (v: unknown) => (Array.isArray(v) ? v.filter((p): p is string => typeof p === "string" && p.trim() !== "").map((p) => p.trim()) : undefined);
	const out: RecallTriggerSettings = {};
	if (typeof o.enabled === "boolean") out.enabled = o.enabled;
	if (typeof o.complexity === "boolean") out.complexity = o.complexity;
	const intents = phrases(o.intents);
	if (intents && intents.length > 0) out.intents = intents;
	const negatives = phrases(o.negatives);
	if (negatives && negatives.length > 0) out.negatives = negatives;
	return out;
}

// A word boundary for alphabetic scripts (Latin, Greek, Cyrillic), where CJK text and punctuation
// count as boundaries too. Plain ranges, not \p{L}: a hook compiles these on every prompt, and
// Unicode property classes made that the slowest part of it (measured).
const LETTERS = "a-z0-9_\\u00c0-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff";
const W0 = `(?<![${LETTERS}])`;
const W1 = `(?![${LETTERS}])`;
const words = (source: string) => new RegExp(`${W0}(?:${source})${W1}`, "u");
/**
 * The Korean, Chinese and Japanese patterns: each of their matches holds a character outside ASCII,
 * so a prompt all in ASCII is not run through them (each is compiled on its first run, in every
 * hook: about half of a prompt's check).
 */
const OUTSIDE_ASCII = new WeakSet<RegExp>();
const inside = (source: string) => {
	const re = new RegExp(source, "u");
	OUTSIDE_ASCII.add(re);
	return re;
};
/** Whether a pattern may match a text (`OUTSIDE_ASCII`); `ascii`: the text is all ASCII. */
const mayMatch = (re: RegExp, ascii: boolean) => !ascii || !OUTSIDE_ASCII.has(re);
const isAscii = (text: string) => !/[\u0080-\uffff]/.test(text);

const NEGATIVES: readonly RegExp[] = [
	// English
	words("fresh start|start(?:ing)? (?:fresh|over|anew)|(?:clean|blank) slate"),
	words("ignore (?:all |any |the |your )?(?:previous|prior|earlier|past|old)(?: \\w+)?"),
	words("ignore (?:all |any |the |your )?(?:context|memory|memories|history)"),
	words("(?:don'?t|do not|no need to|never) (?:use|read|load|look at|check|consult|recall) (?:the |your |any |my |our )?(?:memory|memories|context|history|past sessions|previous sessions|earlier sessions|project memory)"),
	words("without (?:any |the |your |using |prior |previous |past |earlier )*(?:context|memory|memories|history)"),
	words("forget (?:everything|all of it|what we|the previous|previous|prior|the past|about (?:the )?(?:previous|past|earlier))"),
	// Korean
	inside("새로 시작|새롭게 시작|처음부터 새로|백지(?:에서|부터)"),
	inside("(?:이전|예전|지난|전)\\s?(?:대화|내용|맥락|기록|세션|컨텍스트)[을를은는]?\\s?(?:다\\s?)?무시"),
	inside("(?:기억|메모리|맥락|컨텍스트)[을를은는]?\\s?(?:사용하지|쓰지|참고하지|보지)\\s?(?:말|마)"),
	inside("(?:기억|메모리|맥락|컨텍스트|이전 내용)\\s?없이"),
	inside("(?:다|전부|모두)\\s?잊(?:고|어)"),
	// Chinese
	inside("忽略(?:之前|以前|先前|上次|过去|過去|历史|歷史|上下文|记忆|記憶)"),
	inside("不(?:要|需要|用)?(?:使用|用|参考|參考|看|读取|讀取)(?:之前的|以前的|过去的|過去的)?(?:记忆|記憶|上下文|历史|歷史|对话|對話|会话|會話)"),
	inside("(?:没有|沒有|无|無|不带|不帶)上下文|重新开始|重新開始|全新开始|全新開始|忘掉(?:之前|以前|过去|過去)|忘记(?:之前|以前)"),
	// Japanese
	inside("(?:前|以前|過去|これまで)の(?:会話|内容|文脈|コンテキスト|記憶|セッション)を?無視"),
	inside("(?:記憶|メモリ|メモリー|コンテキスト|文脈)を?(?:使わない|使わず|参照しない|参照せず|見ない)"),
	inside("(?:記憶|メモリ|メモリー|コンテキスト|文脈)(?:なし|無し)で"),
	inside("新しく始め|一から始め|白紙(?:から|に戻)|(?:全部|すべて|全て)忘れ"),
];

const INTENTS: readonly RegExp[] = [
	// English
	words("remember(?:s|ed|ing)?|do you recall|recall (?:what|how|why|where|when|the|our|that)"),
	words("last (?:time|session|week|night|conversation|chat)|(?:previous|earlier|prior|last) (?:session|conversation|chat)s?"),
	words("continu(?:e|es|ed|ing)|carry on|keep going|go on with|resume (?:the|our|where|from|work|working|with|it|this|that)|let'?s resume"),
	words("(?:pick|picking) (?:it |this |that )?(?:back )?up (?:where|from)|where (?:we|i|you) (?:left|stopped)|left off|where were we"),
	words("(?:as|like|same as|just like) (?:before|last time|we discussed|discussed|agreed|planned|we did|we said)"),
	words("we (?:discussed|talked about|agreed|decided|were working on|worked on)|what (?:did|were) we|previously|yesterday|earlier today|the other day"),
	// Korean
	inside("지난\\s?번|저번|지난\\s?(?:세션|대화|시간)|이전\\s?(?:세션|대화|작업)|이어서|이어 ?가|계속\\s?(?:해(?!서)|하(?:자|세요|고|기|면|던)|진행)|아까|전에 (?:했던|하던|말한|얘기한)|이전에|하던\\s?(?:거|것|작업|일)|마저|기억(?:나|하|해|해\\s?둔)|(?:예전|전|지난번)(?:처럼|과 같이|대로)"),
	// Chinese
	inside("之前|上次|上一次|上回|继续|繼續|接着|接著|以前|先前|刚才|剛才|记得|記得|回忆|回憶|(?:像|和|跟)(?:之前|上次)一样"),
	// Japanese
	inside("前回|続き|続けて|続行|引き続き|以前|この前|覚えて|思い出|さっき|先ほど|再開|前と同じ|前(?:の|みたい|のよう)に|前のセッション"),
];

const COMPLEXITY_PHRASES: readonly RegExp[] = [
	// English
	words("step[- ]by[- ]step|and then|multi[- ]?step|(?:several|multiple|many|a few) steps|in (?:several |multiple )?(?:phases|stages)|roadmap|orchestrat\\w*"),
	words("(?:make|write|draft|create|come up with|propose|give me|outline|prepare) (?:a |an |the |me a )?(?:\\w+ )?plan|plan (?:out|for|how)|planning"),
	words("break (?:it|this|that|the \\w+|them) (?:down|up|into)"),
	// Korean
	inside("단계별|단계적으로|순서대로|그 ?다음에|그리고 나서|그런 다음|계획(?:을|부터)? ?(?:세워|세우|짜|수립)"),
	// Chinese
	inside("一步一步|一步步|逐步|分步|分阶段|分階段|(?:制定|做|写|寫|列)(?:一个|一個|个|個)?计划|規劃|规划|然后再|然後再"),
	// Japanese
	inside("ステップバイステップ|段階的|順番に|順を追って|手順を|計画を(?:立て|作)|それから|その後で?"),
];

/** Words that put steps in order: three different ones make a sequence. */
const SEQUENCE_WORDS: readonly RegExp[] = [
	words("first(?:ly)?|to begin with"),
	words("second(?:ly)?|then|next|after that|afterwards"),
	words("third(?:ly)?|finally|lastly|at the end"),
	inside("먼저|우선|첫째"),
	inside("다음으로|그 ?다음|둘째|이후에"),
	inside("마지막으로|셋째"),
	inside("首先|第一步|第一"),
	inside("其次|然后|然後|接下来|接下來|第二步|第二"),
	inside("最后|最後|第三步|第三"),
	inside("まず|最初に|第一に"),
	inside("次に|それから|その後"),
	inside("最後に|最終的に"),
];

const NUMBERED_ITEM = /^\s*(?:\(?\d{1,2}[.)](?!\d)|\d{1,2}\s*(?:、|:(?!\d))|第[一二三四五六七八九十\d]+(?:步|段階|단계)?[:：、.]?)\s*\S/u;
const BULLET_ITEM = /^\s*[-*•・]\s+\S/u;
const INLINE_NUMBERS = /(?:^|\s)\(?(\d)[.)]\s+\S/gu;
/** Weighted length over which a prompt with many clauses counts as complex. */
const LONG_PROMPT = 300;
const MANY_CLAUSES = 6;
/** Weighted length over which any prompt counts as complex. */
const VERY_LONG_PROMPT = 1600;

/** How much of each end of a long prompt the hook reads: what the person typed around a paste is there. */
const PROMPT_END_CHARS = 32_768;

/**
 * A prompt of any length as the hook weighs it and recalls for it: its first and last 32 K
 * characters. A 15 MB paste, split into lines and clauses and normalized whole, took the hook past
 * 1 GB: under `ulimit -v` V8 ended it (exit 134, its heap on stderr, which Claude Code shows).
 */
export function promptEnds(prompt: string): string {
	return prompt.length <= 2 * PROMPT_END_CHARS ? prompt : `${prompt.slice(0, PROMPT_END_CHARS)}\n${prompt.slice(-PROMPT_END_CHARS)}`;
}

export function evaluateRecallTrigger(prompt: string, settings: RecallTriggerSettings = {}): TriggerDecision {
	if (settings.enabled === false) return { fire: false, reason: "disabled" };
	const text = normalize(prompt);
	if (text.trim() === "") return { fire: false, reason: "none" };

	const negative = firstMatch(text, [...NEGATIVES, ...(settings.negatives ?? []).map(phrase)]);
	if (negative !== undefined) return { fire: false, reason: "negative", match: negative };
	const intent = firstMatch(text, [...INTENTS, ...(settings.intents ?? []).map(phrase)]);
	if (intent !== undefined) return { fire: true, reason: "intent", match: intent };
	if (settings.complexity !== false) {
		const complex = complexity(text);
		if (complex !== undefined) return { fire: true, reason: "complexity", match: complex };
	}
	return { fire: false, reason: "none" };
}

/** What makes the prompt a multi-step request, if anything. */
function complexity(text: string): string | undefined {
	const phrase = firstMatch(text, COMPLEXITY_PHRASES);
	if (phrase !== undefined) return phrase;
	const lines = text.split("\n");
	const numbered = lines.filter((l) => NUMBERED_ITEM.test(l)).length;
	if (numbered >= 3) return `${numbered} numbered steps`;
	const inline = new Set([...text.matchAll(INLINE_NUMBERS)].map((m) => m[1]));
	if (inline.size >= 3) return `${inline.size} numbered steps`;
	const bullets = lines.filter((l) => BULLET_ITEM.test(l)).length;
	if (bullets >= 4) return `${bullets} list items`;
	// Position words in three groups (first / then / finally) within one language.
	const ascii = isAscii(text);
	for (let i = 0; i + 2 < SEQUENCE_WORDS.length; i += 3) {
		const hits = SEQUENCE_WORDS.slice(i, i + 3).map((re) => (mayMatch(re, ascii) ? re.exec(text)?.[0] : undefined));
		if (hits.every((h) => h !== undefined)) return hits.join(" … ");
	}
	// Length and clauses count prose only: a pasted log or page is long without being a task.
	const words = prose(text);
	const length = weightedLength(words);
	if (length >= VERY_LONG_PROMPT) return `a long prompt (${length} characters)`;
	const clauses = words.split(/[.!?。！？;；\n]+|,\s*(?:and|but|then|also)\s|，|、/u).filter((c) => c.trim().length >= 3).length;
	if (length >= LONG_PROMPT && clauses >= MANY_CLAUSES) return `a long prompt with ${clauses} clauses`;
	return undefined;
}

const LETTER = /\p{L}/gu;

/**
 * Letters in `chars`: in ASCII the same count as `\p{L}`'s, without it (compiling `\p{L}` builds
 * its Unicode set, a few milliseconds of a hook that runs on every prompt).
 */
function letterCount(chars: string): number {
	return (isAscii(chars) ? chars.match(/[A-Za-z]/g) : chars.match(LETTER))?.length ?? 0;
}

/**
 * A URL: its scheme is held to 32 characters (real ones have a few). Unbounded, each word start of a
 * pasted `a.b.c-d…` run scanned the rest of the run for `://`: 160 KB of it held the prompt hook 15 s.
 */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]{0,31}:\/\/\S+/g;

/** Lines that read as sentences: URLs dropped, and lines that are mostly digits and symbols (logs, markup). */
function prose(text: string): string {
	return text
		.replace(URL_PATTERN, " ")
		.split("\n")
		.filter((line) => {
			const chars = line.replace(/\s/g, "");
			const letters = letterCount(chars);
			return chars !== "" && letters / chars.length >= 0.7 && !/^\d{1,2}:\d\d/.test(line.trim());
		})
		.join("\n");
}

/**
 * The prompt without code, lower case, with the usual typographic variants folded (’ → ',
 * full-width letters → ASCII), so that the patterns above see one spelling.
 */
function normalize(prompt: string): string {
	return prompt
		// NFKC would make ① a bare 1: keep it a numbered item.
		.replace(/[\u2460-\u2473]/g, (c) => `${c.charCodeAt(0) - 0x2460 + 1}. `)
		.normalize("NFKC")
		.replace(/(`{3,}|~{3,})[^]*?(?:\1|$)/g, " ")
		.replace(/`[^`\n]*`/g, " ")
		.replace(/[\u2018\u2019\u02bc]/g, "'")
		.toLowerCase();
}

/** A user's phrase: whole words when it starts or ends with a Latin letter or digit, else anywhere. */
function phrase(text: string): RegExp {
	const p = normalize(text).trim();
	const escaped = p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
	const start = /^[a-z0-9]/.test(p) ? W0 : "";
	const end = /[a-z0-9]$/.test(p) ? W1 : "";
	return new RegExp(`${start}${escaped}${end}`, "u");
}

function firstMatch(text: string, patterns: readonly RegExp[]): string | undefined {
	const ascii = isAscii(text);
	for (const re of patterns) {
		if (!mayMatch(re, ascii)) continue;
		const m = re.exec(text);
		if (m) return m[0];
	}
	return undefined;
}

/** Characters, with a Han, kana or Hangul character counting for three (about one English word's worth). */
function weightedLength(text: string): number {
	// ASCII has none of them (and the pattern need not be compiled).
	if (isAscii(text)) return text.length;
	let n = 0;
	for (const ch of text) n += /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(ch) ? 3 : 1;
	return n;
}
