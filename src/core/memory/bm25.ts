import { termOccurrences } from "../digest/topic-tags";

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 over documents given as lists of terms: an inverted index, scores by document number.
 * Documents can be added and removed (a removed one keeps its number, empty), so an index of a
 * growing history is kept up to date without building it again.
 */
export class Bm25 {
	private readonly postings = new Map<string, Map<number, number>>();
	private readonly lengths: number[] = [];
	private readonly docTerms: (readonly string[] | undefined)[] = [];
	private totalLength = 0;
	private live = 0;

	/** Adds a document; its number is returned (numbers are never reused). */
	add(terms: readonly string[]): number {
		const doc = this.docTerms.length;
		this.docTerms.push(terms);
		this.lengths.push(terms.length);
		this.totalLength += terms.length;
		this.live++;
		const counts = new Map<string, number>();
		for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
		for (const [term, tf] of counts) {
			let posting = this.postings.get(term);
			if (!posting) this.postings.set(term, (posting = new Map()));
			posting.set(doc, tf);
		}
		return doc;
	}

	remove(doc: number): void {
		const terms = this.docTerms[doc];
		if (!terms) return;
		this.docTerms[doc] = undefined;
		this.totalLength -= terms.length;
		this.lengths[doc] = 0;
		this.live--;
		for (const term of new Set(terms)) {
			const posting = this.postings.get(term);
			posting?.delete(doc);
			if (posting?.size === 0) this.postings.delete(term);
		}
	}

	get size(): number {
		return this.live;
	}

	/** The documents holding any of `terms`, with their scores (unordered). */
	score(terms: readonly string[]): Map<number, number> {
		const scores = new Map<number, number>();
		const n = this.live;
		const average = this.totalLength / Math.max(1, n) || 1;
		for (const term of new Set(terms)) {
			const posting = this.postings.get(term);
			if (!posting) continue;
			const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
			for (const [doc, tf] of posting) {
				const norm = tf + K1 * (1 - B + (B * (this.lengths[doc] ?? 0)) / average);
				scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
			}
		}
		return scores;
	}
}

/** Single words of a text, normalized like the topic tags' keywords, with a light English stem. */
export function recallTerms(text: string): string[] {
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
