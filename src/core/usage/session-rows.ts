import type { StoredDigest } from "../digest/session-digest";
import type { UsageDay } from "../digest/usage-days";
import { relativeTo } from "../notes/relative-path";
import { codeUnitOrder } from "../text/code-unit-order";
import { localDay } from "../text/local-date";
import type { AgentId } from "../transcript/agents";
import type { UsageOnlyRecord } from "../sync/sync-state";
import { readableRow, readableUsageOnly } from "./readable-row";
import { isObject } from "../value-guards";

/** The part of a digest the list and the pictures read. */
export type CatalogDigest = Pick<StoredDigest, "title" | "agent" | "projectPath" | "startedAt" | "activeMinutes" | "models" | "prompts" | "filesTouched" | "tokens" | "usage">;

/** What the sync keeps of a session that the view and the dashboard read (a `SessionRecord`'s shape). */
export interface SessionSource {
	project: string;
	notePath: string;
	deleted?: boolean;
	digest: CatalogDigest;
	tags: string[];
}

/** One session as the Sessions view lists it and the charts count it. */
export interface SessionRow {
	/** Its transcript path: the key of the sync's record and of the search index. */
	id: string;
	title: string;
	project: string;
	agent: AgentId;
	started?: string;
	/** Local day it started (`YYYY-MM-DD`), as its note's name says. */
	day?: string;
	activeMinutes: number;
	prompts: number;
	tags: string[];
	/** Files it wrote or edited, relative to its project. */
	files: string[];
	notePath: string;
	/** The user deleted its note: it still counts, and opening it says so. */
	deleted: boolean;
	usage: UsageDay[];
	/** All its tokens (input, output, cache read and write), sub-agents' included: the size the list shows. */
	tokens: number;
}

/**
 * Tokens no session holds (a warmup whose session was never written, `UsageOnlyRecord`): the
 * pictures count them in tokens and cost, by day and project; the list, its filters' menus, search
 * and the session and activity counts never see them.
 */
export interface UsageOnlyRow {
	/** Its transcript path. */
	id: string;
	project: string;
	agent: AgentId;
	/** Local day it started, as a session row's: the date filter reads it. */
	day?: string;
	usage: UsageDay[];
}

/** What the view reads of the catalog: the sessions it lists, and the usage it only counts. */
export interface CatalogRows {
	sessions: SessionRow[];
	usageOnly: UsageOnlyRow[];
	/** Entries of the state not of the shape the sync writes, left out (the view says how many). */
	unreadable?: number;
}

/** A session as the sync writes it for the view (`state/catalog/`): its row, worked out at sync time. */
export type CatalogEntry = Omit<SessionRow, "id">;

/**
 * A session record cut to the row the list and the pictures read: the sync writes these beside
 * the records (a ninth of their bytes), so the view opens on 10,000 sessions without parsing 50 MB
 * or working anything out.
 */
export function catalogEntry(r: SessionSource): CatalogEntry {
	const d = r.digest;
	// Older digests have no usage: their totals, on their first day, under their first model.
	const usage = (d as Partial<CatalogDigest>).usage ?? (d.startedAt ? [{ day: localDay(d.startedAt)!, model: d.models[0] ?? "unknown", ...d.tokens }] : []);
	return {
		title: d.title,
		project: r.project,
		agent: d.agent ?? "claude-code",
		started: d.startedAt,
		day: localDay(d.startedAt),
		activeMinutes: d.activeMinutes ?? 0,
		prompts: d.prompts,
		tags: r.tags,
		files: d.filesTouched.map((f) => relativeTo(f, d.projectPath)),
		notePath: r.notePath,
		deleted: r.deleted === true,
		usage,
		tokens: usage.reduce((n, u) => n + u.input + u.output + u.cacheRead + u.cacheWrite, 0),
	};
}

/**
 * The sessions newest first (then by title and key), from catalog entries or whole records; an
 * entry not of the shape the sync writes is left out (`readableRow`), never a view that fails.
 */
export function sessionRows(records: Readonly<Record<string, SessionSource | CatalogEntry>>): SessionRow[] {
	const rows: SessionRow[] = [];
	for (const [id, r] of Object.entries(records)) {
		const row = readableRow(id, isObject(r) && "digest" in r ? wholeRecordEntry(r as SessionSource) : r);
		if (row) rows.push(row);
	}
	return rows.sort((a, b) => codeUnitOrder(b.started ?? "", a.started ?? "") || codeUnitOrder(a.title, b.title) || codeUnitOrder(a.id, b.id));
}

/** The usage-only records as rows, by transcript path (the order of the pictures' sums never depends on the state's). */
export function usageOnlyRows(records: Readonly<Record<string, UsageOnlyRecord>>): UsageOnlyRow[] {
	return Object.entries(records)
		.flatMap(([id, r]) => readableUsageOnly({ id, project: r.project, agent: r.agent ?? "claude-code", day: localDay(typeof r.startedAt === "string" ? r.startedAt : undefined), usage: r.usage }) ?? [])
		.sort((a, b) => codeUnitOrder(a.id, b.id));
}

/** A whole record's row, when its digest has the fields a row is made of (else nothing: `readableRow` refuses it). */
function wholeRecordEntry(r: SessionSource): CatalogEntry | undefined {
	const d: unknown = r.digest;
	if (!isObject(d) || !Array.isArray(d.filesTouched) || !Array.isArray(d.models) || (d.startedAt !== undefined && typeof d.startedAt !== "string") || (d.projectPath !== undefined && typeof d.projectPath !== "string")) return undefined;
	if (!d.filesTouched.every((f) => typeof f === "string") || (d.usage === undefined && !isObject(d.tokens))) return undefined;
	return catalogEntry(r);
}
