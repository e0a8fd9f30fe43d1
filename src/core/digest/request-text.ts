import { FIELD_LABEL, outputMessage, pastedLines, shellCommand, typedBefore } from "../text/pasted-output";
import { cutAtBoundary } from "./clause-cut";

/**
 * What a typed prompt asks for, as a reader wants it: the request in the user's words, without
 * greetings ("Hey Claude, can you please…"), and without what was pasted into it (code, logs,
 * documentation). Undefined for a prompt that asks for nothing: "thanks", "ok", "go on".
 */

/** Prompts that acknowledge or nudge, in English, Korean, Japanese and Chinese. */
const ACKNOWLEDGEMENT =
	/^(?:ok(?:ay)?|k|yes|yeah|yep|yup|sure|no|nope|thanks?|thank you|thx|ty|cool|great|nice|perfect|awesome|good|lgtm|looks good|sounds good|go(?: on| ahead)?|continue|proceed|do it|carry on|keep going|next|done|right|correct|exactly|agreed|fine|please|please continue|please proceed|yes please|ok thanks|ok continue|go for it|ship it|👍|네|넵|예|응|좋아(?:요)?|좋습니다|감사합니다|고마워(?:요)?|계속(?:해(?:줘|주세요)?)?|진행(?:해(?:줘|주세요)?)?|확인|はい|ええ|ありがとう(?:ございます)?|続けて(?:ください)?|お願いします|いいね|了解|好的?|好的谢谢|谢谢|继续|繼續|可以|是的|对|對|行|要|開始|开始|好啊|好喔|沒問題|没问题|嗯|當然|当然)[\s.!?。！？~]*$/i;

/** Praise of the work done, maybe with thanks ("Excellent work, thank you!", "Well done, thanks a lot"): it closes a task, asks for none. */
const PRAISE =
	/^(?:(?:really |very )?(?:excellent|great|nice|perfect|awesome|amazing|brilliant|fantastic|wonderful|superb|solid|good)(?: (?:work|job|stuff))?|well done)[\s,.!]{0,8}(?:(?:thank you|thanks|thx|ty|cheers)(?: (?:so much|a lot|very much))?[\s.!]{0,8})?$/i;

/** The user's greeting and politeness before the request. */
const OPENING = /^(?:(?:hey|hi|hello|yo|ok(?:ay)?|so|alright|right|now|well|great|cool|thanks|thank you|oh|ah|hmm|wait)\b[\s,!.]*(?:claude\b)?[\s,!.]*|claude[\s,!:]+)+/i;
const POLITE = /^(?:(?:can|could|would|will) you(?: please)?|please|pls|let's|let us|i(?:'d| would) like you to|i want you to|i need you to|i(?:'d| would) like to|help me(?: to)?)\s+/i;

/** A sentence that asks: a question, a request word, or an imperative opening. */
const REQUEST = /[?？]\s*$|^(?:can|could|would|will) you\b|\b(?:please|let's|we should|we need to|i want|i'd like|i would like|i need|make sure|help me)\b|^(?:add|build|change|check|clean|commit|configure|convert|create|debug|delete|deploy|document|explain|find|fix|generate|implement|improve|install|investigate|list|make|merge|migrate|move|open|optimi[sz]e|push|refactor|remove|rename|replace|review|rewrite|run|set up|setup|show|split|support|tell|test|update|upgrade|use|write)\b|(?:해\s*줘|해\s*주세요|하세요|할\s*수\s*있|해야|주세요|してください|して下さい|お願い|してほしい|请|帮我|能不能|可以吗)/i;

/**
 * True for a prompt that only answers or acknowledges: the fixed phrases, and any reply of at most
 * three words with no request in it and nothing that names a thing ("that would be perfect",
 * "I think so", "no i dont ugh"); "fix the tests" or "src/app.ts" still ask.
 */
export function isAcknowledgement(prompt: string, replying = true): boolean {
	const text = prompt.trim();
	// A reply of a few words is short: a long prompt is never one (and is not split to find out).
	if (text.length > 80) return false;
	if (ACKNOWLEDGEMENT.test(text) || PRAISE.test(text)) return true;
	const words = text.split(/\s+/).filter((w) => w !== "");
	// A session's first words answer nothing: "Dark mode toggle" there is the request itself.
	if (!replying && words.length > 1) return false;
	if (words.length === 0 || words.length > 4 || REQUEST.test(text)) return false;
	if (/[/\\.`_@#\d<>=(){}[\]]/.test(text.replace(/[.!?]+$/, "")) || /[\u0080-\uffff]/.test(text)) return false;
	return words.length <= 3 || /^(?:yes|yeah|no|nope|ok|okay|sure|that|it|i|sounds|looks|perfect|great|nice|sweet|cool)\b/i.test(text);
}

/**
 * The request of a prompt, cut at a clause boundary; undefined when nothing but paste or an
 * acknowledgement is left. `replying`: something was said before it (a session's first prompt
 * acknowledges nothing).
 */
export function requestOf(prompt: string, max = 160, replying = true): string | undefined {
	if (isAcknowledgement(prompt, replying)) return undefined;
	// A form's fields alone, in reply to the agent ("host:" / "db.example.com", "user:" / "admin"), give the values its work waits on: no request.
	if (replying && onlyFields(prompt)) return undefined;
	const plan = planHeading(prompt);
	if (plan) return cutAtBoundary(plan, max);
	const pasted = pastedSubject(prompt);
	const own = typedRequest(typedPart(prompt), pasted, max, replying);
	if (own !== undefined || pasted !== undefined) return own;
	// A paste told by nothing (a form's fields) asks as it did before its lines were told apart: its work is not the earlier task's.
	return typedRequest(typedPart(prompt, false, false), undefined, max, replying);
}

/** A prompt of a form's fields and nothing else: each line a label alone or the one word under it, one of them data (see `pastedLines`). */
function onlyFields(prompt: string): boolean {
	const lines = requestLines(prompt).filter((l) => l.trim() !== "");
	const kinds = pastedLines(lines);
	if (!kinds.includes("field")) return false;
	return lines.every((line, i) => kinds[i] === "field" || FIELD_LABEL.test(line) || (FIELD_LABEL.test(lines[i - 1] ?? "") && /^\s*\S+\s*$/.test(line)));
}

/** The request in the typed text, with what was pasted (`pastedSubject`) named when the words do not say what they are about. */
function typedRequest(typed: string, pasted: string | undefined, max: number, replying: boolean): string | undefined {
	if (typed === "") return pasted === undefined ? undefined : cutAtBoundary(pasted, max);
	const asked = stripAsk(withoutIntros(requestSentence(typed))).trim();
	// A tag that made it a question goes with the "?" (", or?", ", right?"): left alone, it hangs.
	const request = asked.replace(/(?:,\s*(?:or|right|no|correct))?\s*\?\s*$/i, "").trim();
	// A short question ("did you push?") asks, even when the same words without "?" would not.
	if (request === "" || isAcknowledgement(asked, replying) || (!/\s/.test(request) && isAcknowledgement(request))) {
		// A label of a few words over a paste ("Console error") asks about it: the paste is named after it; "ok" over one names the paste alone.
		if (pasted === undefined) return undefined;
		return cutAtBoundary(ACKNOWLEDGEMENT.test(request) ? pasted : `${capitalize(request)} (${pasted})`, max);
	}
	// "Why does this fail?" over a pasted trace says what it is about only with the trace: its error comes along, after the person's words.
	const about = pasted !== undefined && NAMES_NOTHING.test(request) && request.split(/\s+/).length <= 8 ? ` (${pasted})` : "";
	return cutAtBoundary(capitalize(request) + about, max);
}

/** A request that points at what was pasted, or a label of a few words over it ("Console error"). */
const NAMES_NOTHING = /\b(?:this|that|it|these|those|here)\b|^\S+(?:\s+\S+){0,2}$/i;

/**
 * What the pasted output of a prompt is, told compactly: its first error line (a thrown error, a
 * tool's `error:` or `npm ERR!`, without the source location or the log's time stamp), else the
 * last command of the pasted terminal (`Output of npm test`); never a terminal's banner or prompt.
 */
function pastedSubject(prompt: string): string | undefined {
	const lines = requestLines(prompt);
	const kinds = pastedLines(lines);
	let command: string | undefined;
	for (const [i, line] of lines.entries()) {
		const kind = kinds[i];
		if (kind === "option" || kind === "field" || (kind === "typed" && !isPastedLine(line.trim()))) continue;
		// Its start says what it is: a long line (minified code, a run of spaces) is not read whole.
		const message = outputMessage(line.slice(0, 400)).replace(LOG_STAMP, "");
		if (ERROR_LINE.test(message)) return cutAtBoundary(message, PASTED_SUBJECT_MAX).replace(/[\s:.,;]+$/, "");
		if (kind === "terminal") command = shellCommand(line) ?? command;
	}
	return command === undefined ? undefined : cutAtBoundary(`Output of ${command}`, PASTED_SUBJECT_MAX);
}

/** A line that tells an error: `TypeError: …`, `Uncaught ReferenceError …`, `npm ERR! …`, `error[E0308]: …`, `cc: fatal error: …`. */
const ERROR_LINE = /^(?:Uncaught\s+)?[A-Z]?\w{0,60}(?:Error|Exception)\b|^npm ERR!|^(?:[\w.-]{1,100}:\s+)?(?:fatal|error|FATAL|ERROR)\b/;

/** A log line's time stamp and level before its message: `[2025-01-08 09:15:43] `, `12:01:02 `. */
const LOG_STAMP = /^\[?(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?Z?\]?\s+/;

/** How long the name of a paste may be: its first words say what it is. */
const PASTED_SUBJECT_MAX = 80;

/** A text that ends in ":" introduced what was pasted after it: that last sentence goes (or, if alone, its colon). */
function withoutIntros(text: string): string {
	if (!/[:：]\s*$/.test(text)) return text;
	const sentences = text.split(/(?<=[.!?。！？])\s+/);
	const kept = sentences.length > 1 ? sentences.slice(0, -1).join(" ") : text;
	return kept.replace(/\s*[:：]\s*$/, "");
}

/** Greetings and politeness off the front, as often as they stack ("Hey Claude, can you please…"). */
function stripAsk(text: string): string {
	let s = text;
	for (let i = 0; i < 3; i++) {
		const next = s.replace(OPENING, "").replace(POLITE, "").trim();
		if (next === s) break;
		s = next;
	}
	return s;
}

/**
 * The part of the typed text that asks: from its first sentence that is a request (a question,
 * "please", an imperative) on, so context told first ("We've just refactored X.") gives way to the
 * request itself; the whole text when no sentence looks like one.
 */
function requestSentence(typed: string): string {
	// What fits is kept whole: the context told first is part of the request.
	if (typed.length <= 100) return typed;
	// Quoted text (an error message, a label) is not the user's own sentences: its "Please try again." asks nothing.
	const { masked, restore } = maskQuotes(typed);
	const sentences = masked.split(/(?<=[.!?。！？])\s+/);
	if (sentences.length < 2) return restore(withinSentence(masked));
	const at = sentences.findIndex((s) => REQUEST.test(stripAsk(s)) || REQUEST.test(s));
	// "How do I handle this?" needs what "this" is: a short sentence just before it comes along.
	const back = at > 0 && DEICTIC.test(sentences[at] ?? "") && (sentences[at - 1]?.length ?? 0) <= 100 ? 1 : 0;
	// Only the request's own sentence loses a preamble: the sentence taken back for its "this" is kept whole, or it went again.
	const from = at < 0 ? masked : [...sentences.slice(at - back, at), withinSentence(sentences.slice(at).join(" "))].join(" ");
	// "Why?" after the story is no request on its own, nor is "Let's start there first", whose words alone read as a reply: the story is what was asked.
	const own = stripAsk(from);
	return restore(own.split(/\s+/).length < 3 || isAcknowledgement(own) ? masked : from);
}

/** A sentence whose first words point back at what was said before it ("How do I handle this…", "Can you fix that?"). */
const DEICTIC = /^(?:\S+\s+){0,6}(?:this|that|it|these|those)\b/i;

/** The text with each quoted span ("…", “…”) swapped for a placeholder, and the function that puts them back. */
function maskQuotes(text: string): { masked: string; restore: (s: string) => string } {
	const quotes: string[] = [];
	const masked = text.replace(/"[^"\n]{1,300}"|\u201c[^\u201d\n]{1,300}\u201d/g, (q) => `\uE000${quotes.push(q) - 1}\uE000`);
	if (quotes.length === 0) return { masked: text, restore: (s) => s };
	return { masked, restore: (s) => s.replace(/\uE000(\d+)\uE000/g, (_, i: string) => quotes[Number(i)] ?? "") };
}

/** "This was just so you know what is there, but I want to fix the broken APIs": from the request phrase on, when a long preamble comes first. */
function withinSentence(text: string): string {
	const m = /(?:^|[\s,;:])((?:i want|i'd like|i would like|i need|can you|could you|would you|please|let's|we should|we need to)\b)/i.exec(text);
	return m && m.index > 30 ? text.slice(m.index + m[0].length - (m[1]?.length ?? 0)) : text;
}

/**
 * What a slash command's own prompt asks (a custom command's file, a skill's body, sent by the
 * client when the command is run): the first sentence of its prose that is not a role given to the
 * agent ("You are a reviewer.") nor points at the template's own text ("Do the steps below.", "Use
 * this skill when…"). Headings name the template ("# Review checklist"), list items are its steps
 * or checks, and tags (`<objective>`), front matter, code, labels ("Steps:") and the skill's "Base
 * directory" line say nothing of what was asked: a prompt of those alone asks nothing of its own,
 * and the command is told by its name.
 */
export function commandRequest(expansion: string, max = 160): string | undefined {
	let fence = false;
	let frontMatter = false;
	let paragraph: string[] = [];
	const request = (): string | undefined => {
		for (const s of paragraph.join(" ").split(/(?<=[.!?])\s+/)) {
			if (s === "" || ROLE.test(s) || TEMPLATE_POINTER.test(s) || /^[^:]{0,40}:$/.test(s)) continue;
			const asked = requestOf(s, max, false);
			if (asked !== undefined) return asked;
		}
		paragraph = [];
		return undefined;
	};
	// The indent of the list being read: lines indented past it go on its item, a step of the template too.
	let list: number | undefined;
	for (const [i, raw] of expansion.replace(/<\/?[a-z][\w-]*>/gi, "\n").split("\n").entries()) {
		const line = raw.trim();
		if (line === "---" && (frontMatter || (i === 0 && paragraph.length === 0))) {
			frontMatter = !frontMatter;
			continue;
		}
		const fenceLine = /^(`{3,}|~{3,})/.test(line);
		if (fenceLine) fence = !fence;
		const indent = raw.length - raw.trimStart().length;
		const prose = !(fence || fenceLine || frontMatter || line === "" || /^base directory for this skill:/i.test(line) || isPastedLine(line) || /^#{1,6}\s/.test(line));
		const item = prose && /^(?:[-*+]|\d+[.)])\s+/.test(line);
		if (item) list = indent;
		else if (prose && (list === undefined || indent <= list)) {
			list = undefined;
			paragraph.push(line.replace(/^>\s*/, ""));
			continue;
		} else if (/^#{1,6}\s/.test(line) && !fence && !frontMatter) list = undefined;
		const asked = request();
		if (asked !== undefined) return asked;
	}
	return request();
}

/** A sentence about the template itself: what comes below it, or when to use it. */
const TEMPLATE_POINTER = /\b(?:below|following|above)\b|\bthis (?:skill|command|checklist|template|prompt)\b/i;

/** A sentence that gives the agent a role rather than asking anything of it. */
const ROLE = /^(?:you are|you're|act as)\b/i;

/** "Implement the following plan: # Title …" prompts (plan mode's hand-over): the plan's title. */
export function planHeading(prompt: string): string | undefined {
	if (!/^\s*implement the following plan\b/i.test(prompt)) return undefined;
	const heading = /^#{1,3}\s+(.+)$/m.exec(prompt);
	return heading?.[1]?.replace(/^plan:\s*/i, "").trim();
}

/**
 * The lines the user typed, not pasted: no code fences, no log- or code-shaped lines, no quoted
 * text, and at most the first few prose lines (a long paste of documentation is not a request),
 * or with `wholeParagraph` the rest of the paragraph the last of them is in. `outputOut`: a
 * program's lines (`pastedLines`) are left out whatever their shape.
 */
export function typedPart(prompt: string, wholeParagraph = false, outputOut = true): string {
	const kept: string[] = [];
	let fence = false;
	let prose = 0;
	const lines = requestLines(prompt);
	// A program's lines the person pasted (a terminal with its banner and prompt, a log) are not theirs, whatever their shape.
	const kinds = outputOut ? pastedLines(lines) : lines.map(() => "typed");
	// Whether the line before was a program's: its indented lines go on it (a thrown error's fields, `{ errno: -2, … }`).
	let inOutput = false;
	for (const [i, raw] of lines.entries()) {
		const output: boolean = kinds[i] !== "typed" || (kinds[i + 1] === "terminal" && PROMPT_PATH.test(raw)) || (inOutput && /^\s+\S/.test(raw));
		inOutput = output;
		// Words typed before a program's on their line (a terminal's banner, a log line after a question) are the person's.
		const before = kinds[i] === "output" ? typedBefore(raw) : "";
		const line = before !== "" ? before : raw.trim();
		const pasted = (output && before === "") || isPastedLine(line);
		// `wholeParagraph`: past the first few lines, on to the end of the paragraph they end in, so its last sentence is not cut in two.
		const past = prose >= 4;
		if (past && (line === "" || /^(`{3,}|~{3,})/.test(line) || pasted || prose >= PARAGRAPH_LINES)) break;
		if (/^(`{3,}|~{3,})/.test(line)) {
			fence = !fence;
			continue;
		}
		if (fence || line === "" || pasted) {
			if (line === "" && kept.length > 0) prose = Math.max(prose, 1);
			continue;
		}
		// Image references and the line-continuation backslash of the client's multi-line input are not words.
		const words = line.replace(/\[Image #\d+\]\s*/g, "").replace(/\s*\\$/, "").replace(/^[#>*\-\s]+/, "");
		if (words !== "") kept.push(words);
		if (++prose >= 4 && !wholeParagraph) break;
	}
	return kept.join(" ").replace(/\s+/g, " ").trim();
}

/** The line a two-line shell prompt shows above the one with the command: its folder, maybe its branch (`~/app main`). */
const PROMPT_PATH = /^\s*[~/]\S*(?:\s+\S+)?\s*$/;

/** How far `typedPart` reads on to end a paragraph: a wall of text with no blank line is not all read. */
const PARAGRAPH_LINES = 20;

/** A long prompt is a request around a paste: its first and last lines say what is asked. */
function requestLines(prompt: string): string[] {
	const lines = prompt.split("\n");
	return lines.length <= 60 ? lines : [...lines.slice(0, 40), ...lines.slice(-20)];
}

/** A line that looks copied from a terminal, a log, a stack trace or source code. */
function isPastedLine(line: string): boolean {
	if (/^(?:-->|==>|\+\+\+ |--- |@@ )|^\S+:\d+(?::\d+)?$/.test(line)) return true;
	if (/^(?:at\s+\S+\s*\(|at\s+[\w$.]+:\d+|File ".*", line \d+|Traceback|\s*\^+\s*$|[$>❯%#]\s|\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[\d\d:\d\d|(?:ERROR|WARN|INFO|DEBUG|TRACE)\b|npm (?:ERR|WARN)|error(?:\[\w+\])?:|warning:|\|)/.test(line)) return true;
	if (/^(?:import|export|const|let|var|function|class|def|fn|pub|public|private|return|if|for|while|#include|package|using)\b.*[;{}()=]/.test(line)) return true;
	if (/[{};]\s*$/.test(line) && !/[a-z]{3,}\s+[a-z]{3,}\s+[a-z]{3,}/i.test(line)) return true;
	// Mostly symbols and digits: data, not words.
	return line.length > 20 && line.replace(/[^\p{L}]/gu, "").length / line.length < 0.45;
}

/** The text with its first letter in upper case. */
export function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
