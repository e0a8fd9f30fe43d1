import { foldCase } from "../text/fold-case";
import { lowerBound } from "../text/sorted-search";
import { conversationTerms } from "./conversation-terms";

/**
 * Full-text search over sessions, shared by the Sessions view and anything else that searches them
 * (an MCP tool): plain data in, plain data out, no I/O. Each session is a document of turns; turn 0
 * is its digest (title, tasks, outcomes, tags, files), turn n its nth prompt with the replies to it,
 * so a hit names the turn a note's `### You · n` heading anchors.
 */
export interface SearchTurn {
	turn: number;
	text: string;
}

export interface SearchDoc {
	/** The session's key (its transcript path): whatever the caller finds it by. */
	id: string;
	turns: readonly SearchTurn[];
}

export interface SearchHit {
	id: string;
	/** The best matching turn: 0 the digest, n the nth prompt. */
	turn: number;
	score: number;
	/** A short piece of the turn's text around the first match (cut when read). */
	readonly snippet: string;
}

export interface SearchOptions {
	limit?: number;
	/** Only these sessions (the view's filters). */
	accept?: (id: string) => boolean;
}

const K1 = 1.2;
const B = 0.75;
const SNIPPET = 160;

interface Unit {
	doc: number;
	turn: number;
	length: number;
	text: string;
}

/**
 * An inverted index of turns ranked by BM25: every query word must be in the turn, the last one
 * as a prefix (the word being typed), and each session is listed once, at its best turn. Adding a
 * session again replaces it; removed sessions are skipped, and compacted away when they pile up.
 * Chosen over minisearch and a linear scan on measurement (`npm run bench sessions`, README).
 * The MCP tools' `recall/session-search` ranks whole sessions by their digests alone; this one
 * reaches every prompt and reply, and could answer behind that interface too.
 */
export class ConversationIndex {
	private readonly postings = new Map<string, number[]>();
	private units: (Unit | undefined)[] = [];
	private readonly docIds: string[] = [];
	private readonly docOf = new Map<string, number>();
	private readonly unitsOf = new Map<number, number[]>();
	private totalLength = 0;
	private liveUnits = 0;
	private sortedTerms: string[] | undefined;

	get size(): number {
		return this.docOf.size;
	}

	has(id: string): boolean {
		return this.docOf.has(id);
	}

	add(doc: SearchDoc): void {
		this.remove(doc.id);
		const index = this.docIds.length;
		this.docIds.push(doc.id);
		this.docOf.set(doc.id, index);
		const mine: number[] = [];
		for (const turn of doc.turns) {
			const terms = conversationTerms(turn.text);
			if (terms.length === 0) continue;
			const unit = this.units.length;
			this.units.push({ doc: index, turn: turn.turn, length: terms.length, text: turn.text });
			mine.push(unit);
			this.totalLength += terms.length;
			this.liveUnits++;
			const counts = new Map<string, number>();
			for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
			for (const [term, tf] of counts) {
				let posting = this.postings.get(term);
				if (!posting) {
					posting = [];
					this.postings.set(term, posting);
					this.sortedTerms = undefined;
				}
				// Pairs of (unit, term frequency), flat: a third of the memory of objects.
				posting.push(unit, tf);
			}
		}
		this.unitsOf.set(index, mine);
	}

	remove(id: string): void {
		const index = this.docOf.get(id);
		if (index === undefined) return;
		this.docOf.delete(id);
		for (const unit of this.unitsOf.get(index) ?? []) {
			const u = this.units[unit];
			if (!u) continue;
			this.totalLength -= u.length;
			this.liveUnits--;
			this.units[unit] = undefined;
		}
		this.unitsOf.delete(index);
		if (this.units.length > 1024 && this.liveUnits < this.units.length / 2) this.compact();
	}

	search(query: string, options: SearchOptions = {}): SearchHit[] {
		const limit = options.limit ?? 50;
		const words = [...new Set(conversationTerms(query))];
		if (words.length === 0 || this.liveUnits === 0) return [];
		// The last word is still being typed unless the query ends in a space.
		const typing = /[\p{L}\p{N}\p{M}_]$/u.test(query.normalize("NFKC"));
		const average = this.totalLength / this.liveUnits;
		// Each word's postings (a prefix: every term it starts), the rarest word first: the
		// turns it holds are the candidates, and the other words only look those up.
		const groups = words.map((word, w) => {
			const terms = typing && w === words.length - 1 ? this.withPrefix(word) : this.postings.has(word) ? [word] : [];
			const postings = terms.map((t) => this.postings.get(t)!);
			return { postings, size: postings.reduce((n, p) => n + p.length, 0) };
		});
		if (groups.some((g) => g.size === 0)) return [];
		groups.sort((a, b) => a.size - b.size);
		let scores: Map<number, number> | undefined;
		for (const { postings } of groups) {
			const next = new Map<number, number>();
			for (const posting of postings) {
				const df = posting.length / 2;
				const idf = Math.log(1 + (this.liveUnits - df + 0.5) / (df + 0.5));
				for (let i = 0; i < posting.length; i += 2) {
					const unit = posting[i]!;
					const before = scores === undefined ? 0 : scores.get(unit);
					if (before === undefined) continue;
					const u = this.units[unit];
					if (!u) continue;
					const tf = posting[i + 1]!;
					const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * u.length) / average));
					next.set(unit, (next.get(unit) ?? before) + s);
				}
			}
			scores = next;
			if (scores.size === 0) return [];
		}
		// Each session once, at its best turn (the earlier turn on a tie).
		const best = new Map<number, { unit: number; score: number }>();
		const accepted = new Map<number, boolean>();
		for (const [unit, score] of scores!) {
			const u = this.units[unit]!;
			if (options.accept) {
				let ok = accepted.get(u.doc);
				if (ok === undefined) accepted.set(u.doc, (ok = options.accept(this.docIds[u.doc]!)));
				if (!ok) continue;
			}
			const b = best.get(u.doc);
			if (!b || score > b.score || (score === b.score && u.turn < this.units[b.unit]!.turn)) best.set(u.doc, { unit, score });
		}
		return [...best.values()]
			.sort((a, b) => b.score - a.score || a.unit - b.unit)
			.slice(0, limit)
			.map(({ unit, score }) => {
				const u = this.units[unit]!;
				return new Hit(this.docIds[u.doc]!, u.turn, score, u.text, words);
			});
	}

	/** Indexed terms that start with `prefix`, by binary search in the sorted list (made again after new terms). */
	private withPrefix(prefix: string): string[] {
		this.sortedTerms ??= [...this.postings.keys()].sort();
		const terms = this.sortedTerms;
		const out: string[] = [];
		for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i++) out.push(terms[i]!);
		return out;
	}

	/** Drops removed turns from the postings and renumbers what is left. */
	private compact(): void {
		const renumber = new Map<number, number>();
		const units: Unit[] = [];
		this.units.forEach((u, i) => {
			if (!u) return;
			renumber.set(i, units.length);
			units.push(u);
		});
		for (const [term, posting] of this.postings) {
			const kept: number[] = [];
			for (let i = 0; i < posting.length; i += 2) {
				const to = renumber.get(posting[i]!);
				if (to !== undefined) kept.push(to, posting[i + 1]!);
			}
			if (kept.length > 0) this.postings.set(term, kept);
			else this.postings.delete(term);
		}
		for (const [doc, list] of this.unitsOf) this.unitsOf.set(doc, list.map((u) => renumber.get(u)!));
		this.units = units;
		this.sortedTerms = undefined;
	}
}

/** A hit's snippet is cut when first read: a list shows a screenful of a thousand hits. */
class Hit implements SearchHit {
	private cut: string | undefined;
	constructor(
		readonly id: string,
		readonly turn: number,
		readonly score: number,
		private readonly text: string,
		private readonly words: readonly string[],
	) {}
	get snippet(): string {
		return (this.cut ??= snippetOf(this.text, this.words));
	}
}

/** The text around the first place a query word starts, on one line, cut at word boundaries. */
export function snippetOf(text: string, words: readonly string[]): string {
	const flat = text.replace(/\s+/g, " ").trim();
	// Folded as the words were (`straße` holds `strasse`).
	const lower = foldCase(flat);
	let at = -1;
	for (const w of words) {
		const i = lower.indexOf(w);
		if (i >= 0 && (at < 0 || i < at)) at = i;
	}
	if (flat.length <= SNIPPET) return flat;
	if (at > 0 && lower.length !== flat.length) at = placeIn(flat, at);
	const start = Math.max(0, at < 0 ? 0 : at - SNIPPET / 3);
	const from = start === 0 ? 0 : flat.indexOf(" ", start) + 1 || start;
	const cut = flat.slice(from, from + SNIPPET);
	const end = from + SNIPPET >= flat.length ? cut : cut.slice(0, Math.max(cut.lastIndexOf(" "), SNIPPET / 2));
	return `${from > 0 ? "…" : ""}${end}${from + end.length < flat.length ? "…" : ""}`;
}

/**
 * Where the character at `folded` of `foldCase(text)` is in `text`, when folding changed lengths
 * (`ß` is two letters folded, `ﬁ` too, a decomposed `é` one): each letter with its marks folded
 * alone, their lengths summed. Taken as it was, the place moved on by one for every such letter
 * before it, and a snippet could miss the word it was made for.
 */
function placeIn(text: string, folded: number): number {
	let length = 0;
	for (const letter of text.matchAll(LETTER_WITH_MARKS)) {
		length += foldCase(letter[0]).length;
		if (length > folded) return letter.index;
	}
	return text.length;
}

const LETTER_WITH_MARKS = /\P{M}\p{M}*|\p{M}+/gu;

/** The baseline a benchmark compares with: every turn's text scanned for every query word. */
export function scanSessions(docs: readonly SearchDoc[], query: string, limit = 50): { id: string; turn: number }[] {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean);
	const out: { id: string; turn: number }[] = [];
	for (const doc of docs) {
		const turn = doc.turns.find((t) => {
			const lower = t.text.toLowerCase();
			return words.every((w) => lower.includes(w));
		});
		if (turn) out.push({ id: doc.id, turn: turn.turn });
	}
	return out.slice(0, limit);
}
