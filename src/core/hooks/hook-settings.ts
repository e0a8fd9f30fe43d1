import { besideBom, insertAt, isRecord, parseJson as parse, parseJsonObject, removeAt, sameJson } from "./json-edit";

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
	return besideBom(text, (body) => installInto(body, commands, timeouts));
}

function installInto(text: string | null, commands: Readonly<Record<HookEvent, string>>, timeouts: Partial<Record<HookEvent, number>>): HookEdit {
	const parsed = parseSettings(text);
	if (!parsed.ok) return parsed;
	// A file of blanks is an empty one: a byte order mark alone (a `\uFEFF` trim takes) was left after the object we wrote, which made the file invalid JSON.
	const base = text === null || text.trim() === "" ? "{}\n" : text;
	let out = base;
	for (const event of HOOK_EVENTS) {
		const groups = groupsOf(parsed.value, event);
		const entry: HookEntry = { type: "command", command: commands[event], ...(timeouts[event] === undefined ? {} : { timeout: timeouts[event] }) };
		const ours = findOurs(groups);
		if (ours.length === 1 && JSON.stringify(groups[ours[0]!.group]?.hooks?.[ours[0]!.hook]) === JSON.stringify(entry)) continue;
		// Drop every entry of ours (stale paths, duplicates), then add the current one.
		out = removeOurs(out, event, false);
		const now = groupsOf(parse(out), event);
		out = insertAt(out, ["hooks", event, now.length], { hooks: [entry] });
	}
	return { ok: true, text: out, changed: out !== (text ?? base) };
}

/**
 * Removes our hook commands only; a group or event or `hooks` key left empty by that goes too.
 * `before` is the file as it was before our install (the backup; null: there was no file): when
 * what is left means the same as it, the user gets those exact bytes back (null: delete the file).
 */
export function uninstallHooks(text: string | null, before?: string | null): { ok: true; text: string | null; changed: boolean } | { ok: false; reason: string } {
	return besideBom(text, uninstallFrom, before);
}

function uninstallFrom(text: string | null, before?: string | null): { ok: true; text: string | null; changed: boolean } | { ok: false; reason: string } {
	if (text === null) return { ok: true, text: null, changed: false };
	const parsed = parseSettings(text);
	if (!parsed.ok) return parsed;
	// Nothing of ours: the file is the user's as it is. With no backup (`before` null) a `{}` of theirs
	// was taken for the file our install made, and deleted; a `"hooks": {}` of theirs was removed.
	if (HOOK_EVENTS.every((event) => findOurs(groupsOf(parsed.value, event)).length === 0)) return { ok: true, text, changed: false };
	// What the file had before our install (`"hooks": {}`, an event's empty list) stays when emptied:
	// it went, so the user's bytes never came back.
	// A list that held entries of ours alone (an older install's) was ours, not the user's: left as
	// `[]` it was (attack round 49b), and the `"hooks"` that held only such lists too.
	const original = before === undefined ? undefined : parseSettings(before);
	const valueBefore = original?.ok ? original.value : undefined;
	const hooksBefore = isRecord(valueBefore) && isRecord(valueBefore.hooks) ? valueBefore.hooks : undefined;
	const theirs = (key: string) => hooksBefore?.[key] !== undefined && !(HOOK_EVENTS.includes(key as HookEvent) && onlyOurs(groupsOf(valueBefore, key as HookEvent)));
	const had = hooksBefore !== undefined && (Object.keys(hooksBefore).length === 0 || Object.keys(hooksBefore).some(theirs));
	let out = text;
	for (const event of HOOK_EVENTS) out = removeOurs(out, event, theirs(event));
	const after = parse(out) as { hooks?: Record<string, unknown> } | undefined;
	if (after?.hooks && Object.keys(after.hooks).length === 0 && !had) out = removeAt(out, ["hooks"]);
	if (original?.ok && sameJson(parse(out), original.value)) return { ok: true, text: before ?? null, changed: before !== text };
	return { ok: true, text: out, changed: out !== text };
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

function removeOurs(text: string, event: HookEvent, keepList: boolean): string {
	let out = text;
	for (;;) {
		const groups = groupsOf(parse(out), event);
		const ours = findOurs(groups).at(-1);
		if (!ours) break;
		const group = groups[ours.group];
		const onlyOurs = (group?.hooks ?? []).every((h) => isOurs(h));
		const path = onlyOurs ? ["hooks", event, ours.group] : ["hooks", event, ours.group, "hooks", ours.hook];
		const next = removeAt(out, path);
		// Nothing removed (the parse and the edit saw different lists): stop rather than try again for ever.
		if (next === out) break;
		out = onlyOurs && groups.length === 1 && !keepList ? removeAt(next, ["hooks", event]) : next;
	}
	return out;
}

/** A list of matcher groups whose every entry is ours (none of the user's, not empty). */
function onlyOurs(groups: readonly MatcherGroup[]): boolean {
	const entries = groups.reduce((n, g) => n + (Array.isArray(g.hooks) ? g.hooks.length : 1), 0);
	return entries > 0 && findOurs(groups).length === entries;
}

function findOurs(groups: readonly MatcherGroup[]): { group: number; hook: number }[] {
	const found: { group: number; hook: number }[] = [];
	groups.forEach((g, group) => (g.hooks ?? []).forEach((h, hook) => isOurs(h) && found.push({ group, hook })));
	return found;
}

/**
 * A command of ours has the shape we write: `… hook <event> --vault <vault> … --from
 * ai-conversation-memory`, the mark last. A user's command that merely mentions the mark is
 * theirs, and stays (`notify hook session-end --from ai-conversation-memory` has no vault).
 */
const OUR_COMMAND = new RegExp(String.raw` hook [A-Za-z-]+ --vault (?:"(?:[^"\\]|\\.)+"|'[^']+'|[^\s"']+)(?: .*)? ${HOOK_MARK}$`);

function isOurs(hook: HookEntry): boolean {
	return typeof hook.command === "string" && OUR_COMMAND.test(hook.command.trim());
}

function groupsOf(value: unknown, event: HookEvent): MatcherGroup[] {
	const hooks = isRecord(value) ? value.hooks : undefined;
	const list = isRecord(hooks) ? hooks[event] : undefined;
	return Array.isArray(list) ? (list as MatcherGroup[]) : [];
}

function parseSettings(text: string | null): { ok: true; value: unknown } | { ok: false; reason: string } {
	const parsed = parseJsonObject(text, "hooks", { comments: false });
	if (!parsed.ok) return parsed;
	const hooks = parsed.value.hooks;
	for (const event of HOOK_EVENTS) {
		const list = isRecord(hooks) ? hooks[event] : undefined;
		if (list !== undefined && !isGroupList(list)) return { ok: false, reason: `its "hooks"."${event}" is not a list of matcher groups (Claude Code's format is [{ "hooks": [ … ] }]); nothing was changed` };
	}
	return parsed;
}

/** Claude Code's shape for an event: `[{ "matcher"?: …, "hooks": [{ … }] }]`. */
function isGroupList(value: unknown): boolean {
	return Array.isArray(value) && value.every((g) => isRecord(g) && (g.hooks === undefined || (Array.isArray(g.hooks) && g.hooks.every(isRecord))));
}
