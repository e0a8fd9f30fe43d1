/**
 * Candidate facts from the prompts a person typed, with no model: a sentence qualifies when it
 * states a rule, a preference, a decision or a fact about the user in so many words ("always…",
 * "from now on…", "we decided…", "remember that…", 앞으로는, 항상, 기억해, 今後は, 必ず, 以后, 记住).
 * Every proposal is reviewed by a person, so precision comes before recall: a sentence must hold a
 * trigger, be worded as a rule (imperative, "we", "you should", "I prefer"), and pass every guard
 * (question, hedge, condition, negation, behaviour report, pasted text, pointer into the session).
 * Pure: no I/O, no clock; the same prompts give the same proposals in the same order.
 * The rules are described in docs/proposed-facts.md.
 */
import { KO_PARTICLES } from "../digest/tags/stopwords";
import { factSlug, type FactType } from "./fact-file";
import { hash53 } from "../transcript/hash";

export type { FactType };

export interface PromptInput {
	text: string;
	uuid?: string;
	timestamp?: string;
	index: number;
	/** `factQuotes(text)`, when it was worked out already (where the session was read). */
	quotes?: readonly FactQuote[];
}

/** A sentence of a prompt worded as a fact of some type, before it is weighed against the facts known. */
export interface FactQuote {
	quote: string;
	type: FactType;
}

/** The sentences of a prompt worded as facts: the costly part of `proposeFacts`, which needs no other fact. */
export function factQuotes(text: string): FactQuote[] {
	const out: FactQuote[] = [];
	for (const quote of sentencesOf(text)) {
		const type = classify(quote);
		if (type !== undefined) out.push({ quote, type });
	}
	return out;
}

export interface ExistingFact {
	name: string;
	description: string;
	body: string;
}

export interface ProposedFact {
	/** Kebab-case slug: ASCII for Latin text, the script's own letters for Korean, Japanese, Chinese. */
	name: string;
	/** The statement itself, cleaned up, on one line of at most 150 characters. */
	description: string;
	type: FactType;
	/** The quoted sentence, plus a `**Why:**` line when the sentence gives a reason. */
	body: string;
	/** The sentence exactly as typed (a substring of the prompt). */
	quote: string;
	/** Index of the prompt it came from. */
	prompt: number;
	uuid?: string;
	/** The statement lower-cased, punctuation stripped, white space collapsed: remembers rejections, finds duplicates. */
	key: string;
}

const MAX_SENTENCE = 300;
/** A longer line is minified code, a data dump or a pasted page, never typed prose. */
const MAX_LINE = 5000;
const MAX_DESCRIPTION = 150;
const MAX_NAME = 50;
/** Past this length a prompt is mostly pasted material: only its opening paragraphs are read. */
const LONG_PROMPT = 2000;
/** Nobody types a rule this far into a prompt: the rest is not read at all. */
const MAX_READ = 10_000;
const DUPLICATE_OVERLAP = 0.6;

/**
 * A statement's key as the state keeps it (`proposed`, never proposed again): its hash, not its
 * text. A statement is a prompt's words: kept as text, a secret in a proposal the person deleted
 * stayed in `sync-state.json`, lower-cased, where a stricter redaction later could not find it
 * (a token's shape is in its case). A key stored as text by an older release is hashed when read.
 */
export function storedKey(key: string): string {
	// A key is letters, digits and blanks (`keyOf`): one starting with `#` is a hash already.
	return key.startsWith("#") ? key : `#${hash53(key).toString(36)}`;
}

/** @param rejectedKeys the statements proposed before, as `storedKey` gives them. */
export function proposeFacts(prompts: readonly PromptInput[], existing: readonly ExistingFact[], rejectedKeys: ReadonlySet<string> = new Set()): ProposedFact[] {
	// What a new statement must not repeat: existing facts (description and body lines), then earlier proposals.
	const seen: { key: string; tokens: Set<string>[] }[] = existing.map((fact) => ({
		key: keyOf(fact.description),
		tokens: [fact.description, ...bodyLines(fact.body)].map(tokenSet).filter((set) => set.size > 0),
	}));
	const names = new Set(existing.map((fact) => fact.name.toLowerCase()));
	const proposed: ProposedFact[] = [];
	const ordered = prompts.map((prompt, at) => ({ prompt, at })).sort((a, b) => a.prompt.index - b.prompt.index || a.at - b.at);
	for (const { prompt } of ordered) {
		for (const { quote, type } of prompt.quotes ?? factQuotes(prompt.text)) {
			const statement = statementOf(quote);
			if (pointsIntoSession(statement)) continue;
			const key = keyOf(statement);
			if (key === "" || rejectedKeys.has(storedKey(key))) continue;
			const tokens = tokenSet(statement);
			if (tokens.size === 0) continue;
			if (seen.some((other) => other.key === key || other.tokens.some((set) => jaccard(tokens, set) >= DUPLICATE_OVERLAP))) continue;
			seen.push({ key, tokens: [tokens] });
			const description = clip(statement, MAX_DESCRIPTION);
			const name = uniqueName(slugOf(statement), names);
			const reason = reasonOf(quote);
			const body = reason === undefined ? `> ${quote}` : `> ${quote}\n\n**Why:** ${reason}`;
			const fact: ProposedFact = { name, description, type, body, quote, prompt: prompt.index, key };
			if (prompt.uuid !== undefined) fact.uuid = prompt.uuid;
			proposed.push(fact);
		}
	}
	return proposed;
}

// ---------------------------------------------------------------------------------------------
// What the person wrote: paragraphs and lines that are not pasted, sentences of those lines.

/** Whole prompts that a client wrote, not the person. */
const GENERATED_PROMPT = /^\s*(?:implement the following plan:|<command-|caveat: the messages below)|this session is being continued from a previous conversation/i;

/** The sentences of `text` the person most likely typed, each exactly as it appears in `text`. */
export function sentencesOf(text: string): string[] {
	if (GENERATED_PROMPT.test(text)) return [];
	const out: string[] = [];
	for (const line of typedLines(text)) {
		for (const sentence of splitSentences(line)) {
			const s = sentence.trim();
			if (s.length <= MAX_SENTENCE && !tooShort(s)) out.push(s);
		}
	}
	return out;
}

interface Paragraph {
	lines: string[];
	code: boolean;
}

function paragraphsOf(text: string): Paragraph[] {
	const paragraphs: Paragraph[] = [];
	let current: string[] = [];
	let fence: string | undefined;
	const flush = () => {
		if (current.length > 0) paragraphs.push({ lines: current, code: false });
		current = [];
	};
	for (const raw of text.split(/\r\n?|\n/)) {
		// Old clients kept the `\` a person typed to continue a line.
		const line = raw.replace(/\s*\\$/, "");
		const mark = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
		if (fence !== undefined) {
			if (mark !== undefined && mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
			continue;
		}
		if (mark !== undefined) {
			flush();
			paragraphs.push({ lines: [], code: true });
			fence = mark;
			continue;
		}
		if (line.trim() === "") flush();
		else current.push(line);
	}
	flush();
	return paragraphs;
}

/** A line ending in a colon introduces pasted text, unless it announces rules: "Two rules:", "앞으로는:". */
const RULES_FOLLOW = /\b(?:rules?|conventions?|preferences?|guidelines?|remember|from now on|going forward)\b|규칙|앞으로|기억|ルール|今後|覚えて|规则|以后|记住/i;

const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,2}[.)])\s+(?:\[[ xX]\]\s+)?/;

/** Lines of prose the person typed: no code, no quote, no log, no pasted block. */
function typedLines(text: string): string[] {
	let paragraphs = paragraphsOf(text.length > MAX_READ ? text.slice(0, text.lastIndexOf("\n", MAX_READ) + 1 || MAX_READ) : text);
	if (text.length > LONG_PROMPT) {
		// A long prompt is a short request followed by what it is about (a page, a log, a plan).
		const end = paragraphs.findIndex((p) => p.code || /[:?？：]\s*$/.test(p.lines[p.lines.length - 1] ?? ""));
		if (end >= 0) paragraphs = paragraphs.slice(0, end + 1);
	}
	const lines: string[] = [];
	let introduced = false;
	for (const paragraph of paragraphs) {
		if (paragraph.code) {
			introduced = false;
			continue;
		}
		const isList = paragraph.lines.every((line) => LIST_ITEM.test(line));
		// A paragraph mostly made of log lines is a paste even where one of its lines reads as prose.
		const pasted = (introduced && !isList) || paragraph.lines.filter(looksPasted).length * 2 > paragraph.lines.length;
		introduced = false;
		if (pasted) continue;
		let colon = false;
		for (const line of paragraph.lines) {
			if (colon && !LIST_ITEM.test(line)) continue;
			if (!looksPasted(line)) lines.push(line.replace(LIST_ITEM, ""));
			colon = /[:：]\s*$/.test(line) && !RULES_FOLLOW.test(line);
		}
		introduced = colon;
	}
	return lines;
}

const COMMAND_WORD = /^\s*(?:npm|npx|pnpm|yarn|bun|deno|git|gh|cd|ls|uv|uvx|pip|pip3|python3?|node|go|cargo|make|docker|kubectl|curl|wget|sudo|brew|mise|rm|mv|cp|cat|echo|export|chmod|ssh)\s/;

/** A line that reads as machine output, code, a path or a command rather than as prose. */
function looksPasted(line: string): boolean {
	const t = line.trim();
	if (t.length > MAX_LINE) return true;
	if (/^(?:>|\t| {4,})/.test(line) || /^[#|<{}[\]]/.test(t)) return true;
	if (/^\[?\d{1,4}[-/:.]\d{1,2}[-/:.]\d{1,4}/.test(t)) return true; // timestamps
	if (/^\[?(?:error|err!|warn(?:ing)?|info|debug|trace|fatal|panic|npm err!)\]?\s*:|^\[(?:error|warn|info|debug)\]/i.test(t)) return true;
	if (/^(?:[\w.$]*(?:Error|Exception)\b|Traceback\b|Caused by\b|at\s+[\w$.<>]+\s*\(|File ")/.test(t)) return true;
	if (/^[$%]\s/.test(t) || (COMMAND_WORD.test(t) && /\s--?\w|&&|\|/.test(t))) return true;
	if (!/\s/.test(t) && /[/\\]/.test(t)) return true; // a path or a URL alone
	if (/[{};]\s*$/.test(t) || /^["'][\w-]+["']\s*:/.test(t)) return true; // code, JSON
	const { letters, visible } = letterShare(t);
	return visible > 0 && letters / visible < 0.5;
}

/**
 * The letters of a text (`\p{L}`, by code point) and its code units that are no white space
 * (`\s`), counted in one pass: every line of every prompt is judged so, and a match of each
 * letter and a copy without the spaces cost an array and a string a line. Only a character past
 * ASCII is given to the patterns.
 */
export function letterShare(text: string): { letters: number; visible: number } {
	let letters = 0;
	let visible = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) {
			if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) continue;
			visible++;
			if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) letters++;
			continue;
		}
		const point = text.codePointAt(i)!;
		if (point > 0xffff) {
			visible += 2;
			if (LETTER.test(String.fromCodePoint(point))) letters++;
			i++;
			continue;
		}
		const char = text[i]!;
		if (SPACE.test(char)) continue;
		visible++;
		if (LETTER.test(char)) letters++;
	}
	return { letters, visible };
}

const LETTER = /^\p{L}$/u;
const SPACE = /^\s$/;

const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|viz|mr|mrs|ms|dr|no|fig|eq)$/i;
/** Korean sentence endings after which a new sentence may start without punctuation. */
const KO_END = /(?:습니다|니다|세요|어요|아요|해요|에요|예요|줘요|줘|하자|했다|한다|된다|이다|했어|거야|이야|말아)$/;

/** Split one line at `.!?` followed by a space, at `。！？`, and after Korean sentence endings. */
function splitSentences(line: string): string[] {
	const out: string[] = [];
	let start = 0;
	for (let i = 0; i < line.length; i++) {
		const c = line[i] ?? "";
		let end = -1;
		if ("。！？".includes(c)) {
			end = i + 1;
		} else if (".!?".includes(c)) {
			let j = i + 1;
			while (j < line.length && ".!?)\"'”’".includes(line[j] ?? "")) j++;
			// After a closing quote the sentence goes on unless a capital follows: `the note "Powered by X." in case…`
			const quoted = /["'”’]/.test(line.slice(i + 1, j));
			if (j >= line.length || (/\s/.test(line[j] ?? "") && (!quoted || /^\s+[^a-z]/.test(line.slice(j))))) {
				if (!(c === "." && ABBREVIATION.test(line.slice(start, i)))) end = j;
			}
			i = j - 1;
		} else if (/\s/.test(c) && KO_END.test(line.slice(Math.max(start, i - 3), i)) && /[가-힣A-Za-z]/.test(line[i + 1] ?? "")) {
			end = i;
		}
		if (end > start) {
			out.push(line.slice(start, end));
			start = end;
		}
	}
	if (start < line.length) out.push(line.slice(start));
	return out;
}

const CJK_CHAR = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function tooShort(s: string): boolean {
	if (CJK_CHAR.test(s)) return s.replace(/\s/g, "").length < 5;
	return s.length < 12 || s.split(/\s+/).length < 3;
}

// ---------------------------------------------------------------------------------------------
// Is this sentence a rule, a decision, a preference or a fact about the user? Which kind?

function classify(sentence: string): FactType | undefined {
	const s = sentence.trim().replace(/[’‘]/g, "'");
	if (/[?？]\s*$/.test(s) || looksLikeCode(s)) return undefined;
	if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(s)) return classifyJapanese(s);
	if (/\p{Script=Hangul}/u.test(s)) return classifyKorean(s);
	if (/\p{Script=Han}/u.test(s)) return classifyChinese(s);
	return classifyEnglish(s);
}

/** Code outside backticks: operators, braces, calls, statement ends. */
function looksLikeCode(s: string): boolean {
	const prose = s.replace(/`[^`]*`/g, " x ");
	return /=>|==|!=|&&|\|\||::|\w\(\)|[{}<>]|;\s*$|^\s*(?:const|let|var|def|function|class|import|return|if|for)\s+\w+\s*[=(:{]/.test(prose);
}

// --- English ---------------------------------------------------------------------------------

/** Base-form verbs that follow a clause-initial "always"/"never" in a rule ("Always run…", "Never use…"). */
const RULE_VERB = [
	"use|run|write|add|commit|push|prefer|keep|put|call|include|name|format|test|check|ask|update|create|import|follow|start|make|avoid",
	"leave|log|document|squash|rebase|merge|deploy|pin|lint|review|reply|respond|answer|mention|explain|comment|declare|wrap|split",
	"store|save|read|open|delete|remove|touch|modify|change|edit|hardcode|mock|skip|ignore|disable|enable|install|upgrade|bump",
	"release|tag|link|cite|print|show|mark|set|be|do|stage|sign|verify|validate|sanitize|escape|handle|catch|assume|guess|trust",
	"rely|expose|amend|force|reset|stash|refactor|rename|prefix|sort|annotate|cast|pass|send|share|upload|publish|copy|generate",
	"build|rebuild|compile|clean|close|finish|stop|wait|retry|notify|tell|give|summarize|list|quote|translate|speak|talk|work",
	"target|apply|lock|bundle|indent|break|type|suppress|silence|double-check|go through|return early",
].join("|");
/** The narrower verbs of a team's habit ("we always squash", "I never use"). */
const HABIT_VERB = "use|write|put|keep|name|run|commit|push|merge|squash|rebase|deploy|test|prefer|follow|document|pin|prefix|format|lint|review|sign|tag|release|avoid|work|branch|indent|type|ship";

const EN_FILLER = /^(?:(?:hey|hi|hello)(?: claude)?|ok(?:ay)?|so|also|and|but|btw|oh|well|yes|yeah|yep|right|alright|great|cool|thanks|thank you|one more thing|one last thing|note|important|fyi|ps|and also|oh and|just so you know|for context|for the record|just a heads up|heads up)\b[\s,:;!.–—]*/i;

function withoutFillers(s: string): string {
	let rest = s.trim();
	for (let i = 0; i < 6; i++) {
		const next = rest.replace(EN_FILLER, "");
		if (next === rest) break;
		rest = next;
	}
	return rest;
}

const EN_QUESTION_START = /^(?:can|could|would|will|should|shall|do(?!\s+not\b)|does|did|is|are|was|were|have|has|had|why|how|what|which|who|whom|whose|may|might|am|isn't|aren't|wasn't|wouldn't|shouldn't|couldn't|won't|any idea)\b/i;
const EN_HEDGE = /\b(?:maybe|perhaps|might|i wonder|wondering|not sure|unsure|i guess|probably|i think|i believe|i suppose|could be|seems?|seemed|apparently|hopefully)\b/i;
/** A condition or a report opened before the trigger and not closed by a comma: "if it always…", "when we decided…". */
const EN_CONDITION = /\b(?:if|whether|unless|in case|once|when|whenever|until|before|after|although|though|because|since|that's why|as if)\b[^,;:]*$/i;

/** Where a rule may start: the sentence start, after a clause break, after "and", "please", "let's"… */
const CLAUSE = String.raw`(?:^|[,;:–—(-]\s*|\b(?:and|but|so|then|please|also|just|let's|pls)\s+)`;
const rx = (source: string) => new RegExp(source, "i");

/**
 * Each rule with the lower-case words it cannot match without (`gate`): a sentence holding none of
 * a rule's is not run through it. Most sentences hold none of any rule's, and are not judged at all
 * (measured: the rules' patterns, compiled on first use in every process, were most of the fact
 * proposals of one appended turn, 11 ms of a 230 ms sync).
 */
const EN_RULES: { pattern: RegExp; type: FactType; gate: readonly string[] }[] = [
	// About the user: "I'm a backend developer", "I work as a data engineer", "my editor is Neovim"
	{ pattern: /(?:^|[,;]\s*)i(?:'m| am)\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:developer|dev|engineer|designer|scientist|researcher|student|architect|programmer|analyst|administrator|sre|maintainer|founder|cto|consultant|freelancer|hobbyist|beginner|teacher|writer)s?\b/i, type: "user", gate: ["i'm", "i am"] },
	{ pattern: /(?:^|[,;]\s*)i work as (?:a|an)\s+\w+/i, type: "user", gate: ["i work as "] },
	{ pattern: /(?:^|[,;]\s*)my (?:main |primary |preferred |usual )?(?:editor|ide|os|operating system|shell|terminal|time ?zone|stack)\s+is\s+\S+/i, type: "user", gate: ["my "] },
	// Pointers: "the design doc is at docs/design.md", "bugs are tracked in Linear", "we track tasks in Linear"
	{
		pattern:
			/(?:^|[,;:]\s*|\b(?:that|remember)\s+)(?:[Tt]he|[Oo]ur|[Mm]y)\s+(?:[\w-]+\s+){0,3}?(?:docs?|documentation|design doc|spec|specs|specification|runbook|wiki|dashboard|board|tracker|roadmap|changelog|readme|playbook|handbook|style ?guide|guide|notes|tickets|issues|bugs|backlog|mockups?|designs?)\s+(?:is|are|live|lives|can be found|is kept|are kept|is tracked|are tracked)\s+(?:at|in|on|under)\s+(?:https?:\/\/\S+|[\w./~-]*[/.][\w./~-]+|(?:the )?[A-Z][\w-]*)/,
		type: "reference", gate: ["doc", "spec", "runbook", "wiki", "board", "tracker", "roadmap", "changelog", "readme", "playbook", "handbook", "guide", "notes", "tickets", "issues", "bugs", "backlog", "mockup", "design"],
	},
	{ pattern: /(?:^|[,;:]\s*)(?:[Tt]he|[Oo]ur|[Mm]y)\s+(?:[\w-]+\s+){0,3}?(?:server|environment|repo|repository|api|endpoint|instance|site|bucket|registry|dashboard|docs?)\s+(?:is|are|lives?|runs)\s+(?:at|on)\s+https?:\/\/\S+/, type: "reference", gate: ["http"] },
	{ pattern: /(?:^|[,;:]\s*)(?:please\s+)?keep (?:our|the|all) (?:[\w-]+\s+){0,2}?(?:docs?|documentation|notes|decisions|tasks|tickets|issues|plans?)\s+(?:in|on)\s+(?!(?:this|that|the same|here|mind)\b)\S+/i, type: "reference", gate: ["keep "] },
	{ pattern: /(?:^|[,;:]\s*)(?:[Ww]e|I) (?:track|keep|file|document)\s+(?:all\s+|our\s+)?(?:bugs|issues|tasks|tickets|decisions|docs|notes)\s+in\s+(?:https?:\/\/\S+|[A-Z][\w-]*)/, type: "reference", gate: ["track", "keep", "file", "document"] },
	// Decisions about the project: "we decided to use Postgres", "let's use Vite instead of Webpack"
	{ pattern: /(?:^|[,;:]\s*|\b(?:and|so)\s+)(?:we|i)(?:'ve| have)? (?:decided|agreed|settled on|opted for)\b/i, type: "project", gate: ["decided", "agreed", "settled on", "opted for"] },
	{ pattern: /(?:^|[,;:]\s*)(?:the|our) decision is\b|^decision:/i, type: "project", gate: ["decision"] },
	{ pattern: rx(String.raw`${CLAUSE}let's (?:use|go with|switch to|stick with|stick to|move to) .+? (?:instead of|rather than|over) `), type: "project", gate: ["let's"] },
	{ pattern: /(?:^|[,;:]\s*)we (?:use|are using|'re using|will use|'ll use) .+? (?:instead of|rather than) /i, type: "project", gate: ["instead of", "rather than"] },
	// Preferences: "I prefer small commits", "I'd rather you…", "prefer composition over inheritance"
	{ pattern: /(?:^|[,;:]\s*|\b(?:and|but|so|generally|really|honestly)\s+)(?:i|we)(?: generally| really| strongly)?(?: prefer|'d prefer| would prefer|'d rather| would rather) /i, type: "feedback", gate: ["prefer", "rather"] },
	{ pattern: rx(String.raw`${CLAUSE}prefer \S.*? (?:over|to|rather than) \S`), type: "feedback", gate: ["prefer"] },
	// Conventions stated as such: "our convention is…", "the rule is…"
	{ pattern: /(?:^|[,;:]\s*)(?:our|the|my|team|house)\s+(?:team's\s+)?(?:convention|rule|standard|policy|guideline)s?\s+(?:is|are|says?)\b|\bby convention,|\bhouse rule\b/i, type: "feedback", gate: ["convention", "rule", "standard", "policy", "guideline"] },
	// Rules: "Always run…", "never use…", "don't ever…", "make sure to always…", "you should never…", "we always squash…"
	{ pattern: rx(String.raw`${CLAUSE}(?:always|never(?: ever)?|don't ever|do not ever)\s+(?:\w+ly\s+)?(?:${RULE_VERB})\b`), type: "feedback", gate: ["always", "never", "don't ever", "do not ever"] },
	{ pattern: rx(String.raw`\b(?:make sure|be sure|remember|ensure|try)\s+(?:to|you|that you|we|that we)\s+(?:always|never)\s+(?:${RULE_VERB})\b`), type: "feedback", gate: ["always", "never"] },
	{ pattern: rx(String.raw`\b(?:want|need|like|ask|told|tell)\s+you\s+to\s+(?:always|never)\s+(?:${RULE_VERB})\b`), type: "feedback", gate: ["always", "never"] },
	{ pattern: rx(String.raw`(?:^|[,;:]\s*|\b(?:and|so|but)\s+)(?:you|we)(?:'ll| will| should| must| need to| have to| shall)\s+(?:always|never)\s+(?:${RULE_VERB})\b`), type: "feedback", gate: ["always", "never"] },
	{ pattern: rx(String.raw`(?:^|[,;:]\s*|\b(?:and|so|but|here)\s+)(?:we|i)\s+(?:always|never)\s+(?:${HABIT_VERB})\b(?!\s+(?:into|out|up|across)\b)`), type: "feedback", gate: ["always", "never"] },
];

/** "From now on…", "going forward…": the rest of the sentence must read as a rule. */
const EN_FROM_NOW = /(?:^|[,;:]\s*)(?:from now on|going forward|moving forward|from here on(?: out)?|henceforth|in (?:the )?future,|for all future (?:sessions|work|changes))[\s,:]*/i;
/** "Remember that…", "keep in mind…": the rest of the sentence is the fact. */
const EN_REMEMBER = /(?:^|[,;:]\s*|\bplease\s+)(?:remember(?: that\b|\s*:)|keep in mind(?: that\b|\s*:)|don't forget that\b|for future reference\b)[\s,:]*/i;
const EN_REMEMBER_TO = /(?:^|[,;:]\s*|\bplease\s+)(?:remember|don't forget) to\s+(\w+)/i;
const EN_RULE_START = rx(
	String.raw`^(?!(?:it|this|that)\b)[\w\s'-]{1,60}?\b(?:must|should|needs?(?: to)?|has to|have to|requires?)(?: always| never| not| only)?\s+\w|^(?:(?:please|always|never|don't|do not|only)\s+)*(?:${RULE_VERB})\b|^(?:let's|let us)\s|^(?:we|you|i)(?:'ll|'re going to|'d like| will| should| must| need to| have to| want to| want you to| would like| are going to| don't| do not| can't| cannot)?\s+(?:(?:always|never|only)\s+)?(?:${RULE_VERB}|want|prefer|need)\b`,
);
const EN_NEGATED = /\b(?:not|n't|almost|nearly|hardly|rarely|usually|mostly|often|sometimes)\s+(?:always|never)\b/i;

/** The words `EN_FROM_NOW`, `EN_REMEMBER` and `EN_REMEMBER_TO` cannot match without. */
const EN_LEAD_GATE = ["from now on", "forward", "from here on", "henceforth", "future", "remember", "keep in mind", "don't forget"];
const EN_GATE = [...new Set([...EN_RULES.flatMap((rule) => rule.gate), ...EN_LEAD_GATE])];

const holds = (lower: string, gate: readonly string[]) => gate.some((word) => lower.includes(word));

function classifyEnglish(sentence: string): FactType | undefined {
	const s = withoutFillers(sentence);
	// Patterns match ASCII letters case-insensitively at most: a sentence they match holds their words lower-cased.
	const lower = s.toLowerCase();
	if (!holds(lower, EN_GATE)) return undefined;
	if (EN_QUESTION_START.test(s) || EN_HEDGE.test(s) || EN_NEGATED.test(s)) return undefined;
	for (const rule of EN_RULES) {
		if (!holds(lower, rule.gate)) continue;
		const match = rule.pattern.exec(s);
		if (match && usable(s, match.index + match[0].length)) return rule.type;
	}
	const lead = EN_FROM_NOW.exec(s);
	if (lead && usable(s, lead.index + lead[0].length)) {
		return EN_RULE_START.test(withoutFillers(s.slice(lead.index + lead[0].length))) ? "feedback" : undefined;
	}
	const remember = EN_REMEMBER.exec(s);
	if (remember && usable(s, remember.index + remember[0].length)) {
		const fact = s.slice(remember.index + remember[0].length).trim();
		if (fact.split(/\s+/).length < 3) return undefined;
		if (/^(?:i|i'm|my|i've)\b/i.test(fact)) return "user";
		if (/https?:\/\/|\b(?:is|are|lives?) (?:at|in|under) \S*[/.]\S+/i.test(fact)) return "reference";
		return EN_RULE_START.test(fact) || /\b(?:always|never|should|must)\b/i.test(fact) ? "feedback" : "project";
	}
	const rememberTo = EN_REMEMBER_TO.exec(s);
	if (rememberTo && usable(s, rememberTo.index + rememberTo[0].length) && rx(String.raw`^(?:always|never|${RULE_VERB})$`).test(rememberTo[1] ?? "")) return "feedback";
	return undefined;
}

/** The trigger ending at `end` is neither inside quotes nor under a condition opened before it. */
function usable(s: string, end: number): boolean {
	const upTo = s.slice(0, end);
	return !EN_CONDITION.test(upTo) && !insideQuotes(upTo);
}

function insideQuotes(text: string): boolean {
	const count = (re: RegExp) => (text.match(re) ?? []).length;
	return count(/"/g) % 2 === 1 || count(/`/g) % 2 === 1 || count(/“/g) > count(/”/g) || count(/[「『]/g) > count(/[」』]/g);
}

// --- Korean ----------------------------------------------------------------------------------

const KO_QUESTION = /(?:까|까요|니|나요|냐|래|래요|는지|을지|가요|죠|지요|는데|던데|나)$/;
const KO_HEDGE = /아마|혹시|같아|같은데|것 ?같|듯|려나|않을까|글쎄|싶기도/;
/** The sentence reports how something behaves ("항상 에러가 나요"), it is no rule. */
const KO_BEHAVIOUR = /에러(?!\s?(?:메시지|처리|핸들링|로그))|오류(?!\s?(?:메시지|처리))|실패|안 ?돼|안 ?되|깨져|깨지|죽어|죽네|멈춰|멈추|느려|느리|버그|터져|터지|크래시|문제가|떠요|뜨네|뜹니다|나네|납니다|이상해|이상하|안 ?나와|안 ?떠/;
/** Request, order and obligation endings: the sentence tells someone what to do. */
const KO_DIRECTIVE =
	/(?:줘|줘요|주세요|주십시오|세요|십시오|(?:하|쓰|두|가|보|지키|돌리|넣|붙이|남기|적|만들|읽|맞추|달)자|합시다|(?:해|써|둬|봐|지켜|하)라|지\s?마|지\s?마요|지\s?마세요|지\s?마라|말아|말아요|말\s?것|말기|말자|[할쓸둘볼줄]\s?것|야\s?(?:해|돼|해요|돼요|합니다|됩니다|한다)|면\s?안\s?(?:돼|돼요|됩니다|된다)|기로\s?(?:해|하자|해요)|(?:확인|실행|사용|작성|추가|유지|테스트|커밋|푸시|업데이트|기록|정리|답변|대답|설명|검토|리뷰|포맷|표시|저장|설치|적용|참고|명시|표기|분리|응답|변경|수정|삭제|생성|호출|검증|제출|배포|머지|병합|주석|번역|요약)\s?해|써|돌려|넣어|붙여|지워|적어|남겨|만들어|달아|맞춰|지켜|읽어|알려|올려|나눠|줄여|바꿔|둬|둬요|해야겠어|하기)$/;
const KO_MARKER = /(?:^|\s)(?:앞으로(?:는|도)?|이제부터(?:는)?|지금부터(?:는)?|다음부터(?:는)?|항상|언제나|매번|절대(?:로)?|무조건|반드시)(?:\s|$)/;
/**
 * "절대 경로" is an absolute path; "항상 위에 표시되는 창" describes a feature (always on top);
 * "앞으로 할 일", "앞으로 어떻게 할지" speak of what comes next. None is a rule.
 */
const KO_MARKER_FALSE = /절대\s?(?:경로|값|좌표|위치|시간|다수|평가|권력)|앞으로\s+(?:\S+\s+)?(?:어떻게|뭘|무엇|무슨|할\s|할지|될|계획|방향|일정|남은|가기|이동)|(?:항상|언제나)\s+(?:\S+\s+)?\S*(?:되는|하는|있는|보이는|켜진|떠\s?있는)\s/;
const KO_DECISION = /기로\s?했|기로\s?결정|결정했|결정됐|결정함|(?:으)?로\s?정했|로\s?가기로|쓰기로|사용하기로/;
const KO_REMEMBER = /기억해|기억하세요|기억해\s?(?:줘|둬|주세요)|잊지\s?마/;

function classifyKorean(sentence: string): FactType | undefined {
	const s = sentence.replace(/[.!~。！]+$/, "").trim();
	// The reason clause and "…하면 안 돼" (must not) may name a failure without reporting one.
	const judged = s.replace(/^.*?(?:때문에|니까)\s*/, "").replace(/면\s?안\s?(?:돼|되|됩니다|된다)/g, "");
	if (KO_QUESTION.test(s) || KO_HEDGE.test(s) || KO_BEHAVIOUR.test(judged) || /(?:^|\s)(?:만약|만일)\s/.test(s)) return undefined;
	if (/(?:^|\s)(?:저는|나는|전|난|제가)\s.*(?:개발자|엔지니어|디자이너|학생|연구원|기획자|프로그래머|데이터 ?과학자)(?:이에요|예요|입니다|야|이야|임|이고|라서)?$/.test(s)) return "user";
	if (/(?:문서|위키|스펙|명세|대시보드|보드|가이드|이슈|티켓)(?:는|은)\s+\S+(?:에|에서)\s*(?:있어|있어요|있습니다|있다|있음|관리해|관리해요|관리합니다)$/.test(s)) return "reference";
	if (KO_DECISION.test(s)) return "project";
	if (/선호(?:해|해요|합니다|한다|함|하는\s?편)/.test(s) && !/선호도/.test(s)) return "feedback";
	if (KO_REMEMBER.test(s)) {
		const rest = statementOf(sentence);
		if (rest.replace(/\s/g, "").length < 5 || KO_REMEMBER.test(rest)) return undefined;
		return KO_MARKER.test(` ${rest}`) || /지\s?마|야\s?(?:해|돼|합니다|한다)|하지\s?말|면\s?안\s?(?:돼|된다|됩니다)/.test(rest) ? "feedback" : "project";
	}
	if (KO_MARKER.test(` ${s}`) && !KO_MARKER_FALSE.test(s) && KO_DIRECTIVE.test(s)) return "feedback";
	return undefined;
}

// --- Japanese --------------------------------------------------------------------------------

const JA_QUESTION = /(?:か|かな|かね|でしょうか|ますか|の|っけ)$/;
const JA_HEDGE = /たぶん|多分|かもしれ|と思う|と思います|みたい|らしい|ような気/;
const JA_BEHAVIOUR = /エラー(?!メッセージ|処理|ハンドリング|ログ)|失敗|落ち|動かない|動きません|バグ|クラッシュ|遅い|遅く|壊れ|止ま|になってしま|してしま/;
const JA_DIRECTIVE = /(?:ください|下さい|なさい|お願いします|お願い|して|てね|でね|ないで|しないこと|すること|こと|ように|べき(?:です|だ)?|ましょう|しよう|にして|使って|書いて|にします|ことにします)$/;
const JA_MARKER = /今後(?:は|も|[、,])|これから(?:は|も)|以後は|常に|必ず(?!しも)|絶対に?|いつも/;

function classifyJapanese(sentence: string): FactType | undefined {
	const s = sentence.replace(/[。.!！]+$/, "").trim();
	if (JA_QUESTION.test(s) || JA_HEDGE.test(s) || JA_BEHAVIOUR.test(s.replace(/^.*?ので[、,]?/, "")) || /もし/.test(s)) return undefined;
	if (/(?:私|僕|俺|わたし)(?:は|が).{0,20}(?:エンジニア|開発者|デザイナー|学生|研究者|プログラマー)(?:です|だ|をしています|をしてます)/.test(s)) return "user";
	if (/(?:に決めました|に決定しました|ことにしました|ことになりました|と決めました)$/.test(s)) return "project";
	if (/(?:[A-Za-z][\w.+#-]*|[ァ-ヶー]{2,})(?:にしましょう|にしよう|でいきましょう|で行きましょう|を使いましょう)$/.test(s)) return "project";
	if (/覚えておいて|覚えといて|忘れないで/.test(s)) {
		const rest = statementOf(sentence);
		if (rest.length < 5 || /覚えて|忘れないで/.test(rest)) return undefined;
		return JA_MARKER.test(rest) || JA_DIRECTIVE.test(rest.replace(/[。.]+$/, "")) ? "feedback" : "project";
	}
	if (JA_MARKER.test(s) && JA_DIRECTIVE.test(s)) return "feedback";
	return undefined;
}

// --- Chinese ---------------------------------------------------------------------------------

const ZH_QUESTION = /[吗呢么嘛]$|是不是|要不要|能不能|可不可以|有没有|为什么|怎么/;
const ZH_HEDGE = /也许|可能|大概|好像|似乎|我觉得|感觉/;
const ZH_BEHAVIOUR = /报错|出错|失败|崩溃|错误(?!信息|消息|处理|日志)|卡住|卡死|很慢|变慢|不行|不工作|有问题|异常|挂了|挂掉/;
const ZH_DIRECTIVE = /请|要|不要|别|不许|禁止|必须|应该|务必|一律|都用|使用|用|采用|写|回答|回复|运行|执行|检查|提交|保持|遵循/;

function classifyChinese(sentence: string): FactType | undefined {
	const s = sentence.replace(/[。.!！]+$/, "").trim();
	if (ZH_QUESTION.test(s) || ZH_HEDGE.test(s) || ZH_BEHAVIOUR.test(s.replace(/(?:因为|由于)[^，,]*[，,]/, "")) || /如果|假如|要是/.test(s)) return undefined;
	if (/我是.{0,12}(?:工程师|开发者|开发人员|程序员|设计师|学生|研究员|产品经理|架构师)/.test(s)) return "user";
	if (/(?:我们|我)(?:已经)?决定|决定(?:用|使用|采用)|我们定了/.test(s)) return "project";
	if (/(?:^|请|，|,)(?:记住|记得)/.test(s) && !/我记得|还记得|你记得/.test(s)) {
		const rest = statementOf(sentence);
		if (rest.length < 4) return undefined;
		return /^(?:要|不要|别|请|用|使用|先|每次|总是|始终)|必须|务必|一律|永远/.test(rest) ? "feedback" : "project";
	}
	const lead = /(?:^|[，,；;])\s*(?:请|我们|你)?(?:以后|今后|从今以后|从现在开始|往后)(?!的|再(?!也))/.test(s);
	const always = /(?:^|[，,；;])\s*(?:请你?|你要|你应该|我们要|要|以后|今后)?(?:都)?(?:总是|始终|一律|务必|一定要|永远不要|永远别|绝对不要|千万不要|千万别)/.test(s);
	if ((lead || always) && ZH_DIRECTIVE.test(s)) return "feedback";
	return undefined;
}

/**
 * "Never do that again", "I prefer the second option", "we decided to look into it tomorrow",
 * "앞으로는 이렇게 해 줘": the statement points at something in the session, or at a moment of it,
 * and means nothing in a fact file on its own.
 */
function pointsIntoSession(statement: string): boolean {
	const s = statement.toLowerCase();
	if (/\b(?:right now|for now|today|tomorrow|tonight|this time|next time|at the moment|for the moment|in a bit|in a minute)\b|\bnow\s*[.!]*$/.test(s)) return true;
	if (/\b(?:into|at|with|about|for|on)\s+(?:it|that|them)\b/.test(s)) return true;
	if (/\b(?:these|those)\b|\bthis\b(?!\s+(?:repo|repository|project|codebase|code base|app|team|company|monorepo|workspace|package|library|service|org|organisation|organization)\b)/.test(s)) return true;
	if (/\b(?:it|that|them|so)(?:\s+(?:again|anymore|any more|here|there|way|for now))?\s*[.!]*$/.test(s)) return true;
	if (/\b(?:the\s+)?(?:first|second|third|last|other|former|latter|above|previous|same)\s+(?:one|option|approach|solution|version|way|idea|proposal|suggestion)\b|\boption\s+(?:[a-d]|\d)\b/.test(s)) return true;
	return /이거|그거|저거|이걸|그걸|이렇게|그렇게|저렇게|이\s?방법|그\s?방법|これ|それ|あれ|この方法|その方法|こうして|そうして|这个|那个|这样|那样|这么/.test(statement);
}

// ---------------------------------------------------------------------------------------------
// The proposal's text: statement, reason, key, name.

const EN_LEAD_STRIP = /^(?:from now on|going forward|moving forward|from here on(?: out)?|henceforth|in (?:the )?future|for future reference|for all future (?:sessions|work|changes)|remember(?: that| to)?|keep in mind(?: that)?|don't forget(?: that| to)?)\b[\s,:;–—-]*/i;

/** The statement without its lead-in ("from now on", "remember that", 앞으로는, 今後は, 记住…). */
function statementOf(sentence: string): string {
	let s = sentence.trim().replace(/[’]/g, "'");
	for (let i = 0; i < 4; i++) {
		const next = withoutFillers(s)
			.replace(EN_LEAD_STRIP, "")
			.replace(/^please\s+/i, "")
			.replace(/^(?:앞으로(?:는|도)?|이제부터(?:는)?|지금부터(?:는)?|다음부터(?:는)?|참고로|그리고|그럼|그러면|그래서|아무튼|암튼)\s*,?\s*/, "")
			.replace(/^기억해\s?(?:줘|둬|주세요|둬요)?\s*[:：,]\s*/, "")
			.replace(/^(?:今後(?:は|も)?|これから(?:は|も))[、,]?\s*/, "")
			.replace(/^覚えておいて(?:ください)?[：:、,]\s*/, "")
			.replace(/^(?:请)?(?:记住|记得)[：:，,]?\s*/, "")
			.replace(/^(?:以后|今后|从今以后|从现在开始)[，,]?\s*/, "")
			.trim();
		if (next === s) break;
		s = next;
	}
	s = s
		.replace(/\s*(?:(?:이라는|라는|는|란)\s*)?(?:걸|것을|거|점을?)?\s*기억해\s?(?:줘|둬|주세요|둬요)?[.!~]*$/, "")
		.replace(/(?:ということ|ということを|こと|の)?を?覚えておいて(?:ください|ね)?[。.!！]*$/, "")
		.replace(/[\s.!。！~]+$/, "")
		.replace(/\s+/g, " ")
		.trim();
	return /^[a-z]/.test(s) && !CJK_CHAR.test(s) ? s[0]?.toUpperCase() + s.slice(1) : s;
}

/** The reason the sentence gives, if it gives one ("because…", "since…", 때문에, ので, 因为). */
function reasonOf(sentence: string): string | undefined {
	const s = sentence.trim();
	const found =
		/^(?:since|because)\s+([^,]{4,}),/i.exec(s)?.[1] ??
		/\bbecause\s+(.{4,}?)[\s.!]*$/i.exec(s)?.[1] ??
		/\bsince\s+(?!\d|v\d|yesterday|last\b|then\b|the last\b|version\b)(.{4,}?)[\s.!]*$/i.exec(s)?.[1] ??
		/\b(?:as otherwise|otherwise|so that)\s+.{4,}?(?=[\s.!]*$)/i.exec(s)?.[0] ??
		/(?:^|[,，]\s*)([^,，]*?(?:때문에|때문이야|때문이에요|왜냐하면\s.+))/.exec(s)?.[1] ??
		/(?:^|[、，,])([^、，,]*?ので)/.exec(s)?.[1] ??
		/(?:因为|由于)[^，,。]+/.exec(s)?.[0];
	if (found === undefined) return undefined;
	const reason = found.replace(/^[\s,，、]+|[\s,，、.!。]+$/g, "").replace(/\s+/g, " ");
	return reason.length > 0 ? clip(reason.replace(/^[a-z]/, (c) => c.toUpperCase()), MAX_DESCRIPTION) : undefined;
}

/** Lower-cased, NFKC, punctuation stripped, white space collapsed: a statement's key. */
export function keyOf(text: string): string {
	return text
		.normalize("NFKC")
		.toLowerCase()
		.replace(/['’`]/g, "")
		.replace(/[^\p{L}\p{N}]+/gu, " ")
		.trim();
}

function clip(text: string, max: number): string {
	const one = text.replace(/\s+/g, " ").trim();
	if (one.length <= max) return one;
	const cut = one.slice(0, max - 1);
	const space = cut.lastIndexOf(" ");
	return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, "")}…`;
}

/** The fact's name: ASCII for Latin text (accents folded, apostrophes and articles dropped), other scripts' letters kept. */
export function slugOf(statement: string): string {
	const text = statement
		.normalize("NFKC")
		.replace(/[\u00C0-\u024F]/g, (c) => c.normalize("NFD").replace(/\p{M}/gu, ""))
		.replace(/['’`]/g, "")
		.replace(/(?<![\p{L}\p{N}])(?:the|a|an)(?![\p{L}\p{N}])/giu, " ");
	return factSlug(text, MAX_NAME);
}

function uniqueName(base: string, names: Set<string>): string {
	let name = base;
	for (let n = 2; names.has(name.toLowerCase()); n++) name = `${base.slice(0, MAX_NAME - 3).replace(/-+$/, "")}-${n}`;
	names.add(name.toLowerCase());
	return name;
}

// ---------------------------------------------------------------------------------------------
// Near duplicates: token Jaccard over words, Korean particles stripped, CJK segmented.

/** Words that carry the trigger or grammar, not the statement: "always run tests" and "from now on, run the tests" match. */
const TOKEN_STOP = new Set(
	(
		"a an the to of in on at for and or is are be been it this that with by as please always now going forward remember we you i our us lets let should must will just also " +
		"do me my your so then ever from here make sure keep mind future decided agreed prefer would like want need use " +
		"앞으로는 앞으로 항상 절대 절대로 기억해 줘 기억해줘 주세요 해줘 해 하지 마 무조건 반드시 이제부터 " +
		"は が を に で と の て し です ます ください 今後 常に 必ず 絶対 覚え おい " +
		"的 了 是 在 都 要 请 以后 总是 记住 我们 我 你"
	).split(" "),
);

/** "Never use X" is not a duplicate of "always use X": the polarity stays a token. */
const NEGATION = new Set(["not", "never", "dont", "no", "없이"]);

let wordSegmenter: Intl.Segmenter | undefined;

function tokenSet(text: string): Set<string> {
	wordSegmenter ??= new Intl.Segmenter("und", { granularity: "word" });
	const out = new Set<string>();
	for (const { segment, isWordLike } of wordSegmenter.segment(text.normalize("NFKC").toLowerCase().replace(/['’]/g, ""))) {
		if (!isWordLike) continue;
		let word = segment;
		if (/^\p{Script=Hangul}+$/u.test(word)) {
			const particle = KO_PARTICLES.find((p) => word.length > p.length && word.endsWith(p));
			if (particle !== undefined) word = word.slice(0, -particle.length);
		} else if (/^[a-z]{4,}s$/.test(word) && !word.endsWith("ss")) word = word.slice(0, -1);
		if (NEGATION.has(word)) out.add("not");
		else if (!TOKEN_STOP.has(word)) out.add(word);
	}
	return out;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
	if (a.size === 0 || b.size === 0) return 0;
	let shared = 0;
	for (const word of a) if (b.has(word)) shared++;
	return shared / (a.size + b.size - shared);
}

/** The lines of a fact's body, quote marks and `**Why:**` labels stripped. */
function bodyLines(body: string): string[] {
	return body
		.split(/\r?\n/)
		.map((line) => line.replace(/^\s*>\s?/, "").replace(/^\s*\*\*(?:why|how to apply):\*\*\s*/i, "").trim())
		.filter((line) => line !== "");
}
