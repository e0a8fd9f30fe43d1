/**
 * The longest start of `text` of at most `max` UTF-16 units that ends between two characters as a
 * reader sees them (grapheme clusters, UAX #29): a cut at a code point left `👩‍👩‍` of a family, its
 * joiner dangling before the ellipsis, and a flag's first half. A cluster longer than `max` alone
 * (a letter under hundreds of combining marks) is cut at a code point, never inside a pair.
 */
export function graphemePrefix(text: string, max: number): string {
	if (text.length <= max) return text;
	const next = text.charCodeAt(max);
	const last = text.charCodeAt(max - 1);
	// Between two ASCII characters is always a boundary but inside CR LF: most text, at no cost.
	if (next < 0x80 && last < 0x80 && !(last === 0x0d && next === 0x0a)) return text.slice(0, max);
	let end = 0;
	// A cluster is rarely long: the text past the cut a little way is enough to see where it ends.
	for (const { index, segment } of segmenter().segment(text.slice(0, max + 64))) {
		if (index + segment.length > max) break;
		end = index + segment.length;
	}
	if (end > 0) return text.slice(0, end);
	return /[\ud800-\udbff]/.test(text[max - 1] ?? "") ? text.slice(0, max - 1) : text.slice(0, max);
}

let graphemes: Intl.Segmenter | undefined;

function segmenter(): Intl.Segmenter {
	graphemes ??= new Intl.Segmenter("und", { granularity: "grapheme" });
	return graphemes;
}
