import type { UsageDay } from "../digest/usage-days";
import type { CatalogEntry, SessionRow, UsageOnlyRow } from "./session-rows";
import { isBoolean, isObject, isString, isStrings, optional } from "../value-guards";

/**
 * A catalog entry of the state as the Sessions view and the dashboard read it, or undefined when
 * it is not of the shape the sync writes (a hand edit, a file-sync tool's merge, another release,
 * damage): each field of its type, each count a number from 0 to 2^53, each day a real calendar
 * day. One entry whose `usage` was a number made every refresh of the view and every dashboard
 * fail ("row.usage is not iterable"), one day "2026-1-5" made the pictures throw "Invalid time
 * value", a `tokens` of -1e308 showed as "-1e+308 tokens" (attack round 50b).
 */
export function readableRow(id: string, entry: unknown): SessionRow | undefined {
	if (!isObject(entry)) return undefined;
	const e = entry as Partial<Record<keyof CatalogEntry, unknown>>;
	if (!isString(e.title) || !isString(e.project) || !isString(e.agent) || !isString(e.notePath)) return undefined;
	if (!optional(e.started, isString) || !optional(e.day, isDay) || !optional(e.deleted, isBoolean)) return undefined;
	if (![e.activeMinutes, e.prompts, e.tokens].every(isCount) || !isStrings(e.tags) || !isStrings(e.files)) return undefined;
	const usage = readableUsage(e.usage);
	if (!usage) return undefined;
	return { id, title: e.title, project: e.project, agent: e.agent as SessionRow["agent"], started: e.started as string | undefined, day: e.day as string | undefined, activeMinutes: e.activeMinutes as number, prompts: e.prompts as number, tags: e.tags, files: e.files, notePath: e.notePath, deleted: e.deleted === true, usage, tokens: e.tokens as number };
}

/** Usage no session holds, when of the shape the sync writes (see `readableRow`). */
export function readableUsageOnly(row: UsageOnlyRow): UsageOnlyRow | undefined {
	const usage = readableUsage(row.usage);
	return usage && optional(row.day, isDay) && isString(row.agent) ? { ...row, usage } : undefined;
}

function readableUsage(value: unknown): UsageDay[] | undefined {
	if (!Array.isArray(value)) return undefined;
	const ok = value.every((u) => isObject(u) && isDay(u.day) && isString(u.model) && [u.input, u.output, u.cacheRead, u.cacheWrite].every(isCount));
	return ok ? (value as UsageDay[]) : undefined;
}

/** `YYYY-MM-DD`, a day the calendar has, from 1970 (no agent's session is older) to 9999. */
export function isDay(value: unknown): value is string {
	if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value) || value < "1970") return false;
	const t = Date.parse(`${value}T00:00:00Z`);
	return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}

const isCount = (value: unknown): value is number => typeof value === "number" && value >= 0 && value <= Number.MAX_SAFE_INTEGER;
