/**
 * A done item that says again what one told before it says: the todo "Update parser.ts to use the
 * new lexer" after the reply's "parser.ts now uses the new lexer". The list holds the same work
 * twice, in the imperative and in the past, and a result further down loses its room.
 */

/** Words that carry no content of their own: grammar, and the verbs of change a todo and its result say in different tenses. */
const FILLER = new Set(
	(
		"a an the to of in on for and or with from by at as into onto via so that this these those it its is are was were be been being has have had now all any each both " +
		"use uses used using make makes made add adds added update updates updated fix fixes fixed change changes changed create creates created implement implements implemented " +
		"set sets remove removes removed refactor refactored ensure ensures ensured also just new proper properly correctly"
	).split(" "),
);

/** A name: a path or file ("parser.ts"), an identifier ("snake_case", "camelCase", "HTTP"), a number. */
const NAME = /[._\d]|\p{L}\p{Lu}/u;

interface Words {
	stems: Set<string>;
	names: Set<string>;
}

/** Words cut to their first five letters after a plural "s": "filtering" and "filters" meet, as "headers" and "header" do. */
function wordsOf(text: string): Words {
	const stems = new Set<string>();
	const names = new Set<string>();
	for (const raw of text.split(/[^\p{L}\p{N}._-]+/u)) {
		const token = trimmed(raw);
		const lower = token.toLowerCase();
		if (token === "" || FILLER.has(lower)) continue;
		if (NAME.test(token)) names.add(lower);
		for (const part of lower.split(/[._-]+/)) if (part !== "" && !FILLER.has(part)) stems.add(part.replace(/(?<=\p{L}{3})s$/u, "").slice(0, 5));
	}
	return { stems, names };
}

/** A token without the dots, dashes and underscores at its ends (a sentence's stop, a "--flag"'s dashes). */
export function trimmed(token: string): string {
	let start = 0;
	let end = token.length;
	while (start < end && "._-".includes(token[start] ?? "")) start++;
	while (end > start && "._-".includes(token[end - 1] ?? "")) end--;
	return token.slice(start, end);
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
	for (const stem of a.stems) if (b.stems.has(stem)) shared++;
	return shared >= 2 && 3 * (a.stems.size - shared) <= a.stems.size;
}

/** The items, each one that restates an item kept before it left out; `kept` items (commits, pull requests) always stay. */
export function withoutRestated(items: readonly string[], kept: (item: string) => boolean): string[] {
	// Each item cut into words once: a session's done list holds hundreds of todos.
	const out: { item: string; words: Words }[] = [];
	for (const item of items) {
		const words = wordsOf(item);
		if (kept(item) || !out.some((before) => restatesWords(words, before.words))) out.push({ item, words });
	}
	return out.map((o) => o.item);
}

/**
 * Done items and another section's (Decided, Open) with what both tell told once. A Done item that
 * says no more than one of the other section goes: told there, it says more (that it is left to do,
 * or that it was chosen over something else, which the next session must not undo). An item of the
 * other section that says no more than a Done item goes, unless `firm`: Done tells it. A `kept` Done
 * item (a commit, a pull request: the record itself) stays, and so does a `firm` item of the other
 * (what is left open; a choice the person made themselves, their word and not the agent's).
 */
export function toldOnce(done: readonly string[], other: readonly string[], kept: (item: string) => boolean, firm: (item: string) => boolean): { done: string[]; other: string[] } {
	const otherWords = other.map(wordsOf);
	const doneLeft = done.map((item) => ({ item, words: wordsOf(item) })).filter((d) => kept(d.item) || !otherWords.some((o) => restatesWords(d.words, o)));
	return { done: doneLeft.map((d) => d.item), other: other.filter((o, i) => firm(o) || !doneLeft.some((d) => restatesWords(otherWords[i]!, d.words))) };
}
