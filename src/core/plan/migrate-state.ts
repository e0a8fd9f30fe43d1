import { dict } from "../dict";
import { baseName, safeFileName } from "../notes/note-name";
import { chooseFolders } from "../projects/project-identity";
import { LEGACY_SYNC_STATE_VERSION, SYNC_STATE_VERSION, type SyncState } from "../sync/sync-state";
import type { PlannedMove } from "./sync-plan";

/**
 * A version 1 state (projects by folder name, so five repositories called `cli` shared one
 * folder) brought to version 2 (projects by identity), in place. Of the identities that shared a
 * folder, the one with the most sessions keeps it; each other one gets a folder of its own, and
 * its session notes move there (`moves`; note names stay). Facts: the vault folder stays with the
 * keeper; a project that moves out forgets what it had paired with Claude Code, so its next sync
 * takes its facts from its own Claude Code memory into its own folder, and nothing is deleted on
 * either side. Inbox proposals made once stay made for every project of the old folder.
 * @param keyOf the identity of a record's project, by its transcript path.
 * @param pathKey the identity of an enabled project, by its path (the old `memory` keys).
 */
export function migrateState(state: SyncState, notesFolder: string, keyOf: (transcriptPath: string) => string, pathKey: (projectPath: string) => string): PlannedMove[] {
	if (state.version !== LEGACY_SYNC_STATE_VERSION) return [];
	const byFolder = new Map<string, Map<string, number>>();
	const keys = new Map<string, string>();
	const firstStart = new Map<string, string>();
	for (const [path, record] of Object.entries(state.sessions)) {
		const key = keyOf(path);
		keys.set(path, key);
		const started = record.digest.startedAt ?? "\uffff";
		if (started < (firstStart.get(key) ?? "\uffff")) firstStart.set(key, started);
		const counts = byFolder.get(record.project) ?? new Map<string, number>();
		counts.set(key, (counts.get(key) ?? 0) + 1);
		byFolder.set(record.project, counts);
	}
	// Each identity prefers the old folder named after it, else the one most of its sessions are in;
	// of those preferring a folder, the one with most sessions there keeps it, then the one there first.
	const rank = ([ka, a]: [string, number], [kb, b]: [string, number]) => {
		const [sa, sb] = [firstStart.get(ka) ?? "", firstStart.get(kb) ?? ""];
		return b - a || (sa < sb ? -1 : sa > sb ? 1 : 0) || (ka < kb ? -1 : 1);
	};
	const counts = new Map<string, Map<string, number>>();
	for (const [folder, byKey] of byFolder) for (const [key, n] of byKey) counts.set(key, (counts.get(key) ?? new Map<string, number>()).set(folder, n));
	const preferred = new Map<string, string>();
	for (const [key, folders] of counts) {
		const own = safeFileName(baseName(key), "Unknown project");
		preferred.set(key, folders.has(own) ? own : [...folders].sort(([fa, a], [fb, b]) => b - a || (fa < fb ? -1 : 1))[0]![0]);
	}
	const folderOf = new Map<string, string>();
	for (const [folder, byKey] of byFolder) {
		const keeper = [...byKey].filter(([key]) => preferred.get(key) === folder).sort(rank)[0]?.[0];
		if (keeper !== undefined) folderOf.set(keeper, folder);
	}
	const movers = [...counts.keys()].filter((key) => !folderOf.has(key));
	for (const [key, folder] of chooseFolders([...byFolder.keys()], movers)) folderOf.set(key, folder);
	state.projects = Object.fromEntries([...folderOf].map(([key, folder]) => [key, { folder }]));

	const moves: PlannedMove[] = [];
	for (const [path, record] of Object.entries(state.sessions)) {
		const key = keys.get(path)!;
		const folder = folderOf.get(key)!;
		const from = `${notesFolder}/${record.project}/`;
		let notePath = record.notePath;
		if (folder !== record.project && notePath.startsWith(from)) {
			notePath = `${notesFolder}/${folder}/${notePath.slice(from.length)}`;
			if (record.written && !record.deleted) moves.push({ from: record.notePath, to: notePath });
		}
		state.sessions[path] = { ...record, projectKey: key, project: folder, notePath };
	}

	const memory: SyncState["memory"] = dict();
	for (const [projectPath, pairs] of Object.entries(state.memory)) {
		const key = pathKey(projectPath);
		// The project that moved out starts its sharing afresh from its own Claude Code folder.
		if (!movers.includes(key) && !(key in memory)) memory[key] = pairs;
	}
	state.memory = memory;
	const proposed: SyncState["proposed"] = dict();
	for (const [folder, made] of Object.entries(state.proposed)) for (const key of byFolder.get(folder)?.keys() ?? []) proposed[key] = [...new Set([...(proposed[key] ?? []), ...made])];
	state.proposed = proposed;
	state.version = SYNC_STATE_VERSION;
	return moves;
}
