/**
 * A fact Claude Code's model wrote (untrusted: a repository can steer what it remembers), as its
 * copy in the vault shows it: nothing in it runs when Obsidian shows the note or creates it (see
 * notes/inert-markdown.ts for what would), and the way back gives Claude Code its own bytes again.
 * Both ways only insert or remove a zero-width space where it breaks what would run, so a fact
 * goes back exactly as it came, and the vault's copy reads the same:
 * - before the language of a ```` ```dataviewjs ```` (or `js-engine`, `meta-bind-js-view`,
 *   `button`, `meta-bind-button`) block, also in a quote or a list item;
 * - before the `$` of an inline `` `$= …` ``;
 * - between `<` and `%` (Templater), between `<` and an embedding tag (`<iframe`, `<img`, …);
 * - between `!` and `[` of an image that would be fetched when shown (an embed `![[…]]` stays).
 */

const ZWSP = "\u200b";
const LANGUAGES = "dataviewjs|js-engine-debug|js-engine|meta-bind-js-view|meta-bind-button|button";
/** Quote and list markers before a fence, each after its blanks: one way to read a line only (no backtracking that grows with them). */
const BEFORE_FENCE = "(?:[ \\t]*(?:>|[-*+]|\\d{1,9}[.)]))*[ \\t]*";
const FENCE = new RegExp(`^(${BEFORE_FENCE}(?:\`{3,}|~{3,})[ \\t]*)(?=(?:${LANGUAGES})(?![\\w-]))`, "gim");
const FENCE_BACK = new RegExp(`^(${BEFORE_FENCE}(?:\`{3,}|~{3,})[ \\t]*)${ZWSP}(?=(?:${LANGUAGES})(?![\\w-]))`, "gim");
const TAGS = "iframe|img|image|video|audio|source|object|embed|script|style|link|meta|form|svg|math|frame|frameset";
const OPENS = new RegExp(`<(?=%|/?(?:${TAGS})\\b)`, "gi");
const OPENS_BACK = new RegExp(`<${ZWSP}(?=%|/?(?:${TAGS})\\b)`, "gi");
const IMAGE = /!(?=\[(?!\[))/g;
const IMAGE_BACK = new RegExp(`!${ZWSP}(?=\\[(?!\\[))`, "g");
/** From the start of a backtick run only: tried from inside one too, a long run took time by its square. */
const INLINE_JS = /(?<!`)(`+ *)(?=\$=)/g;
const INLINE_JS_BACK = new RegExp(`(?<!\`)(\`+ *)${ZWSP}(?=\\$=)`, "g");

/** The vault's copy of a fact: made inert (idempotent: a copy made so is left as it is). */
export function inertFact(text: string): string {
	if (!/[`~<!]/.test(text)) return text;
	return text.replace(FENCE, `$1${ZWSP}`).replace(OPENS, `<${ZWSP}`).replace(IMAGE, `!${ZWSP}`).replace(INLINE_JS, `$1${ZWSP}`);
}

/** Claude Code's copy of a fact from the vault's: the spaces `inertFact` inserts, taken out again. */
export function liveFact(text: string): string {
	if (!text.includes(ZWSP)) return text;
	return text.replace(FENCE_BACK, "$1").replace(OPENS_BACK, "<").replace(IMAGE_BACK, "!").replace(INLINE_JS_BACK, "$1");
}
