import { localDay } from "../text/local-date";
import type { SessionModel } from "../transcript/session-model";
import { codeUnitOrder } from "../text/code-unit-order";

/** Tokens of one local day and one model, as the notes count them: each message id once, at its last value. */
export interface UsageDay {
	/** Local date, `YYYY-MM-DD` (the day a message was written, as a note's `started` is local). */
	day: string;
	model: string;
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

/** The model name used when a transcript names none. */
export const UNKNOWN_MODEL = "unknown";

/**
 * A session's usage by day and model: its own messages and its sub-agents', each message id once.
 * A sub-agent counts from its own transcript, else from the copies of its messages the parent holds.
 * What a message does not date (an older stored model, another agent that records totals only) goes
 * to the session's first day and model, so the totals always equal the note's tokens plus its
 * sub-agents'.
 */
export function usageDays(model: SessionModel, agents: readonly SessionModel[] = []): UsageDay[] {
	const days = new Map<string, UsageDay>();
	// A message the session and a sub-agent both hold (a replay) counts once, where it was first seen.
	const seen = new Set<number>();
	for (const m of [model, ...agents]) addModel(days, m, model, seen);
	// A sub-agent's messages copied into its parent count when its own file is not here (purged, or never written).
	for (const m of [model, ...agents]) {
		for (const [id, usage] of m.index.agentUsageByMessage) {
			if (seen.has(id)) continue;
			seen.add(id);
			const day = localDay(usage.at);
			if (day !== undefined) add(days, day, usage.model, { input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadInputTokens, cacheWrite: usage.cacheCreationInputTokens });
		}
	}
	return [...days.values()].filter((d) => d.input + d.output + d.cacheRead + d.cacheWrite > 0).sort((a, b) => codeUnitOrder(a.day, b.day) || codeUnitOrder(a.model, b.model));
}

function addModel(days: Map<string, UsageDay>, m: SessionModel, session: SessionModel, seen: Set<number>): void {
	const rest = { input: m.tokens.input, output: m.tokens.output, cacheRead: m.tokens.cacheRead, cacheWrite: m.tokens.cacheCreation };
	for (const [id, usage] of m.index.usageByMessage) {
		const day = localDay(usage.at);
		const again = seen.has(id);
		seen.add(id);
		if (day === undefined && !again) continue;
		if (day !== undefined && !again) add(days, day, usage.model, { input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadInputTokens, cacheWrite: usage.cacheCreationInputTokens });
		rest.input -= usage.inputTokens;
		rest.output -= usage.outputTokens;
		rest.cacheRead -= usage.cacheReadInputTokens;
		rest.cacheWrite -= usage.cacheCreationInputTokens;
	}
	const day = localDay(m.startedAt) ?? localDay(session.startedAt);
	if (day !== undefined) add(days, day, m.models[0] ?? session.models[0], rest);
}

function add(days: Map<string, UsageDay>, day: string, model: string | undefined, t: Omit<UsageDay, "day" | "model">): void {
	if (t.input + t.output + t.cacheRead + t.cacheWrite === 0) return;
	const name = model === undefined || model === "" ? UNKNOWN_MODEL : model;
	const key = `${day}\u0000${name}`;
	const d = days.get(key) ?? { day, model: name, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
	d.input += t.input;
	d.output += t.output;
	d.cacheRead += t.cacheRead;
	d.cacheWrite += t.cacheWrite;
	days.set(key, d);
}
