import { codeUnitOrder } from "../text/code-unit-order";
import type { SessionModel } from "./session-model";
import { isWarmupAgent } from "./session-queries";
import type { TranscriptFile } from "./transcript-files";

export interface SubagentMeta {
	agentType?: string;
	description?: string;
	worktreePath?: string;
}

export interface LinkedSubagent {
	file: TranscriptFile;
	model: SessionModel;
	meta?: SubagentMeta;
	/** The parent's Task/Agent call that started it, when the parent's result names the agent. */
	toolUseId?: string;
}

export interface SessionWithAgents {
	file: TranscriptFile;
	model: SessionModel;
	subagents: LinkedSubagent[];
	/** The client's warmup agents (a "Warmup" prompt, no work): not shown, but their tokens were spent. */
	warmups?: Warmup[];
}

/** A warmup agent's transcript: its path keys its usage when no session holds it (`SyncState.usageOnly`). */
export interface Warmup {
	file: TranscriptFile;
	model: SessionModel;
}

/** The models a session's digest joins: its sub-agents', warmups included (they count in its usage only). */
export function agentModels(session: SessionWithAgents): SessionModel[] {
	return [...session.subagents.map((a) => a.model), ...(session.warmups ?? []).map((w) => w.model)];
}

/**
 * Attaches sub-agent transcripts to their parent session: by folder (2.1.2+ layout) or by the
 * parent's sessionId inside the lines (legacy `agent-*.jsonl` siblings), then to the exact call
 * through `toolUseResult.agentId`. Warmup agents are kept apart (usage only); agents without a parent are returned.
 */
export function linkSubagents(
	sessions: readonly { file: TranscriptFile; model: SessionModel }[],
	agents: readonly { file: TranscriptFile; model: SessionModel; meta?: SubagentMeta }[],
): { sessions: SessionWithAgents[]; orphans: LinkedSubagent[] } {
	const byKey = new Map<string, SessionWithAgents>();
	const result: SessionWithAgents[] = [];
	for (const s of sessions) {
		const entry: SessionWithAgents = { file: s.file, model: s.model, subagents: [] };
		result.push(entry);
		byKey.set(`${s.file.projectDir}\u0000${s.file.fileId}`, entry);
	}
	const orphans: LinkedSubagent[] = [];
	for (const agent of agents) {
		const parentId = parentIdOf(agent.file, agent.model);
		const parent = parentId === undefined ? undefined : byKey.get(`${agent.file.projectDir}\u0000${parentId}`);
		if (isWarmupAgent(agent.model)) {
			if (parent) (parent.warmups ??= []).push({ file: agent.file, model: agent.model });
			continue;
		}
		const linked: LinkedSubagent = { file: agent.file, model: agent.model, meta: agent.meta };
		if (!parent) {
			orphans.push(linked);
			continue;
		}
		linked.toolUseId = findCallFor(parent.model, agent.file.agentId);
		parent.subagents.push(linked);
	}
	// In the order they started, whatever order their files were read in (reads run in parallel):
	// the note's sections and the digest's files follow it, so the same transcripts give the same note.
	for (const entry of result) if (entry.subagents.length > 1) entry.subagents.sort(byStart);
	return { sessions: result, orphans };
}

function byStart(a: LinkedSubagent, b: LinkedSubagent): number {
	const at = codeUnitOrder(a.model.startedAt ?? "", b.model.startedAt ?? "");
	return at !== 0 ? at : codeUnitOrder(a.file.path, b.file.path);
}

/** The session a sub-agent belongs to: named by its folder (2.1.2+), else inside its lines. */
export function parentIdOf(file: TranscriptFile, model: SessionModel): string | undefined {
	return file.parentSessionId ?? model.sessionIds[0];
}

function findCallFor(parent: SessionModel, agentId: string | undefined): string | undefined {
	if (agentId === undefined) return undefined;
	for (const call of parent.index.calls.values()) if (call.agentId === agentId) return call.id;
	return undefined;
}
