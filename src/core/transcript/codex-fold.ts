import { dict, shown } from "../dict";
import type { RawLine } from "./jsonl-lines";
import { addFile, addUnique, clip, clipField, clipInput, countUnknown, LIMITS, markMalformed, noteTime, eachObject, pushEvent, noteInterruption, textFieldProblem } from "./model-building";
import { isObject, isoTime } from "./parse-line";
import { noteFolder } from "./session-folder";
import { ownCalls, type SessionModel, type ToolCall } from "./session-model";
import { tokenCount } from "./token-count";

/**
 * Codex CLI's rollout files (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`), folded into the
 * same session model as Claude Code's transcripts. Each line is `{timestamp, type, payload}`:
 * `session_meta` first, then `turn_context`, `event_msg`, `response_item` and `compacted`.
 *
 * The conversation is written twice: as events (`event_msg`: `user_message`, `agent_message`,
 * `agent_reasoning` up to 0.140; `item_completed` with `UserMessage`, `AgentMessage`, `Reasoning`,
 * `CommandExecution` items from 0.171) and as model input items (`response_item`: `message`,
 * `reasoning`). The events are what the person saw; the items also hold what the client injected
 * (instructions, AGENTS.md, the environment). So the text comes from the events, and tool calls
 * from the items, with a command's execution (its id is the call's) completing its call.
 *
 * Tools become the names the digest knows: a shell call is `Bash` with its command line, a plan
 * update is `TodoWrite` with its steps; `apply_patch` keeps its name and gives the files it touched.
 */
export function foldCodexLines(model: SessionModel, lines: readonly RawLine[]): void {
	for (const line of lines) eachObject(model, line, (value) => foldCodexValue(model, value, line.no));
}

/** `no`: the line `value` is on. */
function foldCodexValue(model: SessionModel, value: Record<string, unknown>, no: number): void {
	const payload = isObject(value.payload) ? value.payload : {};
	const timestamp = isoTime(value.timestamp);
	if (timestamp) noteTime(model, timestamp);
	switch (value.type) {
		case "session_meta":
			return foldMeta(model, payload);
		case "turn_context":
			noteFolder(model, payload.cwd);
			if (typeof payload.model === "string" && payload.model !== "") addUnique(model, "models", payload.model);
			return;
		case "event_msg": {
			// A prompt, a reply or a command whose text is of another kind was read as none, its turn dropped without a word.
			const why = eventTextProblem(payload);
			return why === undefined ? foldEvent(model, payload, timestamp) : markMalformed(model, no, why);
		}
		case "response_item": {
			// So was a tool call's input or output: the call shown with none.
			const why = itemTextProblem(payload);
			return why === undefined ? foldItem(model, payload, timestamp) : markMalformed(model, no, why);
		}
		case "compacted":
			model.counts.compactions++;
			pushEvent(model, { kind: "compaction", timestamp, trigger: undefined, preTokens: undefined, summary: typeof payload.message === "string" && payload.message !== "" ? clip(model, payload.message, LIMITS.compactSummary) : undefined });
			return;
		// 0.171's: the environment the turn ran in (its `cwd` is `turn_context`'s too), and each response's
		// usage again (`token_count` events carry the session's totals).
		case "world_state":
		case "token_usage_record":
			return;
		default:
			return countUnknown(model, `codex:${shown(value.type)}`);
	}
}

/** The field holding an event's text, by its type: only these events are read for their text. */
const EVENT_TEXT: Readonly<Record<string, string>> = dict({ user_message: "message", agent_message: "message", agent_reasoning: "text", error: "message", stream_error: "message" });

/** Why an event's text cannot be read (there, and not text), or undefined. */
function eventTextProblem(payload: Record<string, unknown>): string | undefined {
	const type = typeof payload.type === "string" ? payload.type : undefined;
	if (type === "item_completed") return isObject(payload.item) ? completedItemProblem(payload.item) : undefined;
	return type !== undefined && Object.hasOwn(EVENT_TEXT, type) ? textFieldProblem(payload, [EVENT_TEXT[type]!], `the ${type} event`) : undefined;
}

/** Why a 0.171 item's text cannot be read (see `foldCompletedItem`), or undefined. */
function completedItemProblem(item: Record<string, unknown>): string | undefined {
	const what = `the ${shown(item.type)} item`;
	switch (item.type) {
		case "UserMessage":
		case "AgentMessage":
			return partsProblem(item.content, `${what}'s content`);
		case "Reasoning":
			return item.summary_text === undefined || item.summary_text === null || (Array.isArray(item.summary_text) && item.summary_text.every((t) => typeof t === "string")) ? undefined : `${what}'s summary_text is not a list of text`;
		case "CommandExecution":
			return item.command !== undefined && item.command !== null && commandLine(item.command) === undefined ? `${what}'s command is neither text nor a list of words` : textFieldProblem(item, ["aggregated_output"], what);
		default:
			return undefined;
	}
}

/** Why a model input item's text cannot be read (a call's input, an output), or undefined. Messages and reasoning are not read (see `foldItem`). */
function itemTextProblem(payload: Record<string, unknown>): string | undefined {
	const what = `the ${shown(payload.type)} item`;
	switch (payload.type) {
		case "function_call":
			// Arguments come as JSON text; an object is read as they are. A name of another kind was read as "tool".
			return textFieldProblem(payload, ["name"], what) ?? (isObject(payload.arguments) ? undefined : textFieldProblem(payload, ["arguments"], what));
		case "custom_tool_call":
			return textFieldProblem(payload, ["name", "input"], what);
		case "local_shell_call":
			return shellActionProblem(payload.action, what);
		case "function_call_output":
		case "custom_tool_call_output":
		case "local_shell_call_output":
			// An output is text, parts, or JSON given as a value (see `outputOf`).
			return isObject(payload.output) ? undefined : partsProblem(payload.output, `${what}'s output`);
		default:
			return undefined;
	}
}

/** Why a `local_shell_call`'s action cannot be read: a command neither text nor words was shown as the call's raw input, not as the command run. */
function shellActionProblem(action: unknown, what: string): string | undefined {
	if (action === undefined || action === null) return undefined;
	if (!isObject(action)) return `${what}'s action is not an object`;
	return action.command !== undefined && action.command !== null && commandLine(action.command) === undefined ? `${what}'s command is neither text nor a list of words` : undefined;
}

/** Why text given as itself or as parts (`[{type, text}]`) cannot be read, or undefined. `what` names it. */
function partsProblem(value: unknown, what: string): string | undefined {
	if (value === undefined || value === null || typeof value === "string") return undefined;
	if (!Array.isArray(value)) return `${what} is neither text nor parts`;
	// A part is an object (`partsText` read anything else as no text).
	if (!value.every(isObject)) return `${what} has a part that is not an object`;
	return value.some((part) => part.text !== undefined && part.text !== null && typeof part.text !== "string") ? `${what} has a part whose text is not text` : undefined;
}

function foldMeta(model: SessionModel, payload: Record<string, unknown>): void {
	// Newer writers say `session_id`, older ones `id`: Codex reads both.
	const id = typeof payload.session_id === "string" ? payload.session_id : typeof payload.id === "string" ? payload.id : undefined;
	if (id) addUnique(model, "sessionIds", id);
	noteFolder(model, payload.cwd);
	if (typeof payload.cli_version === "string" && payload.cli_version !== "") addUnique(model, "versions", payload.cli_version);
	const branch = isObject(payload.git) && typeof payload.git.branch === "string" ? payload.git.branch : undefined;
	if (branch) {
		model.gitBranch = branch;
		addUnique(model, "branches", branch);
	}
}

function foldEvent(model: SessionModel, payload: Record<string, unknown>, timestamp: string | undefined): void {
	switch (payload.type) {
		case "user_message": {
			const text = typeof payload.message === "string" ? payload.message : "";
			const images = Array.isArray(payload.images) ? payload.images.length : 0;
			if (text.trim() === "" && images === 0) return;
			model.counts.prompts++;
			model.counts.images += images;
			model.lastPrompt = text;
			pushEvent(model, { kind: "prompt", promptKind: "prompt", text: clip(model, text, LIMITS.prompt), uuid: undefined, timestamp, images });
			return;
		}
		case "agent_message": {
			const text = typeof payload.message === "string" ? payload.message : "";
			if (text.trim() === "") return;
			model.counts.assistantMessages++;
			pushEvent(model, { kind: "text", text: clip(model, text, LIMITS.text), messageId: undefined, timestamp, sidechain: undefined });
			return;
		}
		case "agent_reasoning": {
			const text = typeof payload.text === "string" ? payload.text : "";
			model.counts.thinking++;
			pushEvent(model, { kind: "thinking", text: clip(model, text, LIMITS.thinking), redacted: false, messageId: undefined, timestamp, sidechain: undefined });
			return;
		}
		case "token_count":
			return noteTokens(model, payload.info);
		case "item_completed":
			return foldCompletedItem(model, isObject(payload.item) ? payload.item : {}, timestamp);
		case "error":
		case "stream_error": {
			model.counts.apiErrors++;
			const text = typeof payload.message === "string" ? payload.message : "error";
			pushEvent(model, { kind: "error", source: "api", text: clip(model, text, LIMITS.text), timestamp });
			return;
		}
		case "turn_aborted":
			noteInterruption(model);
			return;
		default:
			// Progress the client shows (task started, command begun and ended, patches applied): the items carry it.
			return;
	}
}

/** `total_token_usage` is the session's running total: the last one is the session's. Input counts cached input too. */
function noteTokens(model: SessionModel, info: unknown): void {
	if (!isObject(info) || !isObject(info.total_token_usage)) return;
	const total = info.total_token_usage;
	const cached = tokenCount(total.cached_input_tokens);
	model.tokens.input = Math.max(0, tokenCount(total.input_tokens) - cached);
	model.tokens.cacheRead = cached;
	model.tokens.output = tokenCount(total.output_tokens);
	model.tokens.cacheCreation = tokenCount(total.cache_write_input_tokens);
}

/** Text of an item's content parts (`[{type: "text" | "Text", text}]`). */
function partsText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.flatMap((part) => (isObject(part) && typeof part.text === "string" ? [part.text] : [])).join("\n");
}

/** An item the client showed (0.171+), as the events of older versions. */
function foldCompletedItem(model: SessionModel, item: Record<string, unknown>, timestamp: string | undefined): void {
	switch (item.type) {
		case "UserMessage":
			return foldEvent(model, { type: "user_message", message: partsText(item.content) }, timestamp);
		case "AgentMessage":
			return foldEvent(model, { type: "agent_message", message: partsText(item.content) }, timestamp);
		case "Reasoning":
			return foldEvent(model, { type: "agent_reasoning", text: Array.isArray(item.summary_text) ? item.summary_text.filter((t) => typeof t === "string").join("\n\n") : "" }, timestamp);
		case "CommandExecution": {
			const id = typeof item.id === "string" ? item.id : undefined;
			const command = commandLine(item.command);
			if (command === undefined) return;
			const output = { output: typeof item.aggregated_output === "string" ? item.aggregated_output : "", metadata: { exit_code: typeof item.exit_code === "number" ? item.exit_code : item.status === "failed" ? 1 : 0 } };
			const call = id === undefined ? undefined : model.index.calls.get(id);
			// The execution of a call already folded (its id is the call's): it completes that call.
			if (call) {
				if (!call.elided) call.input = { command: clipField(model, "command", command) };
				call.name = "Bash";
			} else foldCall(model, id, "shell", { command }, timestamp);
			return foldOutput(model, id ?? `codex-call-${model.counts.toolCalls}`, output);
		}
		default:
			return;
	}
}

function foldItem(model: SessionModel, payload: Record<string, unknown>, timestamp: string | undefined): void {
	const callId = typeof payload.call_id === "string" ? payload.call_id : typeof payload.id === "string" ? payload.id : undefined;
	switch (payload.type) {
		case "message":
		case "reasoning":
			// Written as events too (see above); the items alone also hold injected instructions.
			return;
		case "function_call": {
			const name = typeof payload.name === "string" ? payload.name : "tool";
			return foldCall(model, callId, name, parseArguments(payload.arguments), timestamp);
		}
		case "custom_tool_call": {
			const name = typeof payload.name === "string" ? payload.name : "tool";
			return foldCall(model, callId, name, typeof payload.input === "string" ? { input: payload.input } : {}, timestamp);
		}
		case "local_shell_call": {
			const action = isObject(payload.action) ? payload.action : {};
			return foldCall(model, callId, "local_shell", { command: action.command, workdir: action.working_directory }, timestamp);
		}
		case "web_search_call": {
			const action = isObject(payload.action) ? payload.action : {};
			return foldCall(model, callId, "web_search", { query: action.query }, timestamp);
		}
		case "function_call_output":
		case "custom_tool_call_output":
		case "local_shell_call_output":
			return foldOutput(model, callId, payload.output);
		default:
			return countUnknown(model, `codex:response_item:${shown(payload.type)}`);
	}
}

function parseArguments(raw: unknown): Record<string, unknown> {
	if (isObject(raw)) return raw;
	if (typeof raw !== "string") return {};
	try {
		const value: unknown = JSON.parse(raw);
		return isObject(value) ? value : { arguments: raw };
	} catch {
		return { arguments: raw };
	}
}

const SHELL_TOOLS = new Set(["shell", "shell_command", "exec_command", "local_shell", "container.exec"]);

/** A Codex call as the model's vocabulary has it (see the file's comment). */
function normalized(name: string, input: Record<string, unknown>): { name: string; input: Record<string, unknown> } {
	if (SHELL_TOOLS.has(name)) {
		const command = commandLine(input.command ?? input.cmd);
		if (command !== undefined) return { name: "Bash", input: { command, ...(typeof input.workdir === "string" ? { workdir: input.workdir } : {}) } };
	}
	if (name === "update_plan" && Array.isArray(input.plan)) {
		const todos = input.plan.flatMap((step) => (isObject(step) && typeof step.step === "string" ? [{ content: step.step, status: typeof step.status === "string" ? step.status : "pending" }] : []));
		return { name: "TodoWrite", input: { todos } };
	}
	return { name, input };
}

/** `["bash", "-lc", "npm test"]` is `npm test`; other argument lists are joined with spaces. */
function commandLine(command: unknown): string | undefined {
	if (typeof command === "string") return command;
	if (!Array.isArray(command) || !command.every((part): part is string => typeof part === "string")) return undefined;
	const parts = command;
	if (parts.length === 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]!) && /^-l?c$/.test(parts[1]!)) return parts[2];
	return parts.join(" ");
}

function foldCall(model: SessionModel, id: string | undefined, rawName: string, rawInput: Record<string, unknown>, timestamp: string | undefined): void {
	const callId = id ?? `codex-call-${model.counts.toolCalls + 1}`;
	if (model.index.calls.has(callId)) return;
	const { name, input } = normalized(rawName, rawInput);
	model.counts.toolCalls++;
	const patch = typeof input.input === "string" ? input.input : typeof input.patch === "string" ? input.patch : "";
	if (name === "apply_patch") for (const [kind, path] of patchedFiles(patch)) addFile(model, kind, absolute(model, path));
	if (model.events.length >= LIMITS.events) {
		ownCalls(model).set(callId, { id: callId, name, input: {}, elided: true });
		model.counts.elidedEvents++;
		return;
	}
	const call: ToolCall = { id: callId, name, input: clipInput(model, input, 0) as Record<string, unknown>, timestamp, messageId: undefined, result: undefined, agentId: undefined };
	ownCalls(model).set(callId, call);
	pushEvent(model, { kind: "tool", call, sidechain: undefined });
}

/** The files an `apply_patch` envelope adds, updates or deletes (`*** Update File: src/a.ts`). */
function patchedFiles(patch: string): ["written" | "edited", string][] {
	const out: ["written" | "edited", string][] = [];
	for (const line of patch.split("\n")) {
		const m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line.trimEnd());
		if (m) out.push([m[1] === "Add" ? "written" : "edited", m[2]!.trim()]);
		const moved = /^\*\*\* Move to: (.+)$/.exec(line.trimEnd());
		if (moved) out.push(["written", moved[1]!.trim()]);
	}
	return out;
}

function absolute(model: SessionModel, path: string): string {
	if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || model.cwd === undefined) return path;
	return `${model.cwd.replace(/[\\/]+$/, "")}/${path.replace(/^\.\//, "")}`;
}

function foldOutput(model: SessionModel, id: string | undefined, output: unknown): void {
	const call = id === undefined ? undefined : model.index.calls.get(id);
	if (!call) {
		model.counts.orphanResults++;
		return;
	}
	const { text, failed } = outputOf(output);
	if (failed) model.counts.toolErrors++;
	if (call.elided) {
		model.index.calls.delete(call.id);
		return;
	}
	call.result = { isError: failed, text: clip(model, text, LIMITS.toolResult) };
}

/** Shell outputs come as JSON (`{"output": …, "metadata": {"exit_code": 1}}`), as text with an exit code line, or as content parts. */
function outputOf(output: unknown): { text: string; failed: boolean } {
	const value = typeof output === "string" ? tryJson(output) : output;
	if (isObject(value)) {
		// Other JSON: as it was written when it came as text, not written out again.
		const text = typeof value.output === "string" ? value.output : typeof value.content === "string" ? value.content : typeof output === "string" ? output : jsonText(value);
		const exit = isObject(value.metadata) ? value.metadata.exit_code : undefined;
		return { text, failed: value.success === false || (typeof exit === "number" && exit !== 0) };
	}
	const text = typeof output === "string" ? output : partsText(output);
	// `exec_command` reports "Process exited with code 3", then "Output:" and the output; `shell` "Exit code: 3".
	const exit = /^(?:Exit code:|Process exited with code) (\d+)/m.exec(text);
	const at = text.indexOf("\nOutput:\n");
	return { text: at >= 0 ? text.slice(at + "\nOutput:\n".length) : text, failed: exit !== null && exit[1] !== "0" };
}

/** An output that came as a value, as JSON; one nested too deep to write out (100,000 levels overflowed the stack, and the session failed at every sync) is said to be so. */
function jsonText(value: unknown): string {
	try {
		return JSON.stringify(value);
	} catch {
		return "(an output nested too deep to show)";
	}
}

function tryJson(text: string): unknown {
	if (!text.startsWith("{")) return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}
