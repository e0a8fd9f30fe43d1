import { graphemePrefix } from "../text/grapheme-cut";

/**
 * Text cut to a length at the best boundary that fits: the end of a sentence, else of a clause,
 * else of a word; never inside a word. Scripts without spaces (CJK) cut after their own
 * punctuation, else at a character, never inside one (a surrogate pair, an emoji of several).
 */
const SENTENCE_END = /[.!?。！？](?=\s|$)|[。！？]/g;
const CLAUSE_END = /[,;:—–)](?=\s)|\s[-–—]\s|[、，；：]/g;

export function cutAtBoundary(text: string, max: number): string {
	// Only the start of a long text can show: fold that part (folding a prefix gives a prefix of the fold).
	const clean = (text.length > max * 4 + 64 ? text.slice(0, max * 4 + 64) : text).replace(/\s+/g, " ").trim();
	if (clean.length <= max) return clean;
	return closedSpans(cutRaw(clean, max), clean, max);
}

/**
 * A cut inside `code` would leave a span open: the span is cut inside at a break of its own (a
 * path's "/", a query's "?", a space), closed with "…" in it, when what it keeps says something
 * (`{{ .SiteURL }}/auth/confirm…` is the point of its item: the words before it alone were not);
 * else the cut goes before its opening backtick.
 */
function closedSpans(cut: string, clean: string, max: number): string {
	if ((cut.match(/`/g)?.length ?? 0) % 2 === 0) return cut;
	const open = cut.lastIndexOf("`");
	const inside = spanStart(clean.slice(open + 1, open + 1 + Math.max(0, max - open - 3)));
	if (inside.length >= MIN_SPAN_KEPT) return `${clean.slice(0, open + 1)}${inside}…\``;
	return `${trimEnd(cut.slice(0, open))}…`;
}

/** Less of a span than this names nothing a reader could look for. */
const MIN_SPAN_KEPT = 10;

/** The start of a code span's text up to its last break: after a "/", before a "?", "#" or "("; else before a space. */
function spanStart(room: string): string {
	if (room.includes("`")) return "";
	for (let i = room.length - 1; i > 0; i--) if (room[i - 1] === "/" || /[?#(]/.test(room[i]!)) return room.slice(0, i);
	const space = room.lastIndexOf(" ");
	return space > 0 ? room.slice(0, space) : "";
}

function cutRaw(clean: string, max: number): string {
	const room = clean.slice(0, max);
	// Read one character past the room: a stop there is a sentence's end only if what follows it is (".zip" is no end).
	const sentence = lastEnd(clean.slice(0, max + 1), SENTENCE_END, max);
	if (sentence >= max * 0.5) return room.slice(0, sentence).trim();
	const clause = lastEnd(room, CLAUSE_END);
	if (clause >= max * 0.5) return `${trimEnd(room.slice(0, clause))}…`;
	const space = room.lastIndexOf(" ");
	if (space >= max * 0.4) return `${trimEnd(room.slice(0, space))}…`;
	// One long word or an unspaced script: a character boundary, not half a pair or an emoji's joiner.
	return `${trimEnd(graphemePrefix(clean, max))}…`;
}

/** Index just past the last match of `pattern` in `text` that ends by `limit`, or -1. */
function lastEnd(text: string, pattern: RegExp, limit = text.length): number {
	let end = -1;
	pattern.lastIndex = 0;
	for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
		if (m.index + m[0].length <= limit) end = m.index + m[0].length;
		if (m[0].length === 0) pattern.lastIndex++;
	}
	return end;
}

function trimEnd(text: string): string {
	return text.replace(/[\s,;:—–-]+$/, "");
}
