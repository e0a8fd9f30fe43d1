import { isNarration, stripMarkup, withoutInterjection } from "./narration";

/** One unit of prose in a Markdown text: a sentence of a paragraph, or one list item. */
export interface ProseUnit {
	text: string;
	kind: "sentence" | "item";
	/** The heading (or list intro) the unit sits under, lower-cased, for "Next steps:"-style sections. */
	section: string;
	/** The same as written (markup taken out), for naming what a unit belongs to. */
	sectionAsWritten?: string;
	/** The heading the unit sits under, lower-cased, when a list intro below it names the section. */
	heading?: string;
	/** A paragraph that is only bold words with no stop ("**Project: Flux**"): a heading in all but name, no statement. */
	titleLine?: true;
}

/**
 * The prose of a Markdown text, unit by unit: code blocks, tables, quotes, HTML and headings
 * left out. One pass over the lines, no recursion: an unclosed fence ends the prose there.
 */
export function proseUnits(markdown: string): ProseUnit[] {
	const units: ProseUnit[] = [];
	markdown = headAndTail(markdown);
	let fence: string | undefined;
	// A heading's section runs to the next heading; an intro's ("Next steps:") to the end of the list after it.
	let heading = "";
	let section = "";
	let headingAsWritten = "";
	let sectionAsWritten = "";
	let listed = false;
	let paragraph: string[] = [];
	const flush = () => {
		if (paragraph.length === 0) return;
		const text = paragraph.join(" ");
		paragraph = [];
		const titleLine = BOLD_LINE.test(text) && !/[.!?。！？:：]\s*(?:\*\*|__)$/.test(text);
		for (const sentence of splitSentences(text)) units.push({ text: sentence, kind: "sentence", section, sectionAsWritten, heading, ...(titleLine ? { titleLine } : {}) });
		// A paragraph that ends in ":" introduces what follows, its colon inside the emphasis or not ("**Next steps:**");
		// so does a short one set wholly in bold, a heading in all but name ("**Remaining**").
		if (/[:：]\s*(?:\*\*|__)?\s*$/.test(text) || BOLD_LINE.test(text)) {
			sectionAsWritten = stripMarkup(text);
			section = sectionAsWritten.toLowerCase();
		}
	};
	for (const raw of markdown.split("\n")) {
		const line = raw.trim();
		const marker = /^(`{3,}|~{3,})/.exec(line);
		if (fence !== undefined) {
			if (marker && marker[1]?.[0] === fence[0] && (marker[1]?.length ?? 0) >= fence.length && line.slice(marker[1]?.length ?? 0).trim() === "") fence = undefined;
			continue;
		}
		if (marker) {
			flush();
			fence = marker[1];
			continue;
		}
		if (line === "" || /^(\||>|<\/?[a-z][\w-]*[\s>/]|---+$|\*\*\*+$|===+$)/i.test(line)) {
			flush();
			continue;
		}
		const title = /^#{1,6}\s+(.*)$/.exec(line);
		if (title) {
			flush();
			headingAsWritten = sectionAsWritten = stripMarkup(title[1] ?? "");
			heading = section = headingAsWritten.toLowerCase();
			listed = false;
			continue;
		}
		const item = /^(?:[-*+•]|\d+[.)])\s+(.*)$/.exec(line);
		if (item) {
			flush();
			const text = stripMarkup(withoutLinks(item[1] ?? ""));
			if (text !== "") units.push({ text, kind: "item", section, sectionAsWritten, heading });
			listed = true;
			continue;
		}
		// Prose at the margin after a list ends it, and its intro's section; an indented line goes on with an item.
		if (listed && paragraph.length === 0 && !/^\s/.test(raw)) {
			section = heading;
			sectionAsWritten = headingAsWritten;
			listed = false;
		}
		paragraph.push(line);
	}
	flush();
	return units;
}

/** A paragraph that is only bold words, short as a heading is. */
const BOLD_LINE = /^(?:\*\*|__)[^*_\n]{1,60}(?:\*\*|__)$/;

/** Past this size a reply is read at its start (what it did) and its end (what is left), not in between. */
const READ_HEAD = 4_000;
const READ_TAIL = 2_000;

function headAndTail(text: string): string {
	if (text.length <= READ_HEAD + READ_TAIL) return text;
	const head = text.slice(0, text.lastIndexOf("\n", READ_HEAD) + 1 || READ_HEAD);
	const from = text.indexOf("\n", text.length - READ_TAIL);
	return `${head}\n${text.slice(from < 0 ? text.length - READ_TAIL : from + 1)}`;
}

/** Sentences of one paragraph, split after . ! ? (and their CJK forms). */
export function splitSentences(text: string): string[] {
	const out: string[] = [];
	const push = (part: string) => {
		const s = stripMarkup(part).replace(/\s+/g, " ").trim();
		if (s !== "") out.push(s);
	};
	const t = withoutLinks(text);
	let from = 0;
	for (const stop of t.matchAll(STOP)) {
		const at = stop.index + stop[0].length;
		// The word before the stop is all that tells an abbreviation: a short tail of the sentence is read.
		if (stop[1] !== undefined && !endsSentence(t.slice(Math.max(from, at - 60), at), stop[1], t[at + (stop[2]?.length ?? 0)] ?? "")) continue;
		push(t.slice(from, at));
		from = at;
	}
	push(t.slice(from));
	return out;
}

/** A stop and the space after it (a sentence may close its emphasis or quote after the stop: "**It's a small phase.** Here's why"), or a CJK stop. */
const STOP = /([.!?])[*_"'\u201d\u2019)\]]{0,3}(?=(\s+)\S)|[。！？]/g;

/**
 * Whether the sentence whose end is `tail`, ending in `stop`, ends there, `next` being the first character after the
 * space. A capital (or anything not a letter or digit) starts a new sentence; a lower-case word does
 * too ("Done. npm test passes."), unless the stop ends an abbreviation ("e.g.", "etc.", "vs."), an
 * initial, a number ("1. stop the worker 2. drain…") or an ellipsis. A digit starts none ("approx. 5").
 */
function endsSentence(tail: string, stop: string, next: string): boolean {
	if (/\d/.test(next)) return false;
	if (!/[a-z]/.test(next)) return true;
	if (stop !== ".") return true;
	if (/\.\.[*_"'\u201d\u2019)\]]{0,3}$/.test(tail)) return false;
	const word = /(\S+?)\.[*_"'\u201d\u2019)\]]{0,3}$/.exec(tail)?.[1]?.replace(/^[([{"'\u201c\u2018*_`]+/, "") ?? "";
	if (/^(?:\p{L}\.)*\p{L}$/u.test(word) || /^\d+$/.test(word)) return false;
	return !ABBREVIATIONS.has(word.toLowerCase());
}

/** Words written short with a stop that a lower-case word goes on after, in the same sentence. */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
	"etc", "vs", "cf", "approx", "incl", "excl", "esp", "resp", "viz", "al", "fig", "eq", "ca", "misc", "avg", "min", "sec", "pp", "mr", "mrs", "ms", "dr", "prof", "jr", "sr", "inc", "ltd", "corp", "dept",
]);

/** Markdown links as their text: `[package.json](package.json)` reads "package.json". */
function withoutLinks(text: string): string {
	return text.includes("](") ? text.replace(/\[([^\]\n]{1,200})\]\([^)\s]{0,500}\)/g, "$1") : text;
}

/** A unit a reader can take as a statement of result: not narration, not a question, not an offer, long enough. */
export function isStatement(text: string): boolean {
	const s = withoutInterjection(text);
	if (s.length < 8 || isNarration(s) || isQuestion(s)) return false;
	// A label with nothing after it ("Depends on: —") says nothing.
	if (/^[^:]{1,40}:[\s\p{P}\p{S}]*$/u.test(s)) return false;
	return !OFFER.test(s);
}

/** Politeness that closes a reply: "Let me know if…", "Feel free to…", "Happy to…", "Hope this helps", "You're welcome!" (and the client's own "No response requested."). */
const OFFER = /^(?:let me know|feel free|happy to|hope this helps|i hope|if you(?:'d| would)? (?:like|want|need|have)|should you|please let me know|don't hesitate|you can now|want me to|would you like|you're welcome|you are welcome|glad (?:i could|to) help|thanks for|thank you|no response requested)|(?:알려주세요|말씀해 주세요|お知らせください|お気軽に|告诉我|随时)/i;

export function isQuestion(text: string): boolean {
	return /[?？]\s*[)"'*_`]*$/.test(text.trim());
}

/** An intro that asks the user to fill in the list after it ("What would you like? Please tell me:"): its items are questions. */
const ASKING_INTRO = /[?？]|\b(?:please (?:tell|let|provide|share|send|confirm|choose|pick|answer)|let me know|tell me|could you|can you|do you (?:want|prefer))\b/i;

/** The statements of a reply, in order, with interjections taken off. */
export function statementsOf(markdown: string, units = proseUnits(markdown)): ProseUnit[] {
	return units
		.filter((u) => !(u.kind === "item" && ASKING_INTRO.test(u.section)) && !u.titleLine && isStatement(u.text))
		.map((u) => ({ ...u, text: withoutInterjection(u.text) }));
}
