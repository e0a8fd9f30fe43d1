import { codeSpans } from "../text/code-spans";

/**
 * Transcript text in a note, made inert for Obsidian and the plugins people run in it. A prompt or
 * a reply is untrusted (a repository's files steer what the model writes), and a note shows it:
 * - a ```` ```dataviewjs ```` block runs as JavaScript when the note is shown (Dataview with
 *   JavaScript queries on, as many turn it), with Node's `require` on the desktop; so do
 *   `js-engine` and Meta Bind's `meta-bind-js-view`; `button` and `meta-bind-button` make a button
 *   that runs a command: their language becomes `js` or `yaml`, the name kept after it;
 * - an inline `` `$= …` `` runs as Dataview JavaScript (Dataview trims the span, whatever blanks
 *   or line break come before the `$`): a zero-width space goes before its `$`, and before any
 *   `$=` outside a span on the line too (a span may open on the line before);
 * - `<% … %>` runs as Templater JavaScript in a new note when Templater is set to run on new
 *   files: `<%` becomes `<\%` in text (it reads the same) and `<`, a zero-width space, `%` in code;
 * - raw HTML (`<iframe src=…>`, `<details>`, and `Vec<String>`, which Obsidian took for a tag and
 *   hid) is shown as written: its `<` is escaped (`\<`);
 * - an image (`![…](https://…)`) would be fetched as soon as the note is shown, with whatever the
 *   model was steered to put in its address (the known way to carry a conversation off): it stays
 *   a link, `\![…](…)`, that loads nothing until clicked; an embed of a vault note (`![[…]]`) stays;
 * - `%%` would open an Obsidian comment that hides the rest of the note (and can end ours): `%\%`;
 * - a task list item (`- [ ] …`) would be one of the user's tasks in Tasks and Dataview: `- \[ ] …`;
 * - a heading named as one the note makes (`### You · 2`, pasted from an earlier note) would take
 *   that turn's anchor (`note#You · 2`, where a search hit opens): its `#` is escaped.
 * The words stay the same to a reader; only what would run or vanish changes.
 */

const ZWSP = "\u200b";
/** Fenced languages that run as JavaScript when shown, or make a button that runs a command. */
const AS_SCRIPT = new Set(["dataviewjs", "js-engine", "js-engine-debug", "meta-bind-js-view"]);
const AS_BUTTON = new Set(["button", "meta-bind-button"]);
/** Nothing to do without one of these. */
const ANY = /[%<`!$]/;
/**
 * Outside code: `%%`, `<%`, a `<` that opens a tag, a comment or a declaration, and the `!` of an
 * image (each after an even run of backslashes: not escaped already).
 */
const IN_TEXT = /%%|(?<!\\)((?:\\\\)*)(?:<(?=([%A-Za-z/!?]))|!(?=\[(?!\[)))/g;

/**
 * A fence opened inside a quote or a list item (`> ```dataviewjs`, `- ```dataviewjs`, or on a list
 * item's next line, indented to its text): Obsidian runs a plugin's block there too, and only the
 * top level is told a fence by `safeMarkdown`. Each marker takes the blanks before it, so a line
 * reads one way only (linear, however many markers).
 */
const NESTED_FENCE = /^((?:[ \t]*(?:>|[-*+]|\d{1,9}[.)]))*[ \t]*)(`{3,}|~{3,})/;

/** A task list item (`- [ ] …`, `> 1. [x] …`, any status character): the bracket before its status. */
const TASK = /^((?:[ \t]*>)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+)\[(?=[^\]]\](?:[ \t]|$))/;

/** An ATX heading (in a quote or a list item too): its text, after the `#` run. */
const HEADING = /^((?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)(#{1,6})(?=[ \t]|$)/;
/** The headings a note makes: the turns, the conversation, each agent's name (a dialogue's other side). */
const NOTE_HEADING = /^(?:you\s*·\s*\d+|conversation|claude|codex|gemini(?: cli)?|copilot(?: cli)?|opencode|aider)$/i;

/** Whether a heading's text (closing `#`s and blanks aside) is one the note makes itself. */
export function isNoteHeading(text: string): boolean {
	return NOTE_HEADING.test(text.replace(/[ \t]+#+[ \t]*$/, "").trim().replace(/\s+/g, " "));
}

/** One line of transcript Markdown outside a fenced block (see above). */
export function inertLine(line: string): string {
	if (line.includes("#")) {
		const heading = HEADING.exec(line);
		if (heading && isNoteHeading(line.slice(heading[0].length))) line = `${heading[1]}\\${line.slice(heading[1]!.length)}`;
	}
	if (!ANY.test(line) && !line.includes("~") && !line.includes("[")) return line;
	const nested = NESTED_FENCE.exec(line);
	// A run of backticks with another after it on the line is inline code (```npm i```), not a fence.
	if (nested && (nested[2]![0] !== "`" || !line.includes("`", nested[0].length))) return `${nested[1]}${inertFenceLine(line.slice(nested[1]!.length), nested[2]!)}`;
	// The agent's to-dos are not the user's: Tasks and Dataview list every `- [ ]` of the vault among them.
	const task = TASK.exec(line);
	if (task) line = `${task[1]}\\${line.slice(task[1]!.length)}`;
	if (!ANY.test(line)) return line;
	const spans = line.includes("`") ? codeSpans(line) : [];
	if (spans.length === 0) return inertText(line);
	let out = "";
	let from = 0;
	for (const [start, end] of spans) {
		out += inertText(line.slice(from, start)) + inertSpan(line.slice(start, end));
		from = end;
	}
	return out + inertText(line.slice(from));
}

/** The opening line of a fenced block (`run` its backticks or tildes), its language made inert when it would run. */
export function inertFenceLine(line: string, run: string): string {
	const at = line.indexOf(run) + run.length;
	const info = /^([ \t]*)([^\s`]+)/.exec(line.slice(at));
	if (!info) return inertCode(line);
	const language = info[2]!.toLowerCase();
	const swap = AS_SCRIPT.has(language) ? "js" : AS_BUTTON.has(language) ? "yaml" : undefined;
	return inertCode(swap === undefined ? line : `${line.slice(0, at)}${info[1]}${swap} ${line.slice(at + info[1]!.length)}`);
}

/** Code: a line inside a fenced block, a fenced block's body, a property's value. */
export function inertCode(text: string): string {
	return text.includes("<%") ? text.replaceAll("<%", `<${ZWSP}%`) : text;
}

/** The text of an inline code span we make (its delimiters added after). */
export function inertSpanText(text: string): string {
	const at = text.length - text.trimStart().length;
	return inertCode(text.startsWith("$=", at) ? `${text.slice(0, at)}${ZWSP}${text.slice(at)}` : text);
}

function inertText(text: string): string {
	// A span opened on the line before and closed after this `$=` runs it: no `$=` is left whole.
	if (text.includes("$=")) text = text.replace(/(?<!\u200b)\$=/g, `${ZWSP}$=`);
	if (!text.includes("%") && !text.includes("<") && !text.includes("![")) return text;
	// `<%` keeps its `<` and escapes the `%`: `\<%` would still hold `<%` for Templater to find.
	return text.replace(IN_TEXT, (match, slashes: string | undefined, next: string | undefined) => {
		if (match === "%%") return "%\\%";
		const before = slashes ?? "";
		if (match.endsWith("!")) return `${before}\\!`;
		return next === "%" ? `${before}<\\` : `${before}\\<`;
	});
}

/** A code span (its delimiters included): Dataview's inline JavaScript prefix broken, `<%` too. */
function inertSpan(span: string): string {
	let ticks = 0;
	while (span.charCodeAt(ticks) === 0x60) ticks++;
	// Dataview trims the span: every blank `trim` takes (a tab, a no-break space…) may come first.
	let spaces = ticks;
	while (spaces < span.length && span[spaces]!.trim() === "") spaces++;
	const body = span.startsWith("$=", spaces) ? `${span.slice(0, spaces)}${ZWSP}${span.slice(spaces)}` : span;
	return inertCode(body);
}
