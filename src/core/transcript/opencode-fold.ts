import { dict, shown } from "../dict";
import { unreadable, type RawLine } from "./jsonl-lines";
import { addFile, addUnique, clip, clipInput, countUnknown, LIMITS, markMalformed, noteTime, pushEvent, noteInterruption, textFieldProblem } from "./model-building";
import { isObject, isoOfMs } from "./parse-line";
import { noteFolder } from "./session-folder";
import { ownCalls, type SessionEvent, type SessionModel, type ToolCall } from "./session-model";
import { tokenCount } from "./token-count";

/**
 * opencode's sessions, folded into the same session model as Claude Code's. opencode keeps them
 * in SQLite (`opencode.db`: tables `session`, `message`, `part`; JSON in `data` columns) or, before
 * 1.2, in JSON files (`storage/`); the reader (`node/opencode-db.ts`, `node/opencode-storage.ts`)
 * hands one session's rows over as lines, each a JSON array:
 *
 * - `["session", {id, parent_id, directory, title, version, time_created, time_updated, …}]` first;
 * - `["message", id, time_created, time_updated, data]` for each message, by time, each followed by
 * - `["part", id, message_id, time_created, time_updated, data]` for its parts, in order.
 *
 * `data` is the row's JSON as opencode wrote it, put in verbatim (an array of a fixed length, so
 * bad JSON there cannot pass for more fields); or, as the reader gives them, the columns come
 * apart (`RawLine.value`) and the line's text is the row's JSON alone. Rows are updated in place while a turn runs (a
 * text part grows, a tool goes pending → running → completed), so a changed session is folded
 * anew from all its rows (`readsWhole`).
 *
 * A turn is a user message, then one assistant message per model call; tool calls and their
 * results are one `tool` part. Tools become the names the digest knows (`bash` is `Bash`, `read`
 * is `Read`…); `task` starts a sub-agent, a child session of its own (its note is the parent's:
 * see `TranscriptFile.kind`). Tokens and cost come from each assistant message (`tokens`, `cost`).
 */
export function foldOpencodeLines(model: SessionModel, lines: readonly RawLine[]): void {
	const state = stateOf(model);
	for (const line of lines) foldOpencodeLine(model, state, line);
	// The session's first and last times, made ISO once per batch (not for every row).
	if (state.firstMs !== undefined) noteTime(model, isoOfMs(state.firstMs));
	if (state.lastMs !== undefined) noteTime(model, isoOfMs(state.lastMs));
}

interface OpencodeState {
	/** The role of each message seen, by id (parts name their message). */
	roles: Map<string, { role: string; ms?: number; iso?: string; summary: boolean; copied?: boolean }>;
	/** When the session was made: a message made before it was copied in by a fork (see `foldCopied`). */
	createdMs?: number;
	/** The earliest and latest times seen (ms). */
	firstMs?: number;
	lastMs?: number;
	/** The user message being read: its prompt event once a text part gave one, images attached before it. */
	prompt?: { id: string; event?: Extract<SessionEvent, { kind: "prompt" }>; images: number; time?: string };
	/** Versions before 1.2 counted reasoning inside `tokens.output`. */
	outputHasReasoning: boolean;
	/** The compaction whose summary the next `summary: true` assistant message writes. */
	compaction?: { summary?: string };
}

const STATES = new WeakMap<SessionModel, OpencodeState>();

/**
 * The session's read is done: what the fold kept beside its model goes (a changed session is read
 * anew, into a new model). Kept, each message's role and time stayed as long as the model did.
 */
export function endOpencodeRead(model: SessionModel): void {
	STATES.delete(model);
}

function stateOf(model: SessionModel): OpencodeState {
	let state = STATES.get(model);
	if (!state) {
		state = { roles: new Map(), outputHasReasoning: false };
		STATES.set(model, state);
	}
	return state;
}

function foldOpencodeLine(model: SessionModel, state: OpencodeState, line: RawLine): void {
	if (line.value === undefined && line.text !== null && line.text.trim() === "") return;
	model.counts.lines++;
	if (line.text === null) return markMalformed(model, line.no, unreadable(line));
	// The row's fields, and its JSON (the last field): apart as the reader gives them, or in one text.
	let fields: readonly unknown[];
	let data: unknown;
	let apart = 0;
	if (Array.isArray(line.value)) {
		fields = line.value;
		apart = 1;
		try {
			data = line.parsed !== undefined ? line.parsed : JSON.parse(line.text);
		} catch {
			if (fields[0] === "message" && typeof fields[1] === "string") unreadMessage(state, fields[1]);
			return markMalformed(model, line.no, `${shown(fields[0])} ${shown(fields[1])}: its data is not valid JSON`);
		}
	} else {
		let row: unknown;
		try {
			row = JSON.parse(line.text);
		} catch {
			// The row's own JSON is what breaks the line: say which row it was.
			const named = /^\["(message|part)","([^"\\]{1,100})"/.exec(line.text);
			if (named?.[1] === "message") unreadMessage(state, named[2]!);
			return markMalformed(model, line.no, named ? `${named[1]} ${named[2]}: its data is not valid JSON` : "invalid JSON");
		}
		if (!Array.isArray(row)) return markMalformed(model, line.no, "not an opencode row");
		fields = row;
		data = row[row.length - 1];
	}
	const kind = fields[0];
	if (typeof kind !== "string") return markMalformed(model, line.no, "not an opencode row");
	const count = fields.length + apart;
	switch (kind) {
		case "session":
			if (count !== 2 || !isObject(data)) return markMalformed(model, line.no, "a session row without its columns");
			model.counts.records++;
			return foldSession(model, state, data);
		case "message": {
			if (count !== 5 || typeof fields[1] !== "string") return markMalformed(model, line.no, `message ${shown(fields[1])}: not one JSON value in its data`);
			if (!isObject(data)) {
				unreadMessage(state, fields[1]);
				return markMalformed(model, line.no, `message ${fields[1]}: its data is not a JSON object`);
			}
			// An error whose text is of another kind was read as none, and said nothing.
			const why = messageTextProblem(fields[1], data);
			if (why !== undefined) {
				unreadMessage(state, fields[1]);
				return markMalformed(model, line.no, why);
			}
			model.counts.records++;
			return foldMessage(model, state, fields[1], msOf(fields[2]), data);
		}
		case "part": {
			if (count !== 6 || typeof fields[1] !== "string") return markMalformed(model, line.no, `part ${shown(fields[1])}: not one JSON value in its data`);
			if (!isObject(data)) return markMalformed(model, line.no, `part ${fields[1]}: its data is not a JSON object`);
			// A text, a reasoning or a tool's output of another kind was read as none, its turn dropped without a word.
			const why = partTextProblem(fields[1], data);
			if (why !== undefined) return markMalformed(model, line.no, why);
			model.counts.records++;
			return foldPart(model, state, fields[1], typeof fields[2] === "string" ? fields[2] : "", data);
		}
		default:
			model.counts.records++;
			return countUnknown(model, `opencode:${kind}`);
	}
}

/** Why a message row's text (its error's) cannot be read, or undefined. */
function messageTextProblem(id: string, data: Record<string, unknown>): string | undefined {
	const inner = isObject(data.error) && isObject(data.error.data) ? data.error.data : undefined;
	return inner === undefined ? undefined : textFieldProblem(inner, ["message"], `message ${id}: its error`);
}

/** The fields holding a part's text, by its type: only these are read for their text. A tool's are in its `state`. */
const PART_TEXT: Readonly<Record<string, readonly string[]>> = dict({ text: ["text"], reasoning: ["text"], subtask: ["description", "prompt"], tool: ["output", "error"] });

/** Why a part's text cannot be read (there, and not text), or undefined. */
function partTextProblem(id: string, p: Record<string, unknown>): string | undefined {
	if (typeof p.type !== "string" || !Object.hasOwn(PART_TEXT, p.type)) return undefined;
	const what = `part ${id}: the ${p.type} part`;
	if (p.type !== "tool") return textFieldProblem(p, PART_TEXT[p.type]!, what);
	// A tool's name or input of another kind was shown as a call named "tool", or with no input, without a word.
	const input = isObject(p.state) ? p.state.input : undefined;
	if (input !== undefined && input !== null && !isObject(input)) return `${what}'s state's input is not an object`;
	return textFieldProblem(p, ["tool"], what) ?? (isObject(p.state) ? textFieldProblem(p.state, PART_TEXT.tool!, `${what}'s state`) : undefined);
}

/** Milliseconds since the epoch, when they are a plausible time (1970 to 9999). */
function msOf(value: unknown): number | undefined {
	return typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > 253_402_300_799_999 ? undefined : value;
}

/** Milliseconds since the epoch as an ISO time, when they are a plausible time. */
function msTime(value: unknown): string | undefined {
	const ms = msOf(value);
	return ms === undefined ? undefined : isoOfMs(ms);
}

function noteMs(state: OpencodeState, ms: number | undefined): void {
	if (ms === undefined) return;
	if (state.firstMs === undefined || ms < state.firstMs) state.firstMs = ms;
	if (state.lastMs === undefined || ms > state.lastMs) state.lastMs = ms;
}

/** A message's time as ISO, made once. */
function messageTime(message: { ms?: number; iso?: string } | undefined): string | undefined {
	if (message?.ms === undefined) return undefined;
	message.iso ??= isoOfMs(message.ms);
	return message.iso;
}

/** opencode's title until its title agent answers: no title at all. */
const PLACEHOLDER_TITLE = /^(?:New session|Child session) - \d{4}-\d\d-\d\dT/;

function foldSession(model: SessionModel, state: OpencodeState, s: Record<string, unknown>): void {
	if (typeof s.id === "string") addUnique(model, "sessionIds", s.id);
	if (typeof s.version === "string" && s.version !== "") {
		addUnique(model, "versions", s.version);
		state.outputHasReasoning = /^(?:0\.|1\.[01]\.)/.test(s.version);
	}
	noteFolder(model, s.directory);
	if (typeof s.title === "string" && s.title.trim() !== "" && !PLACEHOLDER_TITLE.test(s.title)) model.aiTitle = clip(model, s.title.trim(), LIMITS.prompt);
	state.createdMs = msOf(s.time_created);
	noteMs(state, state.createdMs);
	noteMs(state, msOf(s.time_updated));
}

/**
 * `run --session X --fork` makes a new session with X's messages copied in (new ids, their old
 * times, nothing naming X): those are X's, in X's note. Here they are one `forked` event that
 * counts X's prompts, and their tokens are not counted again (opencode's own totals for the
 * session count them).
 */
function foldCopied(model: SessionModel, role: string): void {
	let mark = model.events[0];
	if (mark?.kind !== "forked") {
		mark = { kind: "forked", prompts: 0 };
		model.events = [mark, ...model.events];
		// Every event moved one place on.
		model.index.redactedEvents = 0;
	}
	if (role === "user") mark.prompts++;
}

function foldMessage(model: SessionModel, state: OpencodeState, id: string, rowMs: number | undefined, data: Record<string, unknown>): void {
	state.prompt = undefined;
	const time = isObject(data.time) ? data.time : {};
	const createdMs = msOf(time.created) ?? rowMs;
	noteMs(state, createdMs);
	noteMs(state, msOf(time.completed));
	const role = typeof data.role === "string" ? data.role : "unknown";
	const summary = data.summary === true;
	const copied = createdMs !== undefined && state.createdMs !== undefined && createdMs < state.createdMs;
	const message = { role, ms: createdMs, iso: undefined as string | undefined, summary, copied };
	state.roles.set(id, message);
	if (copied) return foldCopied(model, role);
	if (role === "user") {
		state.prompt = { id, images: 0, time: messageTime(message) };
		return;
	}
	if (role !== "assistant") return countUnknown(model, `opencode:message:${role}`);
	model.counts.assistantMessages++;
	if (typeof data.modelID === "string" && data.modelID !== "") addUnique(model, "models", data.modelID);
	foldUsage(model, state, data);
	if (summary) state.compaction ??= {};
	if (isObject(data.error)) foldError(model, data.error, messageTime(message));
}

function foldUsage(model: SessionModel, state: OpencodeState, data: Record<string, unknown>): void {
	if (isObject(data.tokens)) {
		const t = data.tokens;
		const cache = isObject(t.cache) ? t.cache : {};
		model.tokens.input += tokenCount(t.input);
		// Reasoning is billed as output; 1.2+ keeps it apart from `output`.
		model.tokens.output += tokenCount(t.output) + (state.outputHasReasoning ? 0 : tokenCount(t.reasoning));
		model.tokens.cacheRead += tokenCount(cache.read);
		model.tokens.cacheCreation += tokenCount(cache.write);
	}
	// Dollars, a fraction: positive and finite, else not counted.
	const cost = typeof data.cost === "number" && Number.isFinite(data.cost) && data.cost > 0 ? data.cost : 0;
	if (cost > 0) model.tokens.costUsd = Math.round(((model.tokens.costUsd ?? 0) + cost) * 1e9) / 1e9;
}

function foldError(model: SessionModel, error: Record<string, unknown>, timestamp: string | undefined): void {
	const name = typeof error.name === "string" ? error.name : "error";
	if (name === "MessageAbortedError") {
		noteInterruption(model);
		return;
	}
	const inner = isObject(error.data) ? error.data : {};
	const message = typeof inner.message === "string" && inner.message !== "" ? inner.message : name;
	model.counts.apiErrors++;
	pushEvent(model, { kind: "error", source: "api", text: clip(model, message, LIMITS.text), timestamp });
}

/**
 * A text part of the person's message: the first makes the prompt, the next ones (a message can
 * have several) are added to it. Done part by part, so a session read in batches, cut anywhere,
 * gives the same prompts as one read at once.
 */
function addPromptText(model: SessionModel, prompt: NonNullable<OpencodeState["prompt"]>, text: string): void {
	if (prompt.event) {
		prompt.event.text = clip(model, `${prompt.event.text}\n\n${text}`, LIMITS.prompt);
		model.lastPrompt = prompt.event.text;
		return;
	}
	model.counts.prompts++;
	model.counts.images += prompt.images;
	model.lastPrompt = text;
	prompt.event = { kind: "prompt", promptKind: /^\s*\//.test(text) ? "command" : "prompt", text: clip(model, text, LIMITS.prompt), uuid: prompt.id, timestamp: prompt.time, images: prompt.images };
	pushEvent(model, prompt.event);
}

/**
 * `opencode run "a prompt"` stores the argument in double quotes (each word with a space is
 * quoted again by the CLI); the TUI does not. A prompt that is one quoted string is unquoted.
 */
function typedText(text: string): string {
	const trimmed = text.trim();
	return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') && !trimmed.slice(1, -1).includes('"') ? trimmed.slice(1, -1) : trimmed;
}

/** A message whose row could not be read: its parts are read all the same, their role told by each part (see `unreadRole`). */
function unreadMessage(state: OpencodeState, id: string): void {
	state.roles.set(id, { role: UNREAD, summary: false });
}

const UNREAD = "(unread)";

/**
 * The role of a part whose message's row could not be read (the role is in that row): a text
 * part opencode did not stamp with a `time` is the person's (it stamps the model's parts as they
 * stream, never what the person typed), anything else the model's. Taken all for the model's, a
 * prompt was shown as opencode's reply and the session had none.
 */
function unreadRole(state: OpencodeState, messageId: string, p: Record<string, unknown>): string {
	if (p.type !== "text" || p.time !== undefined || p.synthetic === true) return "assistant";
	if (state.prompt?.id !== messageId) state.prompt = { id: messageId, images: 0 };
	return "user";
}

function foldPart(model: SessionModel, state: OpencodeState, id: string, messageId: string, p: Record<string, unknown>): void {
	const message = state.roles.get(messageId);
	if (message?.copied) return;
	const role = message?.role === UNREAD ? unreadRole(state, messageId, p) : (message?.role ?? "assistant");
	const time = isObject(p.time) ? p.time : {};
	// Made only for what becomes an event (most parts are step bounds).
	const at = () => msTime(time.start) ?? messageTime(message);
	const type = typeof p.type === "string" ? p.type : "untyped";
	switch (type) {
		case "text": {
			const text = typeof p.text === "string" ? p.text : "";
			if (role === "user") {
				// Parts opencode made itself (the "continue" after a compaction) are not the person's.
				if (p.synthetic === true || p.ignored === true || state.prompt?.id !== messageId) return;
				if (text.trim() !== "") addPromptText(model, state.prompt, typedText(text));
				return;
			}
			if (text.trim() === "") return;
			if (message?.summary) {
				const compaction = state.compaction ?? {};
				compaction.summary = clip(model, text, LIMITS.compactSummary);
				for (let i = model.events.length - 1; i >= 0; i--) {
					const event = model.events[i]!;
					if (event.kind !== "compaction") continue;
					event.summary = compaction.summary;
					break;
				}
				state.compaction = undefined;
				return;
			}
			pushEvent(model, { kind: "text", text: clip(model, text, LIMITS.text), messageId, timestamp: at() });
			return;
		}
		case "reasoning": {
			const text = typeof p.text === "string" ? p.text : "";
			if (text.trim() === "") return;
			model.counts.thinking++;
			pushEvent(model, { kind: "thinking", text: clip(model, text, LIMITS.thinking), redacted: false, messageId, timestamp: at() });
			return;
		}
		case "tool":
			return foldTool(model, id, messageId, p, at());
		case "patch":
			if (Array.isArray(p.files)) for (const file of p.files) if (typeof file === "string" && file !== "" && !model.files.written.includes(file)) addFile(model, "edited", file);
			return;
		case "file":
			if (role !== "user" || state.prompt?.id !== messageId || typeof p.mime !== "string" || !p.mime.startsWith("image/")) return;
			if (state.prompt.event) {
				state.prompt.event.images++;
				model.counts.images++;
			} else state.prompt.images++;
			return;
		case "compaction":
			model.counts.compactions++;
			state.compaction = {};
			pushEvent(model, { kind: "compaction", timestamp: messageTime(message), trigger: p.auto === true ? "auto" : "manual", preTokens: undefined, summary: undefined });
			return;
		case "subtask":
			// A command that runs a sub-agent: the task it was given, like a Task call's input.
			foldCall(model, id, "Task", { description: p.description, prompt: p.prompt, subagent_type: p.agent }, messageId, at());
			return;
		case "retry": {
			const error = isObject(p.error) ? p.error : {};
			const inner = isObject(error.data) ? error.data : {};
			model.counts.apiErrors++;
			pushEvent(model, { kind: "error", source: "api", text: clip(model, `retried: ${typeof inner.message === "string" ? inner.message : typeof error.name === "string" ? error.name : "error"}`, LIMITS.text), timestamp: at() });
			return;
		}
		case "step-start":
		case "step-finish":
		case "snapshot":
		case "agent":
			// Step bounds (their tokens are the message's), snapshot hashes, an @agent mention: nothing a note shows.
			return;
		default:
			return countUnknown(model, `opencode:part:${type}`);
	}
}

const TOOL_NAMES: Record<string, string> = dict({
	bash: "Bash",
	read: "Read",
	write: "Write",
	edit: "Edit",
	multiedit: "MultiEdit",
	apply_patch: "Edit",
	patch: "Edit",
	glob: "Glob",
	grep: "Grep",
	list: "LS",
	task: "Task",
	todowrite: "TodoWrite",
	todoread: "TodoRead",
	webfetch: "WebFetch",
	websearch: "WebSearch",
});

function foldTool(model: SessionModel, partId: string, messageId: string, p: Record<string, unknown>, timestamp: string | undefined): void {
	const original = typeof p.tool === "string" ? p.tool : "tool";
	const name = (Object.hasOwn(TOOL_NAMES, original) ? TOOL_NAMES[original] : undefined) ?? original;
	const state = isObject(p.state) ? p.state : {};
	const input = isObject(state.input) ? state.input : {};
	const id = typeof p.callID === "string" && p.callID !== "" ? p.callID : partId;
	const call = foldCall(model, id, name, input, messageId, timestamp);
	const status = state.status;
	if (status !== "completed" && status !== "error") return; // pending or running: a live turn, read again when it ends
	const failed = status === "error";
	if (failed) model.counts.toolErrors++;
	const metadata = isObject(state.metadata) ? state.metadata : {};
	if (!failed) {
		const path = typeof input.filePath === "string" ? input.filePath : undefined;
		if (path && name === "Read") addFile(model, "read", path);
		else if (path && name === "Write") addFile(model, "written", path);
		else if (path && (name === "Edit" || name === "MultiEdit")) addFile(model, "edited", path);
	}
	if (!call) return;
	if (name === "Task" && typeof metadata.sessionId === "string") call.agentId = metadata.sessionId;
	const text = failed ? (typeof state.error === "string" ? state.error : "error") : typeof state.output === "string" ? state.output : "";
	call.result = { isError: failed || (name === "Bash" && typeof metadata.exit === "number" && metadata.exit !== 0), text: clip(model, text, LIMITS.toolResult) };
	if (!failed && call.result.isError) model.counts.toolErrors++;
}

function foldCall(model: SessionModel, id: string, name: string, raw: Record<string, unknown>, messageId: string, timestamp: string | undefined): ToolCall | undefined {
	if (model.index.calls.has(id)) return model.index.calls.get(id);
	// The digest reads a file's path as `file_path`, as Claude Code's tools give it.
	const input = typeof raw.filePath === "string" && raw.file_path === undefined ? { ...raw, file_path: raw.filePath } : raw;
	model.counts.toolCalls++;
	if (model.events.length >= LIMITS.events) {
		model.counts.elidedEvents++;
		return undefined;
	}
	const call: ToolCall = { id, name, input: clipInput(model, input, 0) as Record<string, unknown>, timestamp, messageId, result: undefined, agentId: undefined };
	ownCalls(model).set(id, call);
	pushEvent(model, { kind: "tool", call });
	return call;
}
