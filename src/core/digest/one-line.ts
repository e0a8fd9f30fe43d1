import { graphemePrefix } from "../text/grapheme-cut";

/** Text on one line (runs of white space folded), cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
	// Only the start of a long text can show: fold that part (folding a prefix gives a prefix of the fold).
	const room = max * 4 + 64;
	if (text.length > room) {
		const head = fold(text.slice(0, room));
		if (head.length > max) return `${graphemePrefix(head, max)}…`;
	}
	const one = fold(text);
	// Cut between characters as a reader sees them: never inside a pair or an emoji of several.
	return one.length > max ? `${graphemePrefix(one, max)}…` : one;
}

/** White space other than a lone space: only then is there a run to fold (most texts have none). */
const FOLDS = /[^\S ]| {2}/;

function fold(text: string): string {
	return (FOLDS.test(text) ? text.replace(/\s+/g, " ") : text).trim();
}
