/** A character `printable` drops: C0 but tab and line breaks, DEL, C1, bidirectional embeddings, overrides and isolates, and tags. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const DROPPED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\udb40[\udc00-\udc7f]/;

/**
 * Unicode tag characters (U+E0000–U+E007F): invisible in every editor and terminal, yet a model
 * reads them as the ASCII they shadow, so a reply or a page it quoted can carry an instruction no
 * one sees in CLAUDE.md ("ASCII smuggling"). Kept only as the flags of England, Scotland and Wales
 * are written: a black flag, letters and digits, a cancel tag.
 */
const TAGS = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,6}\u{E007F}|[\u{E0000}-\u{E007F}]/gu;

/**
 * A terminal's escape sequence, whole: CSI (`ESC [ 31 m`, colours and cursor moves, or its one-byte
 * form) and OSC ended by BEL or `ESC \` (`ESC ]0;title BEL`), bounded to a line, so a stray
 * `ESC ]` never takes the text after it. Each part matches characters the next cannot: linear.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const ESCAPE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\n]{0,1024}(?:\u0007|\u001b\\)/g;

/** The text without tag characters, the flags spelt with them aside (see `TAGS`). */
export function withoutTags(text: string): string {
	return text.includes("\udb40") ? text.replace(TAGS, (m) => (m.length > 2 ? m : "")) : text;
}

/**
 * The text without control characters but tab and line breaks: C0 (ESC, BEL, backspace…), DEL
 * and C1, and without the bidirectional controls that make text read in another order than it
 * is (U+202A–U+202E, U+2066–U+2069: `exe.txt` shown as `txt.exe`). A terminal's escape sequences go
 * whole (coloured tool output keeps its words, not `[31m`). A prompt can hold terminal escapes
 * (`ESC ]0;…BEL` retitles the terminal, `ESC [2J` clears it); none of them means anything in
 * CLAUDE.md, a note or our output, and shown with `cat` or by `ai-memory doctor` they would act
 * on the user's terminal; a NUL makes `grep` and `git` take a note for binary. Tag characters go
 * too (see `TAGS`). C1's line break (NEL) becomes a blank.
 */
export function printable(text: string): string {
	// Most text has none: one native scan, no copy.
	if (!DROPPED.test(text)) return text;
	const untagged = withoutTags(text);
	const plain = untagged.includes("\u001b") || untagged.includes("\u009b") ? untagged.replace(ESCAPE, "") : untagged;
	let out = "";
	let from = 0;
	for (let i = 0; i < plain.length; i++) {
		const code = plain.charCodeAt(i);
		if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f) || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) {
			// NEL (U+0085, C1's line break: EBCDIC's, some Windows text) parts two words: dropped, it joined
			// them. A blank, not a line break: in a one-line item a line break would start a line of its own.
			out += code === 0x85 ? `${plain.slice(from, i)} ` : plain.slice(from, i);
			from = i + 1;
		}
	}
	return from === 0 ? plain : out + plain.slice(from);
}
