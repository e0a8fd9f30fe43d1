import type { SyncState } from "../sync/sync-state";
import type { TranscriptFile } from "../transcript/transcript-files";

/** A session's transcript found at a new place: its record moves from `from` to `to`. */
export interface TranscriptMove {
	from: string;
	to: string;
	/** A sub-agent's transcript, which moves with its session's. */
	subagent?: true;
}

/**
 * Sessions whose transcript moved: read anew this sync at a path with no record, while a transcript
 * of the same agent and file id went in the same scan (its record, if it has one, moves), the one such pair. The agent's
 * folder moved (another `CLAUDE_CONFIG_DIR`, a new home, a disk copied to another machine): taken
 * for new sessions, every note was written a second time as "… (2)". A copy that leaves the old
 * transcript in place is two transcripts, as before (but Codex's scan lists one file per session
 * id: a rollout copied into `archived_sessions/` is one, see `scanCodex`). Files of several sessions (Aider's history,
 * numbered by place) are not matched: their ids say nothing across files.
 */
export function movedTranscripts(state: SyncState, read: readonly TranscriptFile[], removed: readonly string[], known: ReadonlyMap<string, TranscriptFile>): TranscriptMove[] {
	// A sub-agent moves with its session (it has no record of its own: its note is the session's).
	const key = (f: TranscriptFile) => `${f.agent ?? "claude-code"}\u0000${f.kind}\u0000${f.parentSessionId ?? ""}\u0000${f.fileId}`;
	const single = (f: TranscriptFile | undefined): f is TranscriptFile => f !== undefined && f.kind !== "sessions" && f.within === undefined && f.fileId !== "";
	const recorded = (f: TranscriptFile) => f.kind === "subagent" || state.sessions[f.path] !== undefined;
	const gone = new Map<string, string[]>();
	// One with no record yet moved too (a rollout archived before its first prompt): nothing to carry, but its
	// model at the old place is forgotten, where it stayed for good, a transcript gone (attack round 51b).
	for (const path of removed) {
		const file = known.get(path);
		if (!single(file)) continue;
		gone.set(key(file), [...(gone.get(key(file)) ?? []), path]);
	}
	if (gone.size === 0) return [];
	const found = new Map<string, string[]>();
	for (const file of read) if (single(file) && (file.kind === "subagent" || !recorded(file))) found.set(key(file), [...(found.get(key(file)) ?? []), file.path]);
	const moves: TranscriptMove[] = [];
	for (const [k, from] of gone) {
		const to = found.get(k);
		if (from.length === 1 && to?.length === 1) moves.push({ from: from[0]!, to: to[0]!, ...(known.get(from[0]!)?.kind === "subagent" ? { subagent: true as const } : {}) });
	}
	return moves;
}

/** The state with each moved session's record (and anything else kept by its transcript's path) under its new path. */
export function followMovedTranscripts(state: SyncState, moves: readonly TranscriptMove[]): void {
	for (const { from, to } of moves) {
		if (!state.sessions[from]) continue;
		state.sessions[to] = state.sessions[from];
		delete state.sessions[from];
		if (state.usageOnly[from]) {
			state.usageOnly[to] = state.usageOnly[from]!;
			delete state.usageOnly[from];
		}
		state.pending = state.pending.map((p) => (p === from ? to : p));
	}
}
