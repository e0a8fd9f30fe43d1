import { agentOf, type AgentId } from "./agents";
import type { TranscriptFile } from "./transcript-files";

/**
 * How each agent's files are read into models, as a number raised when the fold changes what it
 * makes of lines already read: a file folded under an older revision is read again from its start
 * at the next sync, changed or not (a stored model is otherwise only ever folded further, and a
 * session read by an older release kept what that release made of it: Claude Code's TUI prompts
 * dropped, a fork's copied history, a rewind's left branch). A file no longer there keeps its model.
 * A stamp stored without one was folded under revision 0. Raised for every agent at once when a
 * time past the file's last write by more than a day became no time of the session (a line stamped
 * 2999 made a session end then, and headed its index), and a record whose text is not text a line
 * not read, named (read as no text, its turn had gone without a word).
 */
const FOLD_REVISIONS: Readonly<Record<AgentId, number>> = {
	// 1: prompts typed in the TUI (`origin.kind: "human"`), forks' copied history, rewinds.
	// 3: the first uuid kept on the stamp, so that an older `--resume`'s copy in a new file is found.
	// 4: a compaction's replayed turns (same parent, time and text as the first time) counted once, no rewind.
	// 5: a fork's copied turns replayed by a compaction add nothing; a rewind to a replay's copy seen; a message without usage known; the first uuid kept is the first message's; of a copy and its original read first together, the one that goes its own way later is the original.
	"claude-code": 5,
	codex: 1,
	// 1: what a `$rewindTo` drops that the person typed.
	"gemini-cli": 2,
	"copilot-cli": 1,
	// 1: a fork's copied messages.
	opencode: 2,
	// 2: a line inside a command's output of several lines (`/git show`) is not Aider's own status line: its `Commit …` no commit of the session; a `#### ` line right after output is no prompt; a blank line inside a piece of output does not end it.
	aider: 2,
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
	// Not `{ ...file, folded }`: V8 gives each copy spread so and then added to a hidden class of its own (one per file kept).
	return (file.folded ?? 0) === revision ? file : Object.assign({}, file, { folded: revision });
}
