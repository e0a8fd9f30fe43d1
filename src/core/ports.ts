import type { AgentId } from "./transcript/agents";
import type { RawLine } from "./transcript/jsonl-lines";
import type { SubagentMeta } from "./transcript/link-subagents";
import type { SerializedSession } from "./transcript/session-model";
import type { TailCursor, TranscriptFile } from "./transcript/transcript-files";
import type { FoldedWhole, PackedAt } from "./ingest/fold-whole";
import type { ResolvedFolder } from "./projects/project-identity";
import type { RedactionSpec } from "./ingest/redaction-policy";
import type { DetailLevel } from "./settings";

/** The I/O the core needs, implemented by the adapters in node/ (CLI) and obsidian/ (plugin). */

/** Notes inside the vault, by vault-relative path with `/` separators. */
export interface NoteStore {
	/** The note's text, or null when there is none. */
	read(path: string): Promise<string | null>;
	/**
	 * Creates or replaces the note (and its folders), but only if it still holds `expected` (null:
	 * does not exist). Returns false, writing nothing, when someone changed it meanwhile.
	 */
	write(path: string, text: string, expected: string | null): Promise<boolean>;
	/**
	 * Optional: creates the note from its parts, text and UTF-8 bytes in order, only if there is none
	 * (as `write` with `expected` null). Bytes go to the file as they are: a first sync's notes are
	 * mostly bytes a fold worker made, never one string in this thread's heap.
	 */
	create?(path: string, parts: readonly (string | Uint8Array)[]): Promise<boolean>;
	/** Paths of the files directly in `folder` (none when it does not exist). */
	list(folder: string): Promise<string[]>;
	/** Deletes the note (to the trash where there is one), only if it still holds `expected`. */
	remove(path: string, expected: string): Promise<boolean>;
	/**
	 * Moves notes, links to them following (Obsidian updates them; the vault folder rewrites them).
	 * A move whose note is gone, or whose target exists already, is not made. Returns those made.
	 */
	move(moves: readonly { from: string; to: string }[]): Promise<{ from: string; to: string }[]>;
	/** Optional: the paths of every Markdown note below `folder` (`""`: the vault), hidden folders left out (and, on disk, a folder that is a vault of its own). */
	listTree?(folder: string): Promise<string[]>;
	/** Optional: whether `folder` is there, empty or not (`list` gives none for both). */
	isFolder?(folder: string): Promise<boolean>;
}

/**
 * One project's Claude Code memory folder (`MEMORY.md` and one file per fact), outside the vault.
 * Same compare-and-swap rules as the note store; names are file names in the folder.
 */
export interface MemoryFolder {
	/** Where it is, for messages. */
	readonly path: string;
	/** The text of every `.md` file directly in the folder, by file name (empty when there is no folder). */
	list(): Promise<Map<string, string>>;
	/** Optional: whether the folder is there, empty or not. */
	exists?(): Promise<boolean>;
	/** Optional: the folder's real path (links followed), undefined when it is not there: the same path may lead to another folder. */
	realPath?(): Promise<string | undefined>;
	write(name: string, text: string, expected: string | null): Promise<boolean>;
	remove(name: string, expected: string): Promise<boolean>;
}

/** Files outside the vault that the user enabled: a project's CLAUDE.md. */
export interface ProjectFiles {
	read(projectPath: string, fileName: string): Promise<string | null>;
	/**
	 * Replaces the file with `text` if it still holds `expected` (null: still missing), keeping
	 * its mode; false when it changed since it was read. Throws a clear error when it cannot write.
	 */
	write(projectPath: string, fileName: string, text: string, expected: string | null): Promise<boolean>;
	/** Optional: the file's real path (links followed), undefined when it does not exist: two names of one file get one block. */
	realPath?(projectPath: string, fileName: string): Promise<string | undefined>;
	/** Optional: whether a folder outside the project is there (another vault's notes folder a block names). */
	folderExists?(path: string): Promise<boolean>;
	/** Optional: whether `path` is `root` or inside it once links are followed (a vault reached through a link is the same vault). */
	within?(path: string, root: string): Promise<boolean>;
	/** Optional: whether the file is there and `write` would refuse it as read-only. */
	readOnly?(projectPath: string, fileName: string): Promise<boolean>;
}

/**
 * Where a folder's project is on this machine: its git root (a linked worktree's main checkout),
 * else the folder; undefined when the folder is not here.
 */
export type ProjectResolver = (folder: string) => ResolvedFolder | undefined;

/**
 * A repository's fingerprint, its root commits (see `projects/replaced-repository`), given the one
 * recorded for the project at `root` (the adapter may confirm that one cheaply); `NEW_REPOSITORY`
 * for one with no commit that does not hold the recorded one; undefined when it cannot be told.
 */
export type RepositoryFingerprint = (root: string, recorded: string | undefined) => Promise<string | undefined>;

/** Claude Code's transcripts: listed by stat, read from a byte offset. */
/** An entry a scan found where transcripts are and did not read, and why. */
export interface PassedOverEntry {
	path: string;
	reason: string;
	/**
	 * A placeholder's (iCloud Drive's `.<name>.icloud`): the transcript it stands for. Said only
	 * while that transcript has no record: one read before and evicted since keeps its note, and
	 * "Optimise Mac Storage" evicts hundreds, said at every sync.
	 */
	standsFor?: string;
}

export interface TranscriptSource {
	/**
	 * @param known the files as the last scan saw them: a source may skip looking into those
	 * unchanged (a database whose files have not changed gives its sessions back untouched).
	 */
	scan(known?: ReadonlyMap<string, TranscriptFile>): Promise<TranscriptFile[]>;
	/** What the last scan found where transcripts are and did not read (a link, a FIFO): path and why. */
	passedOver?(): readonly PassedOverEntry[];
	/** Re-stats one known file; undefined when it is gone. */
	stat(file: TranscriptFile): Promise<TranscriptFile | undefined>;
	/**
	 * Hands complete lines after `cursor` to `onLines`; `onRestart` first if the file was replaced.
	 * The lines are lent for the call (see `LentLines`): their text may be kept, the array and its
	 * objects not. `size`: the file's size at its last stat, when known (to choose how to read it, not what).
	 * `agent`: whose file it is, as `TranscriptFile.agent` (absent: Claude Code, whose lines may
	 * come without the bulk no note is made of, see `node/bulk-fields`).
	 */
	readAppended(path: string, cursor: TailCursor | undefined, onLines: (lines: RawLine[]) => void, onRestart: () => void, size?: number, agent?: AgentId): Promise<{ cursor: TailCursor; bytesRead: number }>;
	readMeta(path: string): Promise<SubagentMeta | undefined>;
	/**
	 * Optional: reads, folds and redacts a whole transcript elsewhere (a worker thread). Used for
	 * files with no earlier model, so a first sync of a long history uses every core. With
	 * `packTo` (a store's `packFolder`), it also stores the stored form there (and reads the
	 * sub-agent meta for it): `FoldedWhole.saved.at` says where.
	 * `detail`: a session's conversation is rendered there too, and once stored, only the partial
	 * form of its model may come back (`FoldedWhole.partial`).
	 */
	foldWhole?(file: TranscriptFile, spec: RedactionSpec | undefined, packTo?: string, detail?: DetailLevel): Promise<FoldedWhole>;
	/** Optional: whether `foldWhole` folds this file on the calling thread (a small one), not elsewhere. */
	foldsHere?(file: TranscriptFile): boolean;
}

/** One transcript's folded state, stored between runs so a later run reads only appended bytes. */
export interface StoredTranscript {
	file: TranscriptFile;
	cursor: TailCursor;
	model: SerializedSession;
	meta?: SubagentMeta;
	/** The redaction the model went through (`redactionKey`): another one now means redacting it again. */
	redaction?: string;
	/** For a file that holds several sessions: their paths, in the file's order (see `sectionFile`). */
	sections?: string[];
}

/** Where folded transcripts are kept between runs (the plugin's state folder). */
export interface TranscriptStore {
	/** The files known from earlier runs, with the stamps they had. */
	known(): Promise<TranscriptFile[]>;
	load(path: string): Promise<StoredTranscript | undefined>;
	/**
	 * `json` is the entry serialized already, when the caller has it (no second stringify).
	 * `readAnew`: the transcript was read again from its start (rewritten in place: a secret scrubbed
	 * from it), so no byte of the form stored before may stay.
	 */
	save(entry: StoredTranscript, json?: string, readAnew?: boolean): Promise<void>;
	/** Optional: where a source that writes models itself puts the stored form of `path`. */
	packFolder?(): string;
	/** The source stored the form of `file` itself, at `at` in a pack of `packFolder`: remember the file (and where). Without `at`: its stamp alone. */
	saved?(file: TranscriptFile, at?: PackedAt): Promise<void>;
	/** Optional: drops what is stored of `path`, its model and its stamp. */
	forget?(path: string): Promise<void>;
	/** Optional: the store's files found damaged and done without since last asked (a sync read every transcript again without a word). */
	damaged?(): readonly { path: string; reason: string }[];
}
