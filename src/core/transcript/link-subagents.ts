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
}

/**
 * Attaches sub-agent transcripts to their parent session: by folder (2.1.2+ layout) or by the
 * parent's sessionId inside the lines (legacy `agent-*.jsonl` siblings), then to the exact call
 * through `toolUseResult.agentId`. Warmup agents are dropped; agents without a parent are returned.
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
		if (isWarmupAgent(agent.model)) continue;
		const parentId = agent.file.parentSessionId ?? agent.model.sessionIds[0];
		const parent = parentId === undefined ? undefined : byKey.get(`${agent.file.projectDir}\u0000${parentId}`);
		const linked: LinkedSubagent = { file: agent.file, model: agent.model, meta: agent.meta };
		if (!parent) {
			orphans.push(linked);
			continue;
		}
		linked.toolUseId = findCallFor(parent.model, agent.file.agentId);
		parent.subagents.push(linked);
	}
	return { sessions: result, orphans };
}

function findCallFor(parent: SessionModel, agentId: string | undefined): string | undefined {
	if (agentId === undefined) return undefined;
	for (const call of parent.index.calls.values()) if (call.agentId === agentId) return call.id;
	return undefined;
}
