import { applyEdits, createScanner, type Edit, findNodeAtLocation, format, type FormattingOptions, type JSONPath, modify, type Node as JsonNode, type ParseError, type ParseOptions, parseTree, printParseErrorCode, type SyntaxKind, visit } from "jsonc-parser";

/**
 * Edits of an agent's JSON settings that keep every other byte (Claude Code's `settings.json` and
 * `~/.claude.json`, Gemini CLI's `settings.json`): what the hooks and the MCP server install
 * share. The reasons read as the end of "<file> was left alone: …".
 */

/**
 * The value of JSON (or JSONC) text as `JSON.parse` makes it, which is how the agents read their
 * files: every key an own property. jsonc-parser's `parse` assigns keys, so a `"__proto__"` key set
 * the object's prototype instead: `{"__proto__": {"hooks": …}}` read as hooks installed, and the
 * key was invisible to the comparisons that give back the user's bytes.
 */
export function parseJson(text: string, errors: ParseError[] = [], options?: ParseOptions): unknown {
	const root: unknown[] = [];
	let parent: Record<string, unknown> | unknown[] = root;
	let key: string | null = null;
	const parents: (Record<string, unknown> | unknown[])[] = [];
	const onValue = (value: unknown) => {
		if (Array.isArray(parent)) parent.push(value);
		else if (key !== null) Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
	};
	const open = (container: Record<string, unknown> | unknown[]) => {
		onValue(container);
		parents.push(parent);
		parent = container;
		key = null;
	};
	const close = () => {
		parent = parents.pop() ?? root;
	};
	visit(
		text,
		{
			onObjectBegin: () => open({}),
			onObjectProperty: (name) => {
				key = name;
			},
			onObjectEnd: close,
			onArrayBegin: () => open([]),
			onArrayEnd: close,
			onLiteralValue: onValue,
			onError: (error, offset, length) => {
				errors.push({ error, offset, length });
			},
		},
		options,
	);
	return root[0];
}

const BOM = "\uFEFF";

/**
 * `edit` of the text after a byte order mark, the mark put back before what it gives: jsonc-parser
 * reads the mark as a symbol, so an install refused such a file as "not valid JSON (InvalidSymbol at
 * line 1)", a character no one sees, where Claude Code reads it.
 */
export function besideBom<T extends { ok: boolean; text?: string | null }>(text: string | null, edit: (body: string | null, before?: string | null) => T, before?: string | null): T {
	if (!text?.startsWith(BOM)) return edit(text, before);
	// The file before the install (an uninstall's), compared with the body: its mark goes too.
	const done = edit(text.slice(1), before?.startsWith(BOM) ? before.slice(1) : before);
	return done.ok && typeof done.text === "string" ? { ...done, text: BOM + done.text } : done;
}

export type ParsedObject = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

/** Far deeper than any agent's settings; far shallower than what overflows the parser's stack. */
const MAX_DEPTH = 1000;

/**
 * How deep `{` and `[` nest, outside strings and comments: one pass, no recursion (what the parser
 * would reach, told before it is asked). Unbalanced text is the parser's to report.
 */
export function nestingDepth(text: string): number {
	let depth = 0;
	let max = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '"') {
			// To the closing quote, past escapes; an unclosed string ends the scan.
			for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
		} else if (c === "/" && text[i + 1] === "/") {
			const nl = text.indexOf("\n", i);
			i = nl < 0 ? text.length : nl;
		} else if (c === "/" && text[i + 1] === "*") {
			const end = text.indexOf("*/", i + 2);
			i = end < 0 ? text.length : end + 1;
		} else if (c === "{" || c === "[") max = Math.max(max, ++depth);
		else if (c === "}" || c === "]") depth--;
	}
	return max;
}

/**
 * The file's object; an empty or missing file is `{}`. `container` is the key our edits go into:
 * it must be an object, and neither it nor the top level may hold a key twice (a client reads the
 * last of two, so an edit of the first would do nothing).
 */
export function parseJsonObject(text: string | null, container: string, options: { comments: boolean }): ParsedObject {
	// A byte order mark (Notepad, PowerShell 5.1) is no part of the JSON: Claude Code reads such a file.
	if (text?.startsWith(BOM)) return parseJsonObject(text.slice(1), container, options);
	if (text === null || text.trim() === "") return { ok: true, value: {} };
	// jsonc-parser recurses once per level: 100,000 nested arrays gave "Maximum call stack size exceeded".
	if (nestingDepth(text) > MAX_DEPTH) return { ok: false, reason: `it nests objects or arrays more than ${MAX_DEPTH} deep; nothing was changed` };
	const errors: ParseError[] = [];
	const value: unknown = parseJson(text, errors, { allowTrailingComma: false, disallowComments: !options.comments });
	const first = errors[0];
	if (first) return { ok: false, reason: `it is not valid JSON (${printParseErrorCode(first.error)} at line ${text.slice(0, first.offset).split("\n").length}); nothing was changed` };
	if (!isRecord(value)) return { ok: false, reason: "it does not hold a JSON object; nothing was changed" };
	if (value[container] !== undefined && !isRecord(value[container])) return { ok: false, reason: `its "${container}" is not an object; nothing was changed` };
	const root = parseTree(text);
	const twice = duplicateKey(root, "") ?? duplicateKeyWithin(root ? findNodeAtLocation(root, [container]) : undefined, `"${container}".`);
	if (twice) return { ok: false, reason: `it has ${twice} twice, and only the last one counts: merge them, then install again; nothing was changed` };
	return { ok: true, value };
}

/**
 * Sets `value` at `path` (inserted, or in place of what is there) and formats only that text, in
 * the file's own indentation: jsonc-parser's formatting of an edit reformats the whole line it
 * lands on, which took a user's compact `"Stop": [{…}]` apart. Into an empty container (or a new
 * file) the container is ours and formatted whole; into a list or object written on one line (or
 * a one-line file), compact. A number last in `path` inserts into a list.
 */
export function insertAt(text: string, path: JSONPath, value: unknown): string {
	const [edit] = modify(text, path, value, { isArrayInsertion: typeof path.at(-1) === "number" });
	if (!edit) return text;
	const before = parseTree(text);
	const container = before && deepestContainer(before, edit.offset);
	const oneLine = (node: JsonNode) => (node.children?.length ?? 0) > 0 && !/[\r\n]/.test(text.slice(node.offset, node.offset + node.length));
	const out = applyEdits(text, [edit]);
	if (before && container && (oneLine(before) || oneLine(container))) return out;
	const empty = container !== undefined && (container.children?.length ?? 0) === 0;
	const range = empty ? { offset: container.offset, length: container.length + edit.content.length - edit.length } : { offset: edit.offset, length: edit.content.length };
	return applyEdits(out, format(out, range, formatting(text)));
}

function deepestContainer(node: JsonNode, offset: number): JsonNode | undefined {
	if (!(node.type === "object" || node.type === "array") || offset <= node.offset || offset >= node.offset + node.length) return undefined;
	for (const child of node.children ?? []) {
		const inner = deepestContainer(child.type === "property" ? (child.children?.[1] ?? child) : child, offset);
		if (inner) return inner;
	}
	return node;
}

/**
 * Removes the property or item at `path` and nothing else: with the comma and line break before
 * it when it is the last one, else with those after it (the inverse of `insertAt`); an only child
 * leaves its container empty (`{}`). A comment between it and its neighbour stays (Gemini CLI's
 * settings may hold some): a comment after the comma before the last item was removed with it.
 */
export function removeAt(text: string, path: JSONPath): string {
	const root = parseTree(text);
	const node = root && findNodeAtLocation(root, path);
	if (!node) return text;
	const item = node.parent?.type === "property" ? node.parent : node;
	const container = item.parent;
	const siblings = container?.children ?? [];
	const at = siblings.indexOf(item);
	if (!container || at < 0) return text;
	const itemEnd = item.offset + item.length;
	let edits: Edit[];
	if (siblings.length === 1) edits = [{ offset: container.offset + 1, length: container.length - 2, content: "" }];
	else if (at === siblings.length - 1) {
		// The comma after the previous item goes; the blanks from the last comment (or the comma) on go with the item.
		const previous = siblings[at - 1]!;
		const gap = tokensBetween(text, previous.offset + previous.length, item.offset);
		const comma = gap.find((t) => t.kind === COMMA);
		if (!comma) return text;
		const lastComment = gap.filter(isComment).at(-1);
		const from = lastComment ? lastComment.offset + lastComment.length : comma.offset + 1;
		edits = [{ offset: comma.offset, length: 1, content: "" }, { offset: from, length: itemEnd - from, content: "" }];
	} else {
		// The item, its comma and the blanks after it, up to the next item or to a comment before it.
		const gap = tokensBetween(text, itemEnd, siblings[at + 1]!.offset);
		const firstKept = gap.find(isComment);
		const to = firstKept ? firstKept.offset : siblings[at + 1]!.offset;
		edits = [{ offset: item.offset, length: to - item.offset, content: "" }];
	}
	return applyEdits(text, edits);
}

/** jsonc-parser's `SyntaxKind` values (a const enum, which isolated modules cannot read). */
const COMMA = 5 as SyntaxKind;
const LINE_COMMENT = 12 as SyntaxKind;
const BLOCK_COMMENT = 13 as SyntaxKind;
const EOF = 17 as SyntaxKind;
const isComment = (t: { kind: SyntaxKind }) => t.kind === LINE_COMMENT || t.kind === BLOCK_COMMENT;

/** The tokens (trivia included) from `from` up to `to`. */
function tokensBetween(text: string, from: number, to: number): { kind: SyntaxKind; offset: number; length: number }[] {
	const scanner = createScanner(text, false);
	scanner.setPosition(from);
	const tokens: { kind: SyntaxKind; offset: number; length: number }[] = [];
	for (let kind = scanner.scan(); kind !== EOF && scanner.getTokenOffset() < to; kind = scanner.scan()) tokens.push({ kind, offset: scanner.getTokenOffset(), length: scanner.getTokenLength() });
	return tokens;
}

/** The file's own indentation, so what we add looks like what was there. */
function formatting(text: string): FormattingOptions {
	const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
	return { insertSpaces: !indent.startsWith("\t"), tabSize: indent.startsWith("\t") ? 1 : indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

/** The first key that appears twice in `node` or in an object anywhere inside it (a matcher group's two "hooks"), named after `where`. */
function duplicateKeyWithin(node: JsonNode | undefined, where: string, depth = 0): string | undefined {
	if (!node || depth > 32) return undefined;
	const own = duplicateKey(node, where);
	if (own) return own;
	for (const child of node.children ?? []) {
		const value = child.type === "property" ? child.children?.[1] : child;
		const name = child.type === "property" ? `${where}"${String(child.children?.[0]?.value)}".` : where;
		const found = duplicateKeyWithin(value, name, depth + 1);
		if (found) return found;
	}
	return undefined;
}

/** The first key that appears twice in `node` (an object), named after `where`. */
function duplicateKey(node: JsonNode | undefined, where: string): string | undefined {
	const seen = new Set<string>();
	for (const property of node?.type === "object" ? (node.children ?? []) : []) {
		const key: unknown = property.children?.[0]?.value;
		if (typeof key !== "string") continue;
		if (seen.has(key)) return `${where}"${key}"`;
		seen.add(key);
	}
	return undefined;
}

/** Whether two JSON values mean the same, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (!isRecord(value)) return value;
	return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
