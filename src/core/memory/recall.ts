import { Bm25, recallTerms } from "./bm25";
import { codeUnitOrder } from "../text/code-unit-order";
import type { FactInfo } from "./fact-file";

export interface RecallHit {
	fact: FactInfo;
	score: number;
}

/**
 * The version of the stored terms: 2 since they are case-folded (`recallTerms`). An index of
 * version 1 holds terms a query's no longer meet (`straße` where the query says `strasse`).
 */
const RECALL_INDEX_VERSION = 2;

/** The index in plain data: built at sync time, stored, and loaded by a hook in a few milliseconds. */
export interface SerializedRecallIndex {
	version: typeof RECALL_INDEX_VERSION;
	facts: FactInfo[];
	/** Terms of each fact, as indexes into `facts`' order. */
	terms: string[][];
}

/**
 * Picks facts by their name and description, never their bodies: the words of each (English,
 * Korean, Japanese, Chinese, segmented and normalized as the topic tags are) in an inverted index,
 * ranked by BM25, then the most recently modified, then by file name.
 */
export class RecallIndex {
	private readonly index = new Bm25();

	private constructor(
		private readonly facts: readonly FactInfo[],
		private readonly terms: readonly (readonly string[])[],
	) {
		for (const list of terms) this.index.add(list);
	}

	static build(facts: readonly FactInfo[]): RecallIndex {
		return new RecallIndex(facts, facts.map((f) => recallTerms(`${f.name.replace(/[-_]+/g, " ")}. ${f.description}`)));
	}

	/**
	 * A stored index; anything unreadable gives an empty one (recall then finds nothing, and says
	 * nothing). One of version 1 (written before the next sync writes it again) is built again from
	 * the facts it holds: its terms are not case-folded, and read as they are they miss.
	 */
	static restore(data: unknown): RecallIndex {
		const d = data as { version?: unknown; facts?: unknown; terms?: unknown } | undefined;
		if ((d?.version !== RECALL_INDEX_VERSION && d?.version !== 1) || !Array.isArray(d.facts) || !Array.isArray(d.terms) || d.facts.length !== d.terms.length) return new RecallIndex([], []);
		// Only facts of the shape this writes, the others' terms built again: one fact whose description was
		// a number made every recall of the project fail (attack round 50a), and a term that is no word matches nothing.
		const facts = (d.facts as unknown[]).filter(isFactInfo);
		const terms = d.terms as unknown[];
		if (d.version === RECALL_INDEX_VERSION && facts.length === d.facts.length && terms.every((t) => Array.isArray(t) && t.every((w) => typeof w === "string"))) return new RecallIndex(facts, terms);
		return RecallIndex.build(facts);
	}

	serialize(): SerializedRecallIndex {
		return { version: RECALL_INDEX_VERSION, facts: [...this.facts], terms: this.terms.map((t) => [...t]) };
	}

	get size(): number {
		return this.facts.length;
	}

	recall(query: string, limit: number): RecallHit[] {
		return [...this.index.score(recallTerms(query))]
			.map(([doc, score]) => ({ fact: this.facts[doc]!, score }))
			.sort((a, b) => b.score - a.score || codeUnitOrder(b.fact.modified ?? "", a.fact.modified ?? "") || codeUnitOrder(a.fact.file, b.fact.file))
			.slice(0, Math.max(0, limit));
	}
}

/** A fact as the index stores it: what recall reads of it (name, description, file, type, modified), each of its type. */
function isFactInfo(value: unknown): value is FactInfo {
	if (typeof value !== "object" || value === null) return false;
	const f = value as Partial<Record<keyof FactInfo, unknown>>;
	const optionalString = (v: unknown) => v === undefined || typeof v === "string";
	return typeof f.file === "string" && typeof f.name === "string" && typeof f.description === "string" && optionalString(f.type) && optionalString(f.modified);
}
