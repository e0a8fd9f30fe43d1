import { afterNulRun, isBlank, mostlyNul, unreadable, type RawLine } from "./jsonl-lines";
import { digitsAt, isoOfMs } from "./parse-line";
import { addFile, addUnique, clip, LIMITS, markMalformed, pushEvent, writtenBy } from "./model-building";
import type { OpenBlock, SessionModel, ToolCall } from "./session-model";

/**
 * Aider's chat history (`.aider.chat.history.md` at the repository's root), folded into the same
 * session model as Claude Code's transcripts. Aider cannot run here (it is a Python program), so
 * this follows what its source writes (`aider/io.py`, `aider/coders/base_coder.py`; see
 * docs/agents/aider-format.md): one file for every session in the repository, each begun by
 * `# aider chat started at 2024-08-05 19:33:06` (local time), the person's input as `#### `
 * lines, Aider's own output as `> ` lines, and the model's replies as plain Markdown between
 * them. Every line Aider writes as input or output ends with two spaces (a Markdown line break);
 * a reply's lines need not. The file's sessions are told apart by the transcript index
 * (`aiderSessionStart`): this fold sees one session's lines.
 *
 * A message spans many lines and a read can stop inside one, so where the fold stands is kept
 * in the model (`openBlock`) and the next read's lines extend the same event.
 *
 * What Aider's output says becomes the names the digest knows: `Applied edit to a.py` an `Edit`
 * of that file, `Running npm test` (a shell command the reply suggested) and `/run` a `Bash`
 * call, `Commit 1a2b3c4 fix: …` a `git commit` with its hash, `Tokens: 2.1k sent, 340
 * received. Cost: $0.01 message, $0.02 session.` the session's tokens and cost.
 */
export function foldAiderLines(model: SessionModel, lines: readonly RawLine[], from = 0, to = lines.length): void {
	for (let i = from; i < to; i++) foldAiderLine(model, lines[i]!);
	flush();
}

/**
 * The reply (or reasoning) being read in this batch of lines: its lines are joined into its event
 * once, when it ends or the batch does (a string grown line by line was most of the reader's
 * garbage). Its event's text waits until then.
 */
interface Pending {
	model: SessionModel;
	event: { text: string };
	parts: string[];
	length: number;
	limit: number;
}
let pending: Pending | undefined;

function flush(): void {
	if (!pending) return;
	const { model, event, parts, limit } = pending;
	pending = undefined;
	event.text = clip(model, parts.length === 1 ? parts[0]! : parts.join(""), limit);
}

const HEADER_PREFIX = "# aider chat started at ";

/** The start of a session, when the line is one (`# aider chat started at <time>`): its time as written, or `no time`. */
export function aiderSessionStart(line: RawLine): string | undefined {
	// Asked of every line of the history: a line whose first character is none a start's can be
	// (`#`, or the byte-order mark or NUL that `lineText` drops) is answered without its text made.
	const first = (line.text ?? line.lossy)?.charCodeAt(0);
	if (first !== 35 && first !== 0xfeff && first !== 0) return undefined;
	const text = lineText(line);
	if (text === null || !text.startsWith(HEADER_PREFIX)) return undefined;
	// A start without its time still names its session: an empty key made it `<history>#`.
	return text.slice(HEADER_PREFIX.length).trim().slice(0, 64) || "no time";
}

/**
 * Whether a file's first bytes are those of a chat history Aider wrote: past a byte-order mark and
 * blank lines, a session's start (Aider writes one at the top when it opens the file). Another
 * file named as the history by a repository's config (its `.env`) is not one.
 */
export function startsAsAiderHistory(head: string): boolean {
	return head.replace(/^\uFEFF?\s*/, "").startsWith(HEADER_PREFIX);
}

/**
 * A line's text past a byte-order mark (the first line's) and past the zero bytes a crash left
 * before it (see `afterNulRun`), its bytes that are not UTF-8 as U+FFFD (see `RawLine.lossy`):
 * the line was lost with either. Null when it has no text (too long).
 */
function lineText(line: RawLine): string | null {
	const text = line.text ?? line.lossy;
	if (text === undefined) return null;
	return afterNulRun(line.no === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

function foldAiderLine(model: SessionModel, line: RawLine): void {
	const text = lineText(line);
	if (text !== null && isBlank(text)) {
		if (model.openBlock) model.openBlock.blankLines++;
		return;
	}
	model.counts.lines++;
	// UTF-16 (Aider's `--encoding utf-16`) is valid UTF-8 with a NUL in every other byte, and was read as lines before any
	// session, no note and no word: a line that is a quarter NULs or more is no text, counted so the history is named. A
	// stray NUL in a line of text (pasted, hostile) leaves the line read; what reaches a note drops it.
	if (text === null || (text.includes("\u0000") && mostlyNul(text))) return markMalformed(model, line.no, line.text === null ? unreadable(line) : "NUL bytes in line");
	model.counts.records++;
	if (text.startsWith(HEADER_PREFIX)) return foldStart(model, trimmedFrom(text, HEADER_PREFIX.length));
	// Lines before any start (a history whose first lines were cut, or written without one) are a
	// session all the same, with no time: they were counted and dropped, and such a history had no note.
	const block = model.openBlock ?? (model.openBlock = noBlock());
	// A piece of output of several lines ends at the line Aider ended with two spaces: a blank line before it is the
	// piece's too (a file `/git show` printed), and the lines after that blank were taken for the model's reply, told
	// as what the session did. The person's input and Aider's next output after a blank line end it all the same.
	if (block.kind === "output" && block.pieceOpen === true && !(block.blankLines > 0 && (text.startsWith("#### ") || text.startsWith("> ")) && text.endsWith("  "))) return foldPieceLine(model, block, text, trimmedFrom(text, 0), false, false);
	// Aider writes a blank line before the person's input: a `#### ` line right after output or a reply is theirs (a
	// heading of a Markdown file `/git show` printed, its line ending in a line break's two spaces, was the person's prompt).
	if (text.startsWith("#### ") && text.endsWith("  ") && (block.blankLines > 0 || block.kind === "prompt" || block.kind === "none")) return foldInput(model, block, detached(trimmedFrom(text, 5)));
	const open = block.kind === "text" || block.kind === "thinking";
	// Output written in one piece of several lines has `> ` on its first line only (and the two spaces on its last).
	if ((text.startsWith("> ") || text === ">") && (!open || text.endsWith("  ") || text.startsWith("> Tokens: "))) return foldPieceLine(model, block, text, trimmedFrom(text, 1), text.endsWith("  ") || text.startsWith("> Tokens: "), true);
	if (block.kind === "output" && block.blankLines === 0) return foldPieceLine(model, block, text, trimmedFrom(text, 0), false, false);
	foldReply(model, block, text);
}

/**
 * A line of output (`line` as written, `text` without its `> ` and blanks): read, and whether its
 * piece goes on past a blank line. Only a command's output (`/git`, `/run`: what the person's
 * command printed) is held open so, and only its lines are not Aider's status: a history whose
 * lines lost their two spaces (an editor that trims them) would otherwise have every line after
 * Aider's first output taken for output, and no edit or commit of Aider's read.
 */
function foldPieceLine(model: SessionModel, block: OpenBlock, line: string, text: string, whole: boolean, first: boolean): void {
	const command = first && block.kind === "prompt" && /^[/!]/.test(model.lastPrompt ?? "");
	const goesOn = first ? command : block.pieceOpen === true;
	// The first line of output elsewhere is Aider's own, two spaces or not (the same history, trimmed).
	foldOutput(model, block, text, whole || (first && !command));
	block.pieceOpen = goesOn && !line.endsWith("  ");
}

/** Where a session's fold stands before its first line. */
function noBlock(): OpenBlock {
	// `previous` there from the start: added later, it took the block a second store for its fields.
	return { kind: "none", event: -1, blankLines: 0, previous: undefined, pieceOpen: false };
}

/** `2024-08-05 19:33:06` in this machine's zone (where Aider wrote it), as an ISO time. */
function foldStart(model: SessionModel, time: string): void {
	flush();
	model.openBlock = noBlock();
	if (!START_TIME.test(time)) return;
	// The digits read in place (a match's six strings and two arrays per session were nearly a tenth of the fold).
	const month = digitsAt(time, 5, 7);
	const day = digitsAt(time, 8, 10);
	const date = new Date(digitsAt(time, 0, 4), month - 1, day, digitsAt(time, 11, 13), digitsAt(time, 14, 16), digitsAt(time, 17, 19));
	if (Number.isNaN(date.getTime()) || date.getMonth() !== month - 1 || date.getDate() !== day) return;
	const iso = isoOfMs(date.getTime());
	if (writtenBy(model, iso) && (model.startedAt === undefined || iso < model.startedAt)) model.startedAt = iso;
}

const START_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/**
 * `text.slice(from).trim()`, made as one slice (or none: the line itself when nothing is cut), not
 * a slice and then a trimmed copy of it: Aider ends each line of its own with two spaces.
 */
function trimmedFrom(text: string, from: number): string {
	let start = from;
	let end = text.length;
	while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
	while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
	// A space past ASCII at either end (a no-break space…): `trim` knows them all.
	if (start < end && (text.charCodeAt(start) > 127 || text.charCodeAt(end - 1) > 127)) return text.slice(start, end).trim();
	return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isAsciiSpace(c: number): boolean {
	return c === 32 || (c >= 9 && c <= 13);
}

/** Modes that take a request (`/ask how does…`): the request is a prompt like any other. */
const MODE_REQUEST = /^\/(?:ask|code|architect|context)\s+(\S[\s\S]*)$/;
/** Commands that run a shell command: `/run`, `!`, `/test`, and `/git` (which runs git). */
const SHELL_COMMAND = /^(?:\/(?:run|test)\s+|!)(\S[\s\S]*)$/;
/**
 * A question Aider answered itself for a group ("(A)ll" chosen before): written as input, not typed.
 * As `/\(Y\)es\/\(N\)o.*\]: ?\S*$/` reads it: the answer after the last `]:` that only non-blanks
 * follow (a space between at most), a `(Y)es/(N)o` before it on the same line. Found by hand: that
 * regex backtracked each `]:` against each `(Y)es/(N)o` and each character, and one typed line of
 * 26 KB of them (a repository may ship its history) held the sync 39 s.
 */
export function isAutoAnswer(text: string): boolean {
	let blank = text.length - 1;
	while (blank >= 0 && !/\s/.test(text[blank]!)) blank--;
	const last = text.lastIndexOf("]:");
	const answer = last > blank ? last : text[blank] === " " && text.startsWith("]:", blank - 2) ? blank - 2 : -1;
	if (answer < 0) return false;
	let lineStart = answer;
	while (lineStart > 0 && !/[\n\r\u2028\u2029]/.test(text[lineStart - 1]!)) lineStart--;
	const question = text.indexOf("(Y)es/(N)o", lineStart);
	return question >= 0 && question + 10 <= answer;
}

function foldInput(model: SessionModel, block: OpenBlock, text: string): void {
	if (block.kind === "prompt" && block.blankLines === 0) return extendPrompt(model, block, text);
	if (text === "<blank>" || (text.includes("(Y)es/(N)o") && isAutoAnswer(text))) {
		setBlock(block, "output", -1);
		return;
	}
	const request = MODE_REQUEST.exec(text)?.[1];
	const command = request === undefined && /^[/!]/.test(text);
	if (command) model.counts.slashCommands++;
	else model.counts.prompts++;
	const prompt = request ?? text;
	model.lastPrompt = clip(model, prompt, LIMITS.prompt);
	const pushed = pushEvent(model, { kind: "prompt", promptKind: command ? "command" : "prompt", text: clip(model, prompt, LIMITS.prompt), uuid: undefined, timestamp: undefined, images: 0 });
	setBlock(block, "prompt", pushed ? model.events.length - 1 : -2);
	const shell = SHELL_COMMAND.exec(text)?.[1] ?? (/^\/git\s+\S/.test(text) ? text.slice(1) : undefined);
	if (shell !== undefined) foldCall(model, "Bash", { command: shell.trim() }, undefined);
}

function extendPrompt(model: SessionModel, block: OpenBlock, text: string): void {
	if (model.lastPrompt !== undefined) model.lastPrompt = extended(model, model.lastPrompt, text, 0, LIMITS.prompt);
	const event = block.event >= 0 ? model.events[block.event] : undefined;
	if (event?.kind === "prompt") {
		event.text = extended(model, event.text, text, 0, LIMITS.prompt);
		again(model, block.event);
	}
}

/** A message's text with one more line (after the blank lines between), unless it was clipped already. */
function extended(model: SessionModel, before: string, line: string, blankLines: number, limit: number): string {
	const max = model.index.retainedChars > LIMITS.retainedChars ? LIMITS.excerptWhenOverBudget : limit;
	if (before.length > max) return before;
	model.index.retainedChars -= before.length;
	return clip(model, `${before}${"\n".repeat(blankLines + 1)}${line}`, limit);
}

/** An event that changed after it was redacted is redacted again (redaction is idempotent). */
function again(model: SessionModel, event: number): void {
	if (model.index.redactedEvents > event) model.index.redactedEvents = event;
}

function setBlock(block: OpenBlock, kind: OpenBlock["kind"], event: number): void {
	flush();
	block.kind = kind;
	block.event = event;
	block.blankLines = 0;
	block.previous = undefined;
	block.pieceOpen = false;
}

/** The tags Aider puts around a model's reasoning (`<thinking-content-…>`), and the ones models use themselves. */
const THINKING_OPEN = /^<(?:thinking-content-[0-9a-f]{32}|think|thinking|reasoning)>$/;
const THINKING_CLOSE = /^<\/(?:thinking-content-[0-9a-f]{32}|think|thinking|reasoning)>$/;

function foldReply(model: SessionModel, block: OpenBlock, text: string): void {
	const line = text.trimEnd();
	const tag = startsWithTag(line);
	if (block.kind === "thinking") {
		if (tag && THINKING_CLOSE.test(line.trim())) setBlock(block, "text", -1);
		else appendLine(model, block, "thinking", line);
		return;
	}
	if (block.kind !== "text") {
		model.counts.assistantMessages++;
		setBlock(block, "text", -1);
		if (tag && THINKING_OPEN.test(line.trim())) {
			model.counts.thinking++;
			setBlock(block, "thinking", -1);
			return;
		}
	}
	appendLine(model, block, "text", line);
}

/** Whether the line's first character past its blanks is `<`, without the copy `trimStart` makes of an indented line (a reply's code is most of them). */
function startsWithTag(line: string): boolean {
	for (let i = 0; i < line.length; i++) {
		const c = line.charCodeAt(i);
		if (isAsciiSpace(c)) continue;
		// A space past ASCII (a no-break space…): `trimStart` knows them all.
		return c > 127 ? line.trimStart().charCodeAt(0) === 60 : c === 60; // "<"
	}
	return false;
}

/** A line of a reply or its reasoning: the block's event made, or extended (see `Pending`). */
function appendLine(model: SessionModel, block: OpenBlock, kind: "text" | "thinking", line: string): void {
	const limit = kind === "text" ? LIMITS.text : LIMITS.thinking;
	const max = model.index.retainedChars > LIMITS.retainedChars ? LIMITS.excerptWhenOverBudget : limit;
	if (block.event === -1) {
		const event = kind === "text" ? { kind, text: "", messageId: undefined, timestamp: undefined, sidechain: undefined } : { kind, text: "", redacted: false, messageId: undefined, timestamp: undefined, sidechain: undefined };
		const pushed = pushEvent(model, event);
		setBlock(block, kind, pushed ? model.events.length - 1 : -2);
		if (pushed) pending = { model, event, parts: [line], length: line.length, limit };
		return;
	}
	if (pending === undefined && block.event >= 0) {
		// A reply an earlier read stopped inside: it goes on, unless it was clipped already.
		const event = model.events[block.event];
		if (event?.kind === kind && event.text.length <= max) {
			model.index.retainedChars -= event.text.length;
			pending = { model, event, parts: [event.text], length: event.text.length, limit };
			again(model, block.event);
		}
	}
	// Past the clip limit the rest is cut anyway: not kept.
	if (pending !== undefined && pending.length <= max) {
		const gap = block.blankLines === 0 ? "\n" : "\n".repeat(block.blankLines + 1);
		pending.parts.push(gap, line);
		pending.length += gap.length + line.length;
	}
	block.blankLines = 0;
}

const TOKENS = /^Tokens: ([\d.]+k?) sent(?:, ([\d.]+k?) cache write)?(?:, ([\d.]+k?) cache hit)?, ([\d.]+k?) received\.(?:\s+(Cost: .*))?$/;
const COST = /^Cost: \$([\d.]+) message, \$([\d.]+) session\.$/;
const APPLIED = /^Applied edit to (.+)$/;
const CREATED = /^Creating empty file (.+)$/;
const ADDED = /^Added (.+?) to (?:the chat(?: \(read-only\))?\.?|read-only files\.)$/;
const COMMIT = /^Commit ([0-9a-f]{7,40}) (.+)$/;
const RUNNING = /^Running (.+)$/;
const VERSION = /^Aider v(\S+)$/;
const [APPLIED_TEXT, CREATED_TEXT, RUNNING_TEXT, VERSION_TEXT] = ["Applied edit to ", "Creating empty file ", "Running ", "Aider v"] as const;
const MODEL = /^(?:Main model|Model): (.+?) with \S+ edit format/;
const MENTIONED = /^Add file to the chat\? \(Y\)es\/\(N\)o.*\]: ?([a-z]?)$/;
const API_ERROR = /^litellm\.\w+(?:Error|Exception)\b/;

/**
 * A line of Aider's own output (without its `> `): what it says the session did. `whole`: the line
 * is a piece of output of its own (`> ` before it, two spaces after it), as Aider writes each of its
 * status lines; a line of a piece of several lines (a `/git` command's output, a file `/git show`
 * printed) is what a command printed, and a `Commit …` or `Applied edit to …` there is someone
 * else's text: it was told as the session's commit, edit, command and tokens. The cost that
 * follows the token counts on a line of its own is the one status line written so.
 */
function foldOutput(model: SessionModel, block: OpenBlock, text: string, whole: boolean): void {
	const previous = block.kind === "output" ? block.previous : undefined;
	setBlock(block, "output", -1);
	if (text === "") return;
	block.previous = text.slice(0, 1000);
	if (!whole && !(previous?.startsWith("Tokens: ") === true && text.startsWith("Cost: "))) return;
	// Each kind of line starts with its own letter: one or two patterns tried, not all of them.
	let m: RegExpExecArray | null;
	switch (text.charCodeAt(0)) {
		case 65: // A
			// A line that is a prefix and the rest: tested, and the rest cut (no match array made).
			// Each pattern tried only on a line that starts as it does (a pattern's call costs more than the check).
			if (text.startsWith(APPLIED_TEXT) && APPLIED.test(text)) {
				const path = absolute(model, trimmedFrom(text, APPLIED_TEXT.length));
				addFile(model, "edited", path);
				foldCall(model, "Edit", { file_path: path }, { isError: false, text: detached(text) });
			} else if (text.startsWith("Added ") && (m = ADDED.exec(text))) {
				if (!/^\d+ lines? of output$/.test(m[1]!)) addFile(model, "read", absolute(model, m[1]!.trim()));
			} else if (text.startsWith("Add file to the chat? ") && (m = MENTIONED.exec(text))) {
				// A file the request named, added when the person said yes (its name is the line before).
				if (previous !== undefined && m[1] !== "n" && m[1] !== "s" && m[1] !== "d") addFile(model, "read", absolute(model, previous));
			} else if (text.startsWith(VERSION_TEXT) && VERSION.test(text)) addUnique(model, "versions", text.slice(VERSION_TEXT.length));
			return;
		case 67: // C
			if (text.startsWith("Cost: ") && (m = COST.exec(text))) {
				// The session's figure is Aider's running total for the session.
				const total = Number(m[2]);
				if (Number.isFinite(total)) model.tokens.costUsd = total;
			} else if (text.startsWith("Commit ") && (m = COMMIT.exec(text))) {
				// Aider commits with `git commit -m <message>`: the digest's commit, with its hash. Its result
				// and its command joined into one string each (see `absolute`): pieces cut from the line kept
				// the line, and a template kept its pieces (a chain of three strings for each commit).
				foldCall(model, "Bash", { command: ["git commit -m ", JSON.stringify(m[2]!)].join("") }, { isError: false, text: ["[", m[1], "] ", m[2]].join("") });
			} else if (text.startsWith(CREATED_TEXT) && CREATED.test(text)) addFile(model, "written", absolute(model, trimmedFrom(text, CREATED_TEXT.length)));
			return;
		case 77: // M
			if ((m = MODEL.exec(text))) addUnique(model, "models", detached(m[1]!));
			return;
		case 82: // R
			if (text.startsWith(RUNNING_TEXT) && RUNNING.test(text)) foldCall(model, "Bash", { command: detached(text.slice(RUNNING_TEXT.length)) }, undefined);
			return;
		case 84: // T
			if (text.startsWith("Tokens: ") && (m = TOKENS.exec(text))) {
				const [sent, write, hit, received] = [count(m[1]), count(m[2]), count(m[3]), count(m[4])];
				// `sent` is the whole prompt, the cached parts (which Aider names) in it.
				model.tokens.input += Math.max(0, sent - write - hit);
				model.tokens.cacheCreation += write;
				model.tokens.cacheRead += hit;
				model.tokens.output += received;
				if (m[5]) foldOutput(model, block, m[5], true);
			} else if (text === "The LLM did not conform to the edit format.") pushEvent(model, { kind: "error", source: "assistant", text, timestamp: undefined });
			return;
		case 94: // ^
			// Counted only: ^C is also how Aider is quit, so one at the end stops no work.
			if (text === "^C again to exit" || text === "^C KeyboardInterrupt") model.counts.interruptions++;
			return;
		case 108: // l
			if (API_ERROR.test(text)) {
				model.counts.apiErrors++;
				pushEvent(model, { kind: "error", source: "api", text: clip(model, text, LIMITS.text), timestamp: undefined });
			}
			return;
		default:
			return;
	}
}

/**
 * `piece` as a string of its own: a piece cut from a line (a prompt past its `#### `, a pattern's
 * match) keeps the whole line alive for as long as the model keeps the piece, and a read of many
 * sessions keeps every model (measured: cut loose, the bench's Aider read keeps 6% less heap, which
 * its collections copy). V8 cuts pieces of 13 characters or more that way; a join makes a flat one.
 */
function detached(piece: string): string {
	return piece.length < 13 ? piece : [piece.charAt(0), piece.slice(1)].join("");
}

/** `2.1k` is 2,100 (Aider rounds to a tenth of a thousand, or a thousand past 10k); absent is 0. */
function count(value: string | undefined): number {
	if (value === undefined) return 0;
	const n = value.endsWith("k") ? Number(value.slice(0, -1)) * 1000 : Number(value);
	return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
}

function foldCall(model: SessionModel, name: string, input: Record<string, unknown>, result: ToolCall["result"]): void {
	model.counts.toolCalls++;
	const id = callId(model.counts.toolCalls);
	if (model.events.length >= LIMITS.events) {
		model.counts.elidedEvents++;
		return;
	}
	// `input` and `result` are the caller's own new objects: clipped in place, not copied.
	if (typeof input.command === "string") input.command = clip(model, input.command, LIMITS.toolInputString);
	if (result) result.text = clip(model, result.text, LIMITS.toolResult);
	// Not indexed by id: its result comes with it, and no sub-agent looks for it.
	const call: ToolCall = { id, name, input, timestamp: undefined, messageId: undefined, result, agentId: undefined };
	pushEvent(model, { kind: "tool", call, sidechain: undefined });
}

/** The ids of a session's first calls, made once for every session (a file of thousands of sessions kept a copy of each in each). */
const CALL_IDS: string[] = [];
const SHARED_CALL_IDS = 256;

function callId(n: number): string {
	if (n >= SHARED_CALL_IDS) return `aider-call-${n}`;
	return (CALL_IDS[n] ??= `aider-call-${n}`);
}

/** Aider names files relative to the repository's root, the session's folder. */
function absolute(model: SessionModel, path: string): string {
	const cwd = model.cwd;
	if (cwd === undefined || path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
	const last = cwd.charCodeAt(cwd.length - 1);
	const base = last === 47 || last === 92 ? cwd.replace(/[\\/]+$/, "") : cwd; // "/" or "\\"
	// Joined, not concatenated: one flat string, kept in the model's lists. A template made a chain of
	// pieces holding the name cut out of the output line, which kept that whole line alive too.
	return [base, "/", path.startsWith("./") ? path.slice(2) : path].join("");
}
