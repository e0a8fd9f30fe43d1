/**
 * Links that name a moved note by its vault path, made to name its new path: `[[folder/note]]`,
 * `[[folder/note.md#Heading|alias]]`, `[text](folder/note.md)` and `[text](<folder/note.md>)`.
 * A link by name alone (`[[note]]`, `[text](note.md)`) needs nothing when a move keeps the name;
 * for a note renamed, it names the new name when `names` has the old one (given only for a name
 * no other note has: `[[note]]` would name that one then). Every other byte stays.
 * @param moves vault paths with `.md`, from old to new.
 * @param names of the notes renamed, the old name to the new one (no folder, no `.md`).
 */
export function rewriteLinks(text: string, moves: ReadonlyMap<string, string>, names: ReadonlyMap<string, string> = new Map()): string {
	if (moves.size === 0 || (!text.includes("[[") && !text.includes("]("))) return text;
	const stems = new Map([...moves].map(([from, to]) => [stem(from), stem(to)]));
	for (const [from, to] of names) if (!stems.has(from)) stems.set(from, to);
	let out = text.replace(WIKI, (whole, target: string, rest: string) => {
		const md = target.toLowerCase().endsWith(".md");
		const to = stems.get(md ? target.slice(0, -3) : target);
		return to === undefined ? whole : `[[${to}${md ? ".md" : ""}${rest}]]`;
	});
	out = out.replace(MARKDOWN, (whole, angled: string | undefined, plain: string | undefined, anchor: string | undefined = "") => {
		const raw = angled ?? plain ?? "";
		const target = angled !== undefined ? raw : safeDecode(raw);
		const renamed = target.includes("/") || !target.toLowerCase().endsWith(".md") ? undefined : names.get(stem(target));
		const to = moves.get(target) ?? (renamed === undefined ? undefined : `${renamed}.md`);
		if (to === undefined) return whole;
		return angled !== undefined ? `](<${to}>${anchor})` : `](${encodeURI(to)}${anchor})`;
	});
	return out;
}

/** `[[target#heading|alias]]`: the target stops at `#`, `|`, `]` or a line end (no nesting, so linear). */
const WIKI = /\[\[([^[\]|#\n]+)((?:#[^[\]|\n]*)?(?:\|[^[\]\n]*)?)\]\]/g;
/** `](target#anchor)` or `](<target>#anchor)`. */
const MARKDOWN = /\]\((?:<([^<>\n]+)>|([^()<>\s]+?))(#[^()\s]*)?\)/g;

function stem(path: string): string {
	return path.replace(/\.md$/i, "");
}

function safeDecode(text: string): string {
	try {
		return decodeURI(text);
	} catch {
		return text;
	}
}
