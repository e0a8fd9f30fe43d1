import { codeSpans, unusedTicks } from "../text/code-spans";

/**
 * `@path` mentions in a context block, made inert. Claude Code imports the file an `@path` names
 * in CLAUDE.md into every session as "project instructions" (Gemini CLI does the same in
 * GEMINI.md), except inside code; prompts mention files that way all the time ("review
 * @src/auth.ts"), so a block quoting one would load that file, or `.env`, into every later session
 * (seen with the real client: test/e2e/context.e2e.test.ts). Each mention outside code becomes a
 * code span of its own; the words stay the same. A mention glued to a word before it (an e-mail
 * address) is no import and is left alone.
 */
export function inertMentions(text: string): string {
	if (!text.includes("@")) return text;
	return text
		.split("\n")
		.map((line) => (line.includes("@") ? unimportable(inertLine(line)) : line))
		.join("\n");
}

/**
 * No `@` left at a line's start or after a blank, in code or not: Claude Code runs its import
 * pattern (`(?:^|\s)@…`) over a list item's raw text, code spans included (a note name quoted in
 * backticks imported the `.env` its title named), and Gemini CLI pairs backticks across the whole
 * file (one stray backtick earlier turned the spans inside out). A word joiner (U+2060, no blank
 * to either client, nothing to see) goes before such an `@`.
 */
export function unimportable(text: string): string {
	return text.includes("@") ? text.replace(BLANK_AT, "$1\u2060@") : text;
}

const BLANK_AT = /(^|\s)@/gmu;

/** `@` not after a letter, digit or `_`, then what a path can hold: up to a space or a backtick. */
const MENTION = /(?<![\p{L}\p{N}_])@[^\s`]+/gu;
/** Punctuation that ends a sentence rather than a path, and the ellipsis of a cut: left after the span. */
const TRAILING = /[.,;:!?)\]}>"'’”…]+$/u;

function inertLine(line: string): string {
	const spans = codeSpans(line);
	// Delimiters no run of the line has: they pair with each other only. A backtick right beside
	// one would make a longer run of it, so a space stands between them.
	const ticks = unusedTicks(line);
	let out = "";
	let from = 0;
	let span = 0;
	for (const match of line.matchAll(MENTION)) {
		const at = match.index;
		while (span < spans.length && spans[span]![1] <= at) span++;
		if (span < spans.length && spans[span]![0] <= at) continue;
		// `@.` or `@)`: nothing but punctuation after it, quoted whole all the same.
		const stripped = match[0].replace(TRAILING, "");
		const path = stripped === "@" ? match[0] : stripped;
		const end = at + path.length;
		out += `${line.slice(from, at)}${line[at - 1] === "`" ? " " : ""}${ticks}${path}${ticks}${line[end] === "`" ? " " : ""}`;
		from = end;
	}
	return out + line.slice(from);
}
