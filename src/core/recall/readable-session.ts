import { DIGEST_VERSION, type StoredDigest } from "../digest/session-digest";
import type { SessionRecord } from "../sync/sync-state";
import type { SearchableSession } from "./session-search";
import { isBoolean, isObject, isString, isStrings, optional } from "../value-guards";

/**
 * A session record of the state as the recall tools read it, or undefined when it is not of the
 * shape this release writes (a field of another type: a hand edit, a file-sync tool's merge, a
 * release that changed a field without its version). Such a record is left out whole: one record
 * whose `open` was a number made every search over every session fail with "t.open is not iterable".
 * A list the record lacks is an empty one.
 */
export function readableSession(key: string, record: unknown): SearchableSession | undefined {
	if (!isObject(record)) return undefined;
	const r = record as Partial<SessionRecord>;
	if (typeof r.project !== "string" || typeof r.notePath !== "string" || !optional(r.projectKey, isString) || !optional(r.projectPath, isString) || !optional(r.deleted, isBoolean)) return undefined;
	const digest = readableDigest(r.digest);
	if (!digest) return undefined;
	const tags = r.tags === undefined ? [] : r.tags;
	if (!isStrings(tags)) return undefined;
	return { key, project: r.project, projectKey: r.projectKey, projectPath: r.projectPath, notePath: r.notePath, deleted: r.deleted, tags, digest };
}

const STRING_LISTS = ["models", "asked", "done", "open", "decisions", "filesTouched", "tools"] as const;

/** The stored digest with its lists filled in, when every field it has is of its type. */
function readableDigest(value: unknown): StoredDigest | undefined {
	if (!isObject(value)) return undefined;
	const d = value as Partial<Record<keyof StoredDigest, unknown>>;
	if (d.version !== DIGEST_VERSION || typeof d.sessionId !== "string" || typeof d.agent !== "string" || typeof d.title !== "string") return undefined;
	if (![d.projectPath, d.branch, d.startedAt, d.endedAt].every((v) => optional(v, isString))) return undefined;
	if (![d.activeMinutes, d.prompts, d.toolCalls].every((v) => optional(v, isNumber))) return undefined;
	const lists: Partial<Record<(typeof STRING_LISTS)[number], string[]>> = {};
	for (const name of STRING_LISTS) {
		const list = d[name] ?? [];
		if (!isStrings(list)) return undefined;
		lists[name] = list;
	}
	const tasks = d.tasks ?? [];
	if (!Array.isArray(tasks) || !tasks.every((t) => isObject(t) && optional(t.ask, isString) && optional(t.calls, isNumber) && isStrings(t.result ?? []))) return undefined;
	const subagents = d.subagents ?? [];
	if (!Array.isArray(subagents) || !subagents.every((s) => isObject(s) && isString(s.description) && optional(s.type, isString) && optional(s.agentId, isString))) return undefined;
	return { ...(value as StoredDigest), ...lists, tasks: tasks as StoredDigest["tasks"], subagents: subagents as StoredDigest["subagents"] };
}

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
