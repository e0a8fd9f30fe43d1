import { dict, shown } from "../dict";
import type { RawLine } from "./jsonl-lines";
import { addFile, addUnique, clip, clipInput, countUnknown, LIMITS, markMalformed, noteTime, eachObject, pushEvent, noteInterruption, textFieldProblem } from "./model-building";
import { isObject, isoTime } from "./parse-line";
import { noteFolder } from "./session-folder";
import { ownCalls, type SessionModel, type ToolCall } from "./session-model";
import { tokenCount } from "./token-count";

/**
 * GitHub Copilot CLI's sessions (`~/.copilot/session-state/<id>/events.jsonl`), folded into the
 * same session model as Claude Code's. Each line is `{type, data, agentId?, id, timestamp,
 * parentId}`; the file only grows (a resume appends `session.resume` … `session.shutdown`).
 * A sub-agent's events sit inline, tagged with its `agentId`: they become the session's sidechain,
 * as Claude Code's older inline sub-agents do. Tokens come from `session.usage_record`, one per
 * model call (`session.shutdown`'s totals include earlier runs of a resumed session).
 *
 * Tools become the names the digest knows: `bash` is `Bash`, `view` is `Read`, `create` is
 * `Write`; edits (`apply_patch`, `edit`) give the files they touched.
 */
export function foldCopilotLines(model: SessionModel, lines: readonly RawLine[]): void {
	for (const line of lines) eachObject(model, line, (value) => foldCopilotValue(model, value, line.no));
}

/** `no`: the line `value` is on. */
function foldCopilotValue(model: SessionModel, value: Record<string, unknown>, no: number): void {
	if (typeof value.type !== "string") return countUnknown(model, "copilot:untyped");
	const data = isObject(value.data) ? value.data : {};
	const timestamp = isoTime(value.timestamp);
	if (timestamp) noteTime(model, timestamp);
	// A prompt, a reply or an output whose text is of another kind was read as none, its turn dropped without a word.
	const why = eventTextProblem(value.type, data);
	if (why !== undefined) return markMalformed(model, no, why);
	// A sub-agent's event marked with an id of another kind was read as the main thread's: its task a prompt of the person's.
	if (value.agentId !== undefined && value.agentId !== null && typeof value.agentId !== "string") return markMalformed(model, no, `the ${value.type} event's agentId is not text`);
	const sidechain = typeof value.agentId === "string" ? value.agentId : undefined;
	switch (value.type) {
		case "session.start":
		case "session.resume":
			return foldStart(model, data);
		case "user.message":
			return foldUser(model, data, timestamp, sidechain);
		case "assistant.message":
			return foldAssistant(model, data, timestamp, sidechain, no);
		case "tool.execution_complete":
			return foldResult(model, data);
		case "session.usage_record":
			return foldUsage(model, data.usage);
		case "session.error":
			model.counts.apiErrors++;
			pushEvent(model, { kind: "error", source: "api", text: clip(model, typeof data.message === "string" ? data.message : "error", LIMITS.text), timestamp });
			return;
		case "abort":
			noteInterruption(model);
			return;
		case "session.compaction_complete":
			model.counts.compactions++;
			pushEvent(model, { kind: "compaction", timestamp, trigger: undefined, preTokens: undefined, summary: typeof data.summaryContent === "string" ? clip(model, data.summaryContent, LIMITS.compactSummary) : undefined });
			return;
		default:
			// Turns, tool starts, sub-agent bookkeeping, system prompts, model changes: the events above carry what a note shows.
			// A type of no family 1.0 writes is counted, so a file of a newer format alone is named (see `sync-engine`'s `nothingKnown`).
			if (!KNOWN_FAMILY.test(value.type)) countUnknown(model, `copilot:${shown(value.type)}`);
			return;
	}
}

/** The fields holding an event's text, by its type: only these events are read for their text. */
const EVENT_TEXT: Readonly<Record<string, readonly string[]>> = dict({ "user.message": ["content"], "assistant.message": ["content", "reasoningText"], "session.error": ["message"], "session.compaction_complete": ["summaryContent"] });

/** Why an event's text cannot be read (there, and not text), or undefined. A tool's output is its result's `content`, or its error's `message`. */
function eventTextProblem(type: string, data: Record<string, unknown>): string | undefined {
	const what = `the ${type} event`;
	if (type === "tool.execution_complete") return (isObject(data.result) ? textFieldProblem(data.result, ["content"], `${what}'s result`) : undefined) ?? (isObject(data.error) ? textFieldProblem(data.error, ["message"], `${what}'s error`) : undefined);
	return Object.hasOwn(EVENT_TEXT, type) ? textFieldProblem(data, EVENT_TEXT[type]!, what) : undefined;
}

/** The families of event types Copilot CLI 1.0 writes (`session.start`, `assistant.turn_end`, `subagent.started`, `abort`…). */
const KNOWN_FAMILY = /^(?:session|user|assistant|tool|model|subagent|system)\.|^abort$/;

function foldStart(model: SessionModel, data: Record<string, unknown>): void {
	if (typeof data.sessionId === "string") addUnique(model, "sessionIds", data.sessionId);
	if (typeof data.copilotVersion === "string" && data.copilotVersion !== "") addUnique(model, "versions", data.copilotVersion);
	const context = isObject(data.context) ? data.context : {};
	noteFolder(model, context.cwd);
	if (typeof context.branch === "string" && context.branch !== "") {
		model.gitBranch = context.branch;
		addUnique(model, "branches", context.branch);
	}
}

function foldUser(model: SessionModel, data: Record<string, unknown>, timestamp: string | undefined, sidechain: string | undefined): void {
	const text = typeof data.content === "string" ? data.content : "";
	// `source` says who wrote it: a sub-agent's task (`agent-…`), autopilot, skills and the system are not the person.
	const source = typeof data.source === "string" ? data.source : undefined;
	if (text.trim() === "" || (source !== undefined && source !== "user")) return;
	if (sidechain !== undefined) return;
	model.counts.prompts++;
	model.lastPrompt = text;
	pushEvent(model, { kind: "prompt", promptKind: /^\s*\//.test(text) ? "command" : "prompt", text: clip(model, text, LIMITS.prompt), uuid: typeof data.messageId === "string" ? data.messageId : undefined, timestamp, images: 0 });
}

/** `no`: the line the reply is on, named when a tool request of it cannot be read (the reply's text still is). */
function foldAssistant(model: SessionModel, data: Record<string, unknown>, timestamp: string | undefined, sidechain: string | undefined, no: number): void {
	model.counts.assistantMessages++;
	const messageId = typeof data.messageId === "string" ? data.messageId : undefined;
	if (typeof data.model === "string" && data.model !== "") addUnique(model, "models", data.model);
	if (typeof data.reasoningText === "string" && data.reasoningText.trim() !== "") {
		model.counts.thinking++;
		pushEvent(model, { kind: "thinking", text: clip(model, data.reasoningText, LIMITS.thinking), redacted: false, messageId, timestamp, sidechain });
	}
	if (typeof data.content === "string" && data.content.trim() !== "") pushEvent(model, { kind: "text", text: clip(model, data.content, LIMITS.text), messageId, timestamp, sidechain });
	const requests = data.toolRequests === undefined || data.toolRequests === null ? [] : data.toolRequests;
	if (!Array.isArray(requests)) return markMalformed(model, no, "the assistant.message event's toolRequests is not a list");
	// A request of another kind was dropped, or folded as a call named "tool" with no input, without a word.
	const why = requests.map((request, i) => requestProblem(request, `the assistant.message event's tool request ${i + 1}`)).find((problem) => problem !== undefined);
	if (why !== undefined) markMalformed(model, no, why);
	for (const request of requests) if (isObject(request) && requestProblem(request, "") === undefined) foldCall(model, request, messageId, timestamp, sidechain);
}

/** Why a tool request cannot be read (not an object, its name not text, its arguments neither an object nor text), or undefined. */
function requestProblem(request: unknown, what: string): string | undefined {
	if (!isObject(request)) return `${what} is not an object`;
	if (request.arguments !== undefined && request.arguments !== null && !isObject(request.arguments) && typeof request.arguments !== "string") return `${what}'s arguments are neither an object nor text`;
	return textFieldProblem(request, ["name"], what);
}

const TOOL_NAMES: Record<string, string> = dict({ bash: "Bash", powershell: "Bash", view: "Read", create: "Write", edit: "Edit", task: "Task", web_fetch: "WebFetch", glob: "Glob", grep: "Grep" });

function foldCall(model: SessionModel, request: Record<string, unknown>, messageId: string | undefined, timestamp: string | undefined, sidechain: string | undefined): void {
	const id = typeof request.toolCallId === "string" ? request.toolCallId : `copilot-call-${model.counts.toolCalls + 1}`;
	if (model.index.calls.has(id)) return;
	const original = typeof request.name === "string" ? request.name : "tool";
	const name = (Object.hasOwn(TOOL_NAMES, original) ? TOOL_NAMES[original] : undefined) ?? original;
	const args = isObject(request.arguments) ? request.arguments : typeof request.arguments === "string" ? { input: request.arguments } : {};
	// The digest reads a file's path as `file_path`, as Claude Code's tools give it.
	const input = typeof args.path === "string" && args.file_path === undefined ? { ...args, file_path: args.path } : args;
	model.counts.toolCalls++;
	if (model.events.length >= LIMITS.events) {
		ownCalls(model).set(id, { id, name, input: typeof input.file_path === "string" ? { file_path: input.file_path } : {}, elided: true });
		model.counts.elidedEvents++;
		return;
	}
	const call: ToolCall = { id, name, input: clipInput(model, input, 0) as Record<string, unknown>, timestamp, messageId, result: undefined, agentId: undefined };
	ownCalls(model).set(id, call);
	pushEvent(model, { kind: "tool", call, sidechain });
}

function foldResult(model: SessionModel, data: Record<string, unknown>): void {
	const call = typeof data.toolCallId === "string" ? model.index.calls.get(data.toolCallId) : undefined;
	if (!call) {
		model.counts.orphanResults++;
		return;
	}
	const exit = isObject(data.shellExecution) ? data.shellExecution.exitCode : undefined;
	const failed = data.success === false || (typeof exit === "number" && exit !== 0);
	if (failed) model.counts.toolErrors++;
	if (!failed) noteFiles(model, call, data.fileEdits);
	if (call.elided) {
		model.index.calls.delete(call.id);
		return;
	}
	const result = isObject(data.result) && typeof data.result.content === "string" ? data.result.content : isObject(data.error) && typeof data.error.message === "string" ? data.error.message : "";
	call.result = { isError: failed, text: clip(model, result, LIMITS.toolResult) };
}

/** The files a call read, wrote or edited: its own path, and the edits the client reports. */
function noteFiles(model: SessionModel, call: ToolCall, edits: unknown): void {
	const path = call.input.file_path;
	if (typeof path === "string" && path !== "") {
		if (call.name === "Read") addFile(model, "read", path);
		else if (call.name === "Write") addFile(model, "written", path);
		else if (call.name === "Edit") addFile(model, "edited", path);
	}
	if (!Array.isArray(edits)) return;
	for (const edit of edits) if (isObject(edit) && typeof edit.path === "string") addFile(model, edit.kind === "create" ? "written" : "edited", edit.path);
}

/** One model call's tokens, as the client records them (input, output, cache read and cache write apart). */
function foldUsage(model: SessionModel, usage: unknown): void {
	if (!isObject(usage)) return;
	model.tokens.input += tokenCount(usage.inputTokens);
	model.tokens.output += tokenCount(usage.outputTokens);
	model.tokens.cacheRead += tokenCount(usage.cacheReadTokens);
	model.tokens.cacheCreation += tokenCount(usage.cacheWriteTokens);
}
