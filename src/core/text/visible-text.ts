/**
 * Characters that show nothing where a title or a name is read: the soft hyphen (shown only at a
 * line's break), the zero-width space, the word joiner and the invisible math operators
 * (U+2060–U+2064), the BOM. A title's U+200B stayed in the context block's heading and the index
 * note's link text, unseen between two letters of a word.
 */
const HIDDEN = /[\u00ad\u200b\u2060-\u2064\ufeff]/g;

/** A run of joiners (ZWNJ, ZWJ): one stays between two characters (Persian, Indic scripts and emoji sequences need it), none at a blank or an end. */
const JOINERS = /[\u200c\u200d]+/g;

/**
 * The most combining marks kept in a row. UAX #15's Stream-Safe Text Format bounds a run of
 * non-starters at 30, as a normalizer's buffer, not as what text needs: the deepest stacks of real
 * writing (Sanskrit in Tibetan script, a consonant under eight signs) fit in ten, and 21 on one
 * `e` made a note's name spill over its neighbours in a file list.
 */
export const MAX_MARKS = 10;

const MARK_RUN = new RegExp(`\\p{M}{${MAX_MARKS + 1},}`, "gu");

/** Where anything below has work to do: most titles have none, and go through as they are. */
const ANY = new RegExp(`[\\u00ad\\u200b-\\u200d\\u2060-\\u2064\\ufeff]|\\p{M}{${MAX_MARKS + 1}}`, "u");

/**
 * A title or name as shown: no character that shows nothing (`HIDDEN`), one joiner at most between
 * two characters and none elsewhere, at most `MAX_MARKS` combining marks in a row (a "zalgo"
 * stack). Everything a reader sees stays, in its order.
 */
export function visibleText(text: string): string {
	if (!ANY.test(text)) return text;
	return text
		.replace(HIDDEN, "")
		.replace(JOINERS, (run: string, at: number, whole: string) => (at > 0 && /\S/.test(whole[at - 1]!) && /\S/.test(whole[at + run.length] ?? " ") ? run[0]! : ""))
		.replace(MARK_RUN, (run) => [...run].slice(0, MAX_MARKS).join(""));
}
