/** Text on one line (runs of white space folded), cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
	// Only the start of a long text can show: fold that part (folding a prefix gives a prefix of the fold).
	const room = max * 4 + 64;
	if (text.length > room) {
		const head = fold(text.slice(0, room));
		if (head.length > max) return `${head.slice(0, max)}…`;
	}
	const one = fold(text);
	return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** White space other than a lone space: only then is there a run to fold (most texts have none). */
const FOLDS = /[^\S ]| {2}/;

function fold(text: string): string {
	return (FOLDS.test(text) ? text.replace(/\s+/g, " ") : text).trim();
}
