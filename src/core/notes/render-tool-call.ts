import { REDACTION_MARKER } from "../text/redaction-marker";
import { dict } from "../dict";
import { oneLine } from "../digest/one-line";
import type { DetailLevel } from "../settings";
import { LIMITS } from "../transcript/fold";
import type { ToolCall } from "../transcript/session-model";
import { stripClientBoilerplate } from "../transcript/client-boilerplate";
import { closesFence, fenceOpening } from "../text/fences";
import { inertCode, inertFenceLine, inertLine, inertSpanText, isNoteHeading } from "./inert-markdown";
import { codeSpan } from "../text/code-spans";
import { relativeTo } from "./relative-path";
import { redrawnLines } from "../text/terminal-text";

export interface ToolCallBodyOptions {
	detail: DetailLevel;
	/** The sub-agent this call started is rendered right after the body, with its task and report. */
	subagentShown?: boolean;
}

/**
 * The body of a tool call's callout, for a person to read: an edit as a diff, a written file as
 * code in its language, a command as a shell block, todos and tasks as a checklist, a plan as
 * Markdown; other calls as a short list of their arguments, or their JSON. With `detail: "full"`
 * the tool's output follows, without Claude Code's own hints to the model. Input strings that
 * fold clipped (`LIMITS.toolInputString`, a trailing "…") say so below them.
 *
 * The text is not quoted yet: `callout()` puts every line inside the callout. Every line ending
 * is `\n` (a lone `\r` would end a Markdown line, and so the callout), every fence is longer than
 * any backtick run inside it, and a fence a clipped plan leaves open is closed.
 */
export function renderToolCallBody(call: ToolCall, options: ToolCallBodyOptions): string {
	const parts = inputParts(call, options);
	const output = outputPart(call, options);
	if (output) parts.push(output);
	return parts
		.filter((p) => p.trim() !== "")
		.join("\n\n")
		.replace(/\r\n?/g, "\n");
}

/** `: what the call was about` for its title: the file, the command, the task… (one line). */
export function toolSummary(call: ToolCall, root?: string): string {
	const text = summaryText(call);
	if (text === undefined) return "";
	// A file of the project reads as the project names it.
	const shown = text === call.input.file_path || text === call.input.notebook_path ? relativeTo(text, root) : text;
	return `: ${oneLine(shown, SUMMARY_MAX)}`;
}

const SUMMARY_MAX = 90;
const TITLE_MAX = 140;

function summaryText(call: ToolCall): string | undefined {
	const input = call.input;
	switch (call.name) {
		case "TodoWrite": {
			const todos = todoItems(input.todos);
			if (todos === undefined || todos.length === 0) break;
			return `${todos.filter((t) => t.status === "completed").length}/${todos.length} done`;
		}
		case "TaskCreate":
			if (nonEmpty(input.subject)) return input.subject;
			break;
		case "TaskUpdate":
			if (idText(input.taskId)) return `#${idText(input.taskId)}${nonEmpty(input.status) ? ` ${statusWords(input.status)}` : ""}`;
			break;
		case "ExitPlanMode":
			if (nonEmpty(input.plan)) return input.plan.trim().split("\n")[0]!.replace(/^#+\s*/, "");
			break;
	}
	const value = input.file_path ?? input.notebook_path ?? input.command ?? input.description ?? input.pattern ?? input.url ?? input.query ?? input.skill;
	return nonEmpty(value) ? value : undefined;
}

/** Whether the title shows this value whole (else the body repeats it, so nothing is lost). */
function titleHolds(call: ToolCall, value: string): boolean {
	return oneLine(value, SUMMARY_MAX) === value && call.name.length + 2 + value.length <= TITLE_MAX;
}

function inputParts(call: ToolCall, options: ToolCallBodyOptions): string[] {
	const input = call.input;
	switch (call.name) {
		case "Edit":
			if (typeof input.old_string === "string" && typeof input.new_string === "string") return editParts(call);
			break;
		case "MultiEdit":
			if (Array.isArray(input.edits) && input.edits.every(isEdit)) return multiEditParts(call, input.edits);
			break;
		case "Write":
			if (typeof input.file_path === "string" && typeof input.content === "string") return writeParts(call, input.file_path, input.content);
			break;
		case "Bash":
			if (typeof input.command === "string") return bashParts(call, input.command);
			break;
		case "TodoWrite": {
			const todos = todoItems(input.todos);
			if (todos) return [todos.length === 0 ? "_(empty list)_" : todos.map((t) => checklistLine(t.status, mdInline(t.content))).join("\n")];
			break;
		}
		case "TaskCreate":
			if (nonEmpty(input.subject)) return taskCreateParts(call, input.subject);
			break;
		case "TaskUpdate":
			if (idText(input.taskId)) return [taskUpdateLine(input)];
			break;
		case "ExitPlanMode":
			return planParts(call);
		case "Task":
		case "Agent":
			if (options.subagentShown) return [];
			if (typeof input.prompt === "string") return agentParts(call, input.prompt);
			break;
		case "Read":
			return readParts(call);
	}
	return argumentParts(call, new Set());
}

// ── Edit, MultiEdit ─────────────────────────────────────────────────────────────────────────────

interface EditInput {
	old_string: string;
	new_string: string;
	replace_all?: unknown;
}

function isEdit(value: unknown): value is EditInput {
	return typeof value === "object" && value !== null && typeof (value as EditInput).old_string === "string" && typeof (value as EditInput).new_string === "string";
}

function editParts(call: ToolCall): string[] {
	const edit = call.input as unknown as EditInput;
	const lines = edit.replace_all === true ? ["@@ replace all @@"] : [];
	lines.push(...diffLines(edit.old_string, edit.new_string));
	return [
		...pathParts(call),
		fenced("diff", lines.join("\n")),
		clipNote([
			["old text", edit.old_string],
			["new text", edit.new_string],
		]),
	];
}

function multiEditParts(call: ToolCall, edits: readonly EditInput[]): string[] {
	const lines: string[] = [];
	const clipped: [string, unknown][] = [];
	edits.forEach((edit, i) => {
		const label = `edit ${i + 1} of ${edits.length}`;
		lines.push(`@@ ${label}${edit.replace_all === true ? ", replace all" : ""} @@`, ...diffLines(edit.old_string, edit.new_string));
		clipped.push([`old text of edit ${i + 1}`, edit.old_string], [`new text of edit ${i + 1}`, edit.new_string]);
	});
	return [...pathParts(call), fenced("diff", lines.join("\n")), clipNote(clipped)];
}

/**
 * A line diff of an edit: lines both sides share stay as context (` `), the rest are `-` old and
 * `+` new, from a longest common subsequence (inputs are clipped, so this stays small).
 */
export function diffLines(before: string, after: string): string[] {
	const a = splitLines(before);
	const b = splitLines(after);
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) head++;
	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
	return [
		...a.slice(0, head).map((l) => ` ${l}`),
		...middleDiff(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
		...a.slice(a.length - tail).map((l) => ` ${l}`),
	];
}

const MAX_DIFF_CELLS = 250_000;

function middleDiff(a: readonly string[], b: readonly string[]): string[] {
	if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_DIFF_CELLS) return [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)];
	// Each line as a number, the same for equal lines: the table compares each line of one side
	// with every line of the other, and two strings of one length are compared character by
	// character (measured on edits of a hundred lines: half the time).
	const ids = new Map<string, number>();
	const idOf = (line: string) => {
		let id = ids.get(line);
		if (id === undefined) ids.set(line, (id = ids.size));
		return id;
	};
	const x = Int32Array.from(a, idOf);
	const y = Int32Array.from(b, idOf);
	const width = b.length + 1;
	// lcs[i * width + j]: the longest common subsequence of a[i..] and b[j..].
	const lcs = new Uint32Array((a.length + 1) * width);
	for (let i = a.length - 1; i >= 0; i--) {
		const line = x[i];
		const row = i * width;
		const below = row + width;
		for (let j = b.length - 1; j >= 0; j--) {
			lcs[row + j] = line === y[j] ? lcs[below + j + 1]! + 1 : Math.max(lcs[below + j]!, lcs[row + j + 1]!);
		}
	}
	const out: string[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length && j < b.length) {
		if (x[i] === y[j]) {
			out.push(` ${a[i]}`);
			i++;
			j++;
		} else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) out.push(`-${a[i++]}`);
		else out.push(`+${b[j++]}`);
	}
	while (i < a.length) out.push(`-${a[i++]}`);
	while (j < b.length) out.push(`+${b[j++]}`);
	return out;
}

function splitLines(text: string): string[] {
	const t = text.replace(/\r\n?/g, "\n");
	if (t === "") return [];
	return (t.endsWith("\n") ? t.slice(0, -1) : t).split("\n");
}

// ── Write, Read ─────────────────────────────────────────────────────────────────────────────────

function writeParts(call: ToolCall, path: string, content: string): string[] {
	return [...pathParts(call), content === "" ? "_(empty file)_" : fenced(languageOf(path), content), clipNote([["content", content]])];
}

function readParts(call: ToolCall): string[] {
	const { offset, limit } = call.input;
	const from = typeof offset === "number" && offset > 0 ? offset : undefined;
	const count = typeof limit === "number" && limit > 0 ? limit : undefined;
	let range = "";
	if (from !== undefined && count !== undefined) range = `Lines ${from}–${from + count - 1}.`;
	else if (from !== undefined) range = `From line ${from}.`;
	else if (count !== undefined) range = `First ${count} lines.`;
	const shown = new Set(["file_path", ...(from === undefined ? [] : ["offset"]), ...(count === undefined ? [] : ["limit"])]);
	return [...pathParts(call), range, ...argumentParts(call, shown)];
}

/** The file's path when the title had to cut it. */
function pathParts(call: ToolCall): string[] {
	const path = call.input.file_path ?? call.input.notebook_path;
	return typeof path === "string" && path !== "" && !titleHolds(call, path) ? [`File: ${inlineCode(path)}`] : [];
}

/** Fence languages by file extension (Obsidian highlights with Prism, which knows these names). */
const LANGUAGES: Record<string, string> = dict({
	ts: "ts",
	mts: "ts",
	cts: "ts",
	tsx: "tsx",
	js: "js",
	mjs: "js",
	cjs: "js",
	jsx: "jsx",
	py: "py",
	rb: "rb",
	rs: "rs",
	go: "go",
	java: "java",
	kt: "kotlin",
	kts: "kotlin",
	swift: "swift",
	c: "c",
	h: "c",
	cc: "cpp",
	cpp: "cpp",
	hpp: "cpp",
	cs: "csharp",
	php: "php",
	ex: "elixir",
	exs: "elixir",
	lua: "lua",
	sql: "sql",
	json: "json",
	jsonc: "json",
	jsonl: "json",
	md: "md",
	markdown: "md",
	sh: "sh",
	bash: "bash",
	zsh: "bash",
	ps1: "powershell",
	yaml: "yaml",
	yml: "yaml",
	toml: "toml",
	ini: "ini",
	css: "css",
	scss: "scss",
	less: "less",
	html: "html",
	htm: "html",
	xml: "xml",
	svg: "xml",
	vue: "html",
	graphql: "graphql",
	diff: "diff",
});

const FILE_NAMES: Record<string, string> = dict({ dockerfile: "docker", makefile: "makefile" });

/** The fence language for a path, from its extension; "" when unknown. */
export function languageOf(path: string): string {
	const name = (path.split(/[\\/]/).pop() ?? "").toLowerCase();
	const named = FILE_NAMES[name];
	if (named) return named;
	const dot = name.lastIndexOf(".");
	if (dot <= 0) return "";
	return LANGUAGES[name.slice(dot + 1)] ?? "";
}

// ── Bash ────────────────────────────────────────────────────────────────────────────────────────

function bashParts(call: ToolCall, command: string): string[] {
	const { description, run_in_background: background } = call.input;
	const parts: string[] = [];
	if (nonEmpty(description) && oneLine(description) !== oneLine(command)) parts.push(mdInline(description));
	if (background === true) parts.push("_Run in the background._");
	parts.push(fenced("sh", command), clipNote([["command", command]]));
	return parts;
}

// ── TodoWrite, TaskCreate, TaskUpdate ───────────────────────────────────────────────────────────

interface TodoItem {
	content: string;
	status: string;
}

function todoItems(value: unknown): TodoItem[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const items: TodoItem[] = [];
	for (const item of value) {
		if (typeof item !== "object" || item === null) return undefined;
		const { content, status } = item as Record<string, unknown>;
		if (typeof content !== "string") return undefined;
		items.push({ content, status: typeof status === "string" ? status : "pending" });
	}
	return items;
}

const OPEN_BOX = "\u2610";
const DONE_BOX = "\u2611";

/**
 * `- ☑ done`, `- ☐ to do`, `- ☐ doing (in progress)`; another status is named after it. Boxes,
 * not `[ ]`: the agent's to-dos are not the user's, and Tasks and Dataview would list each one
 * among them (see `inertLine`).
 */
function checklistLine(status: string, text: string): string {
	if (status === "completed") return `- ${DONE_BOX} ${text}`;
	if (status === "pending") return `- ${OPEN_BOX} ${text}`;
	return `- ${OPEN_BOX} ${text} (${statusWords(status)})`;
}

function statusWords(status: string): string {
	return oneLine(status, 30).replace(/_/g, " ");
}

function taskCreateParts(call: ToolCall, subject: string): string[] {
	// Claude Code answers `Task #3 created successfully: …`: the id later TaskUpdate calls name.
	const id = call.result && !call.result.isError ? /^Task #([\w-]{1,40}) created successfully/.exec(call.result.text)?.[1] : undefined;
	const description = call.input.description;
	return [checklistLine("pending", `${id ? `#${id} ` : ""}${mdInline(subject)}`), nonEmpty(description) ? mdInline(description) : ""];
}

function taskUpdateLine(input: Record<string, unknown>): string {
	const status = typeof input.status === "string" ? input.status : undefined;
	const subject = nonEmpty(input.subject) ? `: ${mdInline(input.subject)}` : "";
	const owner = nonEmpty(input.owner) ? `owner ${mdInline(input.owner)}` : "";
	const label = `Task #${mdInline(idText(input.taskId) ?? "")}${subject}`;
	if (status === undefined) return `- ${label}${owner ? ` (${owner})` : ""}`;
	if (status === "deleted") return `- ${OPEN_BOX} ~~${label}~~ (deleted)`;
	const notes = [status === "completed" || status === "pending" ? "" : statusWords(status), owner].filter((n) => n !== "");
	return `${checklistLine(status === "completed" ? "completed" : "pending", label)}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
}

// ── ExitPlanMode, Task / Agent ──────────────────────────────────────────────────────────────────

function planParts(call: ToolCall): string[] {
	const { plan, planFilePath, allowedPrompts } = call.input;
	const parts: string[] = [];
	if (nonEmpty(plan)) parts.push(markdownBlock(plan), clipNote([["plan", plan]]));
	if (nonEmpty(planFilePath)) parts.push(`Plan file: ${inlineCode(planFilePath)}`);
	if (Array.isArray(allowedPrompts) && allowedPrompts.length > 0) {
		const asks = allowedPrompts.map((a) => {
			const { tool, prompt } = (typeof a === "object" && a !== null ? a : {}) as Record<string, unknown>;
			return `- ${nonEmpty(tool) ? `${mdInline(tool)}: ` : ""}${nonEmpty(prompt) ? mdInline(prompt) : inlineCode(JSON.stringify(a) ?? "")}`;
		});
		parts.push(`Asks to allow:\n${asks.join("\n")}`);
	}
	return parts;
}

function agentParts(call: ToolCall, prompt: string): string[] {
	const { subagent_type: type, model, name, run_in_background: background, isolation } = call.input;
	const facts = [
		nonEmpty(type) ? mdInline(type) : "",
		nonEmpty(name) ? `named ${mdInline(name)}` : "",
		nonEmpty(model) ? `model ${mdInline(model)}` : "",
		nonEmpty(isolation) ? `isolation ${mdInline(isolation)}` : "",
		background === true ? "in the background" : "",
	].filter((f) => f !== "");
	return [facts.length > 0 ? `Sub-agent: ${facts.join(" · ")}` : "", markdownBlock(prompt), clipNote([["prompt", prompt]])];
}

// ── Any other tool ──────────────────────────────────────────────────────────────────────────────

/**
 * A call's arguments as `- key: `value`` lines when all are short, flat values (Grep, Glob, Read,
 * WebFetch, Skill…), else its JSON as before. `shown` keys and what the title shows whole are left out.
 */
function argumentParts(call: ToolCall, shown: ReadonlySet<string>): string[] {
	const title = summaryText(call);
	const entries = Object.entries(call.input).filter(([key, value]) => {
		if (value === undefined || shown.has(key)) return false;
		return !(typeof value === "string" && value === title && titleHolds(call, value));
	});
	if (entries.length === 0) return [];
	const flat = entries.every(([key, value]) => /^[\w-]{1,40}$/.test(key) && isShortScalar(value));
	if (flat) return [entries.map(([key, value]) => `- ${key}: ${inlineCode(typeof value === "string" ? value : JSON.stringify(value))}`).join("\n")];
	const strings: string[] = [];
	collectStrings(call.input, strings);
	const limits = strings.map(clippedAt).filter((l) => l !== undefined);
	return [fenced("json", JSON.stringify(call.input, null, 2)), limits.length > 0 ? `_Values ending in “…” are cut at ${Math.max(...limits)} characters._` : ""];
}

function isShortScalar(value: unknown): boolean {
	if (typeof value === "string") return value.length <= 200 && !/[\r\n]/.test(value) && clippedAt(value) === undefined;
	return typeof value === "number" || typeof value === "boolean" || value === null;
}

function collectStrings(value: unknown, out: string[]): void {
	if (typeof value === "string") out.push(value);
	else if (Array.isArray(value)) for (const item of value) collectStrings(item, out);
	else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) collectStrings(item, out);
}

// ── Output ──────────────────────────────────────────────────────────────────────────────────────

/** Tools whose success answer only confirms the input shown above (the file was updated…). */
const CONFIRMING_TOOLS = new Set(["Edit", "MultiEdit", "Write", "NotebookEdit", "TodoWrite", "TaskCreate", "TaskUpdate"]);

function outputPart(call: ToolCall, options: ToolCallBodyOptions): string | undefined {
	const result = call.result;
	if (options.detail !== "full" || !result) return undefined;
	const failed = result.isError;
	if (!failed && (CONFIRMING_TOOLS.has(call.name) || (options.subagentShown && (call.name === "Task" || call.name === "Agent")))) return undefined;
	// As its terminal showed it last: a progress bar's redraws are not lines of their own.
	let text = stripClientBoilerplate(redrawnLines(result.text));
	// Approval repeats the plan shown above.
	if (call.name === "ExitPlanMode") text = text.split("\n## Approved Plan:")[0]!.trimEnd();
	if (text.trim() === "") return undefined;
	return `${failed ? "Error" : "Output"}:\n${fenced("", text)}`;
}

// ── Markdown ────────────────────────────────────────────────────────────────────────────────────

/** A code fence longer than any backtick run inside, so the content cannot close it. */
export function fenced(lang: string, text: string): string {
	// One final line break is the fence's own.
	const body = inertCode(text.replace(/\r\n?/g, "\n").replace(/\n$/, ""));
	const longest = body.includes("`") ? Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length)) : 2;
	const fence = "`".repeat(longest + 1);
	return `${fence}${lang}\n${body}\n${fence}`;
}

/** Inline code whose delimiter no backtick run inside can end. */
export function inlineCode(text: string): string {
	return codeSpan(inertSpanText(oneLine(text)));
}

/** Transcript text as one line of Markdown, inert (see `inertLine`). */
function mdInline(text: string): string {
	return inertLine(oneLine(text));
}

/**
 * Transcript Markdown (a plan, a prompt) inside the callout: a fence left open (clipping cuts plans
 * mid-block) closed, so it cannot swallow what follows it; inert as `safeMarkdown` makes it.
 */
function markdownBlock(text: string): string {
	return safeMarkdown(text.replace(/\r\n?/g, "\n").trim());
}

/**
 * Transcript Markdown in a note (a prompt, a reply): a fence left open closed, so it cannot swallow
 * what follows (the rest of the conversation, the user's notes), and nothing in it that Obsidian or
 * a plugin would run, or that would hide the rest (see inert-markdown.ts). Otherwise the bytes as
 * they were.
 */
export function safeMarkdown(text: string): string {
	if (!/[%<`~!$#]/.test(text) && !/\n {0,3}[=-]/.test(text)) return text;
	const out: string[] = [];
	let open: string | undefined;
	let previous = "";
	for (const line of text.split("\n")) {
		if (open === undefined) {
			open = fenceOpening(line);
			// A setext underline would make the line before a heading: one named as the note's own is not.
			const underline = !open && SETEXT_UNDERLINE.test(line) && isNoteHeading(previous);
			out.push(open ? inertFenceLine(line, open) : underline ? `\\${line.trimStart()}` : inertLine(line));
			previous = line;
		} else {
			if (closesFence(line, open)) open = undefined;
			out.push(inertCode(line));
		}
	}
	if (open !== undefined) out.push(open);
	return out.join("\n");
}

/** A line that underlines the one before as a heading (`===`, `---`). */
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;

// ── Clipping ────────────────────────────────────────────────────────────────────────────────────

/**
 * The limit a string was clipped at by fold (it keeps `limit` characters, or fewer for a record, and adds "…"), or
 * undefined. Redaction can change the length after the clip; a redacted string near the limit counts.
 */
function clippedAt(text: unknown): number | undefined {
	if (typeof text !== "string" || !text.endsWith("…")) return undefined;
	const kept = text.length - 1;
	for (const limit of [LIMITS.toolInputString, LIMITS.excerptWhenOverBudget]) {
		if (kept === limit || (text.includes(REDACTION_MARKER) && Math.abs(kept - limit) <= 100)) return limit;
	}
	// A commit command or a plan is cut at a line's or a sentence's end in the latter half of its limit.
	if (kept > LIMITS.recordInput / 2 && kept <= LIMITS.recordInput + 100) return LIMITS.recordInput;
	return undefined;
}

/** `_Old and new text cut at 500 characters._` for the clipped ones among `fields`, else "". */
function clipNote(fields: readonly [string, unknown][]): string {
	const cut = fields.filter(([, value]) => clippedAt(value) !== undefined);
	if (cut.length === 0) return "";
	const limit = Math.max(...cut.map(([, value]) => clippedAt(value)!));
	const labels = cut.map(([label]) => label);
	const sentence = labels.length === 2 && labels[0] === "old text" && labels[1] === "new text" ? "old and new text" : joinWords(labels);
	return `_${sentence[0]!.toUpperCase()}${sentence.slice(1)} cut at ${limit} characters._`;
}

function joinWords(words: readonly string[]): string {
	return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** A task id as Claude Code writes it (`"3"`), or as a number. */
function idText(value: unknown): string | undefined {
	if (typeof value === "number" && Number.isFinite(value)) return String(value);
	return nonEmpty(value) ? oneLine(value, 40) : undefined;
}

function nonEmpty(value: unknown): value is string {
	return typeof value === "string" && value.trim() !== "";
}
