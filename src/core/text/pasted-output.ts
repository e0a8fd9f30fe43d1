/**
 * Text a program wrote that a person pasted into a prompt (console and log lines, terminals, help
 * texts, copied form fields), found line by line so the prompt's keywords are the person's own
 * words, not the program's (see `keywords.ts`).
 */

/**
 * A line a program wrote, pasted: a console message with its source location first or last
 * (`app.js:73:48`, `dashboard:1 Blocked …`, `(main.ts:12)`; one inside a sentence may be the
 * user's own pointer), a stack frame, a log line or a terminal's banner (a time to the second
 * anywhere, `Last login: Thu Jan  8 09:15:43`; a date or a level first), or a message quoting a
 * URL as browsers do, in curly or single quotes (`Loading module from “https://…” was blocked`,
 * `Access to fetch at 'https://…'`; a URL typed in straight double quotes may be the user's).
 */
const OUTPUT_START = new RegExp(
	`^\\s*(?:${[
		String.raw`\S{0,200}[A-Za-z]\S{0,200}:\d+:\d+\b`,
		String.raw`[\w.-]{0,200}[A-Za-z][\w.-]{0,200}:\d+\s+\p{Lu}`,
		String.raw`at\s+\S{1,200}.{0,300}:\d+`,
		String.raw`File "[^"]+", line \d+`,
		String.raw`\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d`,
		String.raw`\[?(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL|npm ERR!)\b`,
		String.raw`(?:Uncaught\s+)?(?:[A-Z]\w*)?(?:Error|Exception)\b(?:\s*\[[^\]]*\])?:`,
		String.raw`(?:[\w.-]+:\s+)?(?:fatal|error|warning):\s`,
	].join("|")})`,
	"u",
);
/** The last word of such a line: a location with its column, or a stack frame's `(file:12)`. */
const OUTPUT_END = /(?:[A-Za-z]\S{0,200}:\d+:\d+|\([^()\s]{0,200}[A-Za-z][^()\s]{0,200}:\d+(?::\d+)?\))$/;
/** Anywhere in such a line (both hold a `:`): a time to the second, a URL quoted as browsers quote it. */
const OUTPUT_ANYWHERE = /\b\d\d:\d\d:\d\d\b|“https?:\/\/[^\s”]+”|'https?:\/\/[^\s']+'/;

/**
 * Whether a line is a program's (see above). Each pattern is tried only where it can hold (at the
 * start, on the last word, on lines with a `:`): unanchored, the location patterns made cutting a
 * session's prompts half again as slow (measured over both corpora). Their words are bounded (a path
 * of 200 characters, a frame's text of 300): a prompt of one long word (base64, minified code) cost
 * the square of its length.
 */
function isOutputLine(line: string): boolean {
	const trimmed = line.trimEnd();
	if (trimmed === "") return false;
	if (OUTPUT_START.test(trimmed)) return true;
	if (!trimmed.includes(":")) return false;
	// The last word, its last 420 characters at most: a location is never longer, and a long word costs no more.
	return OUTPUT_END.test(trimmed.slice(Math.max(trimmed.lastIndexOf(" ") + 1, trimmed.length - 420))) || OUTPUT_ANYWHERE.test(trimmed);
}

/**
 * The person's words on a line they pasted a program's words onto: those before a terminal's banner
 * ("Console error Last login: …") or a time stamp inside the line ("Should we queue it? 12:01:07
 * worker exited …"). Empty when the line is a program's from its start, or holds neither.
 */
export function typedBefore(line: string): string {
	const trimmed = line.trimEnd();
	if (OUTPUT_START.test(trimmed)) return "";
	const banner = trimmed.search(/\bLast login:\s/);
	const at = banner >= 0 ? banner : trimmed.search(OUTPUT_ANYWHERE);
	return at > 0 ? trimmed.slice(0, at).trim() : "";
}

/**
 * A shell prompt, with or without a command after it: `➜  app git:(main) gh pr view`, `$ npm test`,
 * `~ ✗ sudo cp …`, `me@box:~/app$ make`. A bare `%` first is not one: a line may start with a percentage.
 */
const SHELL_PROMPT = /^\s*(?:(?:➜|❯|\$)(?:\s+\S|\s*$)|(?:[\w.-]+@[\w.-]+(?::\S*)?|~\S*)\s*(?:✗|✔|➜|❯|\$|%|#|>)(?:\s+\S|\s*$))/u;

/** An option of a command's help or man page: `-c, --comments`, `--json <fields>`, `-t, --template <string>`. */
const OPTION_LINE = /^\s*-{1,2}[A-Za-z][\w-]*(?:,?\s+(?:-{1,2}[A-Za-z][\w-]*|<[^>]+>|\[[^\]]+\]|[A-Z_]{2,}))*\s*$/;

/** What `pastedLines` made of a line: the person's own, or what was pasted and of which kind. */
export type PastedLine = "typed" | "output" | "terminal" | "option" | "field";

/**
 * Each line's kind: a program's output (`isOutputLine`, or the line after a time stamp alone on
 * its own), a terminal's lines (a shell prompt and what follows it up to a blank line: the command
 * and its output), the options of a help text with the indented lines that describe them, a form's
 * field and its value, or typed.
 */
export function pastedLines(lines: readonly string[]): PastedLine[] {
	let option = false;
	let stamped = false;
	let terminal = false;
	return lines.map((line, i) => {
		terminal = line.trim() !== "" && (terminal || SHELL_PROMPT.test(line));
		if (terminal) return "terminal";
		const indented = /^\s/.test(line) && line.trim() !== "";
		if (OPTION_LINE.test(line) || (option && indented)) {
			option = true;
			return "option";
		}
		option = false;
		// A log's time stamp alone on its line stamps the line after it (a deploy log copied from a web page).
		const afterStamp = stamped;
		stamped = STAMP_ONLY.test(line);
		if (FIELD_LABEL.test(line) && VALUE_ONLY.test(lines[i + 1] ?? "")) return "field";
		if (i > 0 && FIELD_LABEL.test(lines[i - 1] ?? "") && VALUE_ONLY.test(line)) return "field";
		return afterStamp || isOutputLine(line) ? "output" : "typed";
	});
}

/**
 * The command of a shell prompt's line (`me@box:~/app$ npm test` → `npm test`); undefined for
 * another line or a prompt with no command.
 */
export function shellCommand(line: string): string | undefined {
	const prompt = SHELL_PROMPT.exec(line)?.[0].trimEnd();
	// The prompt's pattern takes the command's first character, or the line to its end when there is none.
	if (prompt === undefined || prompt.length >= line.trimEnd().length) return undefined;
	return line.slice(prompt.length - 1).trim();
}

/**
 * Lines pasted (see `pastedLines`), emptied: the program's words are not the session's topics
 * (`Loading failed for the module`, `cp: missing destination file operand`, `Output JSON with the
 * specified fields`). A message an output line shows, quoted again in the user's own line (`I get
 * this: Blocked form submission …`), is cut out of it too, `cut` put in its place (a break the
 * keywords do not join a phrase across).
 */
export function withoutOutput(lines: readonly string[], cut: string): string[] {
	const messages: string[] = [];
	const kinds = pastedLines(lines);
	const kept = lines.map((line, i) => {
		const kind = kinds[i];
		if (kind === "typed") return line;
		if (kind === "output") {
			const message = outputMessage(line);
			if (message.length >= MIN_QUOTED_MESSAGE) messages.push(message);
		}
		return "";
	});
	const unquoted = kept.map((line) => (line.includes('"') || line.includes("“") ? line.replace(QUOTED_ERROR, cut) : line));
	if (messages.length === 0) return unquoted;
	return unquoted.map((line) => messages.reduce((l, m) => (l.includes(m) ? l.split(m).join(cut) : l), line));
}

/** A source location as a word of its own (`app.js:73:48`). */
const LOCATION = /^[\w.-]+:\d+(?::\d+)?$/;

/**
 * An output line's message, without the source location before or after it (`app.js:73:48`). Its
 * first and last words are looked at, not found by a pattern over the line: one unanchored at its
 * end went over a run of spaces once from each of its places (a line of 40,000 spaces, 1.6 s).
 */
export function outputMessage(line: string): string {
	let text = line.trim();
	const first = text.search(/\s/);
	if (first > 0 && LOCATION.test(text.slice(0, first))) text = text.slice(first).trimStart();
	let last = text.length;
	while (last > 0 && !/\s/.test(text[last - 1]!)) last--;
	if (last > 0 && LOCATION.test(text.slice(last))) text = text.slice(0, last).trimEnd();
	return text;
}

/**
 * An error message quoted in the user's line (`Console shows "Uncaught TypeError: Jf.API is not a
 * constructor"`), up to its closing quote or the line's end: a class of error, or a source location.
 */
const QUOTED_ERROR = /["“][^"”]*?(?:\b(?:[A-Z]\w{0,60})?(?:Error|Exception)\b|[\w-]{1,100}\.\w{1,4}:\d+)[^"”]*(?:["”]|$)/gu;

/** A time stamp alone on its line: `01:12:38.208`, `[2025-01-08 09:15:43]`. */
const STAMP_ONLY = /^\s*\[?(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\]?\s*$/;

/**
 * A field's label alone on its line (`host:`, `Database name:`) and the single value under it that
 * reads as data, with a digit, `.`, `@` or `:` (`db.example.com`, `5432`): settings copied from a
 * form or a dashboard, not the user's words. A typed heading over one word (`Goal:` / `Pagination`)
 * stays.
 */
export const FIELD_LABEL = /^\s*(?:REDACTED\s+)?[\p{L}][\p{L}\p{N} _-]{0,30}:\s*$/u;
const VALUE_ONLY = /^\s*(?=\S*[\d.@:])\S+\s*$/;

/** A shorter message is cut out of no other line: it could be any few words. */
const MIN_QUOTED_MESSAGE = 24;
