import { readFact, renderFact, splitFrontmatter } from "../memory/fact-file";
import { proposeFacts, storedKey, type ExistingFact, type FactQuote } from "../memory/propose-facts";
import { wikiLink } from "../notes/links";
import { localTime } from "../text/local-date";
import { printable } from "../text/printable";
import { sameFileKey } from "../text/same-file-key";
import type { SessionModel } from "../transcript/session-model";
import { promptsOf } from "../transcript/session-queries";
import type { SessionRecord, SyncState } from "../sync/sync-state";
import { isFactFile } from "./plan-memory";
import type { PlannedWrite } from "./sync-plan";

/** `<memory folder>/<project>/_inbox`: proposed facts wait here for a person to accept or delete them. */
export const INBOX = "_inbox";

/** A project's memory folder and inbox as read: file texts by name. */
export interface FolderTexts {
	folder: string;
	facts: ReadonlyMap<string, string>;
	inbox: ReadonlyMap<string, string>;
}

/**
 * Proposes facts from what the user typed in sessions read this time: each candidate becomes a
 * note in the project's inbox, linked to the session note and prompt it came from. A statement is
 * proposed once per project, ever: accepting (moving it into the memory folder) or rejecting
 * (deleting it) both end it. Statements the memory or the inbox holds already are not proposed.
 * Updates `state.proposed` and the session records' `facts` (for their notes to link).
 * @param folders the memory folder texts of each session's project, by project identity.
 */
export function planProposals(state: SyncState, sessions: readonly { path: string; record: SessionRecord; model: SessionModel; quotes?: readonly (readonly FactQuote[])[] }[], folders: ReadonlyMap<string, FolderTexts>): PlannedWrite[] {
	const writes: PlannedWrite[] = [];
	const known = new Map<string, { existing: ExistingFact[]; taken: Set<string> }>();
	for (const { path, record, model, quotes } of sessions) {
		const key = record.projectKey ?? record.project;
		const texts = folders.get(key);
		if (!texts) continue;
		let project = known.get(key);
		if (!project) {
			project = existingFacts(texts);
			known.set(key, project);
		}
		const proposed = (state.proposed[key] ??= []);
		const left = leftProposals(texts.inbox, record);
		const prompts = promptsOf(model)
			.filter((p) => p.kind === "prompt")
			.map((p, index) => ({ text: p.text, timestamp: p.timestamp, index, ...(quotes?.[index] ? { quotes: quotes[index] } : {}) }));
		// Only prompts typed since the last look: the earlier ones were weighed already.
		const fresh = prompts.filter((p) => p.index >= (record.proposedPrompts ?? 0));
		record.proposedPrompts = prompts.length;
		const leftNames = new Set(left.values());
		const existing = left.size === 0 ? project.existing : project.existing.filter((fact) => !leftNames.has(fact.name));
		for (const fact of proposeFacts(fresh, existing, new Set(proposed))) {
			const written = left.get(printable(fact.description));
			if (written !== undefined) {
				// Written by a sync that stopped before it saved the state (killed, a full disk): linked, not proposed again.
				proposed.push(storedKey(fact.key));
				record.facts = [...(record.facts ?? []), written];
				continue;
			}
			let name = fact.name;
			for (let n = 2; project.taken.has(sameFileKey(`${name}.md`)); n++) name = `${fact.name}-${n}`;
			// Local, as the note's `started` is (a UTC time unmarked beside it read hours off).
			const at = localTime(prompts[fact.prompt]?.timestamp)?.replace("T", " ");
			const source = `Source: ${wikiLink(record.notePath, record.digest.title)}, prompt ${fact.prompt + 1}${at ? ` (${at})` : ""}`;
			// Not written (a full disk): proposed again by the next sync.
			const onConflict = { kind: "proposal" as const, session: path, project: key, key: storedKey(fact.key), name, prompt: fact.prompt };
			// A prompt's text: no terminal escape, NUL or bidirectional override in the file (see `printable`).
			const text = renderFact({ name, description: printable(fact.description), type: fact.type }, `${printable(fact.body).trim()}\n\n${source}\n`);
			writes.push({ kind: "note", path: `${texts.folder}/${INBOX}/${name}.md`, text, expected: null, what: "memory", onConflict });
			proposed.push(storedKey(fact.key));
			project.taken.add(sameFileKey(`${name}.md`));
			project.existing.push({ name, description: fact.description, body: fact.body });
			record.facts = [...(record.facts ?? []), name];
		}
	}
	return writes;
}

/**
 * The proposals in the inbox that name this session's note as their source and that its record does
 * not list, by description: a sync wrote them and stopped before it saved the state (killed, a full
 * disk). Without this, the next sync found their statements in the inbox already, and the session's
 * note lost its link to them for good.
 */
function leftProposals(inbox: ReadonlyMap<string, string>, record: SessionRecord): Map<string, string> {
	const left = new Map<string, string>();
	const target = `\nSource: [[${record.notePath.replace(/\.md$/, "")}`;
	for (const [file, text] of inbox) {
		if (!isFactFile(file)) continue;
		const at = text.indexOf(target);
		if (at < 0 || !"|]".includes(text[at + target.length] ?? "")) continue;
		const name = file.replace(/\.md$/i, "");
		if (!record.facts?.includes(name)) left.set(readFact(file, text).description, name);
	}
	return left;
}

/** The project's facts and proposals as the proposer compares with them, and the file names in use. */
function existingFacts(texts: FolderTexts): { existing: ExistingFact[]; taken: Set<string> } {
	const existing: ExistingFact[] = [];
	const taken = new Set<string>();
	for (const files of [texts.facts, texts.inbox]) {
		for (const [file, text] of files) {
			taken.add(sameFileKey(file));
			if (!isFactFile(file)) continue;
			const fact = readFact(file, text);
			existing.push({ name: fact.name, description: fact.description, body: splitFrontmatter(text).body });
		}
	}
	return { existing, taken };
}
