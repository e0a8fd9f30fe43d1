import type { SyncState } from "../sync/sync-state";
import { indexPathOf, memoryPathOf, notesPathOf, packetPathOf } from "./project-paths";
import type { PlannedMove } from "./sync-plan";

/**
 * Renames and moves the user made in the vault (the plugin hears them), applied to the state in
 * place, so that a moved note keeps its session, index, packet or fact, and a moved folder keeps
 * its project: never taken for deleted. A folder's move carries everything below it.
 * @returns the transcript paths of the sessions whose notes moved (they and their neighbours are
 * rendered again: links to them changed).
 */
export function followRenames(state: SyncState, renames: readonly PlannedMove[], folders: { notes: string; memory: string }): Set<string> {
	const changed = new Set<string>();
	for (const { from, to } of renames) {
		const moved = (path: string): string | undefined => (path === from ? to : path.startsWith(`${from}/`) ? `${to}${path.slice(from.length)}` : undefined);
		for (const [key, record] of Object.entries(state.sessions)) {
			const notePath = moved(record.notePath);
			if (notePath === undefined) continue;
			state.sessions[key] = { ...record, notePath, deleted: undefined };
			changed.add(key);
		}
		for (const [key, project] of Object.entries(state.projects)) {
			const memory = memoryPathOf(project, folders.memory);
			for (const pair of Object.values(state.memory[key] ?? {})) {
				// A fact renamed in its folder stays paired with its Claude Code file.
				const now = moved(`${memory}/${pair.vault}`);
				if (now !== undefined && now.startsWith(`${memory}/`) && !now.slice(memory.length + 1).includes("/")) pair.vault = now.slice(memory.length + 1);
			}
			const index = moved(indexPathOf(project, folders.notes));
			const packet = moved(packetPathOf(project, folders.notes));
			const notes = moved(notesPathOf(project, folders.notes));
			const memoryNow = moved(memory);
			if (index !== undefined) project.indexPath = index;
			if (packet !== undefined) project.packetPath = packet;
			if (notes !== undefined) project.notesPath = notes;
			if (memoryNow !== undefined) project.memoryPath = memoryNow;
		}
	}
	return changed;
}
