/**
 * Candidate keywords of a session's prompts and how much each stands out against all sessions.
 *
 * Prompts are cut into words with `Intl.Segmenter` (dictionary based for Chinese and Japanese),
 * then normalized per script: Latin is lower-cased and singularized, Korean loses its particles
 * and verb endings, Japanese and Chinese lose grammar words. Stop words never count. Two adjacent
 * kept words also make a phrase candidate (`rate limiting` → `rate-limiting`, 用户+列表 → 用户列表).
 */
import { isKnownTopic, KEYWORD_ALIASES } from "./catalog";
import {
	EN_LY_ED_OK, EN_NO_STEM, EN_SHORT_OK, EN_STOP, HAN_SUFFIXES, JA_STOP, KO_HADA_ENDINGS, KO_NOUNS, KO_PARTICLES, KO_STOP, KO_VERB_ENDINGS, ZH_STOP,
} from "./stopwords";

/** Document frequencies of prompt keywords over all sessions (the "whole corpus"), built once per sync. */
export interface KeywordStats {
	documents: number;
	df: ReadonlyMap<string, number>;
}

/** One kept term in a session's prompts. */
export interface TermOccurrence {
	term: string;
	/** For a phrase made of two adjacent words (not written as one), those words. */
	parts?: readonly [string, string];
	/** Index of the prompt it came from. */
	prompt: number;
	/** Running index over the session's kept terms: earlier is smaller. */
	position: number;
}

/** A prompt keyword picked for a session, best first. */
export interface ScoredKeyword {
	term: string;
	score: number;
	position: number;
	/** The words it is made of: itself for a single word. */
	parts: readonly string[];
}

type Script = "latin" | "hangul" | "cjk";
/** What separates a token from the one before it. */
type Gap = "none" | "space" | "hyphen" | "break";

interface Token {
	text: string;
	script: Script;
	gap: Gap;
	/** Made only of one-character Han words glued together (分|页 → 分页). */
	glued?: boolean;
}

interface Kept {
	term: string;
	script: Script;
	gap: Gap;
	/** A Korean particle was stripped: the noun phrase ends here. */
	endsPhrase: boolean;
	/** A known topic (`docker`, `testing`): a tag of its own, never part of a phrase. */
	known: boolean;
}

/** Prompts longer than this are pasted material (logs, files); only their start counts. */
const MAX_PROMPT_CHARS = 4000;
const MAX_TERM_CHARS = 30;

/** Normalized candidate terms of one session's prompts, in order, repeated as often as they occur. */
export function keywordsOf(prompts: readonly string[]): string[] {
	return termOccurrences(prompts).map((o) => o.term);
}

/** Document frequencies over sessions; each session is its `keywordsOf` list (repeats count once). */
export function buildKeywordStats(sessions: readonly (readonly string[])[]): KeywordStats {
	const df = new Map<string, number>();
	for (const terms of sessions) for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
	return { documents: sessions.length, df };
}

export function termOccurrences(prompts: readonly string[]): TermOccurrence[] {
	const out: TermOccurrence[] = [];
	prompts.forEach((prompt, index) => {
		let previous: Kept | undefined;
		for (const kept of keptTerms(tokensOf(clean(prompt)))) {
			if (kept === undefined) {
				previous = undefined;
				continue;
			}
			const joined = previous ? phraseOf(previous, kept) : undefined;
			const phrase = joined === undefined ? undefined : (KEYWORD_ALIASES.get(joined) ?? joined);
			if (phrase && previous) out.push({ term: phrase, parts: [previous.term, kept.term], prompt: index, position: out.length });
			out.push({ term: kept.term, prompt: index, position: out.length });
			previous = kept.endsPhrase ? undefined : kept;
		}
	});
	return out;
}

/**
 * Prompt keywords ranked against the corpus, BM25 style: idf × saturated term frequency, where words
 * of the first prompt (the session's goal) count twice. Dropped: terms in more than half of the
 * sessions (and phrases with such a word), terms scoring below half of what a term unique to this session would score, and the
 * words in `exclude` (the project name). A phrase of two adjacent words is a candidate when it
 * recurs (twice in the session or in another session), or when it is in the first prompt and its
 * words never occur apart in the session; a picked phrase replaces its words and no two picked
 * phrases share a word.
 * Ties go to the earlier term.
 */
export function rankKeywords(occurrences: readonly TermOccurrence[], stats: KeywordStats, limit: number, exclude: ReadonlySet<string> = new Set()): ScoredKeyword[] {
	const seen = new Map<string, { weighted: number; count: number; position: number; parts: readonly string[] | undefined }>();
	for (const o of occurrences) {
		const entry = seen.get(o.term) ?? { weighted: 0, count: 0, position: o.position, parts: o.parts };
		entry.weighted += o.prompt === 0 ? 2 : 1;
		entry.count += 1;
		if (!o.parts) entry.parts = undefined;
		seen.set(o.term, entry);
	}
	const firstPrompt = new Set(occurrences.filter((o) => o.prompt === 0).map((o) => o.term));
	const scored: ScoredKeyword[] = [];
	for (const [term, { weighted, count, position, parts }] of seen) {
		if (exclude.has(term) || parts?.some((p) => exclude.has(p))) continue;
		const df = Math.max(stats.df.get(term) ?? 0, 1);
		const documents = Math.max(stats.documents, df);
		if ([term, ...(parts ?? [])].some((t) => isCommon(t, stats))) continue;
		if (parts && count < 2 && df < 2 && !(firstPrompt.has(term) && parts.every((p) => seen.get(p)?.count === count))) continue;
		const score = idf(documents, df) * ((weighted * (K1 + 1)) / (weighted + K1));
		if (score < MIN_SCORE_RATIO * idf(documents, 1)) continue;
		scored.push({ term, score, position, parts: parts ?? wordsOf(term) });
	}
	scored.sort((a, b) => b.score - a.score || a.position - b.position);
	const picked: ScoredKeyword[] = [];
	for (const candidate of scored) {
		if (picked.length >= limit) break;
		if (picked.some((p) => p.term === candidate.term || p.parts.includes(candidate.term))) continue;
		if (candidate.parts.length > 1 && picked.some((p) => p.parts.length > 1 && p.parts.some((w) => candidate.parts.includes(w)))) continue;
		for (let i = picked.length - 1; i >= 0; i--) if (candidate.parts.includes(picked[i]?.term ?? "")) picked.splice(i, 1);
		picked.push(candidate);
	}
	return picked.sort((a, b) => b.score - a.score || a.position - b.position);
}

/** The words of a hyphenated term (`rate-limiting`), or the term alone. */
function wordsOf(term: string): readonly string[] {
	return term.includes("-") ? term.split("-") : [term];
}

/** In more than half of the sessions (and there are at least two). */
function isCommon(term: string, stats: KeywordStats): boolean {
	const df = stats.df.get(term) ?? 0;
	return stats.documents >= 2 && df > stats.documents / 2;
}

const K1 = 1.2;
const MIN_SCORE_RATIO = 0.5;

function idf(documents: number, df: number): number {
	return Math.log(1 + (documents - df + 0.5) / (df + 0.5));
}

// ---------------------------------------------------------------------------------------------
// Cleaning and segmentation

function clean(text: string): string {
	return text
		.normalize("NFKC")
		.slice(0, MAX_PROMPT_CHARS)
		.replace(/```[\s\S]*?(?:```|$)/g, " . ")
		.replace(/`[^`\n]*`/g, " . ")
		.replace(/<\/?[A-Za-z][^>\n]{0,200}>/g, " . ")
		.replace(/\[(?:pasted text|image)[^\]]*\]/gi, " . ")
		.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, " . ")
		.replace(/\S+@\S+\.\S+/g, " . ")
		.replace(/\S*[\\/]\S*/g, (word) => (/^[~.\\/]/.test(word) || /\.\w{1,5}[,.;:!?)]*$/.test(word) || (word.match(/[\\/]/g) ?? []).length > 1 ? " . " : word.replace(/[\\/]/g, " ")));
}

function localeOf(text: string): string {
	if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return "ja";
	if (/\p{Script=Hangul}/u.test(text)) return "ko";
	if (/\p{Script=Han}/u.test(text)) return "zh";
	return "en";
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(locale: string): Intl.Segmenter {
	let found = segmenters.get(locale);
	if (!found) {
		found = new Intl.Segmenter(locale, { granularity: "word" });
		segmenters.set(locale, found);
	}
	return found;
}

const CJK = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]/u;
const RUN = /(\p{Script=Hangul}+)|([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]+)|([^\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー々〆]+)/gu;

/** Word tokens with what separates each from the previous one; a word mixing scripts (API에) is split. */
function tokensOf(text: string): Token[] {
	const tokens: Token[] = [];
	let gap: Gap = "break";
	forEachWordSegment(text, localeOf(text), (segment, isWordLike) => {
		if (!isWordLike) {
			if (/^\s+$/.test(segment)) gap = gap === "none" ? "space" : "break";
			else if (segment === "-" && gap === "none") gap = "hyphen";
			else gap = "break";
			return;
		}
		// Most words hold no CJK: one Latin run, found without `matchAll` (which copies RUN).
		if (!CJK.test(segment)) {
			push(tokens, { text: segment, script: "latin", gap });
			gap = "none";
			return;
		}
		for (const run of segment.matchAll(RUN)) {
			const script: Script = run[1] ? "hangul" : run[2] ? "cjk" : "latin";
			push(tokens, { text: run[0], script, gap });
			gap = "none";
		}
	});
	return tokens;
}

/**
 * The segments `Intl.Segmenter` cuts `text` into, in order. Lines of ASCII (most of most prompts)
 * are cut by `asciiSegments` instead, several times faster; a line end always ends a segment
 * (UAX #29 WB3a/3b), so lines can be cut one by one.
 */
export function forEachWordSegment(text: string, locale: string, visit: (segment: string, isWordLike: boolean) => void): void {
	for (let start = 0; start < text.length; ) {
		const newline = text.indexOf("\n", start);
		const end = newline < 0 ? text.length : newline + 1;
		const line = text.slice(start, end);
		if (NON_ASCII.test(line)) for (const { segment, isWordLike } of segmenter(locale).segment(line)) visit(segment, isWordLike === true);
		else asciiSegments(line, visit);
		start = end;
	}
}

const NON_ASCII = /[\u0080-\uffff]/;

// Word_Break classes (UAX #29) of ASCII characters; ASCII has no Extend, Format or Hebrew letters.
const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const EXTEND_NUM_LET = 3; // _
const MID_LETTER = 4; // :
const MID_NUM = 5; // , ;
const MID_NUM_LET = 6; // . '
const SPACE = 7;
const CR = 8;

const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => {
	const c = String.fromCharCode(code);
	if (/[A-Za-z]/.test(c)) return LETTER;
	if (/[0-9]/.test(c)) return DIGIT;
	return { _: EXTEND_NUM_LET, ":": MID_LETTER, ",": MID_NUM, ";": MID_NUM, ".": MID_NUM_LET, "'": MID_NUM_LET, " ": SPACE, "\r": CR }[c] ?? OTHER;
});

function classAt(text: string, i: number): number {
	return ASCII_CLASS[text.charCodeAt(i)] ?? OTHER;
}

/** UAX #29 word segmentation of ASCII text, with `Intl.Segmenter`'s `isWordLike`. */
function asciiSegments(text: string, visit: (segment: string, isWordLike: boolean) => void): void {
	for (let start = 0; start < text.length; ) {
		const first = classAt(text, start);
		let end = start + 1;
		let wordLike = false;
		if (first === CR) {
			if (text.charCodeAt(end) === 0x0a) end++; // WB3
		} else if (first === SPACE) {
			while (classAt(text, end) === SPACE) end++; // WB3d
		} else if (first === LETTER || first === DIGIT || first === EXTEND_NUM_LET) {
			// Letters, digits and _ join in any order (WB5, 8-10, 13a/b); a mid character joins two
			// letters (WB6/7: a.b, it's, a:b) or two digits (WB11/12: 1,000.5).
			let last = first;
			let alnum = first !== EXTEND_NUM_LET;
			for (;;) {
				const next = classAt(text, end);
				if (next === LETTER || next === DIGIT || next === EXTEND_NUM_LET) {
					alnum ||= next !== EXTEND_NUM_LET;
					last = next;
					end++;
				} else if (classAt(text, end + 1) === last && ((last === LETTER && (next === MID_LETTER || next === MID_NUM_LET)) || (last === DIGIT && (next === MID_NUM || next === MID_NUM_LET)))) {
					end += 2;
				} else break;
			}
			// A lone `_` is not a word; `__` is.
			wordLike = alnum || end - start > 1;
		}
		visit(text.slice(start, end), wordLike);
		start = end;
	}
}

const KATAKANA_ONLY = /^[\p{Script=Katakana}ー]+$/u;
const HAN_ONE = /^\p{Script=Han}$/u;
const HAN_ONLY = /^\p{Script=Han}+$/u;

/**
 * Append a token, gluing what the segmenter split: katakana runs (マイ|グレー|ション), one-character
 * Han words (分|页, 服务|器) and hyphenated Latin words (rate-limiting).
 */
function push(tokens: Token[], token: Token): void {
	const last = tokens[tokens.length - 1];
	if (last && last.script === token.script && token.gap === "none") {
		if (token.script === "cjk" && KATAKANA_ONLY.test(last.text) && KATAKANA_ONLY.test(token.text)) {
			last.text += token.text;
			return;
		}
		if (token.script === "cjk" && HAN_ONE.test(token.text) && !ZH_STOP.has(token.text) && HAN_ONLY.test(last.text) && last.text.length < 4) {
			const lastIsLoose = (last.glued === true || HAN_ONE.test(last.text)) && !ZH_STOP.has(last.text);
			if (lastIsLoose || HAN_SUFFIXES.has(token.text)) {
				last.text += token.text;
				last.glued = lastIsLoose;
				return;
			}
		}
	}
	if (last && last.script === "latin" && token.script === "latin" && token.gap === "hyphen") {
		last.text += `-${token.text}`;
		return;
	}
	tokens.push(token);
}

// ---------------------------------------------------------------------------------------------
// Normalization per script

/** Kept terms in order; `undefined` where a dropped word breaks the phrase. */
function* keptTerms(tokens: readonly Token[]): Generator<Kept | undefined> {
	for (const token of tokens) {
		const terms = token.script === "latin" ? latinTerms(token.text) : token.script === "hangul" ? koreanTerm(token.text) : cjkTerm(token.text);
		if (terms.length === 0) {
			yield undefined;
			continue;
		}
		for (const [i, t] of terms.entries()) {
			const term = KEYWORD_ALIASES.get(t.term) ?? t.term;
			yield { term, script: token.script, gap: i === 0 ? token.gap : "break", endsPhrase: t.endsPhrase, known: term !== t.term || isKnownTopic(term) };
		}
	}
}

function phraseOf(previous: Kept, next: Kept): string | undefined {
	if (previous.known || next.known || previous.script !== next.script || previous.term.includes("-") || next.term.includes("-") || previous.term === next.term) return undefined;
	if (next.script === "cjk") return next.gap === "none" ? `${previous.term}${next.term}` : undefined;
	return next.gap === "space" ? `${previous.term}-${next.term}` : undefined;
}

interface Term {
	term: string;
	endsPhrase: boolean;
}

/** Proper names written in camel case that are not code identifiers. */
const CAMEL_OK = new Set(["github", "gitlab", "websocket", "oauth", "fastapi", "openai", "chatgpt", "devops", "youtube", "iphone", "ipad", "macos", "ios", "linkedin", "paypal", "wordpress", "dynamodb", "bigquery", "nestjs", "sveltekit", "powershell", "javascript", "typescript", "graphql", "postgresql", "mysql", "mongodb", "nextjs", "nodejs", "vscode", "onedrive", "sharepoint", "phpstorm", "intellij"]);

/** A Latin word, or the parts of a hyphenated one: kept whole when every part survives. */
function latinTerms(text: string): Term[] {
	if (text.includes("-")) {
		const parts = text.split("-").map(latinWord);
		if (parts.length <= 3 && parts.every((p) => p !== undefined)) {
			const joined = parts.join("-");
			return joined.length <= MAX_TERM_CHARS ? [{ term: joined, endsPhrase: false }] : [];
		}
		return parts.filter((p): p is string => p !== undefined).map((term) => ({ term, endsPhrase: false }));
	}
	const word = latinWord(text);
	return word === undefined ? [] : [{ term: word, endsPhrase: false }];
}

function latinWord(original: string): string | undefined {
	let word = original.toLowerCase().replace(/^['’_.]+|['’_.]+$/g, "");
	if (KEYWORD_ALIASES.has(word)) return word;
	if (EN_STOP.has(word)) return undefined;
	word = word.replace(/['’]s$/, "");
	if (/[.'’_]/.test(word) || word.length > MAX_TERM_CHARS) return undefined;
	if (/[a-z][A-Z]/.test(original) && original.length > 5 && !isKnownTopic(word) && !CAMEL_OK.has(word)) return undefined;
	const digits = (word.match(/\p{N}/gu) ?? []).length;
	const letters = (word.match(/\p{L}/gu) ?? []).length;
	if (letters === 0 || (digits > 0 && (digits >= letters || /^(?:0x)?[0-9a-f]{6,}$/.test(word)))) return undefined;
	if (word.length < 3 && !EN_SHORT_OK.has(word)) return undefined;
	// Adverbs (basically) and past forms (supported, attached) describe, they are not topics.
	if (/^(?=[a-z]{5,}$)[a-z]*(?:ly|[^e]ed)$/.test(word) && !EN_LY_ED_OK.has(word)) return undefined;
	word = singular(word);
	if (EN_STOP.has(word) || (word.length < 3 && !EN_SHORT_OK.has(word))) return undefined;
	return word;
}

const IRREGULAR: Record<string, string> = { caches: "cache", cookies: "cookie", movies: "movie", indices: "index", aliases: "alias", statuses: "status", menus: "menu", data: "data", criteria: "criterion" };

/** Light, deterministic plural stripping for lower-case ASCII words. */
function singular(word: string): string {
	if (!/^[a-z]+$/.test(word) || word.length < 4 || EN_NO_STEM.has(word)) return word;
	const irregular = IRREGULAR[word];
	if (irregular) return irregular;
	if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
	if (/(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
	if (/(?:ss|us)$/.test(word)) return word;
	if (word.endsWith("s")) return word.slice(0, -1);
	return word;
}

const MAX_KOREAN_SYLLABLES = 12;

/**
 * A Korean eojeol reduced to its noun: 페이지네이션을 → 페이지네이션, 서버에서 → 서버,
 * 리팩토링해줘 → 리팩토링. Verb forms (받도록, 주세요), stop words and one-syllable leftovers are dropped.
 */
function koreanTerm(word: string): Term[] {
	const keep = (term: string, endsPhrase: boolean): Term[] =>
		term.length >= 2 && term.length <= MAX_KOREAN_SYLLABLES && !KO_STOP.has(term) ? [{ term, endsPhrase }] : [];
	if (KO_NOUNS.has(word)) return [{ term: word, endsPhrase: false }];
	if (KO_STOP.has(word)) return [];
	const hada = KO_HADA_ENDINGS.find((e) => word.endsWith(e));
	if (hada) return KO_NOUNS.has(word.slice(0, -hada.length)) ? [{ term: word.slice(0, -hada.length), endsPhrase: true }] : keep(word.slice(0, -hada.length), true);
	if (KO_VERB_ENDINGS.some((e) => word.endsWith(e))) return [];
	let stem = word;
	let endsPhrase = false;
	const particle = KO_PARTICLES.find((p) => word.endsWith(p) && word.length > p.length);
	if (particle) {
		stem = word.slice(0, -particle.length);
		endsPhrase = true;
		if (KO_NOUNS.has(stem)) return [{ term: stem, endsPhrase }];
	}
	if (stem.endsWith("들") && stem.length >= 3) stem = stem.slice(0, -1);
	return keep(stem, endsPhrase);
}

const HIRAGANA = /\p{Script=Hiragana}/u;

/** A Japanese or Chinese word: hiragana (grammar, verb forms), stop words and single characters are dropped. */
function cjkTerm(word: string): Term[] {
	if (HIRAGANA.test(word) || JA_STOP.has(word) || ZH_STOP.has(word)) return [];
	if (word.length < 2 || word.length > 12 || /^[ー々]+$/u.test(word)) return [];
	return [{ term: word, endsPhrase: false }];
}
