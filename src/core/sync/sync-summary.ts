import type { SyncReport } from "./apply-plan";
import { grouped } from "../text/grouped-number";

/** "1 note", "2 notes", "1,200 sessions"; `plural` for words that do not take an s. */
export function count(n: number, word: string, plural = `${word}s`): string {
	return `${grouped(n)} ${n === 1 ? word : plural}`;
}

/**
 * One sentence for a sync, as the CLI prints it and the plugin shows it: what was written, or
 * that there was nothing to do. Problems are the caller's to add (stderr, the sync log).
 */
export function describeSyncReport(r: SyncReport): string {
	const written = r.notesWritten.length + r.notesMoved.length + r.contextWritten.length + r.memoryWritten.length;
	// "Rebuild all notes" reads nothing and checks every note: it did run, and says what it found ("0 notes written, 5 unchanged").
	if (written === 0 && r.errors.length === 0 && !(r.transcriptsRead === 0 && r.notesUnchanged > 0)) {
		if (r.transcriptsRead === 0) return "Nothing to sync: no transcript changed since the last sync, nothing written.";
		return `Read ${count(r.transcriptsRead, "transcript")}; every note was already current, nothing written.`;
	}
	const parts = [`${count(r.notesWritten.length, "note")} written`];
	if (r.notesUnchanged > 0) parts.push(`${grouped(r.notesUnchanged)} unchanged`);
	if (r.notesSkipped.length > 0) parts.push(`${grouped(r.notesSkipped.length)} deleted by you and left so`);
	if (r.notesMoved.length > 0) parts.push(`${count(r.notesMoved.length, "note")} moved`);
	if (r.contextWritten.length > 0) parts.push(`${contextFiles(r.contextWritten)} updated`);
	if (r.memoryWritten.length > 0) parts.push(`${count(r.memoryWritten.length, "memory file")} written`);
	return `Synced${r.transcriptsRead > 0 ? ` ${count(r.transcriptsRead, "transcript")}` : ""}: ${parts.join(", ")}.`;
}

/** "1 CLAUDE.md", "2 CLAUDE.md files", "3 context files (AGENTS.md, CLAUDE.md)". */
function contextFiles(paths: readonly string[]): string {
	const names = [...new Set(paths.map((p) => p.split(/[\\/]/).at(-1) ?? p))].sort();
	if (names.length === 1) return paths.length === 1 ? `1 ${names[0]}` : `${grouped(paths.length)} ${names[0]} files`;
	return `${count(paths.length, "context file")} (${names.join(", ")})`;
}
