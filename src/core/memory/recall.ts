import { termOccurrences } from "../digest/topic-tags";
import { codeUnitOrder } from "../text/code-unit-order";
import type { FactInfo } from "./fact-file";

export interface RecallHit {
	fact: FactInfo;
	score: number;
}

/** The index in plain data: built at sync time, stored, and loaded by a hook in a few milliseconds. */
export interface SerializedRecallIndex {
	version: 1;
	facts: FactInfo[];
	/** Terms of each fact, as indexes into `facts`' order. */
	terms: string[][];
}

const K1 = 1.2;
const B = 0.75;

/**
 * Picks facts by their name and description, never their bodies: the words of each (English,
 * Korean, Japanese, Chinese, segmented and normalized as the topic tags are) in an inverted index,
 * ranked by BM25, then the most recently modified, then by file name.
 */
export class RecallIndex {
	private readonly postings = new Map<string, { doc: number; tf: number }[]>();
	private readonly lengths: number[];
	private readonly averageLength: number;

	private constructor(
		private readonly facts: readonly FactInfo[],
		private readonly terms: readonly (readonly string[])[],
	) {
		this.lengths = terms.map((t) => t.length);
		this.averageLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, terms.length) || 1;
		terms.forEach((list, doc) => {
			const counts = new Map<string, number>();
			for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
			for (const [term, tf] of counts) {
				const posting = this.postings.get(term) ?? [];
				posting.push({ doc, tf });
				this.postings.set(term, posting);
			}
		});
	}

	static build(facts: readonly FactInfo[]): RecallIndex {
		return new RecallIndex(facts, facts.map((f) => recallTerms(`${f.name.replace(/[-_]+/g, " ")}. ${f.description}`)));
	}

	/** A stored index; anything unreadable gives an empty one (recall then finds nothing, and says nothing). */
	static restore(data: unknown): RecallIndex {
		const d = data as Partial<SerializedRecallIndex> | undefined;
		if (d?.version !== 1 || !Array.isArray(d.facts) || !Array.isArray(d.terms) || d.facts.length !== d.terms.length) return new RecallIndex([], []);
		return new RecallIndex(d.facts, d.terms);
	}

	serialize(): SerializedRecallIndex {
		return { version: 1, facts: [...this.facts], terms: this.terms.map((t) => [...t]) };
	}

	get size(): number {
		return this.facts.length;
	}

	recall(query: string, limit: number): RecallHit[] {
		const scores = new Map<number, number>();
		const n = this.facts.length;
		for (const term of new Set(recallTerms(query))) {
			const posting = this.postings.get(term);
			if (!posting) continue;
			const idf = Math.log(1 + (n - posting.length + 0.5) / (posting.length + 0.5));
			for (const { doc, tf } of posting) {
				const norm = tf + K1 * (1 - B + (B * (this.lengths[doc] ?? 0)) / this.averageLength);
				scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
			}
		}
		return [...scores]
			.map(([doc, score]) => ({ fact: this.facts[doc]!, score }))
			.sort((a, b) => b.score - a.score || codeUnitOrder(b.fact.modified ?? "", a.fact.modified ?? "") || codeUnitOrder(a.fact.file, b.fact.file))
			.slice(0, Math.max(0, limit));
	}
}

/** Single words of a text, normalized like the topic tags' keywords, with a light English stem. */
function recallTerms(text: string): string[] {
	return termOccurrences([text])
		.filter((o) => !o.parts)
		.flatMap((o) => (o.term.includes("-") ? o.term.split("-") : [o.term]))
		.map(stem);
}

/** `testing` and `tests` find `test`; `configured` finds `config…` no further than that. */
function stem(word: string): string {
	if (!/^[a-z]+$/.test(word) || word.length < 5) return word;
	return word.replace(/(?:ing|ed|es|s)$/, "");
}
