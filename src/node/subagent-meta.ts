import { readPlainFile } from "./confined-path";
import { isObject } from "../core/transcript/parse-line";
import type { SubagentMeta } from "../core/transcript/link-subagents";

/** A sub-agent's `agent-<id>.meta.json` (Claude Code 2.1+): its type and the description its parent gave it; undefined when unreadable. */
export async function readMeta(path: string): Promise<SubagentMeta | undefined> {
	try {
		const value: unknown = JSON.parse(await readPlainFile(path));
		if (!isObject(value)) return undefined;
		const text = (v: unknown) => (typeof v === "string" ? v : undefined);
		return { agentType: text(value.agentType), description: text(value.description), worktreePath: text(value.worktreePath) };
	} catch {
		return undefined;
	}
}
