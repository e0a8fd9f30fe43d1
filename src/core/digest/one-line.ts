/** Text on one line (runs of white space folded), cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max = Number.POSITIVE_INFINITY): string {
	const one = text.replace(/\s+/g, " ").trim();
	return one.length > max ? `${one.slice(0, max)}…` : one;
}
