import { codeUnitOrder } from "../text/code-unit-order";
import type { AgentId } from "../transcript/agents";
import type { SessionRow, UsageOnlyRow } from "./session-rows";

/** What the Sessions view narrows the list (and its pictures) to; an unset field lets everything through. */
export interface SessionFilter {
	project?: string;
	agent?: AgentId;
	tag?: string;
	/** First and last local day, `YYYY-MM-DD`, inclusive. */
	from?: string;
	to?: string;
}

/** A session's row, or usage no session holds (it has no tags: a tag filter leaves it out). */
export function matchesFilter(row: SessionRow | UsageOnlyRow, f: SessionFilter): boolean {
	if (f.project !== undefined && row.project !== f.project) return false;
	if (f.agent !== undefined && row.agent !== f.agent) return false;
	if (f.tag !== undefined && !("tags" in row && row.tags.includes(f.tag))) return false;
	if (f.from !== undefined && (row.day === undefined || row.day < f.from)) return false;
	if (f.to !== undefined && (row.day === undefined || row.day > f.to)) return false;
	return true;
}

/** The projects, agents and tags the sessions have, for the filters' menus (tags by use, then name). */
export function filterChoices(rows: readonly SessionRow[]): { projects: string[]; agents: AgentId[]; tags: string[] } {
	const projects = new Set<string>();
	const agents = new Set<AgentId>();
	const tags = new Map<string, number>();
	for (const r of rows) {
		projects.add(r.project);
		agents.add(r.agent);
		for (const t of r.tags) tags.set(t, (tags.get(t) ?? 0) + 1);
	}
	return {
		projects: [...projects].sort(codeUnitOrder),
		agents: [...agents].sort(codeUnitOrder),
		tags: [...tags].sort((a, b) => b[1] - a[1] || codeUnitOrder(a[0], b[0])).map(([t]) => t),
	};
}
