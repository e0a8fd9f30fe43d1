import type { NoteStore } from "../ports";
import type { Settings } from "../settings";
import type { SyncState } from "../sync/sync-state";
import { isExcludedRecord } from "./plan-scope";

/**
 * Session notes deleted or moved while nothing listened (outside Obsidian, with it closed, by the
 * CLI's syncs): the written notes, not deleted by the person, that their folder's listing does not
 * hold. Hints, as the plugin's deletion events are (`sessionsOfDeleted`): what is on disk decides
 * (a moved note is followed by its session id, a note there after all is kept). Without them a note
 * deleted was noticed only when a transcript of its project changed, and until then its neighbours
 * and the project's index linked to it. One listing a folder; a folder that cannot be listed (a
 * link out of the vault, a file in its place) gives none: the sync says why elsewhere.
 */
export async function notesGone(state: SyncState, notes: Pick<NoteStore, "list">, settings: Settings): Promise<string[]> {
	const byFolder = new Map<string, string[]>();
	for (const record of Object.values(state.sessions)) {
		if (!record.written || record.deleted || isExcludedRecord(record, settings)) continue;
		const folder = record.notePath.slice(0, Math.max(0, record.notePath.lastIndexOf("/")));
		const paths = byFolder.get(folder);
		if (paths) paths.push(record.notePath);
		else byFolder.set(folder, [record.notePath]);
	}
	const gone: string[] = [];
	await Promise.all(
		[...byFolder].map(async ([folder, paths]) => {
			const listed = await notes.list(folder).catch(() => undefined);
			if (listed === undefined) return;
			const there = new Set(listed);
			// In one spelling, where not found as recorded: a file system that gives names decomposed (macOS) lists a note recorded composed.
			let composed: Set<string> | undefined;
			for (const path of paths) if (!there.has(path) && !(composed ??= new Set(listed.map((p) => p.normalize("NFC")))).has(path.normalize("NFC"))) gone.push(path);
		}),
	);
	return gone;
}
