import { dict } from "../dict";
import type { RawLine } from "./jsonl-lines";
import { addFile, addUnique, clip, clipInput, countUnknown, LIMITS, markMalformed, noteTime, eachObject, pushEvent } from "./model-building";
import { isObject, isoTime } from "./parse-line";
import { noteFolder } from "./session-folder";
import { ownCalls, NO_ITEMS, type SessionModel, type ToolCall } from "./session-model";
import { tokenCount } from "./token-count";

/**
 * Gemini CLI's session files (`~/.gemini/tmp/<project>/chats/session-*.jsonl`), folded into the
 * same session model as Claude Code's. Lines only append, but what they mean does not: a message
 * line repeated with the same `id` replaces the earlier one in its place, `{"$set": {"messages":
 * […]}}` replaces the whole list (a resume), and `{"$rewindTo": id}` drops that message and all
 * after it. So the fold keeps the messages by id, as the CLI does, and makes the session's events
 * again from them after each batch of lines; a changed file is read from its start (the files
 * are small: tool outputs are capped at 50 KB).
 *
 * Tools become the names the digest knows (`run_shell_command` is `Bash`, `read_file` is `Read`…).
 * The `<session_context>` message the CLI puts first (date, folder tree, GEMINI.md) is not a prompt.
 */
export function foldGeminiLines(model: SessionModel, lines: readonly RawLine[]): void {
	const state = stateOf(model);
	// One callback for the batch, told each line's number: not a closure made per line.
	let no = 0;
	const fold = (value: Record<string, unknown>) => foldGeminiValue(model, state, value, no);
	for (const line of lines) {
		// An older CLI's chat (`session-*.json`) is one JSON object, pretty-printed: its lines are read whole, at the end.
		// (Its first line is a lone `{`: a JSONL file's is a whole object.)
		if (state.whole === undefined && line.no === 1 && line.text?.trim() === "{") state.whole = [];
		if (state.whole !== undefined) state.whole.push(line.text ?? "");
		else {
			no = line.no;
			eachObject(model, line, fold);
		}
	}
	if (state.whole !== undefined) foldWhole(model, state, (value) => foldGeminiValue(model, state, value, 1));
	rebuild(model, state);
}

/** The lines of a whole-file chat so far, as one object once they make one (the file is read whole each time). */
function foldWhole(model: SessionModel, state: GeminiState, fold: (value: Record<string, unknown>) => void): void {
	// Parsed only once its last line so far can end the object (`}` unindented): parsed after every
	// batch, a 13 MB chat took 6 s and the time grew with the square of the size.
	const whole = state.whole!;
	let last = whole.length - 1;
	while (last > 0 && whole[last]!.trim() === "") last--;
	if (whole[last]?.trimEnd() !== "}") return;
	let value: unknown;
	try {
		value = JSON.parse(state.whole!.join("\n"));
	} catch {
		return;
	}
	if (!isObject(value)) return;
	model.counts.lines += state.whole!.length;
	model.counts.records++;
	state.whole = [];
	fold(value);
}

interface Message {
	id: string;
	type: string;
	timestamp?: string;
	content: unknown;
	/** What the person typed, where the CLI sent more (the files an `@path` brought in). */
	displayContent?: unknown;
	thoughts?: unknown;
	tokens?: unknown;
	model?: unknown;
	toolCalls?: unknown;
}

interface GeminiState {
	/** The conversation by message id, in the CLI's order. */
	messages: Map<string, Message>;
	/** `messages`' ids in their order, and each one's place there: a rewind cuts the tail without a scan of the whole list. */
	order: string[];
	place: Map<string, number>;
	/** The fullest version of each message seen on a line of its own: a resume's snapshot drops tokens, thoughts and tools. */
	rich: Map<string, Message>;
	summary?: string;
	/**
	 * What each rewind took out that the person typed, and the message it followed (none: the
	 * first): the note keeps them there as a `rewound` event (a resume's `$set` drops the session's
	 * context message, so a place by number would move). In the order of their places: a rewind
	 * cuts the tail, so the marks it passes are the last ones.
	 */
	rewound: { after?: string; prompts: string[] }[];
	/** The lines of an older CLI's whole-file chat read so far (see `foldGeminiLines`). */
	whole?: string[];
}

/** Kept beside the model while a file is read (a changed file is read again from its start). */
const STATES = new WeakMap<SessionModel, GeminiState>();

/**
 * The file's read is done: its messages go (a changed file is read anew, into a new model). Kept,
 * they held every parsed line of every file while the sync went on: most of a first sync's garbage
 * collection.
 */
export function endGeminiRead(model: SessionModel): void {
	// A whole-file chat that never made one object: said, as a line that could not be read.
	const whole = STATES.get(model)?.whole;
	if (whole !== undefined && whole.length > 0) markMalformed(model, 1, `a chat file that is not one JSON object (${whole.length} lines)`);
	STATES.delete(model);
}

function stateOf(model: SessionModel): GeminiState {
	let state = STATES.get(model);
	if (!state) {
		state = { messages: new Map(), order: [], place: new Map(), rich: new Map(), rewound: [] };
		STATES.set(model, state);
	}
	return state;
}

/** `no`: the line `value` is on (the first, for a whole-file chat). */
function foldGeminiValue(model: SessionModel, state: GeminiState, value: Record<string, unknown>, no: number): void {
	if (typeof value.$rewindTo === "string") return rewind(state, value.$rewindTo);
	if (typeof value.id === "string") {
		// A message of no shape the CLI writes replaced the one of the same id before it, and dropped its turn without a word.
		const why = messageShapeProblem(value);
		if (why !== undefined) return markMalformed(model, no, why);
		const message = messageOf(value);
		put(state, message);
		state.rich.set(message.id, message);
		return;
	}
	if (isObject(value.$set)) {
		const set = value.$set;
		if (Array.isArray(set.messages)) {
			clear(state);
			for (const item of set.messages) {
				if (!isObject(item) || typeof item.id !== "string") continue;
				const why = messageShapeProblem(item);
				if (why === undefined) put(state, state.rich.get(item.id) ?? messageOf(item));
				else markMalformed(model, no, why);
			}
		}
		if (typeof set.summary === "string") state.summary = set.summary;
		if (typeof set.sessionId === "string") addUnique(model, "sessionIds", set.sessionId);
		return;
	}
	if (typeof value.sessionId === "string") {
		addUnique(model, "sessionIds", value.sessionId);
		const start = isoTime(value.startTime);
		if (start) noteTime(model, start);
		if (Array.isArray(value.directories)) for (const dir of value.directories) noteFolder(model, dir);
		// An older CLI's whole-file chat holds its messages with its header.
		if (Array.isArray(value.messages)) for (const item of value.messages) if (isObject(item) && typeof item.id === "string") foldGeminiValue(model, state, item, no);
		return;
	}
	countUnknown(model, "gemini:unknown");
}

/** Why a message's text cannot be read (its content, or what the person typed, neither text nor parts of text), or undefined. */
function messageShapeProblem(o: Record<string, unknown>): string | undefined {
	for (const field of ["content", "displayContent"] as const) {
		const value = o[field];
		if (value === undefined || value === null || typeof value === "string") continue;
		// The CLI's type (`PartListUnion`) allows one part alone, or text and parts mixed in a list.
		const parts: unknown[] = Array.isArray(value) ? value : isObject(value) ? [value] : [];
		if (!Array.isArray(value) && !isObject(value)) return `a message whose ${field} is neither text nor parts`;
		if (parts.some((part) => isObject(part) && part.text !== undefined && typeof part.text !== "string")) return `a message with a part in its ${field} whose text is not text`;
	}
	return toolCallsProblem(o.toolCalls);
}

/** Why a message's tool calls cannot be read (a call's name not text, its args no object), or undefined: such a call was shown with no name or no input, without a word. */
function toolCallsProblem(calls: unknown): string | undefined {
	if (calls === undefined || calls === null) return undefined;
	if (!Array.isArray(calls)) return "a message whose toolCalls is not a list";
	for (const call of calls) {
		if (!isObject(call)) return "a message with a tool call that is not an object";
		if (call.name !== undefined && call.name !== null && typeof call.name !== "string") return "a message with a tool call whose name is not text";
		if (call.args !== undefined && call.args !== null && !isObject(call.args)) return "a message with a tool call whose args are not an object";
	}
	return undefined;
}

function messageOf(o: Record<string, unknown>): Message {
	return { id: String(o.id), type: typeof o.type === "string" ? o.type : "unknown", timestamp: isoTime(o.timestamp), content: o.content, displayContent: o.displayContent, thoughts: o.thoughts, tokens: o.tokens, model: o.model, toolCalls: o.toolCalls };
}

/** A message in its place: a repeated id keeps the place it had (a Map's `set` keeps it too). */
function put(state: GeminiState, message: Message): void {
	if (!state.place.has(message.id)) {
		state.place.set(message.id, state.order.length);
		state.order.push(message.id);
	}
	state.messages.set(message.id, message);
}

function clear(state: GeminiState): void {
	// A Map's `clear` makes it a new table even when empty (a resume's `$set` comes first in most files).
	if (state.messages.size > 0) state.messages.clear();
	if (state.place.size > 0) state.place.clear();
	state.order.length = 0;
}

/**
 * Drops the message and all after it; an unknown id drops them all. Only the tail is visited: a
 * scan of every message per rewind took 28 s for 20,000 rewinds of a 40,000-message chat.
 */
function rewind(state: GeminiState, id: string): void {
	const at = state.place.get(id) ?? 0;
	// The prompts a rewind left past this place (or after a message gone since) were typed before those it takes out now.
	const passed: string[][] = [];
	const placeOf = (after: string | undefined) => (after === undefined ? -1 : (state.place.get(after) ?? Infinity));
	while (state.rewound.length > 0 && placeOf(state.rewound[state.rewound.length - 1]!.after) >= at) passed.push(state.rewound.pop()!.prompts);
	const prompts = passed.reverse().flat();
	for (let i = at; i < state.order.length; i++) {
		const message = state.messages.get(state.order[i]!);
		const text = message?.type === "user" ? typedText(message) : undefined;
		if (text !== undefined) prompts.push(text);
		state.messages.delete(state.order[i]!);
		state.place.delete(state.order[i]!);
	}
	const after = state.order[at - 1];
	state.order.length = at;
	if (prompts.length === 0) return;
	// Rewound again at the same point: one list of what was left there.
	const last = state.rewound[state.rewound.length - 1];
	if (last !== undefined && last.after === after) for (const text of prompts) last.prompts.push(text);
	else state.rewound.push({ after, prompts });
}

/** The session's events, counts, tokens and files made again from the messages as they stand. */
function rebuild(model: SessionModel, state: GeminiState): void {
	const counts = model.counts;
	model.events = NO_ITEMS;
	// Not cleared when empty: `clear` makes a new table (and the empty one is shared by every model).
	if (model.index.calls.size > 0) model.index.calls.clear();
	model.index.retainedChars = 0;
	model.files = { read: NO_ITEMS, written: NO_ITEMS, edited: NO_ITEMS };
	model.index.files = undefined;
	model.tokens = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };
	Object.assign(counts, { prompts: 0, assistantMessages: 0, toolCalls: 0, toolErrors: 0, thinking: 0, apiErrors: 0, elidedEvents: 0, images: 0 });
	model.index.redactedEvents = 0;
	if (state.summary) model.aiTitle = state.summary;
	// Made only for a session that was rewound (most were not: a Map per file, and a look-up per message).
	const marks = state.rewound.length === 0 ? undefined : new Map<string | undefined, string[][]>();
	for (const mark of state.rewound) {
		const list = marks!.get(mark.after);
		if (list) list.push(mark.prompts);
		else marks!.set(mark.after, [mark.prompts]);
	}
	if (marks) pushRewound(model, marks, undefined);
	for (const message of state.messages.values()) {
		if (message.timestamp) noteTime(model, message.timestamp);
		switch (message.type) {
			case "user":
				foldUser(model, message);
				break;
			case "gemini":
				foldReply(model, message);
				break;
			case "error":
				counts.apiErrors++;
				pushEvent(model, { kind: "error", source: "api", text: clip(model, partsText(message.content), LIMITS.text), timestamp: message.timestamp });
				break;
			default:
				// `info` and `warning`: the CLI's own notices.
				break;
		}
		if (marks) pushRewound(model, marks, message.id);
	}
	// After a message no longer there: at the end.
	if (marks) for (const after of marks.keys()) pushRewound(model, marks, after);
}

/** The prompts rewinds took out after the message `after`, once. */
function pushRewound(model: SessionModel, marks: Map<string | undefined, string[][]>, after: string | undefined): void {
	for (const prompts of marks.get(after) ?? []) pushEvent(model, { kind: "rewound", prompts: prompts.map((text) => clip(model, text, LIMITS.prompt)) });
	marks.delete(after);
}

/**
 * Text of `content`: a string, or parts `[{text}]` (functionResponse parts are tool results, thought parts are not text).
 * `withoutInjected`: parts the CLI put in (`INJECTED`) left out too.
 */
function partsText(content: unknown, withoutInjected = false): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	// A loop, not `flatMap` and `join`: an array per part, for the one text most messages hold (joined, several make one flat string).
	let first: string | undefined;
	let all: string[] | undefined;
	for (const part of content) {
		if (!isObject(part) || typeof part.text !== "string" || part.thought === true || (withoutInjected && INJECTED.test(part.text))) continue;
		if (first === undefined) first = part.text;
		else (all ??= [first]).push(part.text);
	}
	return all ? all.join("\n") : (first ?? "");
}

/** Parts the CLI adds to a user message (the session's context, GEMINI.md for a sub-agent): not what the person typed. */
const INJECTED = /^\s*(?:<session_context>|<hook_context>|<loaded_context>)/;

function foldUser(model: SessionModel, message: Message): void {
	const text = typedText(message);
	if (text === undefined) return;
	const command = /^\s*[/?]/.test(text);
	if (command) model.counts.slashCommands++;
	else model.counts.prompts++;
	model.lastPrompt = text;
	pushEvent(model, { kind: "prompt", promptKind: command ? "command" : "prompt", text: clip(model, text, LIMITS.prompt), uuid: message.id, timestamp: message.timestamp, images: 0 });
}

/** What the person typed in a user message; undefined for a tool's result or what the CLI put in. */
function typedText(message: Message): string | undefined {
	// A tool's result comes back as a user message of functionResponse parts: it is in the call already.
	const text = partsText(typedContent(message), true);
	return text.trim() === "" || INJECTED.test(text) ? undefined : text;
}

/** Where the files an `@path` mention brought in start, in a user message's parts (Gemini CLI's `REFERENCE_CONTENT_START`). */
const REFERENCED = "--- Content from referenced files ---";

/**
 * A user message as the person typed it: its `displayContent` where the CLI recorded one (it does
 * when it sent more: the text of each file an `@path` named), else its parts up to the files an
 * `@path` brought in. Those files are not the prompt: in a title or a context block they would
 * pass a file's text off as the person's words.
 */
function typedContent(message: Message): unknown {
	if (partsText(message.displayContent).trim() !== "") return message.displayContent;
	if (!Array.isArray(message.content)) return message.content;
	const at = message.content.findIndex((part) => isObject(part) && typeof part.text === "string" && part.text.trim() === REFERENCED);
	return at < 0 ? message.content : message.content.slice(0, at);
}

function foldReply(model: SessionModel, message: Message): void {
	model.counts.assistantMessages++;
	if (typeof message.model === "string" && message.model !== "") addUnique(model, "models", message.model);
	noteTokens(model, message.tokens);
	if (Array.isArray(message.thoughts)) {
		for (const thought of message.thoughts) {
			if (!isObject(thought)) continue;
			const text = [thought.subject, thought.description].filter((t): t is string => typeof t === "string" && t !== "").join("\n\n");
			model.counts.thinking++;
			pushEvent(model, { kind: "thinking", text: clip(model, text, LIMITS.thinking), redacted: false, messageId: message.id, timestamp: message.timestamp, sidechain: undefined });
		}
	}
	const text = partsText(message.content);
	if (text.trim() !== "") pushEvent(model, { kind: "text", text: clip(model, text, LIMITS.text), messageId: message.id, timestamp: message.timestamp, sidechain: undefined });
	if (Array.isArray(message.toolCalls)) for (const call of message.toolCalls) if (isObject(call)) foldToolCall(model, call, message);
}

/** Tokens per reply, each message once (a repeated id replaced the earlier line). `input` includes the cached part. */
function noteTokens(model: SessionModel, tokens: unknown): void {
	if (!isObject(tokens)) return;
	const cached = tokenCount(tokens.cached);
	model.tokens.input += Math.max(0, tokenCount(tokens.input) - cached);
	model.tokens.cacheRead += cached;
	model.tokens.output += tokenCount(tokens.output) + tokenCount(tokens.thoughts);
}

const TOOL_NAMES: Record<string, string> = dict({ run_shell_command: "Bash", read_file: "Read", write_file: "Write", replace: "Edit", google_web_search: "WebSearch", web_fetch: "WebFetch", invoke_agent: "Task" });

function foldToolCall(model: SessionModel, raw: Record<string, unknown>, message: Message): void {
	const id = typeof raw.id === "string" ? raw.id : `${message.id}-${model.counts.toolCalls}`;
	if (model.index.calls.has(id)) return;
	const original = typeof raw.name === "string" ? raw.name : "tool";
	const name = (Object.hasOwn(TOOL_NAMES, original) ? TOOL_NAMES[original] : undefined) ?? original;
	const args = isObject(raw.args) ? raw.args : {};
	const input = name === "Task" ? { description: args.agent_name, prompt: args.prompt, subagent_type: args.agent_name } : args;
	model.counts.toolCalls++;
	const failed = typeof raw.status === "string" && raw.status !== "success";
	if (failed) model.counts.toolErrors++;
	const path = typeof args.file_path === "string" ? args.file_path : undefined;
	if (path && !failed) {
		if (name === "Read") addFile(model, "read", path);
		else if (name === "Write") addFile(model, "written", path);
		else if (name === "Edit") addFile(model, "edited", path);
	}
	if (model.events.length >= LIMITS.events) {
		model.counts.elidedEvents++;
		return;
	}
	const call: ToolCall = {
		id,
		name,
		input: clipInput(model, input, 0) as Record<string, unknown>,
		timestamp: isoTime(raw.timestamp) ?? message.timestamp,
		messageId: message.id,
		result: { isError: failed, text: clip(model, resultText(raw), LIMITS.toolResult) },
		agentId: typeof raw.agentId === "string" ? raw.agentId : undefined,
	};
	ownCalls(model).set(id, call);
	pushEvent(model, { kind: "tool", call, sidechain: undefined });
}

/** A call's result: the plain display when the CLI gave one, else the function response's output. */
function resultText(call: Record<string, unknown>): string {
	if (typeof call.resultDisplay === "string" && call.resultDisplay !== "") return call.resultDisplay;
	if (!Array.isArray(call.result)) return "";
	return call.result
		.flatMap((part) => {
			const response = isObject(part) && isObject(part.functionResponse) && isObject(part.functionResponse.response) ? part.functionResponse.response : undefined;
			const output = response?.output ?? response?.error;
			return typeof output === "string" ? [output] : [];
		})
		.join("\n");
}
