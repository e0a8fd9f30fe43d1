import type { PromptKind, SessionEvent, SessionModel, ToolCall } from "./session-model";

export interface Prompt {
	kind: PromptKind;
	text: string;
	timestamp?: string;
	images: number;
}

export function promptsOf(model: SessionModel): Prompt[] {
	const prompts: Prompt[] = [];
	for (const event of model.events) {
		if (event.kind === "prompt") {
			prompts.push({ kind: event.promptKind, text: event.text, timestamp: event.timestamp, images: event.images });
		}
	}
	return prompts;
}

/** Tool calls of the session itself; `includeSidechains` adds inline sub-agent calls of old clients. */
export function toolCallsOf(model: SessionModel, includeSidechains = false): ToolCall[] {
	const calls: ToolCall[] = [];
	for (const event of model.events) {
		if (event.kind === "tool" && (includeSidechains || event.sidechain === undefined)) calls.push(event.call);
	}
	return calls;
}

export function shellCommandsOf(model: SessionModel): ToolCall[] {
	return toolCallsOf(model, true).filter((call) => call.name === "Bash" && typeof call.input.command === "string");
}

/** Task/Agent calls, each with the sub-agent it started when known. */
export function subagentCallsOf(model: SessionModel): ToolCall[] {
	return toolCallsOf(model).filter((call) => call.name === "Task" || call.name === "Agent");
}

export function errorsOf(model: SessionModel): { source: "tool" | "api" | "assistant"; text: string; tool?: string }[] {
	const errors: { source: "tool" | "api" | "assistant"; text: string; tool?: string }[] = [];
	for (const event of model.events) {
		if (event.kind === "error") errors.push({ source: event.source, text: event.text });
		else if (event.kind === "tool" && event.call.result?.isError) {
			errors.push({ source: "tool", text: event.call.result.text, tool: event.call.name });
		}
	}
	return errors;
}

export function assistantTextsOf(model: SessionModel): Extract<SessionEvent, { kind: "text" }>[] {
	return model.events.filter((e): e is Extract<SessionEvent, { kind: "text" }> => e.kind === "text" && e.sidechain === undefined);
}

/**
 * Nothing to keep: no typed prompt and nothing the assistant said (0-byte, summary-only and
 * snapshot-only files, and sessions of slash commands alone such as `/model` then quit).
 */
export function isEmptySession(model: SessionModel): boolean {
	if (model.counts.prompts > 0) return false;
	return !model.events.some((e) => (e.kind === "text" && e.sidechain === undefined) || (e.kind === "prompt" && e.promptKind === "prompt"));
}

/** The "Warmup" sub-agents that 2.0.x spawned by itself: noise, not work. */
export function isWarmupAgent(model: SessionModel): boolean {
	if (model.agentId === undefined) return false;
	const first = model.events.find((e) => e.kind === "prompt");
	return first?.kind === "prompt" && first.text.trim() === "Warmup";
}
