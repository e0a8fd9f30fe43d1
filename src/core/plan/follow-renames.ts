import type { SyncState } from "../sync/sync-state";
import { indexPathOf, memoryPathOf, notesPathOf, packetPathOf } from "./project-paths";
import type { PlannedMove } from "./sync-plan";

/**
 * Renames and moves the user made in the vault (the plugin hears them), applied to the state in
 * place, so that a moved note keeps its session, index, packet or fact, and a moved folder keeps
 * its project: never taken for deleted. A folder's move carries everything below it. A project's
 * index, packet and notes folder are where the last sync placed them (`notesRoot`), whatever the
 * notes folder setting says now.
 * @returns the transcript paths of the sessions whose notes moved (they and their neighbours are
 * rendered again: links to them changed).
 */
export function followRenames(state: SyncState, renames: readonly PlannedMove[], folders: { notes: string; memory: string }): Set<string> {
	const changed = new Set<string>();
	for (const { from, to } of renames) {
		const moved = (spelled: string): string | undefined => {
			const path = vaultPath(spelled);
			return path === from ? to : path.startsWith(`${from}/`) ? `${to}${path.slice(from.length)}` : undefined;
		};
		for (const [key, record] of Object.entries(state.sessions)) {
			const notePath = moved(record.notePath);
			if (notePath === undefined) continue;
			state.sessions[key] = { ...record, notePath, deleted: undefined };
			changed.add(key);
		}
		for (const [key, project] of Object.entries(state.projects)) {
			const memory = vaultPath(memoryPathOf(project, folders.memory));
			for (const pair of Object.values(state.memory[key] ?? {})) {
				// A fact renamed in its folder stays paired with its Claude Code file.
				const now = moved(`${memory}/${pair.vault}`);
				if (now !== undefined && now.startsWith(`${memory}/`) && !now.slice(memory.length + 1).includes("/")) pair.vault = now.slice(memory.length + 1);
			}
			// Where its notes are: under the notes folder of the last sync. Taken from a setting changed
			// since, a folder of the person's renamed then pinned the index to a place it never was.
			const root = project.notesRoot ?? folders.notes;
			const index = moved(indexPathOf(project, root));
			const packet = moved(packetPathOf(project, root));
			const notes = moved(notesPathOf(project, root));
			const memoryNow = moved(memory);
			if (index !== undefined) project.indexPath = index;
			if (packet !== undefined) project.packetPath = packet;
			if (notes !== undefined) project.notesPath = notes;
			if (memoryNow !== undefined) project.memoryPath = memoryNow;
		}
	}
	return changed;
}

/**
 * Notes and folders the user deleted in the vault (the plugin hears them): the sessions whose notes
 * were there. They are looked at by the sync that takes the deletions (a note gone is "deleted by
 * you", its neighbours and index link past it), not only by the next one in which a transcript of
 * their project changed: until then the index and the notes beside it named a note that is gone.
 * What is on disk decides; a note that is there after all (deleted, then made again) is kept.
 */
export function sessionsOfDeleted(state: SyncState, deleted: readonly string[]): string[] {
	if (deleted.length === 0) return [];
	const gone = new Set(deleted.map(vaultPath));
	const under = (path: string): boolean => {
		for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) if (gone.has(path.slice(0, at))) return true;
		return false;
	};
	return Object.entries(state.sessions).filter(([, r]) => !r.deleted && (gone.has(vaultPath(r.notePath)) || under(vaultPath(r.notePath)))).map(([path]) => path);
}

/**
 * A path as the vault names it. A notes folder set as the vault's top ("" or "/") or with a slash
 * at its end ("x/") spells its paths "/x/a.md" and "x//a.md", which the store writes where the
 * vault says "x/a.md": the renames and deletions Obsidian tells, in its spelling, matched none of
 * them, and a renamed index or a deleted note was not followed (attack round 49a).
 */
export function vaultPath(path: string): string {
	return path
		.split("/")
		.filter((part) => part !== "" && part !== ".")
		.join("/");
}
