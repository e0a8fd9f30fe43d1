import { namedAfterTitle, noteStem, quotable, uniquePath } from "../notes/note-name";
import type { SessionRecord } from "../sync/sync-state";
import type { SessionModel } from "../transcript/session-model";

/**
 * Where a note named after its session's old title goes when its transcript was rewritten (not
 * grown) and a word of that title is in the session no more: a password the user scrubbed from
 * the first prompt was in the note's name and in every link to it. A title that changed for
 * another reason (a newer titler, a transcript copied to a new inode) keeps the note where it is.
 * A note the user renamed keeps its name; one named `(2)` after another's title counts as named
 * after it. Undefined: the note stays.
 */
export function retitledNotePath(record: SessionRecord, next: { title: string; startedAt?: string }, model: SessionModel, summary: string | undefined, taken: Set<string>): string | undefined {
	const title = record.digest.title;
	if (title === next.title) return undefined;
	const slash = record.notePath.lastIndexOf("/");
	const name = record.notePath.slice(slash + 1).replace(/\.md$/, "").replace(/ \(\d+\)$/, "");
	// Named before names were made quotable (`Review @src∕auth.ts`), it was named after its title all the same.
	if (!namedAfterTitle(quotable(name), record.digest.startedAt, title)) return undefined;
	if (!lostWords(title, model, summary)) return undefined;
	const stem = noteStem(next.startedAt, next.title);
	return stem === name ? undefined : uniquePath(taken, `${record.notePath.slice(0, slash + 1)}${stem}`);
}

/** Whether a word of `title` (three letters or digits or more) is in no text of the session. */
function lostWords(title: string, model: SessionModel, summary: string | undefined): boolean {
	const words = new Set((title.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []));
	if (words.size === 0) return false;
	const texts: string[] = [summary ?? "", model.customTitle ?? "", model.aiTitle ?? "", model.lastPrompt ?? "", model.awaySummary ?? "", ...model.summaries.map((s) => s.text)];
	collectStrings(model.events, texts);
	const all = texts.join("\n").toLowerCase();
	for (const word of words) if (!all.includes(word)) return true;
	return false;
}

/** Every string in a tree of plain objects and arrays (an event's text, a tool call's input). */
function collectStrings(value: unknown, into: string[]): void {
	if (typeof value === "string") into.push(value);
	else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
	else if (value !== null && typeof value === "object" && !(value instanceof Map) && !(value instanceof Set)) for (const item of Object.values(value)) collectStrings(item, into);
}
