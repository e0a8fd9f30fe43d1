import { cutAtBoundary } from "./clause-cut";
import { capitalize, planHeading, typedPart } from "./request-text";
import { commitsOf } from "./work-signals";
import type { SessionModel } from "../transcript/session-model";
import { toolCallsOf } from "../transcript/session-queries";
import { visibleText } from "../text/visible-text";

const TITLE_MAX = 60;

/**
 * The session's title: the user's `/rename`, else the heading of the plan the session was handed
 * or presented (handed first: a plan presented after a hand-over is a follow-up), else the
 * client's generated title, else the newest `summary` line naming this session, else its first
 * request told as a subject (`askTitle`), shortened at a word. `summaryFor` resolves summary lines
 * written into other files of the project.
 */
export function sessionTitle(model: SessionModel, summaryFor?: string, plan?: string, firstAsk?: string): string {
	// As shown everywhere it goes (the note's name, the index's links, the context block's headings): nothing in it that shows nothing.
	const title = visibleText(chosenTitle(model, summaryFor, plan, firstAsk)).trim();
	return title === "" ? "Untitled session" : title;
}

function chosenTitle(model: SessionModel, summaryFor?: string, plan?: string, firstAsk?: string): string {
	const chosen = slugWords(model.customTitle) ?? handedPlan(model) ?? plan ?? model.aiTitle ?? summaryFor;
	if (chosen) return titleCut(chosen);
	if (firstAsk) return askTitle(model, firstAsk);
	// A command with arguments (`/orchestrator build a TODO app`) says what the session is
	// about; `/clear` or `!ls` at the start does not.
	let fallback: string | undefined;
	for (const event of model.events) {
		if (event.kind !== "prompt" || event.text.trim() === "") continue;
		if (event.promptKind === "prompt" || (event.promptKind === "command" && event.text.includes(" "))) return titleOf(firstLine(event.text));
		fallback ??= event.text;
	}
	return fallback ? titleCut(fallback) : "Untitled session";
}

/** A title written as a slug (`add-teams-keybinding`) read as words: "Add teams keybinding". */
function slugWords(title: string | undefined): string | undefined {
	if (title === undefined || !/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(title.trim())) return title;
	return capitalize(title.trim().replace(/-/g, " "));
}

/** The heading of an "Implement the following plan:" first prompt. */
function handedPlan(model: SessionModel): string | undefined {
	for (const event of model.events) if (event.kind === "prompt" && event.promptKind === "prompt") return planHeading(event.text);
	return undefined;
}

/**
 * The first request as a title: without the command that carried it, without the chat around it
 * ("I want to…", "Can you…"), with paths told by their file name. A request that is only talk
 * (a question, "we were working on this", a word or two) names the session less well than what it
 * did: its first commit, when one was made in the prompts' script; else the first sentence of the
 * prompt that is not talk ("I'm working on ENT-98. Keep the notes in Linear."); else what its
 * story is about (`substance`).
 */
function askTitle(model: SessionModel, ask: string): string {
	const first = firstTyped(model);
	const title = withErrorName(titleOf(ask), first);
	if (!isTalk(title) && !(first !== undefined && isTalk(first.trim()))) return title;
	const commit = commitsOf(toolCallsOf(model, true)).find((c) => c.subject.trim() !== "" && isCjk(c.subject) === isCjk(ask));
	if (commit) return titleOf(commit.subject.replace(CONVENTIONAL, ""));
	const ran = shellBefore(model);
	if (ran && POINTING.test(title)) return titleCut(`${title.replace(/…$/, "")}: ${ran}`);
	if (!isTalk(title) || first === undefined) return title;
	const sentence = typedPart(first)
		.split(/(?<=[.!?])\s+/)
		.slice(1)
		.map((s) => s.replace(/[.!]+$/, ""))
		.find((s) => s.split(/\s+/).length >= 3 && IMPERATIVE.test(titleOf(s)));
	if (sentence !== undefined) return titleOf(sentence);
	const subject = substance(ask);
	return subject === undefined ? title : titleOf(subject);
}

/**
 * What a request told as a story is about, when none of its sentences asks for work: the first of
 * its clauses that is not talk ("We've just done a big refactoring and a lot of the browser tests
 * fail" is about the failing tests), else the story's own deed without its teller ("we switched
 * the cache to Redis but…" reads "Switched the cache to Redis but…"). Undefined when it has neither.
 */
function substance(ask: string): string | undefined {
	const first = ask.split(/(?<=[.!?])\s+/)[0] ?? ask;
	const clauses = first
		.replace(/\([^)]*\)/g, "")
		.split(/\s*[,;:–—]\s+|\s+(?:and|but|because|though|although)\s+/i)
		.map((c) => c.replace(HEDGE, "").trim());
	// A request whose own start is no talk ("Add X and Y?") is its subject already.
	if (!isTalk(clauses[0] ?? "")) return undefined;
	const clause = clauses.find((c) => c.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length >= 3 && !isTalk(c) && !PRONOUN_SUBJECT.test(c));
	if (clause !== undefined) return clause;
	const deed = /^(?:i|we)(?:'ve| have)?\s+(?:just\s+|already\s+)?(?=\p{L}+ed\s)/iu.exec(first);
	return deed ? first.slice(deed[0].length) : undefined;
}

/** A clause about something named before it ("it doesn't work anymore"): no subject of its own. */
const PRONOUN_SUBJECT = /^(?:it|it's|its|this|that|these|those|they|he|she|them)\b/i;

/** A hedge before a clause's subject ("mostly one idea about…"). */
const HEDGE = /^(?:mostly|mainly|basically|just|really|actually|only)\s+/i;

/** "Help me find the source of this" about a pasted `QuotaExceededError`: the title names it. */
function withErrorName(title: string, prompt: string | undefined): string {
	if (prompt === undefined || !/\b(?:this|these|that|it)\b/i.test(title)) return title;
	const name = ERROR_NAME.exec(prompt)?.[1];
	if (name === undefined || title.includes(name)) return title;
	return `${titleCut(title.replace(/…$/, ""), TITLE_MAX - name.length - 3).replace(/…$/, "")} (${name})`;
}

/** An error's class name in pasted text: `TypeError`, `QuotaExceededError`, `NullPointerException`. */
const ERROR_NAME = /\b([A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Error|Exception))\b/;

/** The user's own `!command` just before the first typed prompt: what "fix these" points at. */
function shellBefore(model: SessionModel): string | undefined {
	let ran: string | undefined;
	for (const event of model.events) {
		if (event.kind !== "prompt") continue;
		if (event.promptKind === "prompt" && event.text.trim() !== "") return ran;
		ran = event.promptKind === "shell" ? event.text.replace(/^!\s*/, "").split("\n")[0]?.trim() || undefined : undefined;
	}
	return undefined;
}

/** A short request that only points back at what came before it. */
const POINTING = /^\S+(?:\s+\S+)?\s+(?:this|these|that|those|it|them)[.!]?$/i;

function firstTyped(model: SessionModel): string | undefined {
	for (const event of model.events) if (event.kind === "prompt" && event.promptKind === "prompt" && event.text.trim() !== "") return event.text.slice(0, 2000);
	return undefined;
}

/** `feat(api)!: ` and the like, before a commit subject. */
const CONVENTIONAL = /^\s*[a-z]+(?:\([^)\n]{0,40}\))?!?:\s+/i;

/** Talk to the agent rather than a subject: first or second person, a question, chit-chat, a word or two pointing back ("fix these"). */
const TALK_OPENING = /^(?:i|i'm|im|i'd|i've|i was|we|we're|we've|we were|you|do you|did you|can you|could you|would you|is there|are there|was there|were there|where|what|why|how|there's|there is|so|ok|okay|hmm|well)\b/i;
function isTalk(text: string): boolean {
	if (isCjk(text)) return false;
	const words = text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
	return TALK_OPENING.test(text) || /[?？]\s*$/.test(text) || words <= 1 || (words <= 3 && /\b(?:this|these|that|those|it|them)\b/i.test(text));
}

/** A sentence that asks for work: it opens with what to do. */
const IMPERATIVE = /^(?:add|build|change|check|clean|commit|configure|convert|create|debug|delete|deploy|document|explain|find|fix|generate|implement|improve|install|investigate|keep|list|make|merge|migrate|move|pretend|put|refactor|remove|rename|replace|research|review|rewrite|run|search|set up|setup|show|split|support|test|update|upgrade|use|write)\b/i;

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
function isCjk(text: string): boolean {
	return CJK.test(text);
}

/** Leading chat a title does without: "I want to", "Can you please", "Help me", "Let's". */
const CHAT = /^(?:(?:i(?:'m| am)? (?:keep |still )?(?:getting|seeing|having)|i keep getting|i(?:'d| would)? like (?:your |some )?help (?:with|on)|i need (?:your |some )?help (?:with|on)|i(?:'d| would)? like to|i want to|i need to|we need to|we should|let'?s|let us|help me(?: to)?|(?:can|could|would|will) you(?: please)?|please|pls|also|so|ok(?:ay)?|hey|hi|now)(?:[\s,.!:]+|(?=\.\.)))+/i;

/** An absolute or home path of three parts or more, not inside a URL. */
const LONG_PATH = /(?<![\w:/.~-])(?:~|\/)(?:[\w.@+-]+\/){2,}([\w.@+-]+)/g;

/** A title made of user text: the command name, the chat and long paths dropped, shortened. */
function titleOf(text: string): string {
	let t = text.replace(/^\/[\w:.-]+\s+(?=\S)/, "").replace(LONG_PATH, "$1");
	const bare = t.replace(CHAT, "").replace(/^[.\s]+/, "");
	if (bare.length >= 8) t = capitalize(bare);
	return titleCut(t);
}

function firstLine(text: string): string {
	const line = text.split("\n").find((l) => l.trim() !== "") ?? text;
	return line.replace(/^[#>*\-\s]+/, "");
}

/** Words a cut title must not end on: it would read as the start of a phrase that never comes. */
const DANGLING = /[\s,;:(–—-]+(?:and|or|but|nor|the|a|an|to|of|with|for|in|on|at|by|from|into|that|which|who|if|when|as|is|are|was|be|so|than|then|e|ou|de|da|do|para|com|em|que|um|uma|y|o|del|con|en|por)$/i;

/** More words a title cut short must not end on: the cut fell inside a clause ("…inside a folder while…"). */
const DANGLING_CUT = /\s+(?:while|where|because|after|before|until|about|like|my|your|our|their|its|his|her|this|these|those|some|any|every|each|not|no|very|also|just|only|still|i|we|you|they|he|she|it|will|would|should|could|can|do|does|did|have|has|had)$/i;

/** At most TITLE_MAX characters, cut at a sentence, clause or word boundary; no closing period. */
export function shorten(text: string, max = TITLE_MAX): string {
	return cutAtBoundary(text, max).replace(/(?<!\.)\.$/, "");
}

/** `shorten`, and a title does not end on a connecting word or inside an opened parenthesis ("… (allowed or…"). */
export function titleCut(text: string, max = TITLE_MAX): string {
	let t = shorten(text, max);
	const cut = t.endsWith("…");
	if (cut) t = t.slice(0, -1);
	const open = t.lastIndexOf("(");
	if (open > max * 0.4 && t.indexOf(")", open) < 0) t = t.slice(0, open);
	for (let before = ""; before !== t; ) {
		before = t;
		t = t.replace(DANGLING, "").replace(/[\s,;:(–—-]+$/, "");
		if (cut) t = t.replace(DANGLING_CUT, "");
	}
	return cut ? `${t}…` : t;
}
