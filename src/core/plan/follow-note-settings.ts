import type { SyncState } from "../sync/sync-state";
import { indexPathOf, packetPathOf } from "./project-paths";
import type { PlannedMove } from "./sync-plan";

/**
 * The notes folder or tag prefix setting changed since the last sync. Notes folder: each project's notes, index and packet
 * that the sync placed under the old one move under the new one (links follow, as in a migration);
 * kept where they were, a project was split in two, its old index never updated again. A folder,
 * index or packet the user moved stays where they put it. Tag prefix: every note and index of the
 * project is rendered again, the old prefix's tags left out (kept, they were taken for the user's
 * own, even by a rebuild). Changes `state` in place (a copy).
 * @returns the moves, the sessions whose notes move or are retagged (rendered again), and the old
 * tag prefix of each project retagged.
 */
export function followNoteSettings(state: SyncState, notesFolder: string, tagPrefix: string): { moves: PlannedMove[]; relocated: Set<string>; retagged: Map<string, string> } {
	const moves: PlannedMove[] = [];
	const relocated = new Set<string>();
	const retagged = new Map<string, string>();
	for (const [key, project] of Object.entries(state.projects)) {
		const root = project.notesRoot;
		state.projects[key] = { ...project, notesRoot: notesFolder, tagPrefixWith: tagPrefix };
		if (project.tagPrefixWith !== undefined && project.tagPrefixWith !== tagPrefix) {
			retagged.set(key, project.tagPrefixWith);
			for (const [path, record] of Object.entries(state.sessions)) if (record.projectKey === key) relocated.add(path);
		}
		if (root === undefined || root === notesFolder || project.notesPath !== undefined) continue;
		const from = `${root}/${project.folder}/`;
		const to = `${notesFolder}/${project.folder}/`;
		for (const [path, record] of Object.entries(state.sessions)) {
			if (record.projectKey !== key || !record.notePath.startsWith(from)) continue;
			const notePath = to + record.notePath.slice(from.length);
			if (record.written && !record.deleted) moves.push({ from: record.notePath, to: notePath });
			state.sessions[path] = { ...record, notePath };
			relocated.add(path);
		}
		if (project.indexPath === undefined) moves.push({ from: indexPathOf(project, root), to: indexPathOf(project, notesFolder) });
		if (project.packetPath === undefined) moves.push({ from: packetPathOf(project, root), to: packetPathOf(project, notesFolder) });
	}
	return { moves, relocated, retagged };
}
