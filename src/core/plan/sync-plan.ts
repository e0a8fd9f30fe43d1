import type { HookContext } from "./hook-context";
import type { SyncState } from "../sync/sync-state";
import type { SessionNoteText } from "../notes/render-session-note";

/**
 * Everything one sync would do, worked out from the state, the sessions and the texts as they were
 * read, before anything is written. `applyPlan` carries it out; `sync --dry-run` prints it.
 */
export interface SyncPlan {
	/** Notes to move first (a migration to the new layout), links following them. */
	moves: PlannedMove[];
	/** Writes, in order; each only if the target still holds `expected`. */
	writes: PlannedWrite[];
	/** What each enabled project's hooks print, stored for them; null: nothing any more (the project is excluded). */
	hookContexts: { projectPath: string; context: HookContext | null }[];
	/** The state after the sync, as if every write lands; a refused write's `onConflict` undoes its part. */
	state: SyncState;
	/** Notes whose text would not change. */
	unchanged: number;
	/** Notes the user deleted; they stay deleted. */
	skipped: string[];
	/** Problems found while planning (broken markers, unreadable notes): those writes are left out. */
	errors: string[];
	/** What a person should look at, though nothing failed. */
	notices: string[];
	/** Transcripts whose stored model and stamp go (projects excluded since they were read). */
	forget?: string[];
}

export interface PlannedMove {
	from: string;
	to: string;
}

/** What a refused write means for the next state. */
export type ConflictUndo =
	/**
	 * The session's note is done by the next sync (and counts as written only if it was before).
	 * `created`: the note was to be created where no file was; a file there now is the person's,
	 * and a note never written gives up its path (see `undone`).
	 */
	| { kind: "note-dirty"; session: string; written?: boolean; created?: boolean }
	/** A shared fact is merged again by the next sync, against the base it had. */
	| { kind: "memory-pair"; project: string; claude: string; previous?: { vault: string; base: string } }
	/** A proposed fact is proposed again by the next sync (its prompt weighed again). */
	| { kind: "proposal"; session: string; project: string; key: string; name: string; prompt: number }
	/** The project's index is written by the next sync (it is written only when one of its sessions changes). */
	| { kind: "index-stale"; project: string }
	/** The Bases file was not written (a failed write): the next sync writes it. */
	| { kind: "base-unwritten"; path: string };

export type PlannedWrite =
	/** A vault note (index, Bases file, packet, fact, proposal); `text: null` deletes it. */
	| { kind: "note"; path: string; text: string | null; expected: string | null; what: WriteWhat; onConflict?: ConflictUndo }
	/** A session note, rendered (and merged with `expected`) only when it is written. */
	| { kind: "session-note"; path: string; render: () => SessionNoteText; expected: string | null; onConflict: ConflictUndo }
	/** A file in a project's Claude Code memory folder; `text: null` deletes it. `shown`: its name as reported, when its own holds a secret. */
	| { kind: "claude-memory"; projectPath: string; folder: string; name: string; shown?: string; text: string | null; expected: string | null; onConflict?: ConflictUndo }
	/** The marked block of an enabled project's CLAUDE.md: upserted into the file as it is when written. */
	| { kind: "context-block"; projectPath: string; target: string; block: string; expected: string | null; remove?: boolean };

/** Which report list a written note goes to. */
export type WriteWhat = "note" | "memory";
