import { applyEdits, type Edit, findNodeAtLocation, format, type FormattingOptions, type JSONPath, modify, type Node as JsonNode, type ParseError, parse, parseTree, printParseErrorCode } from "jsonc-parser";

/**
 * The Claude Code events our hooks answer. InstructionsLoaded (Claude Code 2.1.332 has it: a
 * CLAUDE.md or rule file loaded) prints nothing; it records what reached the session, for `doctor`.
 */
export const HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "SessionEnd", "PreCompact", "InstructionsLoaded"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Every command we install carries this argument: it is how ours are told from the user's. */
export const HOOK_MARK = "--from ai-conversation-memory";

export type HookEdit = { ok: true; text: string; changed: boolean } | { ok: false; reason: string };

interface HookEntry {
	type?: string;
	command?: string;
	timeout?: number;
}
interface MatcherGroup {
	matcher?: string;
	hooks?: HookEntry[];
}

/**
 * Adds our hook commands to a Claude Code `settings.json` (text; null when there is none),
 * keeping every other key, hook and the file's formatting. Installing twice changes nothing; an
 * older install of ours is replaced. Invalid JSON stops with the reason and the line.
 */
export function installHooks(text: string | null, commands: Readonly<Record<HookEvent, string>>, timeouts: Partial<Record<HookEvent, number>> = {}): HookEdit {
	const parsed = parseSettings(text);
	if (!parsed.ok) return parsed;
	let out = text ?? "{}\n";
	for (const event of HOOK_EVENTS) {
		const groups = groupsOf(parsed.value, event);
		const entry: HookEntry = { type: "command", command: commands[event], ...(timeouts[event] === undefined ? {} : { timeout: timeouts[event] }) };
		const ours = findOurs(groups);
		if (ours.length === 1 && JSON.stringify(groups[ours[0]!.group]?.hooks?.[ours[0]!.hook]) === JSON.stringify(entry)) continue;
		// Drop every entry of ours (stale paths, duplicates), then add the current one.
		out = removeOurs(out, event);
		const now = groupsOf(parse(out) as unknown, event);
		out = insertAt(out, ["hooks", event, now.length], { hooks: [entry] });
	}
	return { ok: true, text: out, changed: out !== (text ?? "{}\n") };
}

/**
 * Removes our hook commands only; a group or event or `hooks` key left empty by that goes too.
 * `before` is the file as it was before our install (the backup; null: there was no file): when
 * what is left means the same as it, the user gets those exact bytes back (null: delete the file).
 */
export function uninstallHooks(text: string | null, before?: string | null): { ok: true; text: string | null; changed: boolean } | { ok: false; reason: string } {
	if (text === null) return { ok: true, text: null, changed: false };
	const parsed = parseSettings(text);
	if (!parsed.ok) return parsed;
	let out = text;
	for (const event of HOOK_EVENTS) out = removeOurs(out, event);
	const after = parse(out) as { hooks?: Record<string, unknown> } | undefined;
	if (after?.hooks && Object.keys(after.hooks).length === 0) out = removeAt(out, ["hooks"]);
	if (before !== undefined) {
		const original = parseSettings(before);
		if (original.ok && JSON.stringify(sortKeys(parse(out))) === JSON.stringify(sortKeys(original.value))) return { ok: true, text: before, changed: before !== text };
	}
	return { ok: true, text: out, changed: out !== text };
}

function sortKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeys);
	if (!isRecord(value)) return value;
	return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
}

/** Which of our events are installed, and with what command. */
export function installedHooks(text: string | null): Partial<Record<HookEvent, string>> {
	const parsed = parseSettings(text);
	if (!parsed.ok) return {};
	const found: Partial<Record<HookEvent, string>> = {};
	for (const event of HOOK_EVENTS) {
		const groups = groupsOf(parsed.value, event);
		const ours = findOurs(groups)[0];
		const command = ours ? groups[ours.group]?.hooks?.[ours.hook]?.command : undefined;
		if (command) found[event] = command;
	}
	return found;
}

function removeOurs(text: string, event: HookEvent): string {
	let out = text;
	for (;;) {
		const groups = groupsOf(parse(out) as unknown, event);
		const ours = findOurs(groups).at(-1);
		if (!ours) break;
		const group = groups[ours.group];
		const onlyOurs = (group?.hooks ?? []).every((h) => isOurs(h));
		const path = onlyOurs ? ["hooks", event, ours.group] : ["hooks", event, ours.group, "hooks", ours.hook];
		out = removeAt(out, path);
		if (onlyOurs && groups.length === 1) out = removeAt(out, ["hooks", event]);
	}
	return out;
}

function findOurs(groups: readonly MatcherGroup[]): { group: number; hook: number }[] {
	const found: { group: number; hook: number }[] = [];
	groups.forEach((g, group) => (g.hooks ?? []).forEach((h, hook) => isOurs(h) && found.push({ group, hook })));
	return found;
}

/**
 * A command of ours has the shape we write: `… hook <event> --vault … --from ai-conversation-memory`,
 * the mark last. A user's command that merely mentions the mark is theirs, and stays.
 */
const OUR_COMMAND = new RegExp(` hook [A-Za-z-]+(?: .*)? ${HOOK_MARK}$`);

function isOurs(hook: HookEntry): boolean {
	return typeof hook.command === "string" && OUR_COMMAND.test(hook.command.trim());
}

function groupsOf(value: unknown, event: HookEvent): MatcherGroup[] {
	const hooks = isRecord(value) ? value.hooks : undefined;
	const list = isRecord(hooks) ? hooks[event] : undefined;
	return Array.isArray(list) ? (list as MatcherGroup[]) : [];
}

function parseSettings(text: string | null): { ok: true; value: unknown } | { ok: false; reason: string } {
	if (text === null || text.trim() === "") return { ok: true, value: {} };
	const errors: ParseError[] = [];
	const value: unknown = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
	const first = errors[0];
	if (first) {
		const line = text.slice(0, first.offset).split("\n").length;
		return { ok: false, reason: `it is not valid JSON (${printParseErrorCode(first.error)} at line ${line}); nothing was changed` };
	}
	if (!isRecord(value)) return { ok: false, reason: "it does not hold a JSON object; nothing was changed" };
	const hooks = value.hooks;
	if (hooks !== undefined && !isRecord(hooks)) return { ok: false, reason: `its "hooks" is not an object; nothing was changed` };
	for (const event of HOOK_EVENTS) {
		const list = isRecord(hooks) ? hooks[event] : undefined;
		if (list !== undefined && !isGroupList(list)) return { ok: false, reason: `its "hooks"."${event}" is not a list of matcher groups (Claude Code's format is [{ "hooks": [ … ] }]); nothing was changed` };
	}
	// Claude Code, as JSON.parse, reads only the last of two equal keys: a hook added to the first would not run.
	const twice = duplicateKey(text);
	if (twice) return { ok: false, reason: `it has ${twice} twice, and only the last one counts: merge them, then install again; nothing was changed` };
	return { ok: true, value };
}

/**
 * Inserts `value` at `path` and formats only the inserted text, in the file's own indentation:
 * jsonc-parser's formatting of an edit reformats the whole line it lands on, which took a user's
 * compact `"Stop": [{…}]` apart. Into an empty container (or a new file) the container is ours and
 * formatted whole; into a list or object written on one line (or a one-line file), compact.
 */
function insertAt(text: string, path: JSONPath, value: unknown): string {
	const [edit] = modify(text, path, value, { isArrayInsertion: typeof path.at(-1) === "number" });
	if (!edit) return text;
	const before = parseTree(text);
	const container = before && deepestContainer(before, edit.offset);
	const oneLine = (node: JsonNode) => (node.children?.length ?? 0) > 0 && !/[\r\n]/.test(text.slice(node.offset, node.offset + node.length));
	const out = applyEdits(text, [edit]);
	if (before && container && (oneLine(before) || oneLine(container))) return out;
	const empty = container !== undefined && (container.children?.length ?? 0) === 0;
	const range = empty ? { offset: container.offset, length: container.length + edit.content.length } : { offset: edit.offset, length: edit.content.length };
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
 * leaves its container empty (`{}`).
 */
function removeAt(text: string, path: JSONPath): string {
	const root = parseTree(text);
	const node = root && findNodeAtLocation(root, path);
	if (!node) return text;
	const item = node.parent?.type === "property" ? node.parent : node;
	const container = item.parent;
	const siblings = container?.children ?? [];
	const at = siblings.indexOf(item);
	if (!container || at < 0) return text;
	let edit: Edit;
	if (siblings.length === 1) edit = { offset: container.offset + 1, length: container.length - 2, content: "" };
	else if (at === siblings.length - 1) {
		const previous = siblings[at - 1]!;
		edit = { offset: previous.offset + previous.length, length: item.offset + item.length - (previous.offset + previous.length), content: "" };
	} else edit = { offset: item.offset, length: siblings[at + 1]!.offset - item.offset, content: "" };
	return applyEdits(text, [edit]);
}

/** The file's own indentation, so what we add looks like what was there. */
function formatting(text: string): FormattingOptions {
	const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
	return { insertSpaces: !indent.startsWith("\t"), tabSize: indent.startsWith("\t") ? 1 : indent.length, eol: text.includes("\r\n") ? "\r\n" : "\n" };
}

/** Claude Code's shape for an event: `[{ "matcher"?: …, "hooks": [{ … }] }]`. */
function isGroupList(value: unknown): boolean {
	return Array.isArray(value) && value.every((g) => isRecord(g) && (g.hooks === undefined || (Array.isArray(g.hooks) && g.hooks.every(isRecord))));
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The first key that appears twice in one object, at the top or in `hooks` (where our edits go). */
function duplicateKey(text: string): string | undefined {
	const root = parseTree(text);
	const twiceIn = (node: JsonNode | undefined, where: string): string | undefined => {
		const seen = new Set<string>();
		for (const property of node?.type === "object" ? (node.children ?? []) : []) {
			const key: unknown = property.children?.[0]?.value;
			if (typeof key !== "string") continue;
			if (seen.has(key)) return `${where}"${key}"`;
			seen.add(key);
		}
		return undefined;
	};
	return twiceIn(root, "") ?? twiceIn(root ? findNodeAtLocation(root, ["hooks"]) : undefined, '"hooks".');
}
