import type { SessionModel, ToolCall } from "../transcript/session-model";
import { assistantTextsOf, errorsOf, promptsOf, shellCommandsOf, subagentCallsOf, toolCallsOf } from "../transcript/session-queries";
import { oneLine } from "./one-line";
import { sessionTitle, shorten } from "./session-title";
import { findStatements } from "./statements";

/** What a reader wants to know about a session before reading it. Plain data, deterministic. */
export interface SessionDigest {
	sessionId: string;
	title: string;
	projectPath?: string;
	branch?: string;
	startedAt?: string;
	endedAt?: string;
	/** Whole minutes between the first and the last line. */
	durationMinutes?: number;
	models: string[];
	/** The first typed prompt. */
	goal?: string;
	/** The last thing the assistant said. */
	outcome?: string;
	prompts: number;
	toolCalls: number;
	filesTouched: string[];
	filesRead: string[];
	commands: string[];
	errors: string[];
	/** Sentences that state a decision or leave something open, from prompts and replies. */
	decisions: string[];
	openEnds: string[];
	/** Names of the tools used, first use first. */
	tools: string[];
	subagents: { description: string; type?: string; agentId?: string }[];
	tokens: { input: number; output: number };
}

export function digestSession(model: SessionModel, summaryTitle?: string): SessionDigest {
	const prompts = promptsOf(model);
	const goal = prompts.find((p) => p.kind === "prompt")?.text ?? prompts[0]?.text;
	const texts = assistantTextsOf(model);
	const outcome = texts[texts.length - 1]?.text;
	const touched = [...model.files.written, ...model.files.edited.filter((f) => !model.files.written.includes(f))];
	const statements = findStatements([...prompts.filter((p) => p.kind === "prompt").map((p) => p.text), ...texts.map((t) => t.text)]);
	return {
		sessionId: model.fileId,
		title: sessionTitle(model, summaryTitle),
		projectPath: model.cwd,
		branch: model.gitBranch,
		startedAt: model.startedAt,
		endedAt: model.endedAt,
		durationMinutes: minutesBetween(model.startedAt, model.endedAt),
		models: model.models,
		goal,
		outcome,
		prompts: model.counts.prompts + model.counts.slashCommands,
		toolCalls: model.counts.toolCalls,
		filesTouched: touched,
		filesRead: model.files.read,
		commands: unique(shellCommandsOf(model).map((c) => oneLine(String(c.input.command)))),
		errors: errorsOf(model).map((e) => shorten(oneLine(e.tool ? `${e.tool}: ${e.text}` : e.text), 160)),
		decisions: statements.decisions,
		openEnds: statements.openEnds,
		tools: unique(toolCallsOf(model, true).map((c) => c.name)),
		subagents: subagentCallsOf(model).map(describeSubagent),
		tokens: { input: model.tokens.input + model.tokens.cacheCreation + model.tokens.cacheRead, output: model.tokens.output },
	};
}

function describeSubagent(call: ToolCall): { description: string; type?: string; agentId?: string } {
	const description = typeof call.input.description === "string" ? call.input.description : call.name;
	const type = typeof call.input.subagent_type === "string" ? call.input.subagent_type : undefined;
	return { description, type, agentId: call.agentId };
}

function minutesBetween(from?: string, to?: string): number | undefined {
	if (!from || !to) return undefined;
	const ms = Date.parse(to) - Date.parse(from);
	return Number.isFinite(ms) ? Math.max(0, Math.round(ms / 60_000)) : undefined;
}

function unique(values: string[]): string[] {
	return [...new Set(values)];
}
