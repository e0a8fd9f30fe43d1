import { dict } from "../dict";
/**
 * Text in one case for search, so that a word is found however it is written: NFKC (one spelling
 * for what reads the same: `café` composed or decomposed, `ＡＰＩ` full-width), lower case, and the
 * cases of full Unicode case folding that lower case leaves different: `ß` and `ẞ` are `ss`
 * (`straße` finds `STRASSE`), the final sigma `ς` is `σ`, Turkish `İ` (lower-cased `i` and a
 * combining dot) and dotless `ı` are `i` (`İstanbul`, `ISTANBUL` and `istanbul` are one word).
 * What else full folding does (`ǰ`'s capital, Greek iota subscripts written out) is left out: an
 * upper-casing pass for it made non-ASCII text a third slower to index (measured).
 */
export function foldCase(text: string): string {
	// ASCII, most of what is searched: NFKC changes none of it, and lower case is all it needs.
	if (!NON_ASCII.test(text)) return text.toLowerCase();
	return text.normalize("NFKC").toLowerCase().replace(FOLDED_APART, (c) => FOLD[c]!);
}

/** A code unit past ASCII (a surrogate of an astral character too). */
const NON_ASCII = /[\u0080-\uffff]/;
/** What lower case leaves apart that full case folding makes one (`ẞ` is lower-cased to `ß` first). */
const FOLDED_APART = /[ßςı]|i\u0307/g;
const FOLD: Readonly<Record<string, string>> = dict({ ß: "ss", ς: "σ", ı: "i", "i\u0307": "i" });
