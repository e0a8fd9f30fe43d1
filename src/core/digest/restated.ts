/**
 * A done item that says again what one told before it says: the todo "Update parser.ts to use the
 * new lexer" after the reply's "parser.ts now uses the new lexer". The list holds the same work
 * twice, in the imperative and in the past, and a result further down loses its room.
 */

/**
 * Words that carry no content of their own: grammar, the verbs of change a todo and its result say in different tenses,
 * and those of a check (the todo "Run tests and verify coverage", its result "All tests pass with full coverage").
 */
const FILLER = new Set(
	(
		"a an the to of in on for and or with from by at as into onto via instead so that this these those it its is are was were be been being has have had now all any each both " +
		"run verify verifies verified " +
		"use uses used using make makes made add adds added update updates updated fix fixes fixed change changes changed create creates created implement implements implemented " +
		"set sets remove removes removed refactor refactored ensure ensures ensured also just new modern proper properly correctly"
	).split(" "),
);

/**
 * A name: a path or file ("parser.ts"), an identifier ("snake_case", "camelCase", "HTTPServer"), a number. An acronym alone
 * ("API", "CSS") is a word: a term of the trade, not one thing of the project as a file or an identifier is.
 */
const NAME = /[._\d]|\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;

interface Words {
	stems: Set<string>;
	names: Set<string>;
	/** Each acronym's stem, with the acronym ("pat": "pat"). */
	acronyms: Map<string, string>;
	/** The first letters of its words, in order: where "Personal Access Tokens" spells a "PAT". */
	initials: string;
}

/**
 * Words cut to their first five letters after a plural "s": "filtering" and "filters" meet, as "headers" and "header" do.
 * A qualified name gives its last part as a name too: "navigator.getUserMedia" names the `getUserMedia` a todo names bare.
 * A word capitalized within a sentence is a name ("opens Teams", "switch to Vite"): a product or a thing of the project.
 */
function wordsOf(text: string): Words {
	const stems = new Set<string>();
	const names = new Set<string>();
	const acronyms = new Map<string, string>();
	let initials = "";
	for (const match of text.matchAll(/[\p{L}\p{N}._-]+/gu)) {
		const token = trimmed(match[0]);
		const lower = token.toLowerCase();
		initials += lower.charAt(0);
		if (token === "" || FILLER.has(lower)) continue;
		// Three to six capitals, two code units each at most: the pattern is tried on a word that long only.
		if (token.length >= 3 && token.length <= 12 && /^\p{Lu}{3,6}$/u.test(token)) acronyms.set(stemOf(lower), lower);
		if (NAME.test(token) || (/^\p{Lu}\p{Ll}/u.test(token) && withinSentence(text, match.index))) {
			names.add(lower);
			const last = token.slice(token.lastIndexOf(".") + 1);
			if (last !== token && NAME.test(last)) names.add(last.toLowerCase());
		}
		// A word of one part is its own stem's source, not a filler (left out above).
		if (!/[._-]/.test(lower)) stems.add(stemOf(lower));
		else for (const part of lower.split(/[._-]+/)) if (part !== "" && !FILLER.has(part)) stems.add(stemOf(part));
	}
	return { stems, names, acronyms, initials };
}

/** How an item's words are found: `wordsOf`, or the same remembered (`sameWords`). */
type WordsOf = (text: string) => Words;

/**
 * `wordsOf`, each text's words found once: a digest compares its results with each other, then with
 * what is left open, then with its choices, and found a result's words three times over. One per
 * digest: what it holds goes with it.
 */
export function sameWords(): WordsOf {
	const found = new Map<string, Words>();
	return (text) => {
		let words = found.get(text);
		if (words === undefined) found.set(text, (words = wordsOf(text)));
		return words;
	};
}

function stemOf(word: string): string {
	return (word.endsWith("s") ? word.replace(/(?<=\p{L}{3})s$/u, "") : word).slice(0, 5);
}

/** Whether a word at `at` follows another word of its sentence, not a stop, a colon or a dash that opens one. */
function withinSentence(text: string, at: number): boolean {
	let i = at - 1;
	while (i >= 0 && text[i] === " ") i--;
	return i >= 0 && /[\p{L}\p{N},;(`'"]/u.test(text[i] ?? "");
}

/** A token without the dots, dashes and underscores at its ends (a sentence's stop, a "--flag"'s dashes). */
export function trimmed(token: string): string {
	let start = 0;
	let end = token.length;
	// By code, not a one-character string looked up in "._-": every word of every reply comes here
	// (measured on two million words: half the time).
	while (start < end && isEndMark(token.charCodeAt(start))) start++;
	while (end > start && isEndMark(token.charCodeAt(end - 1))) end--;
	return token.slice(start, end);
}

/** `.`, `_` or `-`. */
function isEndMark(c: number): boolean {
	return c === 0x2e || c === 0x5f || c === 0x2d;
}

/**
 * Whether `later` says no more than `earlier`: every name it gives is in `earlier` (a todo for
 * another file is other work), and at most a third of its other words are not, two or more
 * shared. Words are compared, not sentences: the tense, the verb of change and the order differ.
 */
export function restates(later: string, earlier: string): boolean {
	return restatesWords(wordsOf(later), wordsOf(earlier));
}

function restatesWords(a: Words, b: Words): boolean {
	for (const name of a.names) if (!b.names.has(name)) return false;
	let shared = 0;
	for (const stem of a.stems) {
		// An acronym is told by the words it stands for.
		const acronym = a.acronyms.get(stem);
		if (b.stems.has(stem) || (acronym !== undefined && b.initials.includes(acronym))) shared++;
	}
	return shared >= 2 && 3 * (a.stems.size - shared) <= a.stems.size;
}

/**
 * Items' words, found by the names and stems they hold, so that an item is compared only with those
 * that could say as much, not with every item before it (a session's done list of thousands of todo
 * steps made the pairwise comparison quadratic: minutes of a sync).
 */
class WordIndex {
	private readonly byName = new Map<string, Words[]>();
	private readonly byStem = new Map<string, Words[]>();
	/** Every item added, in order: what an item of acronyms and names alone is compared with. */
	private readonly latest: Words[] = [];

	add(words: Words): void {
		this.latest.push(words);
		for (const name of words.names) pushTo(this.byName, name, words);
		for (const stem of words.stems) pushTo(this.byStem, stem, words);
	}

	/** Whether `words` says no more than an item added (see `restatesWords`). */
	restated(words: Words): boolean {
		// One that does holds every name it gives: it is among those holding its rarest name.
		let named: Words[] | undefined;
		for (const name of words.names) {
			const holding = this.byName.get(name);
			if (holding === undefined) return false;
			if (named === undefined || holding.length < named.length) named = holding;
		}
		// And it shares `least` of its k stems. An acronym's is shared by an item spelling it out ("PAT", "Personal Access
		// Token") without holding it, so of the others it holds `least - acronyms`: one at least of any k - least + 1 of
		// them, of its rarest (a word every item shares, "tidy", would bring them all).
		const k = words.stems.size;
		const least = Math.max(2, Math.ceil((2 * k) / 3));
		if (k < least) return false;
		const plain = [...words.stems].filter((stem) => !words.acronyms.has(stem));
		const held = least - (k - plain.length);
		let candidates: Iterable<Words>;
		if (held <= 0) candidates = named ?? this.latest.slice(-UNINDEXED_MAX);
		else {
			const rarest = plain.map((stem) => this.byStem.get(stem) ?? []).sort((x, y) => x.length - y.length).slice(0, plain.length - held + 1);
			const count = rarest.reduce((n, holding) => n + holding.length, 0);
			candidates = named !== undefined && named.length <= count ? named : new Set(rarest.flat());
		}
		for (const before of candidates) if (restatesWords(words, before)) return true;
		return false;
	}
}

/** Items an item of acronyms alone is compared with, the latest: it gives no word to look the others up by. */
const UNINDEXED_MAX = 200;

function pushTo(map: Map<string, Words[]>, key: string, words: Words): void {
	const list = map.get(key);
	if (list === undefined) map.set(key, [words]);
	else list.push(words);
}

function indexed(all: readonly Words[]): WordIndex {
	const index = new WordIndex();
	for (const words of all) index.add(words);
	return index;
}

/** The items, each one that restates an item kept before it left out; `kept` items (commits, pull requests) always stay. */
export function withoutRestated(items: readonly string[], kept: (item: string) => boolean, findWords: WordsOf = wordsOf): string[] {
	const index = new WordIndex();
	const out: string[] = [];
	for (const item of items) {
		const words = findWords(item);
		if (kept(item) || !index.restated(words)) {
			out.push(item);
			index.add(words);
		}
	}
	return out;
}

/**
 * The items, each one that says no more than another left out, wherever that one stands: of two
 * choices told in different replies ("Switched the store from SQLite to Postgres" and, later, "Move
 * the store to Postgres, since two workers write to it"), the one that says more (or the first, of
 * two that say the same). `kept` items (the person's own choices, decision records) always stay.
 */
export function saidOnce(items: readonly string[], kept: (item: string) => boolean): string[] {
	const words = items.map(wordsOf);
	const left = new Set(items.keys());
	for (const [i, item] of items.entries()) {
		if (kept(item)) continue;
		const a = words[i]!;
		for (const j of left) {
			const b = words[j]!;
			if (j !== i && restatesWords(a, b) && (j < i || !restatesWords(b, a))) {
				left.delete(i);
				break;
			}
		}
	}
	return items.filter((_, i) => left.has(i));
}

/**
 * Done items and another section's (Decided, Open) with what both tell told once. A Done item that
 * says no more than one of the other section goes: told there, it says more (that it is left to do,
 * or that it was chosen over something else, which the next session must not undo). An item of the
 * other section that says no more than a Done item goes, unless `firm`: Done tells it. A `kept` Done
 * item (a commit, a pull request: the record itself) stays, and so does a `firm` item of the other
 * (what is left open; a choice the person made themselves, their word and not the agent's).
 */
export function toldOnce(done: readonly string[], other: readonly string[], kept: (item: string) => boolean, firm: (item: string) => boolean, findWords: WordsOf = wordsOf): { done: string[]; other: string[] } {
	const otherWords = other.map((item) => findWords(item));
	const others = indexed(otherWords);
	const doneLeft = done.map((item) => ({ item, words: findWords(item) })).filter((d) => kept(d.item) || !others.restated(d.words));
	const dones = indexed(doneLeft.map((d) => d.words));
	return { done: doneLeft.map((d) => d.item), other: other.filter((o, i) => firm(o) || !dones.restated(otherWords[i]!)) };
}

/**
 * The choices with the agent's wording of a choice the person made joined to the person's own line:
 * "user chose: let's do vite — My recommendation: Vite, the modern standard…" tells once who chose
 * and why, where two lines told the one choice. The same choice: the person's words, fewer than the
 * agent's, say a word the agent's line marks (writes with a capital, its first word aside: "Vite",
 * "HTTPS") before its first comma or reason. A `firm` line of the agent's (a decision record) stays
 * whole, its own; so does the person's when it says more than the agent's.
 */
export function joinedChoices(choices: readonly string[], theirs: (choice: string) => boolean, firm: (choice: string) => boolean): string[] {
	const out = [...choices];
	// The person's lines cut into words once: a long session states many choices.
	const said = choices.map((c) => (theirs(c) ? wordList(c) : []));
	const joined = new Set<number>();
	const told = new Set<number>();
	for (const [i, agent] of choices.entries()) {
		if (theirs(agent) || firm(agent)) continue;
		const marked = markedWords(opening(agent));
		const user = choices.findIndex((c, j) => !joined.has(j) && theirs(c) && c.length < agent.length && said[j]!.some((w) => marked.has(w)));
		if (user < 0) continue;
		joined.add(user);
		told.add(i);
		out[user] = `${choices[user]} — ${agent}`;
	}
	return out.filter((_, i) => !told.has(i));
}

/** A line up to its first comma or reason: the choice, not what it is weighed against ("…, since Vercel has no SSH keys"). */
function opening(text: string): string {
	const end = text.search(/[,;]|\b(?:since|because)\b/i);
	return end < 0 ? text : text.slice(0, end);
}

/** The words a text writes with a capital letter, its first word aside, lower-cased: the things it names. */
function markedWords(text: string): Set<string> {
	const marked = new Set<string>();
	for (const match of text.matchAll(/[\p{L}\p{N}_-]+/gu)) if (match.index > 0 && /\p{Lu}/u.test(match[0])) marked.add(match[0].toLowerCase());
	return marked;
}

function wordList(text: string): string[] {
	return text.toLowerCase().split(/[^\p{L}\p{N}_-]+/u);
}
