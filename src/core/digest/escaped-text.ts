import { dict } from "../dict";
/**
 * Text written inside another's escapes, decoded so the redaction rules read what it says: a JSON
 * string holding a file or more JSON (`API_KEY=abc\nSECRET_TOKEN=…` with `\n` two characters, as
 * transcripts keep a tool's output that was itself JSON), XML or HTML with entities
 * (`&lt;password&gt;…&lt;/password&gt;`). Each decoding says where each of its characters was, so
 * what the rules change in it can be changed in the text, escaped again. Pure.
 */

/** A text decoded: `text`, and where each of its characters starts in what was decoded (`at[text.length]` is that text's length). */
export interface Decoded {
	text: string;
	at: Uint32Array;
}

/**
 * One way of escaping text: whether a text may be written so (a quick look), where its escapes are,
 * how to decode it (undefined when nothing in it is) and to escape a replacement again; whether it
 * escapes line ends (`\n`: a file in a JSON string is one line).
 */
export interface Escapes {
	holds(text: string): boolean;
	/** What `holds` looks for, global: where escapes are (`lastIndex` set before each search). */
	readonly found: RegExp;
	decode(text: string): Decoded | undefined;
	escape(text: string): string;
	readonly escapesLineEnds: boolean;
}

/**
 * A JSON string's escapes, one level: `\n`, `\r`, `\t`, `\"`, `\\`, `\/`, `\uXXXX` (Go writes `<`
 * and `>` so); also `\'`, which JavaScript and Python write. A `"` not escaped opens or closes a
 * string: it becomes a line end, so that each string's text stands on lines of its own, as its
 * file did (`"API_KEY=abc\nTOKEN=x"}`: the `"` and `}` after the last line are no part of its
 * value). Only a text with an escaped line end or quote, or a `\u` escape, is decoded (`holds`):
 * one with none reads the same to the rules. A `\` before anything else stays as it is (`\d` in a
 * regular expression).
 */
export const JSON_STRING_ESCAPES: Escapes = {
	// A `\` first (one native search): most texts have none.
	holds: (text) => text.includes("\\") && JSON_ESCAPE_HINT_RE.test(text),
	found: /\\[nru"]/g,
	decode: (text) => decodeWith(text, jsonEscapeAt),
	escapesLineEnds: true,
	escape: (text) => JSON.stringify(text).slice(1, -1),
};
const JSON_ESCAPE_HINT_RE = /\\[nru"]/;

/** The escape at `i` (a `\` or a `"`), as `escaped` gives it, or -1. */
function jsonEscapeAt(text: string, i: number): number {
	const c = text.charCodeAt(i);
	if (c === 0x22) return escaped(0x0a, 1);
	if (c !== 0x5c) return -1;
	const next = text.charCodeAt(i + 1);
	switch (next) {
		case 0x6e: // n
			return escaped(0x0a, 2);
		case 0x72: // r
			return escaped(0x0d, 2);
		case 0x74: // t
			return escaped(0x09, 2);
		case 0x22: // "
		case 0x27: // '
		case 0x5c: // \
		case 0x2f: // /
			return escaped(next, 2);
		case 0x75: // u
			return HEX4_RE.test(text.slice(i + 2, i + 6)) ? escaped(parseInt(text.slice(i + 2, i + 6), 16), 6) : -1;
		default:
			return -1;
	}
}
const HEX4_RE = /^[0-9a-fA-F]{4}$/;

const NAMED_ENTITIES: Readonly<Record<string, number>> = dict({ lt: 0x3c, gt: 0x3e, amp: 0x26, quot: 0x22, apos: 0x27 });
const ENTITY_NAMES: Readonly<Record<string, string>> = dict({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" });
const ENTITY_RE = /&(?:(lt|gt|amp|quot|apos)|#(\d{1,5})|#[xX]([0-9a-fA-F]{1,4}));/y;

/**
 * XML's and HTML's entities: `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` and the numeric ones (of
 * the Basic Multilingual Plane: what stands beyond it is no character of a key's name or its
 * syntax). Only a text with `&lt;`, `&gt;`, `&quot;`, `&apos;` or `&#` is decoded (`holds`: `&amp;`
 * alone, between a URL's parameters, hides no key from the rules).
 */
export const XML_ENTITIES: Escapes = {
	holds: (text) => text.includes("&") && ENTITY_HINT_RE.test(text),
	found: /&(?:lt;|gt;|quot;|apos;|#)/g,
	decode: (text) => decodeWith(text, entityAt),
	escapesLineEnds: false,
	escape: (text) => text.replace(/[&<>"']/g, (c) => ENTITY_NAMES[c]!),
};
const ENTITY_HINT_RE = /&(?:lt;|gt;|quot;|apos;|#)/;

/** The entity at `i` (an `&`), as `escaped` gives it, or -1. */
function entityAt(text: string, i: number): number {
	if (text.charCodeAt(i) !== 0x26) return -1;
	ENTITY_RE.lastIndex = i;
	const m = ENTITY_RE.exec(text);
	if (m === null) return -1;
	const code = m[1] !== undefined ? NAMED_ENTITIES[m[1]]! : m[2] !== undefined ? parseInt(m[2], 10) : parseInt(m[3]!, 16);
	return code <= 0xffff ? escaped(code, m[0].length) : -1;
}

/** An escape found: the UTF-16 unit it stands for and its length in one number (an array for each cost a collection in four of the time, measured). */
const escaped = (unit: number, length: number): number => unit * 16 + length;

/**
 * `text` with each escape `escapeAt` finds (see `escaped`) decoded; undefined when there is none.
 * One pass over the text's units: a regular expression's replace, or pushing each escape and the
 * text before it, took 0.2 s on 2 MB of `\n` (measured).
 */
function decodeWith(text: string, escapeAt: (text: string, i: number) => number): Decoded | undefined {
	const units = new Uint16Array(text.length);
	const at = new Uint32Array(text.length + 1);
	let length = 0;
	let decoded = false;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		at[length] = i;
		// Only a `\`, a `"` or an `&` may start an escape.
		const escape = c === 0x5c || c === 0x22 || c === 0x26 ? escapeAt(text, i) : -1;
		if (escape < 0) {
			units[length++] = c;
			continue;
		}
		units[length++] = escape >>> 4;
		i += (escape & 15) - 1;
		decoded = true;
	}
	if (!decoded) return undefined;
	at[length] = text.length;
	const chunks: string[] = [];
	for (let k = 0; k < length; k += 8192) chunks.push(String.fromCharCode.apply(null, units.subarray(k, Math.min(length, k + 8192)) as unknown as number[]));
	return { text: chunks.join(""), at: at.subarray(0, length + 1) };
}
