import { dict } from "../dict";
import { storedKey } from "../memory/propose-facts";
import { hash53 } from "../transcript/hash";
import type { Checkpoint } from "../context/lazy-context";
import type { StoredDigest } from "../digest/session-digest";
import type { UsageDay } from "../digest/usage-days";
import type { AgentId } from "../transcript/agents";

/** What the sync remembers about one session between runs. Small: the models live elsewhere. */
export interface SessionRecord {
	/** The project's identity: its repository root (see `projects/project-identity`). Unset in a version 1 state. */
	projectKey?: string;
	/** The project's folder in the vault, as `SyncState.projects` names it. */
	project: string;
	/** Where the session ran (its `cwd`). */
	projectPath?: string;
	/** The note's path, chosen once: a later title change moves the note only when its transcript was rewritten (see `rewritten`). */
	notePath: string;
	/** Set once the note was written; a written note that is gone was deleted by the user. */
	written?: boolean;
	/** The user deleted the note: it is not recreated (except by a full rebuild). */
	deleted?: boolean;
	/** Its transcript was read anew (rewritten, not grown) while it waited for a sync of its project: its note may take the new title then. */
	rewritten?: true;
	/** The last write was refused because the note changed meanwhile: the next sync does it. */
	dirty?: boolean;
	/** The whole digest during a sync, the short form once stored (see `StoredDigest`): a note is rendered from the whole one. */
	digest: StoredDigest;
	tags: string[];
	/** Prompt keywords, for the corpus statistics behind topic tags. */
	keywords: string[];
	/** Names of the facts proposed from this session, for its note to link. */
	facts?: string[];
	/** Typed prompts of this session already weighed for facts to propose: a grown session is weighed from there. */
	proposedPrompts?: number;
}

/**
 * Tokens of a transcript that makes no session: a warmup agent whose session was never written
 * (or has nothing in it). Real calls, so the usage figures count them; noise, so no note, list row,
 * index or CLAUDE.md line shows them. Goes once a session holds the warmup (its usage has it then).
 */
export interface UsageOnlyRecord {
	projectKey: string;
	/** The project's folder in the vault, as `SyncState.projects` names it. */
	project: string;
	agent: AgentId;
	/** Where it ran (its `cwd`): an exclusion of that folder drops it. */
	projectPath?: string;
	startedAt?: string;
	usage: UsageDay[];
}

/** What the sync keeps about one project, by identity. */
export interface ProjectRecord {
	/** Its folder in the vault (notes, index, packet; memory under the memory folder): chosen once. */
	folder: string;
	/** The identity is a git repository's root: sessions recorded in folders below it belong to it. */
	repository?: boolean;
	/** The repository's root commits, recorded when first found (see `projects/replaced-repository`); unset before its first commit, or by an older release. */
	fingerprint?: string;
	/** Another repository took this one's path, given here: its identity is `<path>@<root commit>` until its repository is found elsewhere. */
	replacedAt?: string;
	/**
	 * Claude Code's memory folder at the path another repository took (Claude Code keeps memory by
	 * path), and the facts this project had shared there: the newcomer, whose sessions find them
	 * there, takes none of them into its own.
	 */
	leftFacts?: { folder: string; names: string[] };
	/** Where the user moved the project's notes folder, when they did: new session notes go there. */
	notesPath?: string;
	/** Where the user moved the project's memory folder, when they did. */
	memoryPath?: string;
	/** The notes folder setting its notes were last placed under (see `followNoteSettings`). */
	notesRoot?: string;
	/** The tag prefix its notes were last written with (see `followNoteSettings`). */
	tagPrefixWith?: string;
	/** The Claude Code memory folder its facts were last shared with (what `SyncState.memory` holds was both sides' there). */
	memoryWith?: string;
	/** Where that folder led once links were followed: the same path swapped for a link to another folder is another folder. */
	memoryReal?: string;
	/** The redaction its facts were last shared under (`redactionKey`): a stricter one redacts Claude Code's secrets out of the vault's copies. */
	memoryRedaction?: string;
	/** The redaction its sessions' notes were last written under (`redactionKey`): under another, they are written again. */
	notesRedaction?: string;
	/** Where the user moved the project's index note, when they did. */
	indexPath?: string;
	/** Where the user moved the project's context packet, when they did. */
	packetPath?: string;
	/** Its index note was not written (changed while the sync ran, a failed write): the next sync writes it, though no session of it changed. */
	indexStale?: true;
}

export interface SyncState {
	version: number;
	/** By transcript path. */
	sessions: Record<string, SessionRecord>;
	/** By project identity. */
	projects: Record<string, ProjectRecord>;
	/** `summary` lines seen anywhere, by the hash of their `leafUuid`: they title another session. */
	summaries: Record<string, string>;
	/** Resume points recorded before a compaction, by session id: the lazy facade shows the latest. */
	checkpoints: Record<string, Checkpoint>;
	/**
	 * Shared facts by project identity, then Claude Code's file name: the vault file paired with it and
	 * the text both sides held after the last sync.
	 */
	memory: Record<string, Record<string, { vault: string; base: string }>>;
	/** Keys of facts proposed once, by project identity: never proposed again, whether accepted or rejected. */
	proposed: Record<string, string[]>;
	/** Transcripts read by a sync of one project that belong to others: the next sync does them. */
	pending: string[];
	/** Usage no session holds (see `UsageOnlyRecord`), by transcript path. Absent from a state an older release wrote. */
	usageOnly: Record<string, UsageOnlyRecord>;
	/** The Bases files written or found, by path: written once, then the person's (renamed, moved or deleted, none is written again). */
	bases?: string[];
	/**
	 * Sessions whose notes were written before their project was excluded, which took their records
	 * (`excludedTranscripts`): each as the hash of its session id (`sessionMark`), nothing of the
	 * project stored. Lifting the exclusion reads them anew, and a note the user deleted, before or
	 * since, stays deleted (not written again as a new session's).
	 */
	writtenBeforeExclusion?: string[];
	/**
	 * Keys of a state of this version that this release does not know, as stored: a newer release
	 * adds a field without raising the version (as `usageOnly` and `bases` were added), and a sync
	 * here wrote the state without it (its deleted Bases file written again there). Written back.
	 */
	carried?: Record<string, unknown>;
}

/** The keys of a stored state this release reads (`sessionFiles` is the state folder's list of session files). */
const KNOWN_STATE_KEYS = new Set(["version", "sessions", "projects", "summaries", "checkpoints", "memory", "proposed", "pending", "usageOnly", "bases", "writtenBeforeExclusion", "sessionFiles"]);

/**
 * Version 3: version 2 (projects by identity) with the digests' lists in files of their own beside
 * the session files (node/digest-lists), whose records a release that knows only 2 must not read;
 * a version 2 state is read as it is. Version 1 (folder names) is read and migrated by the next sync.
 */
export const SYNC_STATE_VERSION = 3;
export const LEGACY_SYNC_STATE_VERSION = 1;
const SAME_AS_CURRENT = 2;

/** Whether a stored state of this version can be read (`restoreSyncState`). */
export function isReadableStateVersion(version: unknown): boolean {
	return version === SYNC_STATE_VERSION || version === SAME_AS_CURRENT || version === LEGACY_SYNC_STATE_VERSION;
}

export function emptySyncState(): SyncState {
	return { version: SYNC_STATE_VERSION, sessions: dict(), projects: dict(), summaries: dict(), checkpoints: dict(), memory: dict(), proposed: dict(), pending: [], usageOnly: dict() };
}

/**
 * Reads a stored state (the state folder refuses one it cannot read, see `StateFolder.loadState`); a value that is no state starts afresh. A version 1
 * state keeps its version number, so the sync migrates it (`plan/migrate-state`).
 */
export function restoreSyncState(raw: unknown): SyncState {
	if (typeof raw !== "object" || raw === null) return emptySyncState();
	const o = raw as Partial<SyncState>;
	if (!isReadableStateVersion(o.version) || typeof o.sessions !== "object" || o.sessions === null) return emptySyncState();
	const record = (v: unknown) => (typeof v === "object" && v !== null ? v : undefined);
	const memory = dict((record(o.memory) as SyncState["memory"] | undefined) ?? {});
	for (const key of Object.keys(memory)) memory[key] = dict(memory[key]);
	return {
		version: o.version === SAME_AS_CURRENT ? SYNC_STATE_VERSION : o.version!,
		// By transcript path (a file system's, never a bare word): a plain object serves.
		sessions: o.sessions,
		projects: dict((record(o.projects) as SyncState["projects"] | undefined) ?? {}),
		// Always in this order, so that an unchanged state serializes to the same bytes.
		summaries: (record(o.summaries) as SyncState["summaries"] | undefined) ?? {},
		checkpoints: dict((record(o.checkpoints) as SyncState["checkpoints"] | undefined) ?? {}),
		memory,
		proposed: proposedOf(o.proposed),
		pending: Array.isArray(o.pending) ? o.pending.filter((p): p is string => typeof p === "string") : [],
		usageOnly: usageOnlyOf(o.usageOnly),
		...(Array.isArray(o.bases) ? { bases: o.bases.filter((p): p is string => typeof p === "string") } : {}),
		...(Array.isArray(o.writtenBeforeExclusion) ? { writtenBeforeExclusion: o.writtenBeforeExclusion.filter((p): p is string => typeof p === "string") } : {}),
		...carriedOf(raw as Record<string, unknown>),
	};
}

/** A state of this version's keys this release does not know (see `SyncState.carried`); an older state's are its own, and go with its migration. */
function carriedOf(raw: Record<string, unknown>): Pick<SyncState, "carried"> {
	if (raw.version !== SYNC_STATE_VERSION) return {};
	const unknown = Object.entries(raw).filter(([key]) => !KNOWN_STATE_KEYS.has(key));
	return unknown.length > 0 ? { carried: Object.fromEntries(unknown) } : {};
}

/**
 * What `writtenBeforeExclusion` keeps of a session: its id hashed (a session id can hold a path, as
 * Aider's names its history), with the agent, whose ids are of different kinds.
 */
export function sessionMark(agent: string, sessionId: string): string {
	return hash53(`${agent}\u0000${sessionId}`).toString(36);
}

/** Stored usage-only records, each as read or left out when it is not one (damaged: its tokens only go uncounted). */
export function usageOnlyOf(raw: unknown): Record<string, UsageOnlyRecord> {
	const out: Record<string, UsageOnlyRecord> = {};
	if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return out;
	for (const [path, value] of Object.entries(raw as Record<string, unknown>)) {
		const r = value as Partial<UsageOnlyRecord> | null;
		if (typeof r !== "object" || r === null || typeof r.projectKey !== "string" || typeof r.project !== "string" || !Array.isArray(r.usage) || !r.usage.every(isUsageDay)) continue;
		out[path] = r as UsageOnlyRecord;
	}
	return out;
}

function isUsageDay(u: unknown): u is UsageDay {
	const d = u as Partial<UsageDay> | null;
	return typeof d === "object" && d !== null && typeof d.day === "string" && typeof d.model === "string" && [d.input, d.output, d.cacheRead, d.cacheWrite].every((n) => typeof n === "number" && Number.isFinite(n));
}

/** The statements proposed once, by project, as hashes (`storedKey`): text an older release kept is hashed here. */
function proposedOf(value: unknown): SyncState["proposed"] {
	const out: SyncState["proposed"] = dict();
	if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
	for (const [project, keys] of Object.entries(value)) if (Array.isArray(keys)) out[project] = [...new Set(keys.filter((k): k is string => typeof k === "string").map(storedKey))];
	return out;
}
