import type { SessionRecord, SyncState } from "../sync/sync-state";

/** A project the sync has seen sessions of, for the settings to offer. */
export interface DiscoveredProject {
	/** Absolute project path, as Claude Code records it in `cwd`. */
	path: string;
	/** The project's folder in the vault (that of its latest session). */
	name: string;
	sessions: number;
	/** When its latest session ended (else started), as recorded; unset when no session has a time. */
	lastActivity?: string;
}

/**
 * The projects in the sync state, one per project path, latest activity first (projects without a
 * time last, then by path). Sessions without a project path cannot be turned into settings and are
 * left out.
 */
export function discoverProjects(state: Pick<SyncState, "sessions">): DiscoveredProject[] {
	const byPath = new Map<string, { project: DiscoveredProject; latest: number }>();
	for (const record of Object.values(state.sessions) as Partial<SessionRecord>[]) {
		// The repository, not the folder a session ran in (a worktree, a subfolder).
		const path = record.projectKey ?? record.projectPath ?? record.digest?.projectPath;
		if (typeof path !== "string" || path === "") continue;
		const when = record.digest?.endedAt ?? record.digest?.startedAt;
		const time = when === undefined ? Number.NaN : Date.parse(when);
		const entry = byPath.get(path);
		if (!entry) {
			byPath.set(path, { project: { path, name: nameOf(record, path), sessions: 1, ...(Number.isNaN(time) ? {} : { lastActivity: when }) }, latest: Number.isNaN(time) ? -Infinity : time });
			continue;
		}
		entry.project.sessions++;
		if (!Number.isNaN(time) && time > entry.latest) {
			entry.latest = time;
			entry.project.lastActivity = when;
			entry.project.name = nameOf(record, path);
		}
	}
	return [...byPath.values()].sort((a, b) => b.latest - a.latest || (a.project.path < b.project.path ? -1 : a.project.path > b.project.path ? 1 : 0)).map((e) => e.project);
}

function nameOf(record: Partial<SessionRecord>, path: string): string {
	return typeof record.project === "string" && record.project !== "" ? record.project : (path.split(/[\\/]/).filter(Boolean).pop() ?? path);
}
