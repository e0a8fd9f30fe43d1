import matter from "gray-matter";
import { parseDocument, parse as parseYaml } from "yaml";
import { printable } from "../text/printable";
import { wellFormed } from "../text/well-formed";

export type FrontmatterValue = string | number | boolean | null | readonly string[];

/**
 * Deterministic YAML for a flat frontmatter: keys in the given order, strings quoted only when
 * YAML would read them as something else, lists in block style (what Obsidian's Properties
 * view writes itself). A double-quoted JSON string is always valid YAML, so that is the quoting.
 */
export function renderFrontmatter(fields: readonly (readonly [string, FrontmatterValue | undefined])[]): string {
	const lines = ["---"];
	for (const [key, value] of fields) {
		if (value === undefined) continue;
		if (Array.isArray(value)) {
			if (value.length === 0) {
				lines.push(`${key}: []`);
				continue;
			}
			lines.push(`${key}:`);
			for (const item of value as readonly string[]) lines.push(`  - ${scalar(item)}`);
		} else {
			lines.push(`${key}: ${scalar(value as string | number | boolean | null)}`);
		}
	}
	lines.push("---");
	return `${lines.join("\n")}\n`;
}

/** A plain scalar's first character: not `@`, which YAML reserves (`- @src/app.ts fix…`, a title, made the whole frontmatter invalid). */
const PLAIN = /^[A-Za-z0-9_./][A-Za-z0-9 _./@()+-]*$/;
const LOOKS_TYPED = /^(true|false|yes|no|on|off|null|~|[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?|0x[0-9a-fA-F]+|\d{4}-\d\d-\d\d.*)$/i;
/** Dates and datetimes as Obsidian writes them itself, unquoted, so Properties shows a date. */
const DATE = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d)?)?$/;

function scalar(raw: string | number | boolean | null): string {
	if (raw === null) return "null";
	if (typeof raw !== "string") return String(raw);
	// Obsidian shows what the YAML holds: an escaped control character or lone surrogate is still one.
	const value = printable(wellFormed(raw));
	if (DATE.test(value)) return value;
	if (value !== "" && PLAIN.test(value) && !LOOKS_TYPED.test(value) && !value.endsWith(" ")) return value;
	return JSON.stringify(value);
}

/** A note's properties as written: the YAML between the `---` lines, its data, and what follows. */
export interface ReadFrontmatter {
	/** The YAML text between the delimiter lines (no leading newline). */
	yaml: string;
	/** The properties; empty when the YAML is not valid or not a mapping. */
	data: Record<string, unknown>;
	/** Everything after the closing `---` line, byte for byte. */
	body: string;
}

/**
 * Splits a note into its frontmatter and the rest with gray-matter, and parses the YAML with
 * `yaml` (gray-matter's own engines are dropped from the bundles: see esbuild.config.mjs).
 * `parse: false` only splits. Undefined: the text has no frontmatter closed by a `---` line.
 * Only YAML is read: a `---js` or `---json` first line (gray-matter would `eval` JavaScript) is no
 * frontmatter here, and options are always given (without them gray-matter caches every text).
 */
export function readFrontmatter(text: string, options: { parse?: boolean } = {}): ReadFrontmatter | undefined {
	if (!/^\ufeff?---\r?\n/.test(text)) return undefined;
	const split = (yaml: (source: string) => object) => matter(text, { language: "yaml", engines: { yaml } });
	// Parsed only when closed and not huge: the YAML parser checks each key against the others (a
	// fact the model wrote with 50,000 properties took 24 s, every sync), and an unclosed block,
	// which is no frontmatter here, would be parsed whole first. The properties of one that is
	// larger are none, as for invalid YAML.
	const parse = options.parse !== false && /\n---/.test(text.slice(3, MAX_PARSED_YAML + 3));
	let data: unknown;
	let file: { content: string; matter: string };
	try {
		file = split(!parse ? () => ({}) : (source) => parseYaml(source.replace(/\r$/, ""), { logLevel: "error" }) as object);
		data = file.matter === "" ? {} : (file as { data?: unknown }).data;
	} catch {
		// Not valid YAML: the split is still good, the properties are none.
		file = split(() => ({}));
		data = undefined;
	}
	const body = file.content;
	const head = text.slice(0, text.length - body.length);
	// gray-matter takes a missing `---` for one at the end, and `---x` for one: neither closes properties here.
	if (!/\n---(\r?\n)?$/.test(head) || (!/\n$/.test(head) && body !== "")) return undefined;
	// gray-matter cuts at the `\n` of the closing line: a CRLF file leaves its `\r` on the last property.
	return { yaml: file.matter.replace(/^\r?\n/, "").replace(/\r$/, ""), data: isRecord(data) ? data : {}, body };
}

/**
 * Why YAML text is not valid (the parser's first error, without its place, which is the place in
 * `yaml` and not in the note), or undefined when it is, or is too large to parse (see `readFrontmatter`).
 */
export function yamlProblem(yaml: string): string | undefined {
	if (yaml.length > MAX_PARSED_YAML) return undefined;
	const error = parseDocument(yaml, { logLevel: "silent" }).errors[0];
	if (error === undefined) return undefined;
	const message = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
	// The parser recurses per level and passes V8's own words on (15,000 nested brackets: the note said "Maximum call stack size exceeded"; attack round 47b).
	return message.startsWith("Maximum call stack size exceeded") ? "nested too deep to be read" : message;
}

/** Properties larger than this are not parsed (see `readFrontmatter`): a fact's are a few hundred bytes. */
const MAX_PARSED_YAML = 32 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
