import type { NoteStore } from "../ports";
import type { Settings } from "../settings";
import type { SyncState } from "../sync/sync-state";
import { vaultPath } from "./follow-renames";
import { isExcludedRecord } from "./plan-scope";

/**
 * The sessions whose written note (not deleted by the person) its folder's listing no longer holds:
 * deleted or moved in Obsidian, outside it, or while it was closed. The sync that finds them looks
 * at them (a note gone is "deleted by you", its neighbours and its project's index link past it);
 * without this a note deleted was noticed only when a transcript of its project changed, and until
 * then the index and the notes beside it named a note that was gone. Hints only: what is on disk
 * decides (a moved note is followed by its session id, a note there after all is kept). One listing
 * a folder, compared in the vault's spelling (`vaultPath`: a notes folder set as the vault's top
 * records "/x/a.md"); a folder that cannot be listed (a link out of the vault, a file in its place)
 * gives none: the sync says why elsewhere.
 */
export async function notesGone(state: SyncState, notes: Pick<NoteStore, "list">, settings: Settings): Promise<string[]> {
	const byFolder = new Map<string, { key: string; notePath: string }[]>();
	for (const [key, record] of Object.entries(state.sessions)) {
		if (!record.written || record.deleted || isExcludedRecord(record, settings)) continue;
		const folder = record.notePath.slice(0, Math.max(0, record.notePath.lastIndexOf("/")));
		const notesThere = byFolder.get(folder);
		if (notesThere) notesThere.push({ key, notePath: record.notePath });
		else byFolder.set(folder, [{ key, notePath: record.notePath }]);
	}
	const gone: string[] = [];
	await Promise.all(
		[...byFolder].map(async ([folder, notesThere]) => {
			const listed = await notes.list(folder).catch(() => undefined);
			if (listed === undefined) return;
			const there = new Set(listed.map(vaultPath));
			// In one spelling, where not found as recorded: a file system that gives names decomposed (macOS) lists a note recorded composed.
			let composed: Set<string> | undefined;
			for (const { key, notePath } of notesThere) {
				const path = vaultPath(notePath);
				if (!there.has(path) && !(composed ??= new Set([...there].map((p) => p.normalize("NFC")))).has(path.normalize("NFC"))) gone.push(key);
			}
		}),
	);
	return gone;
}
