import { stat } from "node:fs/promises";
import { join } from "node:path";
import { digestSession, DIGEST_VERSION, type SessionDigest } from "../core/digest/session-digest";
import { RecallIndex } from "../core/memory/recall";
import type { HookContext } from "../core/plan/hook-context";
import { readableSession } from "../core/recall/readable-session";
import { SessionIndex, type SearchableSession } from "../core/recall/session-search";
import type { ProjectRecord, SessionRecord } from "../core/sync/sync-state";
import { restoreSession } from "../core/transcript/session-model";
import { readHookContext } from "./hook-project";
import { hookContextPath } from "./plugin-paths";
import { readSessionFile, readStoredState, StateFolder } from "./state-folder";

/** The state's file that lists the session files. */
const STATE_FILE = "sync-state.json";
/** Reads of a state that syncs keep replacing meanwhile, at most: then what was read is said as it is. */
const LOAD_TRIES = 3;

/**
 * What the sync prepared, held in memory for a long-running reader (the MCP server): the session
 * records as a search index, the projects, and each project's hook context. Brought up to date on
 * each request by one `stat`: the state is rewritten by a rename, and the session files it lists
 * never change once written (a change is a new file), so only new files are read.
 */
export class RecallStore {
	readonly sessions = new SessionIndex();
	projects: Readonly<Record<string, ProjectRecord>> = {};
	private stamp: string | undefined;
	/**
	 * The state's file that is there but could not be read (damaged, or no plain file), by its path
	 * in the state folder: `sync-state.json` (what was read before is kept), or a session file it
	 * lists (its sessions are missing). The tools say so, not that no session has an id or matches a query.
	 */
	unreadable: string | undefined;
	/** Session files read that could not be read whole (see `unreadable`). */
	private readonly partlyRead = new Set<string>();
	/** Session files read, with the transcript paths each holds. */
	private readonly files = new Map<string, string[]>();
	/** By session file: its sessions another release digested, left out of the search (see `leftOut`). */
	private readonly otherRelease = new Map<string, ReleaseCounts>();
	private refreshing: Promise<void> | undefined;
	private readonly contexts = new Map<string, { stamp: string; context: HookContext | undefined; recall?: RecallIndex }>();

	constructor(readonly stateDir: string) {}

	/** Reads what changed since the last call (one `stat` when nothing did). Never throws: a state being written is read next time. */
	refresh(): Promise<void> {
		this.refreshing ??= this.load().finally(() => (this.refreshing = undefined));
		return this.refreshing;
	}

	private async load(): Promise<void> {
		for (let tries = 1; ; tries++) {
			const stamp = await this.loadOnce();
			// A sync replaced the state while its files were read: it removes the files the old one named, which read as damaged
			// ("cannot be read: syncs stop on it too", for sessions that were there; attack round 50a). Read the new one.
			if (this.unreadable === undefined || tries >= LOAD_TRIES || (await stampOf(join(this.stateDir, STATE_FILE))) === stamp) return;
		}
	}

	/** Reads the state as it is now, when it changed; its stamp as read. */
	private async loadOnce(): Promise<string> {
		const stamp = await stampOf(join(this.stateDir, STATE_FILE));
		if (stamp === this.stamp) return stamp;
		const stored = await readStoredState(this.stateDir);
		this.unreadable = !stored && stamp !== "none" ? STATE_FILE : undefined;
		if (!stored) {
			if (stamp !== "none") return stamp;
			for (const keys of this.files.values()) for (const key of keys) this.sessions.delete(key);
			this.files.clear();
			this.otherRelease.clear();
			this.projects = {};
			this.stamp = stamp;
			return stamp;
		}
		// A state of an older release holds its sessions itself: one file of its own, read again whenever the state changes.
		const inline = isRecord(stored.raw.sessions) ? (stored.raw.sessions as Record<string, SessionRecord>) : undefined;
		const wanted = new Set(inline ? ["(inline)"] : stored.sessionFiles);
		for (const [name, keys] of this.files) {
			if (wanted.has(name) && name !== "(inline)" && !this.partlyRead.has(name)) continue;
			for (const key of keys) this.sessions.delete(key);
			this.files.delete(name);
			this.otherRelease.delete(name);
		}
		for (const name of wanted) {
			if (this.files.has(name)) continue;
			const read = inline ? { records: inline } : await readSessionFile(this.stateDir, name);
			// Read again when the state changes (the file put back, or written anew).
			if (read.unreadable !== undefined) {
				this.unreadable ??= read.unreadable;
				this.partlyRead.add(name);
			} else this.partlyRead.delete(name);
			const records = read.records;
			const keys: string[] = [];
			const other: ReleaseCounts = { older: 0, newer: 0, damaged: 0 };
			for (const [key, record] of Object.entries(records)) {
				const release = releaseOf(record);
				if (release !== "this") {
					other[release]++;
					continue;
				}
				const session = readableSession(key, record);
				if (!session) {
					other.damaged++;
					continue;
				}
				this.sessions.put(session);
				keys.push(key);
			}
			this.files.set(name, keys);
			if (other.older + other.newer + other.damaged > 0) this.otherRelease.set(name, other);
			else this.otherRelease.delete(name);
		}
		// A project's record of another shape (its folder a number, null) is none: one made every tool that names a project fail (attack round 50a).
		this.projects = isRecord(stored.raw.projects) ? (Object.fromEntries(Object.entries(stored.raw.projects).filter(([, p]) => isRecord(p) && typeof p.folder === "string")) as Record<string, ProjectRecord>) : {};
		this.stamp = stamp;
		return stamp;
	}

	/**
	 * Sessions left out because another release digested them: an earlier one's (the next sync
	 * digests them again; until then their stored form may not be the one this release reads) or
	 * a newer one's (this release cannot read it); or because their record is damaged (a field of
	 * another type). The tools say so: a search that finds nothing while the state holds sessions
	 * read as if none had been recorded.
	 */
	get leftOut(): ReleaseCounts {
		const total: ReleaseCounts = { older: 0, newer: 0, damaged: 0 };
		for (const counts of this.otherRelease.values()) {
			total.older += counts.older;
			total.newer += counts.newer;
			total.damaged += counts.damaged;
		}
		return total;
	}

	/** The hook context the last sync wrote for an enabled project (read again only when its file changed). */
	async hookContext(projectPath: string): Promise<HookContext | undefined> {
		const path = hookContextPath(this.stateDir, projectPath);
		const stamp = await stampOf(path);
		const cached = this.contexts.get(path);
		if (cached?.stamp === stamp) return cached.context;
		const context = stamp === "none" ? undefined : await readHookContext(this.stateDir, projectPath);
		this.contexts.set(path, { stamp, context });
		return context;
	}

	/** The facts' recall index of an enabled project's hook context, restored once per version of the file. */
	async recallIndex(projectPath: string): Promise<{ index: RecallIndex; context: HookContext } | undefined> {
		const context = await this.hookContext(projectPath);
		if (!context) return undefined;
		const cached = this.contexts.get(hookContextPath(this.stateDir, projectPath));
		const index = cached?.context === context ? (cached.recall ??= RecallIndex.restore(context.recall)) : RecallIndex.restore(context.recall);
		return { index, context };
	}

	/**
	 * The whole digest of a session (each task's results, commands, errors, files read), made again
	 * from its stored model, which the sync redacted before storing; the stored digest's title and
	 * files (its sub-agents' included) are kept. Undefined when the model is gone.
	 */
	async wholeDigest(session: SearchableSession): Promise<SessionDigest | undefined> {
		const stored = await new StateFolder(this.stateDir).load(session.key).catch(() => undefined);
		if (!stored) return undefined;
		try {
			const whole = digestSession(restoreSession(stored.model));
			return { ...whole, title: session.digest.title, filesTouched: session.digest.filesTouched };
		} catch {
			return undefined;
		}
	}
}

/** Sessions of another release, or of a damaged record, left out (see `RecallStore.leftOut`). */
export interface ReleaseCounts {
	older: number;
	newer: number;
	damaged: number;
}

/** Whether this release digested the record, an earlier or a newer one (a record of no version is this one's to judge by its shape). */
function releaseOf(record: SessionRecord): "this" | "older" | "newer" {
	const version = (record?.digest as { version?: unknown } | undefined)?.version;
	if (typeof version !== "number" || version === DIGEST_VERSION) return "this";
	return version > DIGEST_VERSION ? "newer" : "older";
}

async function stampOf(path: string): Promise<string> {
	const info = await stat(path).catch(() => undefined);
	return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : "none";
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
