import { agentOf, type AgentId } from "./agents";
import type { TranscriptFile } from "./transcript-files";

/**
 * How each agent's files are read into models, as a number raised when the fold changes what it
 * makes of lines already read: a file folded under an older revision is read again from its start
 * at the next sync, changed or not (a stored model is otherwise only ever folded further, and a
 * session read by an older release kept what that release made of it: Claude Code's TUI prompts
 * dropped, a fork's copied history, a rewind's left branch). A file no longer there keeps its model.
 * A stamp stored without one was folded under revision 0.
 */
const FOLD_REVISIONS: Readonly<Record<AgentId, number>> = {
	// 1: prompts typed in the TUI (`origin.kind: "human"`), forks' copied history, rewinds.
	"claude-code": 1,
	codex: 0,
	// 1: what a `$rewindTo` drops that the person typed.
	"gemini-cli": 1,
	"copilot-cli": 0,
	// 1: a fork's copied messages.
	opencode: 1,
	aider: 0,
};

export function foldRevision(file: Pick<TranscriptFile, "agent">): number {
	return FOLD_REVISIONS[agentOf(file)] ?? 0;
}

/** Whether a known file's model was folded under another revision than today's (see `FOLD_REVISIONS`). */
export function foldedBefore(known: Pick<TranscriptFile, "agent" | "folded">): boolean {
	return (known.folded ?? 0) !== foldRevision(known);
}

/** The file's stamp marked with today's revision of its fold, as a model folded now is stored with (the same object when it is). */
export function stampedFolded<T extends Pick<TranscriptFile, "agent" | "folded">>(file: T): T {
	const revision = foldRevision(file);
	return (file.folded ?? 0) === revision ? file : { ...file, folded: revision };
}
