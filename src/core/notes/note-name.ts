import { dict } from "../dict";
import { graphemePrefix } from "../text/grapheme-cut";
import { sessionDay } from "../text/local-date";
import { withoutTags } from "../text/printable";
import { sameFileKey } from "../text/same-file-key";
import { visibleText } from "../text/visible-text";
import { wellFormed } from "../text/well-formed";
/** Characters no file system we care about accepts, plus those Obsidian links choke on. */
const FORBIDDEN = /[\\/:*?"<>|#^[\]]/g;

/** What each forbidden character becomes: a look-alike or a neighbour that keeps the meaning ("quantity > 1" stays a comparison). */
const SUBSTITUTE: Record<string, string> = dict({
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
});

/** Control characters (C0, DEL and C1, whose CSI `U+009B` starts a terminal's escape as ESC `[` does), which no file name should hold. */
function stripControls(text: string): string {
	let out = "";
	for (const ch of text) {
		const code = ch.charCodeAt(0);
		out += code < 0x20 || (code >= 0x7f && code <= 0x9f) ? " " : INVISIBLE.test(ch) ? "" : ch;
	}
	return out;
}
/**
 * Direction overrides and isolates and direction marks: invisible in a file list, where they
 * reorder what a name seems to say ("Review\u202Edm.exe"). What shows nothing at all (zero-width
 * spaces, the BOM) `visibleText` drops first.
 */
const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/**
 * Windows' device names, which it takes for the device whatever extension follows and whatever
 * blanks come before it (`nul.txt`, `NUL .md`), `CONIN$` and `CONOUT$` among them.
 */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?=\s*(\..*)?$)/i;
/** A name's most UTF-16 units. */
export const MAX_NAME = 100;
/**
 * And at most this many UTF-8 bytes: file systems count bytes (255 on ext4, APFS and NTFS count
 * differently: 255 bytes is the tightest), and a name gets a day before it, ` (2)`, ` context.md`
 * or `.md` and our temporary suffix (`.<pid>-<thread>.<n>.tmp`) after it. 100 CJK characters are
 * 300 bytes: such a project's notes could never be written.
 */
export const MAX_NAME_BYTES = 180;

/** `name` cut to at most `max` UTF-8 bytes, between two characters as a reader sees them (`graphemePrefix`). */
export function capBytes(name: string, max: number = MAX_NAME_BYTES): string {
	// A UTF-16 unit is at most 3 UTF-8 bytes (a pair, two units, is 4).
	if (name.length * 3 <= max) return name;
	let bytes = 0;
	let end = 0;
	for (const ch of name) {
		const code = ch.codePointAt(0)!;
		const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
		if (bytes + size > max) break;
		bytes += size;
		end += ch.length;
	}
	// Cut at a code point, a flag or an emoji of several could lose its second half: back to the last whole one.
	return end === name.length ? name : graphemePrefix(name, end);
}

/**
 * A file name (without extension) that is valid on Windows, macOS and Linux: no forbidden or
 * control characters, no reserved device names, no trailing dots or spaces, no leading dot,
 * at most 100 UTF-16 units and `MAX_NAME_BYTES` bytes (under every limit once a date and `.md` are added).
 */
export function safeFileName(raw: string, fallback = "Untitled"): string {
	// A leading slash is a command's (`/init`), not a path's: it goes rather than turning into a look-alike.
	// Tag characters go as `printable` drops them: the block quotes the name through it.
	let name = stripControls(visibleText(withoutTags(wellFormed(raw)).normalize("NFC"))).trim().replace(/^[\\/]+/, "").replace(FORBIDDEN, (c) => SUBSTITUTE[c] ?? " ").replace(/\s+/g, " ").trim();
	// `%%` in a link's target opens an Obsidian comment: the link, and the index after it, vanish.
	name = name.replace(/(?<=%)%/g, "％");
	// Not inside a character: a surrogate pair, a flag, an emoji of several joined.
	name = graphemePrefix(name, MAX_NAME);
	name = capBytes(name);
	// Joiners at either end join nothing: a name of joiners alone showed as none (a folder with no name in the file list).
	name = name.replace(/^[.\s\u200c\u200d]+/, "").replace(/[.\s\u200c\u200d]+$/, "");
	if (name === "") return fallback;
	// The mark goes right after the device's name: after an extension (`nul.txt_`) it was still the device.
	return quotable(name.replace(RESERVED, "$1_"));
}

/**
 * A session note's name: its local day (only ever `YYYY-MM-DD` or `undated`, whatever the transcript held), then its title (`2026-11-30 Review ＠src∕auth.ts`). A title
 * starting with `@` comes after the day's blank: it is made quotable there too.
 */
export function noteStem(startedAt: string | undefined, title: string): string {
	return quotable(`${sessionDay(startedAt)} ${safeFileName(title)}`);
}

/**
 * A name a context block can quote as it is: no `@` after a blank (U+FF20 `＠` instead). The block
 * puts a word joiner before such an `@` (Claude Code imports `@path` after a blank even in a code
 * span: `inertMentions`), and a note named `… Review @src∕auth.ts …` was named in CLAUDE.md by a
 * path no file has. Prompts mention files that way all the time, and titles come from prompts.
 */
export function quotable(name: string): string {
	return name.includes("@") ? name.replace(/(?<=\s)@/gu, "＠") : name;
}

/** Whether Windows takes a file of this name (its extension or none) for a device: no such file can be made there. */
export function isDeviceName(name: string): boolean {
	return RESERVED.test(name);
}

/** The last segment of a path written with either separator. */
export function baseName(path: string): string {
	const parts = path.split(/[\\/]/).filter((p) => p !== "");
	return parts[parts.length - 1] ?? path;
}

/**
 * Whether a note's name (without ` (n)` and `.md`) is the one its session's day and title give: the
 * local day, or the UTC day that releases before 2026-12-06 named notes after (such a note keeps
 * its name, and still counts as named after its title, not by the user).
 */
export function namedAfterTitle(name: string, startedAt: string | undefined, title: string): boolean {
	if (name === noteStem(startedAt, title)) return true;
	const utc = (startedAt ?? "").slice(0, 10);
	return /^\d{4}-\d{2}-\d{2}$/.test(utc) && name === quotable(`${utc} ${safeFileName(title)}`);
}

/**
 * The counter each stem reached in a set of taken names: names are only ever added to such a set, so
 * every candidate below it stays taken. Without it, 2,000 sessions opened with the same prompt on one
 * day each tried every earlier ` (n)` again, two million look-ups in all.
 */
const reached = new WeakMap<Set<string>, Map<string, number>>();

/** A note path not in use, compared as `sameFileKey` (file systems that ignore case or normalization must not merge two notes). */
export function uniquePath(taken: Set<string>, stem: string): string {
	let counters = reached.get(taken);
	if (counters === undefined) reached.set(taken, (counters = new Map<string, number>()));
	const key = sameFileKey(stem);
	for (let n = counters.get(key) ?? 1; ; n++) {
		const path = n === 1 ? `${stem}.md` : `${stem} (${n}).md`;
		if (!taken.has(sameFileKey(path))) {
			taken.add(sameFileKey(path));
			counters.set(key, n + 1);
			return path;
		}
	}
}
