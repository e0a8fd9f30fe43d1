import { termOccurrences } from "../digest/topic-tags";
import { foldCase } from "../text/fold-case";

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 over documents given as lists of terms: an inverted index, scores by document number.
 * Documents can be added and removed (a removed one keeps its number, empty; the postings are
 * compacted once the removed outnumber the rest), so an index of a growing history is kept up to
 * date without building it again.
 */
export class Bm25 {
	private readonly postings = new Map<string, { docs: number[]; tfs: number[]; df: number }>();
	/** Each document's length; -1 once removed. */
	private readonly lengths: number[] = [];
	private readonly docTerms: (readonly string[] | undefined)[] = [];
	private totalLength = 0;
	private live = 0;
	private dead = 0;
	/** Scores being added up, by document (zero between queries). */
	private sums = new Float64Array(64);

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
			if (!posting) this.postings.set(term, (posting = { docs: [], tfs: [], df: 0 }));
			posting.docs.push(doc);
			posting.tfs.push(tf);
			posting.df++;
		}
		return doc;
	}

	remove(doc: number): void {
		const terms = this.docTerms[doc];
		if (!terms) return;
		this.docTerms[doc] = undefined;
		this.totalLength -= terms.length;
		this.lengths[doc] = -1;
		this.live--;
		this.dead++;
		for (const term of new Set(terms)) {
			const posting = this.postings.get(term);
			if (posting) posting.df--;
		}
		if (this.dead > 1000 && this.dead > this.live) this.compact();
	}

	get size(): number {
		return this.live;
	}

	/** The documents holding any of `terms`, with their scores (unordered). */
	score(terms: readonly string[]): Map<number, number> {
		const scores = new Map<number, number>();
		this.visit(terms, (doc, score) => scores.set(doc, score));
		return scores;
	}

	/** Calls `visit` with each document that holds any of `terms` and its score, with no allocation per document. */
	visit(terms: readonly string[], visit: (doc: number, score: number) => void): void {
		const n = this.live;
		const average = this.totalLength / Math.max(1, n) || 1;
		if (this.sums.length < this.lengths.length) this.sums = new Float64Array(Math.max(this.lengths.length, this.sums.length * 2, 64));
		const sums = this.sums;
		const touched: number[] = [];
		for (const term of new Set(terms)) {
			const posting = this.postings.get(term);
			if (!posting || posting.df === 0) continue;
			const idf = Math.log(1 + (n - posting.df + 0.5) / (posting.df + 0.5));
			const { docs, tfs } = posting;
			for (let i = 0; i < docs.length; i++) {
				const doc = docs[i]!;
				const length = this.lengths[doc]!;
				if (length < 0) continue;
				const tf = tfs[i]!;
				if (sums[doc] === 0) touched.push(doc);
				sums[doc] = sums[doc]! + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / average));
			}
		}
		for (const doc of touched) {
			const score = sums[doc]!;
			sums[doc] = 0;
			visit(doc, score);
		}
	}

	/** Drops the removed documents from the postings. */
	private compact(): void {
		for (const [term, posting] of this.postings) {
			const docs: number[] = [];
			const tfs: number[] = [];
			posting.docs.forEach((doc, i) => {
				if (this.lengths[doc]! >= 0) {
					docs.push(doc);
					tfs.push(posting.tfs[i]!);
				}
			});
			if (docs.length === 0) this.postings.delete(term);
			else this.postings.set(term, { docs, tfs, df: docs.length });
		}
		this.dead = 0;
	}
}

/**
 * Single words of a text, normalized like the topic tags' keywords, case-folded as search's words
 * are (`foldCase`: lower case left `straße` apart from `STRASSE`, `İstanbul` from `istanbul`), with
 * a light English stem. Folded word by word: folded first, the text lost the capitals that split
 * `rateLimiter` into its words.
 */
export function recallTerms(text: string): string[] {
	return termOccurrences([text])
		.filter((o) => !o.parts)
		.flatMap((o) => (o.term.includes("-") ? o.term.split("-") : [o.term]))
		.map((term) => stem(foldCase(term)));
}

/** `testing` and `tests` find `test`; `configured` finds `config…` no further than that. */
function stem(word: string): string {
	if (!/^[a-z]+$/.test(word) || word.length < 5) return word;
	return word.replace(/(?:ing|ed|es|s)$/, "");
}
