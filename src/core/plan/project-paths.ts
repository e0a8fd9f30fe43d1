import { projectIndexPath } from "../notes/project-index-note";
import type { ProjectRecord } from "../sync/sync-state";

/** Where a project's notes, index, packet and facts are in the vault: by its folder, or where the user moved them. */

/** Where the project's new session notes go: `<notes folder>/<folder>`, unless the user moved it. */
export function notesPathOf(project: ProjectRecord, notesFolder: string): string {
	return project.notesPath ?? `${notesFolder}/${project.folder}`;
}

/** The project's facts in the vault: `<memory folder>/<folder>`, unless the user moved it. */
export function memoryPathOf(project: ProjectRecord, memoryFolder: string): string {
	return project.memoryPath ?? `${memoryFolder}/${project.folder}`;
}

/** The project's index note: `<notes>/<folder>/<folder>.md`, unless the user moved it. */
export function indexPathOf(project: ProjectRecord, notesFolder: string): string {
	return project.indexPath ?? projectIndexPath(notesFolder, project.folder);
}

/** The project's context packet: `<notes>/<folder>/<folder> context.md`, unless the user moved it. */
export function packetPathOf(project: ProjectRecord, notesFolder: string): string {
	return project.packetPath ?? `${notesFolder}/${project.folder}/${project.folder} context.md`;
}
