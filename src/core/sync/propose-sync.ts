import { readFact, renderFact, splitFrontmatter } from "../memory/fact-file";
import { proposeFacts, type ExistingFact } from "../memory/propose-facts";
import { wikiLink } from "../notes/links";
import type { NoteStore } from "../ports";
import type { SessionModel } from "../transcript/session-model";
import { promptsOf } from "../transcript/session-queries";
import { isFactFile, memoryFolderOf } from "./memory-sync";
import type { SessionRecord, SyncState } from "./sync-state";

/** `<memory folder>/<project>/_inbox`: proposed facts wait here for a person to accept or delete them. */
export const INBOX = "_inbox";

/**
 * Proposes facts from what the user typed in sessions read this time: each candidate becomes a
 * note in the project's inbox, linked to the session note and prompt it came from. A statement is
 * proposed once per project, ever: accepting (moving it into the memory folder) or rejecting
 * (deleting it) both end it. Statements the memory or the inbox holds already are not proposed.
 * Returns the paths written; the session records get the names, for their notes to link.
 */
export async function proposeFromSessions(notes: NoteStore, state: SyncState, memoryFolder: string, sessions: readonly { record: SessionRecord; model: SessionModel }[]): Promise<string[]> {
	const written: string[] = [];
	const known = new Map<string, { existing: ExistingFact[]; taken: Set<string> }>();
	for (const { record, model } of sessions) {
		const folder = memoryFolderOf(memoryFolder, record.project);
		let project = known.get(folder);
		if (!project) {
			project = await existingFacts(notes, folder);
			known.set(folder, project);
		}
		const proposed = (state.proposed[record.project] ??= []);
		const prompts = promptsOf(model)
			.filter((p) => p.kind === "prompt")
			.map((p, index) => ({ text: p.text, timestamp: p.timestamp, index }));
		for (const fact of proposeFacts(prompts, project.existing, new Set(proposed))) {
			let name = fact.name;
			for (let n = 2; project.taken.has(`${name}.md`.toLowerCase()); n++) name = `${fact.name}-${n}`;
			const at = prompts[fact.prompt]?.timestamp;
			const source = `Source: ${wikiLink(record.notePath, record.digest.title)}, prompt ${fact.prompt + 1}${at ? ` (${at.slice(0, 16).replace("T", " ")})` : ""}`;
			const path = `${folder}/${INBOX}/${name}.md`;
			if (!(await notes.write(path, renderFact({ name, description: fact.description, type: fact.type }, `${fact.body.trim()}\n\n${source}\n`), null))) continue;
			written.push(path);
			proposed.push(fact.key);
			project.taken.add(`${name}.md`.toLowerCase());
			project.existing.push({ name, description: fact.description, body: fact.body });
			record.facts = [...(record.facts ?? []), name];
		}
	}
	return written;
}

/** The project's facts and proposals as the proposer compares with them, and the file names in use. */
async function existingFacts(notes: NoteStore, folder: string): Promise<{ existing: ExistingFact[]; taken: Set<string> }> {
	const existing: ExistingFact[] = [];
	const taken = new Set<string>();
	for (const dir of [folder, `${folder}/${INBOX}`]) {
		for (const path of await notes.list(dir)) {
			const file = path.slice(dir.length + 1);
			taken.add(file.toLowerCase());
			if (!isFactFile(file)) continue;
			const text = await notes.read(path);
			if (text === null) continue;
			const fact = readFact(file, text);
			existing.push({ name: fact.name, description: fact.description, body: splitFrontmatter(text).body });
		}
	}
	return { existing, taken };
}
