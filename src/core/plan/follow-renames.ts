import type { NoteStore } from "../ports";
import type { ProjectRecord, SyncState } from "../sync/sync-state";
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
	// Each note's path in the vault's spelling, listed once and kept as the renames move it: a folder of
	// 3,000 notes renamed is 3,000 renames, and 10,000 sessions listed and spelled at each took 18 s.
	const placed = renames.length === 0 ? [] : Object.entries(state.sessions).map(([key, record]) => ({ key, path: vaultPath(record.notePath) }));
	for (const { from, to } of renames) {
		const folder = `${from}/`;
		const movedPath = (path: string): string | undefined => (path === from ? to : path.startsWith(folder) ? `${to}${path.slice(from.length)}` : undefined);
		const moved = (spelled: string): string | undefined => movedPath(vaultPath(spelled));
		for (const note of placed) {
			const notePath = movedPath(note.path);
			if (notePath === undefined) continue;
			note.path = notePath;
			state.sessions[note.key] = { ...state.sessions[note.key]!, notePath, deleted: undefined };
			changed.add(note.key);
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

/** An empty part, or a `.` part, anywhere in a path (`/x`, `x/`, `x//y`, `./x`, `x/./y`, `x/.`, `.`). */
const ODD_SPELLING = /(?:^|\/)\.?(?:\/|$)/;

/**
 * A path as the vault names it. A notes folder set as the vault's top ("" or "/") or with a slash
 * at its end ("x/") spells its paths "/x/a.md" and "x//a.md", which the store writes where the
 * vault says "x/a.md": the renames and deletions Obsidian tells, in its spelling, matched none of
 * them, and a renamed index or a deleted note was not followed (attack round 49a).
 */
export function vaultPath(path: string): string {
	// Most paths are spelled as the vault spells them: asked for each session at each rename (a folder of 3,000 notes renamed is 3,000 renames), they are not split.
	if (!ODD_SPELLING.test(path)) return path;
	return path
		.split("/")
		.filter((part) => part !== "" && part !== ".")
		.join("/");
}

/**
 * The places `followRenames` gave a project's index, context packet, notes folder and memory folder
 * that hold nothing: a rename carries every path below a folder, also one where nothing of the
 * project was (its folder deleted before, never made under a new notes folder), and the next sync
 * made an index in a folder of the person's where none had been. Each goes back to where it was
 * before the renames: what is in the vault decides. A packet follows a notes folder kept.
 * @param before the projects as they were before `followRenames` changed `state` in place.
 */
export async function unpinAbsent(state: SyncState, before: Readonly<Record<string, ProjectRecord>>, notes: NoteStore): Promise<void> {
	const fileThere = async (path: string): Promise<boolean> => {
		try {
			return (await notes.read(path)) !== null;
		} catch {
			// Something is there (a folder): not the sync's to call absent.
			return true;
		}
	};
	const folderThere = async (path: string): Promise<boolean> => (notes.isFolder ? notes.isFolder(path) : true);
	for (const [key, project] of Object.entries(state.projects)) {
		const was = before[key];
		if (!was) continue;
		const next: ProjectRecord = { ...project };
		const moved = (field: "indexPath" | "packetPath" | "notesPath" | "memoryPath") => project[field] !== undefined && project[field] !== was[field];
		const restore = (field: "indexPath" | "packetPath" | "notesPath" | "memoryPath") => {
			if (was[field] === undefined) delete next[field];
			else next[field] = was[field];
		};
		if (moved("notesPath") && !(await folderThere(project.notesPath!))) restore("notesPath");
		if (moved("memoryPath") && !(await folderThere(project.memoryPath!))) restore("memoryPath");
		if (moved("indexPath") && !(await fileThere(project.indexPath!))) restore("indexPath");
		const packetWithFolder = next.notesPath !== undefined && next.notesPath !== was.notesPath && project.packetPath!.startsWith(`${next.notesPath}/`);
		if (moved("packetPath") && !packetWithFolder && !(await fileThere(project.packetPath!))) restore("packetPath");
		state.projects[key] = next;
	}
}
