import { wellFormed } from "../text/well-formed";
/** Characters no file system we care about accepts, plus those Obsidian links choke on. */
const FORBIDDEN = /[\\/:*?"<>|#^[\]]/g;

/** What each forbidden character becomes: a look-alike or a neighbour that keeps the meaning ("quantity > 1" stays a comparison). */
const SUBSTITUTE: Record<string, string> = {
	"\\": "∖",
	"/": "∕",
	":": "꞉",
	"*": "＊",
	"?": "？",
	'"': "'",
	"<": "＜",
	">": "＞",
	"|": "｜",
	"#": "＃",
	"^": "＾",
	"[": "(",
	"]": ")",
};

/** Control characters (C0 and DEL), which no file name should hold. */
function stripControls(text: string): string {
	let out = "";
	for (const ch of text) {
		const code = ch.charCodeAt(0);
		out += code < 0x20 || code === 0x7f ? " " : INVISIBLE.test(ch) ? "" : ch;
	}
	return out;
}
/**
 * Direction overrides and isolates, direction marks, zero-width spaces and the BOM: invisible in a
 * file list, where they reorder or hide what a name seems to say ("Review\u202Edm.exe"). The
 * joiners (U+200C, U+200D) stay: scripts and emoji need them.
 */
const INVISIBLE = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;
const MAX_NAME = 100;

/**
 * A file name (without extension) that is valid on Windows, macOS and Linux: no forbidden or
 * control characters, no reserved device names, no trailing dots or spaces, no leading dot,
 * at most 100 UTF-16 units (well under every limit once a date and `.md` are added).
 */
export function safeFileName(raw: string, fallback = "Untitled"): string {
	// A leading slash is a command's (`/init`), not a path's: it goes rather than turning into a look-alike.
	let name = stripControls(wellFormed(raw).normalize("NFC")).trim().replace(/^[\\/]+/, "").replace(FORBIDDEN, (c) => SUBSTITUTE[c] ?? " ").replace(/\s+/g, " ").trim();
	if (name.length > MAX_NAME) {
		name = name.slice(0, MAX_NAME);
		// Do not cut a surrogate pair in half.
		if (/[\ud800-\udbff]$/.test(name)) name = name.slice(0, -1);
	}
	name = name.replace(/^[.\s]+/, "").replace(/[.\s]+$/, "");
	if (name === "") return fallback;
	if (RESERVED.test(name)) return `${name}_`;
	return name;
}

/** The last segment of a path written with either separator. */
export function baseName(path: string): string {
	const parts = path.split(/[\\/]/).filter((p) => p !== "");
	return parts[parts.length - 1] ?? path;
}
