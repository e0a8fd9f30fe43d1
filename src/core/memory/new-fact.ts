import { wikiLink } from "../notes/links";
import { factSlug, renderFact, type FactType } from "./fact-file";

export interface NewFact {
	/** The text the fact states: a selection, or a proposed sentence. */
	text: string;
	description: string;
	type: FactType;
	/** Kebab-case; made from the description when empty. */
	name?: string;
	/** Where it came from: a note in the vault, and which part of it. */
	source?: { path: string; title: string; detail?: string };
}

/** A fact file, named `<name>.md` so that `[[name]]` links to it in Obsidian as in Claude Code. */
export function newFactFile(fact: NewFact, taken: ReadonlySet<string> = new Set()): { file: string; name: string; text: string } {
	const stem = factSlug(fact.name?.trim() || fact.description);
	let name = stem;
	for (let n = 2; taken.has(`${name}.md`.toLowerCase()); n++) name = `${stem}-${n}`;
	const source = fact.source ? `\n\nSource: ${wikiLink(fact.source.path, fact.source.title)}${fact.source.detail ? ` (${fact.source.detail})` : ""}\n` : "\n";
	return { file: `${name}.md`, name, text: renderFact({ name, description: fact.description, type: fact.type }, `${fact.text.trim()}${source}`) };
}
