import { generatedProperty } from "../notes/note-regions";
import type { SessionScope } from "../plan/plan-scope";
import { indexPathOf, packetPathOf } from "../plan/project-paths";
import type { NoteStore } from "../ports";
import { isFileSyncCopy } from "../text/file-sync-copy";
import { sameFileKey } from "../text/same-file-key";
import type { SyncState } from "./sync-state";

/** What lies in the notes folder besides what the state names. */
export interface UnrecordedNotes {
	/** Notes of sessions no state recorded before, by `session_id` (see `scopeSessions`' `orphans`). */
	orphans: Map<string, string>;
	/** Every file of the notes folder that is none of ours, as `sameFileKey` gives it (see `scopeSessions`' `occupied`). */
	occupied: Set<string>;
	/**
	 * The folders right under the notes folder that hold such files, by `sameFileKey`, as they are
	 * spelled: a new project named as one of them but for case (`app` beside the user's `APP`) takes
	 * its spelling, since on macOS and Windows the two are one folder (see `scopeSessions`' `folders`).
	 */
	folders: Map<string, string>;
}

/**
 * The files under the notes folder that the state names as none of its notes, indexes or packets,
 * and among them the notes of the sessions of this sync that no state recorded before, by their
 * `session_id`. A new project's index or packet at its place is ours all the same when its
 * properties say so (a sync killed before storing its state wrote it). Only when sessions or
 * projects are new (they get paths now); only files the state does not name are read, and in a
 * dry run no note is claimed.
 */
export async function unrecordedNotes(notes: NoteStore, notesFolder: string, scope: SessionScope, start: SyncState, dryRun = false): Promise<UnrecordedNotes> {
	const found: UnrecordedNotes = { orphans: new Map(), occupied: new Set(), folders: new Map() };
	if (!notes.listTree) return found;
	const fresh = new Set(scope.live.filter((s) => start.sessions[s.file.path] === undefined).map((s) => scope.state.sessions[s.file.path]?.digest.sessionId));
	fresh.delete(undefined);
	// A new project's index and packet where they go by default, with the type their properties hold.
	const projectNotes = new Map<string, string>();
	for (const [key, project] of Object.entries(scope.state.projects)) {
		if (start.projects[key] !== undefined) continue;
		projectNotes.set(sameFileKey(indexPathOf({ folder: project.folder }, notesFolder)), "ai-project-index");
		projectNotes.set(sameFileKey(packetPathOf({ folder: project.folder }, notesFolder)), "ai-context-packet");
	}
	if (fresh.size === 0 && projectNotes.size === 0) return found;
	const ours = recordedPaths(start, notesFolder);
	const depth = notesFolder.split("/").filter((p) => p !== "" && p !== ".").length;
	for (const path of await notes.listTree(notesFolder)) {
		const key = sameFileKey(path);
		if (ours.has(key)) continue;
		const parts = path.split("/");
		if (parts.length > depth + 1) found.folders.set(sameFileKey(parts[depth]!), parts[depth]!);
		const type = projectNotes.get(key);
		const text = type !== undefined || (fresh.size > 0 && !dryRun) ? await notes.read(path).catch(() => null) : null;
		if (type !== undefined && generatedProperty(text, "type") === type) continue;
		found.occupied.add(key);
		// A file-sync tool's conflict copy carries the session_id of the note it copies: never taken for it (see `movedNotes`).
		const id = dryRun || isFileSyncCopy(path) ? undefined : generatedProperty(text, "session_id");
		if (id !== undefined && fresh.has(id) && !found.orphans.has(id)) found.orphans.set(id, path);
	}
	return found;
}

/** Whether `scope` gave a note, an index or a packet the path of a file that is none of ours. */
export function takesOccupied(scope: SessionScope, notesFolder: string, occupied: ReadonlySet<string>): boolean {
	if (occupied.size === 0) return false;
	for (const path of recordedPaths(scope.state, notesFolder)) if (occupied.has(path)) return true;
	return false;
}

/** Whether `scope` gave a new project a folder that one of `folders` is but for case or normalization. */
export function twinsAFolder(scope: SessionScope, start: SyncState, folders: ReadonlyMap<string, string>): boolean {
	for (const [key, project] of Object.entries(scope.state.projects)) {
		const spelled = folders.get(sameFileKey(project.folder));
		if (start.projects[key] === undefined && spelled !== undefined && spelled !== project.folder) return true;
	}
	return false;
}

/** The paths (as `sameFileKey` gives them) the state names: its notes, and each project's index and packet. */
function recordedPaths(state: SyncState, notesFolder: string): Set<string> {
	const paths = Object.values(state.sessions).map((r) => r.notePath);
	for (const project of Object.values(state.projects)) paths.push(indexPathOf(project, notesFolder), packetPathOf(project, notesFolder));
	return new Set(paths.map(sameFileKey));
}
