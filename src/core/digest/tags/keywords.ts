import { dict } from "../../dict";
import { boundedMemo } from "../../text/bounded-memo";
/**
 * Candidate keywords of a session's prompts and how much each stands out against all sessions.
 *
 * Prompts are cut into words with `Intl.Segmenter` (dictionary based for Chinese and Japanese),
 * then normalized per script: Latin is lower-cased and singularized, Korean loses its particles
 * and verb endings, Japanese and Chinese lose grammar words. Stop words never count. Two adjacent
 * kept words also make a phrase candidate (`rate limiting` → `rate-limiting`, 用户+列表 → 用户列表).
 */
import { isKnownTopic, KEYWORD_ALIASES, TECHNICAL_TERMS } from "./catalog";
import { withoutOutput } from "../../text/pasted-output";
import {
	EN_COLOURS, EN_GENERIC, EN_LY_ED_OK, EN_NO_STEM, EN_SHADES, EN_SHORT_OK, EN_STOP, HAN_SUFFIXES, JA_STOP, KO_HADA_ENDINGS, KO_NOUNS, KO_PARTICLES, KO_STOP, KO_VERB_ENDINGS, isZhGeneric, isZhStop,
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
	/** Running index of the sentence it is in, over all the session's prompts (a new prompt is a new sentence). */
	sentence?: number;
	/** Written as code: camelCase, snake_case, dotted (`logging.Init`, `tokenizer.css`) or in backticks. */
	identifier?: boolean;
	/** In a verb's place (`can you list`, `we reset`, `is active`): says what is done, not what about. */
	verb?: boolean;
	/** From a later prompt too long to be typed (`PASTED_PROMPT_CHARS`): mostly pasted material. */
	pasted?: boolean;
}

/** A prompt keyword picked for a session, best first. */
export interface ScoredKeyword {
	term: string;
	score: number;
	position: number;
	/** The words it is made of: itself for a single word. */
	parts: readonly string[];
	/** Written as code somewhere in the session. */
	identifier?: boolean;
	/** Named in the first prompt, the session's goal. */
	goal?: boolean;
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
	sentence: number;
	/** Written in backticks. */
	code?: boolean;
	/** Right after a pronoun, a modal or an auxiliary (`we reset`, `can you list`, `is active`). */
	verb?: boolean;
}

/**
 * Every token has every field: the functions that read tokens then see one hidden class, and their
 * optimized code is not thrown away each time a token of another shape comes (measured: shapes
 * that varied with `code` and `verb` made these the most recompiled functions of a first sync).
 */
function token(text: string, script: Script, gap: Gap, sentence: number, code: boolean, verb: boolean): Token {
	return { text, script, gap, glued: false, sentence, code, verb };
}

interface Kept {
	term: string;
	script: Script;
	gap: Gap;
	/** A Korean particle was stripped: the noun phrase ends here. */
	endsPhrase: boolean;
	/** A known topic (`docker`, `testing`): a tag of its own, never part of a phrase. */
	known: boolean;
	sentence: number;
	identifier: boolean;
	verb: boolean;
}

/** Prompts longer than this are pasted material (logs, files); only their start counts. */
const MAX_PROMPT_CHARS = 4000;
/**
 * A later prompt longer than this is mostly pasted (a doc page, a log): a typed follow-up is a few
 * lines. The first prompt is the goal, whatever its length: a plan pasted there is the task.
 */
const PASTED_PROMPT_CHARS = 500;
const MAX_TERM_CHARS = 30;

/** Normalized candidate terms of one session's prompts, in order, repeated as often as they occur. */
export function keywordsOf(prompts: readonly string[]): string[] {
	return termOccurrences(prompts).map((o) => o.term);
}

/** Document frequencies over sessions; each session is its `keywordsOf` list (repeats count once). */
export function buildKeywordStats(sessions: readonly (readonly string[])[]): KeywordStats {
	const df = new Map<string, number>();
	// Which session last counted a term: no set made per session (a sync counts a thousand).
	const counted = new Map<string, number>();
	sessions.forEach((terms, session) => {
		for (const term of terms) {
			if (counted.get(term) === session) continue;
			counted.set(term, session);
			df.set(term, (df.get(term) ?? 0) + 1);
		}
	});
	return { documents: sessions.length, df };
}

export function termOccurrences(prompts: readonly string[]): TermOccurrence[] {
	const out: TermOccurrence[] = [];
	const sentence = { next: 0 };
	prompts.forEach((prompt, index) => {
		const pasted = index > 0 && prompt.length > PASTED_PROMPT_CHARS;
		let previous: Kept | undefined;
		for (const kept of keptTerms(promptTokens(prompt, sentence))) {
			if (kept === undefined) {
				previous = undefined;
				continue;
			}
			const joined = previous ? phraseOf(previous, kept) : undefined;
			const phrase = joined === undefined ? undefined : (KEYWORD_ALIASES.get(joined) ?? joined);
			if (phrase && previous) out.push({ term: phrase, parts: [previous.term, kept.term], prompt: index, position: out.length, sentence: kept.sentence });
			out.push({ term: kept.term, prompt: index, position: out.length, sentence: kept.sentence, ...(kept.identifier ? { identifier: true } : {}), ...(kept.verb ? { verb: true } : {}), ...(pasted ? { pasted: true } : {}) });
			previous = kept.endsPhrase ? undefined : kept;
		}
	});
	return sameSentencesOnce(out);
}

/**
 * A sentence said again (a log line pasted twice, an error shown again with one word more) is one
 * sentence: the same words, or all the words of an earlier one of three words or more.
 */
function sameSentencesOnce(occurrences: TermOccurrence[]): TermOccurrence[] {
	const words = new Map<number, Set<string>>();
	for (const o of occurrences) {
		if (o.parts || o.sentence === undefined) continue;
		const terms = words.get(o.sentence) ?? new Set<string>();
		terms.add(o.term);
		words.set(o.sentence, terms);
	}
	const kept: [number, Set<string>][] = [];
	const same = new Map<number, number>();
	for (const [sentence, terms] of words) {
		const earlier = terms.size < 2 ? undefined : kept.find(([, other]) => Math.min(other.size, terms.size) >= (other.size === terms.size ? 2 : 3) && contains(other, terms));
		if (earlier) same.set(sentence, earlier[0]);
		else kept.push([sentence, terms]);
	}
	if (same.size === 0) return occurrences;
	return occurrences.map((o) => (o.sentence !== undefined && same.has(o.sentence) ? { ...o, sentence: same.get(o.sentence) } : o));
}

/** One set holds the other. */
function contains(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
	const [small, large] = a.size <= b.size ? [a, b] : [b, a];
	for (const term of small) if (!large.has(term)) return false;
	return true;
}

/** The candidate term a raw word or name (`master`, `gemini-cli-agent`) would become, if any. */
export function termOf(text: string): string | undefined {
	const terms = latinTerms(text.normalize("NFKC"), false);
	return terms.length === 1 ? terms[0]?.term : undefined;
}

/**
 * Prompt keywords ranked against the corpus, BM25 style: idf × saturated term frequency, where words
 * of the first prompt (the session's goal) count twice. Dropped: terms in more than half of the
 * sessions (and phrases with such a word), terms scoring below half of what a term unique to this
 * session would score, the words in `exclude` (the project name, branch names), look-alikes of a
 * common word (typos), words said mostly in a verb's place, and terms without evidence (see
 * `hasEvidence`): a word said once in passing is not a topic. A picked phrase replaces its words and no two picked phrases share a word.
 * Ties go to the earlier term.
 */
export function rankKeywords(occurrences: readonly TermOccurrence[], stats: KeywordStats, limit: number, exclude: ReadonlySet<string> = new Set(), corroborating: ReadonlySet<string> = new Set()): ScoredKeyword[] {
	const seen = new Map<string, Seen>();
	for (const o of occurrences) {
		const entry = seen.get(o.term) ?? { weighted: 0, count: 0, verbs: 0, position: o.position, parts: o.parts, sentences: new Set<number>(), identifier: false };
		entry.weighted += o.prompt === 0 ? 2 : 1;
		entry.count += 1;
		if (o.verb) entry.verbs += 1;
		// Repeats inside a pasted prompt are the material's (a doc page says "interface" ten times): one sentence.
		if (!o.verb) entry.sentences.add(o.pasted ? -1 - o.prompt : (o.sentence ?? o.position));
		entry.identifier ||= o.identifier === true;
		if (!o.parts) entry.parts = undefined;
		seen.set(o.term, entry);
	}
	const evidence = new Map<string, boolean>();
	const evident = (term: string): boolean => {
		let found = evidence.get(term);
		if (found === undefined) {
			found = hasEvidence(term, seen, stats, corroborating);
			evidence.set(term, found);
		}
		return found;
	};
	const scored: ScoredKeyword[] = [];
	for (const [term, { weighted, count, verbs, position, parts, identifier }] of seen) {
		const words = parts ?? wordsOf(term);
		// Said as a verb at least as often as not (`we reset it`, `the user reset`), a word says what is done; one
		// the catalog knows names its topic however it is said (`cache it`), and so does one a branch names.
		if (verbs * 2 >= count && !identifier && !isKnownTopic(term) && !isTechnicalTerm(term) && !corroborating.has(term)) continue;
		if (exclude.has(term) || words.some((p) => exclude.has(p))) continue;
		const df = Math.max(stats.df.get(term) ?? 0, 1);
		const documents = Math.max(stats.documents, df);
		if ([term, ...(parts ?? [])].some((t) => isCommon(t, stats))) continue;
		if (EN_GENERIC.has(term) || isZhGeneric(term)) continue;
		if (isColour(words)) continue;
		if (!evident(term) && !(words.length > 1 && words.every((w) => knownOrNamed(w, seen, corroborating)))) continue;
		const score = idf(documents, df) * ((weighted * (K1 + 1)) / (weighted + K1));
		if (score < MIN_SCORE_RATIO * idf(documents, 1)) continue;
		scored.push({ term, score, position, parts: words, ...(identifier ? { identifier } : {}), ...(weighted > count ? { goal: true } : {}) });
	}
	scored.sort((a, b) => b.score - a.score || a.position - b.position);
	const picked: ScoredKeyword[] = [];
	// Plain words of a phrase that gave way to its technical term (`welcome` of `welcome email`): they only qualified it.
	const qualifiers = new Set<string>();
	for (const candidate of scored) {
		if (picked.length >= limit) break;
		if (qualifiers.has(candidate.term) || picked.some((p) => p.term === candidate.term || p.parts.includes(candidate.term))) continue;
		// Checked last, for the few candidates that get this far: the costliest test.
		if (!candidate.identifier && candidate.parts.some((w) => looksLikeTypo(w, stats))) continue;
		if (candidate.parts.length > 1 && picked.some((p) => p.parts.length > 1 && p.parts.some((w) => candidate.parts.includes(w)))) continue;
		// A technical term said more on its own (`smb` throughout, `macOS SMB` once; `email` throughout, `welcome email` less) is
		// not replaced by a phrase it is part of, unless the phrase names a topic itself (`github pages`): the phrase, weaker,
		// would stand for it and the technology be lost. Its plain words go as they would have gone for the phrase.
		if (candidate.parts.length > 1 && !isTechnicalTerm(candidate.term) && !isKnownTopic(candidate.term) && picked.some((p) => p.score > candidate.score && candidate.parts.includes(p.term) && isTechnicalTerm(p.term))) {
			for (const word of candidate.parts) if (!isTechnicalTerm(word) && !isKnownTopic(word)) qualifiers.add(word);
			for (let i = picked.length - 1; i >= 0; i--) if (qualifiers.has(picked[i]?.term ?? "")) picked.splice(i, 1);
			continue;
		}
		for (let i = picked.length - 1; i >= 0; i--) if (candidate.parts.includes(picked[i]?.term ?? "")) picked.splice(i, 1);
		picked.push(candidate);
	}
	return picked.sort((a, b) => b.score - a.score || a.position - b.position);
}

interface Seen {
	weighted: number;
	count: number;
	/** Of `count`, those in a verb's place. */
	verbs: number;
	position: number;
	parts: readonly string[] | undefined;
	sentences: Set<number>;
	identifier: boolean;
}

/**
 * Whether a term is more than a word said once in passing: it comes back in another sentence or
 * prompt of the session (not as a verb, not in a copy of the same sentence, not within one pasted
 * later prompt), it is written as code
 * (an identifier), it is a known topic or technical term (catalog.ts) or a hyphenated name around one
 * (`AES-CTR`), the session's branch names it (`soph/add-agent-to-logging`), or other sessions share it as a compound (`token-usage`, not
 * a single word: a single word other sessions use too is ordinary vocabulary).
 */
function hasEvidence(term: string, seen: ReadonlyMap<string, Seen>, stats: KeywordStats, corroborating: ReadonlySet<string>): boolean {
	const entry = seen.get(term);
	if (entry && (entry.identifier || entry.sentences.size > 1)) return true;
	if (isKnownTopic(term) || isTechnicalTerm(term) || corroborating.has(term)) return true;
	// Written as one hyphenated name around a technical term (`AES-CTR`, `s3-presign`): a named variant of it.
	if (entry?.parts === undefined && term.includes("-") && wordsOf(term).some((w) => isTechnicalTerm(w) || isKnownTopic(w))) return true;
	return (stats.df.get(term) ?? 0) >= 2 && (entry?.parts !== undefined || term.includes("-"));
}

/**
 * A misspelling of a common word: a one-off word of 6+ letters that is one slip away from a stop
 * word (or one of its forms) or from a word other sessions use too: two neighbouring letters
 * swapped (becuase), a letter too many or too few inside (happend, wortrees). Slips at either end
 * are left alone: they are how real words differ (model/mode, parser/parse).
 */
export function looksLikeTypo(word: string, stats: KeywordStats): boolean {
	if (!/^[a-z]{6,}$/.test(word) || (stats.df.get(word) ?? 0) > 1 || isTechnicalTerm(word) || isKnownTopic(word) || commonForms().has(word)) return false;
	const common = (w: string) => w !== word && (commonForms().has(w) || (stats.df.get(w) ?? 0) >= 2);
	for (let i = 0; i + 1 < word.length; i++) {
		if (word[i] !== word[i + 1] && common(`${word.slice(0, i)}${word[i + 1]}${word[i]}${word.slice(i + 2)}`)) return true;
	}
	for (let i = 1; i < word.length - 1; i++) if (common(word.slice(0, i) + word.slice(i + 1))) return true;
	for (let i = 1; i < word.length; i++) for (const c of LETTERS) if (common(word.slice(0, i) + c + word.slice(i))) return true;
	return false;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

let COMMON_FORMS: ReadonlySet<string> | undefined;

/** Stop words and their regular forms (happen → happens, happened, happening); made on first use (at module load, it cost every sync 2 ms). */
function commonForms(): ReadonlySet<string> {
	return (COMMON_FORMS ??= new Set([...EN_STOP].flatMap((w) => (/^[a-z]+$/.test(w) ? [w, ...formsOf(w)] : [w]))));
}

/** Regular inflections of an English word: use → uses, used, using; try → tries, tried, trying; fix → fixes, fixed. */
function formsOf(w: string): string[] {
	if (w.endsWith("e")) return [`${w}s`, `${w}d`, `${w.slice(0, -1)}ing`];
	if (/[^aeiou]y$/.test(w)) return [`${w.slice(0, -1)}ies`, `${w.slice(0, -1)}ied`, `${w}ing`];
	return [/(?:s|x|z|ch|sh)$/.test(w) ? `${w}es` : `${w}s`, `${w}ed`, `${w}ing`];
}

/** Evidence of a word of a phrase said once: written as code, known (a topic or technical term), or named by the branch. */
function knownOrNamed(word: string, seen: ReadonlyMap<string, Seen>, corroborating: ReadonlySet<string>): boolean {
	return seen.get(word)?.identifier === true || isKnownTopic(word) || isTechnicalTerm(word) || corroborating.has(word);
}

let technical: ReadonlySet<string> | undefined;

/** A known technical term (catalog.ts), compared normalized: `webhooks` and `Webhook` are `webhook`. */
export function isTechnicalTerm(term: string): boolean {
	technical ??= new Set(TECHNICAL_TERMS.split(/\s+/).filter((t) => t !== "").map(catalogTerm));
	return technical.has(term);
}

/**
 * A catalog term as the prompts' terms are written: each word of a hyphenated one normalized on its
 * own, and kept joined (`error-handling`, `github-pages` → `github-page`), as a phrase of two words
 * is; normalized whole, such a term became its one word that is not a stop word (`handling`,
 * `text`, `dark`), which then counted as technical wherever it was said.
 */
function catalogTerm(t: string): string {
	if (!/^[\p{Script=Latin}\p{N}-]+$/u.test(t)) return t;
	return t.includes("-") ? t.split("-").map((part) => termOf(part) ?? part).join("-") : (termOf(t) ?? t);
}

/** The words of a hyphenated term (`rate-limiting`), or the term alone. */
function wordsOf(term: string): readonly string[] {
	return term.includes("-") ? term.split("-") : [term];
}

/**
 * A colour as a value (`blue`, `dark blue`, `light-grey`): how something looks, said of any page or
 * terminal, not what the session is about. A shade alone stays (`dark` is how `dark mode` is left,
 * `mode` being a stop word), and so do two colours (`blue-green` deploys).
 */
function isColour(words: readonly string[]): boolean {
	const [first = "", second] = words;
	return second === undefined ? EN_COLOURS.has(first) : words.length === 2 && EN_SHADES.has(first) && EN_COLOURS.has(second);
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

/** Marks a cut inside a sentence (where a URL or a tag was): ends a phrase, not a sentence. */
const CUT = " ; ";

/**
 * The word tokens of one prompt: prose cut by `Intl.Segmenter`, and names written as code as code
 * tokens: in backticks (`logging.Init`, `session_id`, `act`) or the file name of a path
 * (`docs/shadow-branch-suffixes.md` → shadow-branch-suffixes.md). Code blocks, lines of pasted code
 * (`display: ruby-base;`, `x := y`) and backticked text with spaces in it (commands, snippets) say
 * nothing.
 */
function promptTokens(prompt: string, sentence: { next: number }): Token[] {
	const lines = prompt
		.normalize("NFKC")
		.slice(0, MAX_PROMPT_CHARS)
		.replace(/```[\s\S]*?(?:```|$)/g, "\n")
		.split("\n")
		.map((line) => (CODE_LINE.test(line) ? "" : line));
	const text = withoutOutput(lines, CUT).join("\n");
	const tokens: Token[] = [];
	let from = 0;
	for (const code of text.matchAll(/`([^`\n]*)`/g)) {
		tokens.push(...proseTokens(text.slice(from, code.index), sentence));
		tokens.push(...codeTokens(code[1] ?? "", sentence));
		from = code.index + code[0].length;
	}
	tokens.push(...proseTokens(text.slice(from), sentence));
	sentence.next++;
	return tokens;
}

/**
 * A line of code pasted into a prompt: ends in `{`, `}` or `;`, assigns, compares, is a JSON key, or
 * an object literal's entry (`serverUrl: env.SERVER_URL,`: a name, a colon, a value and a comma).
 */
const CODE_LINE = /[{};]\s*$|^\s*[}\])]|:=|=>|[!=]==?|&&|\|\||^\s*[\w.[\]]+\s*[-+*/]?=\s*\S|^\s*"[^"]*"\s*:|^\s*[A-Za-z_$][\w$]*\s*:\s*\S.*,\s*$|^\s*(?:\/\/|#include\b)/;

/**
 * A CSS selector written in prose: `.vis-label.vis-group-level-0`, `#main-nav`, `.card-title:hover`.
 * Cut when a name in it has a hyphen (as class names do, and file extensions never) and it does not
 * end in an extension (`.pre-commit-config.yaml` is a file): the names are the page's markup, not
 * topics. A lone `.button` or `.env` could be either and stays.
 */
const SELECTOR = /(?<![^\s(,[])[.#][A-Za-z][\w-]*(?:[.#:][A-Za-z][\w-]*)*/g;

/** Prose: URLs, e-mails, HTML-like tags, CSS selectors and paste markers cut out; a path becomes its file name as code. */
function proseTokens(prose: string, sentence: { next: number }): Token[] {
	const text = prose
		.replace(/<\/?[A-Za-z][^>\n]{0,200}>/g, CUT)
		.replace(/\[(?:pasted text|image)[^\]]*\]/gi, CUT)
		.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, CUT)
		.replace(/\S+@\S+\.\S+/g, CUT)
		.replace(SELECTOR, (selector) => (selector.includes("-") && !/\.[a-z0-9]{1,5}$/.test(selector) ? CUT : selector));
	const tokens: Token[] = [];
	let from = 0;
	for (const path of text.matchAll(/\S*[\\/]\S*/g)) {
		const word = path[0];
		// One slash between words (CI/CD, pros/cons) is not a path; one after a name (`app/`) is a folder.
		if (!(/^[~.\\/@]/.test(word) || /\.\w{1,5}[,.;:!?)]*$/.test(word) || /\w[\\/][,.;:!?)]*$/.test(word) || (word.match(/[\\/]/g) ?? []).length > 1)) continue;
		tokens.push(...tokensOf(text.slice(from, path.index).replace(/[\\/]/g, " "), sentence));
		const file = word.replace(/[,.;:!?)'"]+$/, "").split(/[\\/]/).pop() ?? "";
		// A file name: with an extension, or a well-known one (CODEOWNERS, README, Makefile); not a folder.
		if (/^[\p{L}\p{N}_-]+\.\w{1,5}$/u.test(file) || /^(?:[A-Z]{4,}|[A-Z][a-z]+file)$/.test(file)) tokens.push(...codeTokens(file, sentence));
		from = path.index + word.length;
	}
	tokens.push(...tokensOf(text.slice(from).replace(/[\\/]/g, " "), sentence));
	return tokens;
}

/** A name in backticks, cut at punctuation other than `.`, `_` and `-`: `logging.Init(sessionID)` → logging.Init, sessionID. */
function codeTokens(code: string, sentence: { next: number }): Token[] {
	const name = code.trim().replace(/^-+/, "");
	if (name === "" || name.length > 60 || /\s|[\\/]/.test(name)) return [];
	return name
		.split(/[^\p{L}\p{N}_.-]+/u)
		.filter((piece) => /\p{L}/u.test(piece))
		.map((piece) => token(piece, CJK.test(piece) ? "cjk" : "latin", "break", sentence.next, true, false));
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

/**
 * Word tokens with what separates each from the previous one; a word mixing scripts (API에) is
 * split. A line end or a sentence mark (. ! ? 。) starts a new sentence.
 */
function tokensOf(text: string, sentence: { next: number }): Token[] {
	const tokens: Token[] = [];
	let gap: Gap = "break";
	let words = 0;
	let lastWord = "";
	forEachWordSegment(text, localeOf(text), (segment, isWordLike) => {
		if (!isWordLike) {
			if (words > 0 && SENTENCE_END.test(segment)) {
				sentence.next++;
				words = 0;
			}
			if (/^\s+$/.test(segment) && !segment.includes("\n")) gap = gap === "none" ? "space" : "break";
			else if (segment === "-" && gap === "none") gap = "hyphen";
			else gap = "break";
			if (gap === "break") lastWord = "";
			return;
		}
		words++;
		// Most words hold no CJK: one Latin run, found without `matchAll` (which copies RUN).
		if (!CJK.test(segment)) {
			const verb = gap === "space" && VERB_CUES.has(lastWord);
			push(tokens, token(segment, "latin", gap, sentence.next, false, verb));
			lastWord = segment.toLowerCase();
			gap = "none";
			return;
		}
		lastWord = "";
		for (const run of segment.matchAll(RUN)) {
			const script: Script = run[1] ? "hangul" : run[2] ? "cjk" : "latin";
			push(tokens, token(run[0], script, gap, sentence.next, false, false));
			gap = "none";
		}
	});
	return tokens;
}

const SENTENCE_END = /[.!?\n。！？]/;

/**
 * Words after which an English word stands in a verb's (or a predicate's) place: `we reset`, `can you list`, `is active`;
 * after `calling` and `invoke`, it is the name of what is run (`calling shuffle`), which says what is done too
 * (not after `call`, often a noun: `call button`, `call stack`).
 */
const VERB_CUES = new Set(
	`i you we they he she it can could would should will shall may might must is are was were be been being am do does did
	don't doesn't didn't won't can't cannot couldn't shouldn't wouldn't isn't aren't wasn't not never please let's lets also just then
	calling invoke invokes invoking`.split(/\s+/),
);

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
		if (token.script === "cjk" && HAN_ONE.test(token.text) && !isZhStop(token.text) && HAN_ONLY.test(last.text) && last.text.length < 4) {
			const lastIsLoose = (last.glued === true || HAN_ONE.test(last.text)) && !isZhStop(last.text);
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
	for (let index = 0; index < tokens.length; index++) {
		const token = tokens[index];
		if (token === undefined) continue;
		const signIn = token.script === "latin" && token.code !== true ? signInTerm(token.text, tokens[index + 1]) : undefined;
		const terms = signIn !== undefined ? [signIn] : token.script === "latin" ? latinTerms(token.text, token.code === true) : token.script === "hangul" ? koreanTerm(token.text) : cjkTerm(token.text);
		if (terms.length === 0) {
			yield undefined;
			continue;
		}
		for (const [i, t] of terms.entries()) {
			const term = KEYWORD_ALIASES.get(t.term) ?? t.term;
			const known = term !== t.term || isKnownTopic(term);
			yield { term, script: token.script, gap: i === 0 && t.apart !== true ? token.gap : "break", endsPhrase: t.endsPhrase, known, sentence: token.sentence, identifier: t.identifier === true && !known, verb: token.verb === true };
		}
	}
}

/** `logging in` is signing in (`Please try logging in again`), not logging: login, and `logging out` logout. */
function signInTerm(text: string, next: Token | undefined): Term | undefined {
	if (text.length !== 7 || next === undefined || next.gap !== "space" || text.toLowerCase() !== "logging") return undefined;
	const particle = next.text.toLowerCase();
	return particle === "in" ? { term: "login", endsPhrase: true } : particle === "out" ? { term: "logout", endsPhrase: true } : undefined;
}

function phraseOf(previous: Kept, next: Kept): string | undefined {
	// A word in a verb's place makes no phrase with its cue (`calling shuffle` is no calling-shuffle).
	if (next.verb || previous.known || next.known || previous.identifier || next.identifier || previous.script !== next.script || previous.term.includes("-") || next.term.includes("-") || previous.term === next.term) return undefined;
	// A tool and a generic word (`zellij config`, `supabase project`): the tool is the topic, unless the two name one thing (`github pages`).
	const tool = (isTechnicalTerm(previous.term) && EN_GENERIC.has(next.term)) || (EN_GENERIC.has(previous.term) && isTechnicalTerm(next.term));
	if (tool && next.script !== "cjk" && !isTechnicalTerm(`${previous.term}-${next.term}`) && !KEYWORD_ALIASES.has(`${previous.term}-${next.term}`)) return undefined;
	if (next.script === "cjk") return next.gap === "none" ? `${previous.term}${next.term}` : undefined;
	return next.gap === "space" ? `${previous.term}-${next.term}` : undefined;
}

interface Term {
	term: string;
	endsPhrase: boolean;
	/** Written as code. */
	identifier?: boolean;
	/** Makes no phrase with the word before it (`endsPhrase`: with the one after). */
	apart?: boolean;
}

/** Proper names written in camel case that are not code identifiers. */
const CAMEL_OK = new Set(["datadog", "posthog", "sendgrid", "mailchimp", "hubspot", "clickhouse", "mariadb", "couchdb", "github", "gitlab", "websocket", "oauth", "fastapi", "openai", "chatgpt", "devops", "youtube", "iphone", "ipad", "macos", "ios", "linkedin", "paypal", "wordpress", "dynamodb", "bigquery", "nestjs", "sveltekit", "powershell", "javascript", "typescript", "graphql", "postgresql", "mysql", "mongodb", "nextjs", "nodejs", "vscode", "onedrive", "sharepoint", "phpstorm", "intellij"]);

/**
 * A Latin word, or the parts of a hyphenated one: kept whole when every part survives. A word
 * written as code (in backticks, camelCase, snake_case, dotted) becomes an identifier term; an
 * error code (`ERRNO`) becomes nothing.
 */
function latinTerms(text: string, code: boolean): Term[] {
	if (ERRNO.test(text)) return [];
	if (code || isIdentifierLike(text)) {
		const term = identifierTerm(text);
		return term === undefined ? [] : [{ term, endsPhrase: false, identifier: true }];
	}
	if (text.includes("-")) {
		const parts = text.split("-").map(latinWord);
		if (parts.length <= 3 && parts.every((p) => p !== undefined)) {
			const joined = parts.join("-");
			return joined.length <= MAX_TERM_CHARS ? [{ term: joined, endsPhrase: false }] : [];
		}
		// What is left of a compound that does not survive whole (`5-field`, `field-by-field`) only qualified the next
		// word: it makes no phrase with it (`5-field accumulation` is no field-accumulation), nor with the word before.
		return parts.filter((p): p is string => p !== undefined).map((term) => ({ term, endsPhrase: true, apart: true }));
	}
	const word = latinWord(text);
	return word === undefined ? [] : [{ term: word, endsPhrase: false }];
}

/** A system error code as written (`EPERM`, `ENOENT`, `ECONNREFUSED`): what failed, not what the session is about. */
const ERRNO = /^E[A-Z]{3,14}$/;

/** snake_case, a dotted name (`logging.Init`, `tokenizer.css`; not `Next.js` or a number), or camelCase that is no proper name (NixOS, GitHub). */
function isIdentifierLike(text: string): boolean {
	if (!mayBeIdentifier(text)) return false;
	if (/[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(text)) return true;
	const lower = text.toLowerCase();
	if (KEYWORD_ALIASES.has(lower)) return false;
	if (/\p{L}\.\p{L}/u.test(text)) return true;
	return /\p{Ll}\p{Lu}/u.test(text) && !text.includes("-") && !CAMEL_OK.has(lower) && !isKnownTopic(lower) && !isTechnicalTerm(lower);
}

/**
 * Whether any test of `isIdentifierLike` can hold: the word has `_`, `.`, a character past ASCII,
 * or an ASCII capital after its first character. Most words of a prompt have none, and one look
 * at their characters costs less than three Unicode patterns and a lower-cased copy.
 */
function mayBeIdentifier(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x5f || c === 0x2e || c > 0x7f || (i > 0 && c >= 0x41 && c <= 0x5a)) return true;
	}
	return false;
}

/** First words of a function name that say what it does, not what it is about: `getUser` is about a user. */
const CODE_VERBS = new Set("get set has is are can should on handle use make create to do with add update remove delete fetch load init build compute parse render read write find check validate format convert generate process run start stop show print emit send save apply reset clear test ensure try".split(" "));

/**
 * Objects every program of a language reaches through (`console.log`, `JSON.parse`, `process.env`,
 * `os.path.join`, `Math.max`): a call on one says how the code is written, not what the session
 * is about, and each is called in sessions of every topic.
 */
const LANGUAGE_GLOBALS = new Set("console json math object array string number promise reflect symbol process window document globalthis navigator self os sys fs path util".split(" "));

/**
 * A word's term (`latinWord`) or an identifier's (`identifierTerm`), kept once worked out:
 * prompts repeat their words and names, and each read again cost a lower-cased copy and a dozen
 * patterns (measured on the bench tree's first sync: `latinWord` 63–77 ms a thread, 20 so).
 */
const REMEMBERED_MAX = 8192;

/**
 * An identifier as a term: a dotted name by its first part (`tokenizer.css` → tokenizer,
 * `logging.Init` → logging), then camelCase and snake_case cut into words (`TokenUsage`,
 * `token_usage` → token-usage), leading verbs and stop words dropped (`hasShadowBranch` →
 * shadow-branch, `currentSessionID` → session-id). Nothing when a stop word is left (`WebSearch`),
 * or more than three words.
 */
const identifierTerm = boundedMemo((original): string | undefined => {
	const text = original.replace(/\(\)$/, "").replace(/^[-.'’_@#$]+|[-.'’_:,;]+$/g, "").replace(/^www\./i, "");
	const alias = KEYWORD_ALIASES.get(text.toLowerCase());
	if (alias) return alias;
	const head = text.split(".")[0] ?? "";
	const headAlias = KEYWORD_ALIASES.get(head.toLowerCase());
	if (headAlias) return headAlias;
	if (head !== text && LANGUAGE_GLOBALS.has(head.toLowerCase())) return undefined;
	const parts = head
		.split(/[_-]+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u)
		.filter((p) => p !== "")
		.map((p) => p.toLowerCase());
	while (parts.length > 1 && CODE_VERBS.has(parts[0] ?? "")) parts.shift();
	const words = parts.map(identifierPart);
	while (words.length > 1 && words[0] === undefined) words.shift();
	if (words.length === 0 || words.length > 3 || words.some((w) => w === undefined)) return undefined;
	const term = words.join("-");
	return term.length <= MAX_TERM_CHARS ? term : undefined;
}, REMEMBERED_MAX);

function identifierPart(part: string): string | undefined {
	if (!/^\p{L}{2,}$/u.test(part) || EN_STOP.has(part)) return undefined;
	const word = singular(part);
	return EN_STOP.has(word) ? undefined : word;
}

const latinWord = boundedMemo((original): string | undefined => {
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
	// An acronym's plural (PRs, IDs, URLs) is the acronym, however short: `prs` is no word.
	word = ACRONYM_PLURAL.test(original) ? word.slice(0, -1) : singular(word);
	if (EN_STOP.has(word) || (word.length < 3 && !EN_SHORT_OK.has(word))) return undefined;
	return word;
}, REMEMBERED_MAX);

const ACRONYM_PLURAL = /^[A-Z]{2,}s$/;

const IRREGULAR: Record<string, string> = dict({ caches: "cache", cookies: "cookie", movies: "movie", indices: "index", aliases: "alias", statuses: "status", menus: "menu", data: "data", criteria: "criterion" });

/**
 * Light, deterministic plural stripping for lower-case ASCII words. Names of libraries that end in
 * `js` (nextjs, chartjs) and fields that end in `ics` (analytics, physics) are no plurals.
 */
function singular(word: string): string {
	if (!/^[a-z]+$/.test(word) || word.length < 4 || EN_NO_STEM.has(word) || word.endsWith("js") || word.endsWith("ics")) return word;
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
	if (HIRAGANA.test(word) || JA_STOP.has(word) || isZhStop(word)) return [];
	if (word.length < 2 || word.length > 12 || /^[ー々]+$/u.test(word)) return [];
	return [{ term: word, endsPhrase: false }];
}
