import type { AgentId } from "./agents";
import { conflictCopyOf } from "../text/file-sync-copy";
/** A transcript file as the scanner sees it: path and stat only, no content. */
export interface TranscriptFile {
	path: string;
	/** The agent that wrote it; absent: Claude Code. */
	agent?: AgentId;
	/** The session's folder, when the agent records it beside the file rather than in it (Gemini CLI). */
	cwd?: string;
	/** Folder under the projects root (the encoded cwd; never decoded back into a path). */
	projectDir: string;
	/** `sessions`: a file that holds several, each read as a `session` of its own (see `sectionFile`). */
	kind: "session" | "subagent" | "sessions";
	/** For a session inside a file of several: that file's path. */
	within?: string;
	/** File stem: the session id, or `agent-<id>` for a sub-agent. */
	fileId: string;
	/** For a sub-agent in the 2.1.2+ layout: the session folder it sits in. */
	parentSessionId?: string;
	agentId?: string;
	/** `agent-<id>.meta.json` beside a 2.1.x sub-agent, when present. */
	metaPath?: string;
	/**
	 * That meta file's size and mtime when scanned (`<size>:<mtimeMs>`): Claude Code may write it
	 * after the transcript was read, and the transcript's own stamp does not change then.
	 */
	metaStamp?: string;
	size: number;
	mtimeMs: number;
	ino: number;
	/**
	 * Its last status change (`ctimeMs`), which no program can set: a file rewritten in place with
	 * its size and mtime put back (`touch -r`, a copy tool keeping times) changes only that. Stamps
	 * stored before it was kept have none.
	 */
	ctimeMs?: number;
	/**
	 * For a session inside a database (opencode's `opencode.db`, where one file holds every
	 * session): the stamp of the database's files when it was listed. A scan whose database is
	 * still so gives the sessions known, without opening it.
	 */
	container?: string;
	/** Read while its project was excluded (under these exclusions, see `exclusionKey`): only its stamp is stored. */
	keptOut?: string;
	/** Its last line, complete but without its newline, was left because the file had just changed: read again, unchanged or not. */
	settling?: true;
	/** The revision of its agent's fold its model was made under (`foldRevision`); absent: 0. */
	folded?: number;
	/** Its model's `firstUuid` (Claude Code's sessions): files that start alike are found without loading their models (see `TranscriptIndex.foldCopies`). */
	firstUuid?: number;
}

/** The stamp with its model's first uuid (the same object when it has it), as the model is stored with. */
export function withFirstUuid<T extends Pick<TranscriptFile, "firstUuid">>(file: T, firstUuid: number | undefined): T {
	// Not `{ ...file, firstUuid }`: a hidden class per copy (see `stampedFolded`).
	return file.firstUuid === firstUuid ? file : Object.assign({}, file, { firstUuid });
}

/**
 * One session of a file that holds several (Aider's chat history: one per start in the file),
 * known by the file's path and the session's key (its start as written): `<path>#<key>`.
 */
export function sectionFile(file: TranscriptFile, key: string, path = sectionPath(file, key)): TranscriptFile {
	const id = slug(key);
	// Written out, not spread: a file of thousands of sessions makes thousands of these, and spread
	// copies each had a hidden class of its own (measured: nearly a tenth of what an Aider read kept).
	// The fields such a file never has (Aider's history) are given only when it has them: six empty
	// fields were six words of each session kept. The change time is the file's as the rest of its stamp (without it, each
	// session read was copied again to be given it).
	const section: TranscriptFile = { path, agent: file.agent, cwd: file.cwd, projectDir: file.projectDir, kind: "session", within: file.path, fileId: flat(file.fileId, "-", id === "" ? "start" : id), size: file.size, mtimeMs: file.mtimeMs, ino: file.ino, ctimeMs: file.ctimeMs };
	if (file.parentSessionId !== undefined) section.parentSessionId = file.parentSessionId;
	if (file.agentId !== undefined) section.agentId = file.agentId;
	if (file.metaPath !== undefined) section.metaPath = file.metaPath;
	if (file.container !== undefined) section.container = file.container;
	if (file.keptOut !== undefined) section.keptOut = file.keptOut;
	if (file.settling !== undefined) section.settling = file.settling;
	return section;
}

/**
 * The key of the session that a file's lines before its first start make (a history written
 * without a start line, or whose first lines were cut): named so, not by an empty start (which
 * made its path `<file>#`).
 */
export const NO_START = "no start";

/** The path of a session of a file of several (see `sectionFile`). */
export function sectionPath(file: Pick<TranscriptFile, "path">, key: string): string {
	return flat(file.path, "#", key);
}

/**
 * Three strings as one, made whole at once: joined with `+` (or a template) they are a chain of
 * pieces, which a `Map` flattens into a copy when it hashes them, and both stay (a file of
 * thousands of sessions keeps a path and an id for each).
 */
function flat(a: string, b: string, c: string): string {
	return [a, b, c].join("");
}

/** `key` with each run of characters other than ASCII letters and digits made one `-`, none at either end. */
function slug(key: string): string {
	// Made from its character codes at once (a global `replace` built it piece by piece: a file of
	// thousands of sessions made thousands of these).
	const codes: number[] = [];
	let gap = false;
	for (let i = 0; i < key.length; i++) {
		const c = key.charCodeAt(i);
		if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) {
			gap = codes.length > 0;
			continue;
		}
		if (gap) codes.push(45); // "-"
		gap = false;
		codes.push(c);
	}
	return String.fromCharCode(...codes);
}

export type FileStamp = Pick<TranscriptFile, "size" | "mtimeMs" | "ino" | "ctimeMs" | "settling" | "metaStamp">;

/** Whether a file is as it was stamped (its change time only when both stamps have one). */
export function sameStamp(before: Pick<TranscriptFile, "size" | "mtimeMs" | "ino" | "ctimeMs">, now: Pick<TranscriptFile, "size" | "mtimeMs" | "ino" | "ctimeMs">): boolean {
	return before.size === now.size && before.mtimeMs === now.mtimeMs && before.ino === now.ino && (before.ctimeMs === undefined || now.ctimeMs === undefined || before.ctimeMs === now.ctimeMs);
}

/** Where the last read of a transcript stopped; plain data, stored between runs. */
export interface TailCursor {
	/** Bytes consumed: just after a `\n`, or at the end of a last line taken without one (`open`). */
	offset: number;
	/** Number of the next line to read (1-based). */
	nextLineNo: number;
	ino: number;
	/** Base64 of the file's first bytes, to notice a replaced file. */
	head: string;
	/**
	 * Base64 of the bytes just before `offset`: a file rewritten in place (same inode, same start,
	 * longer, a password scrubbed from a line already read) no longer has them, and is read anew.
	 */
	tail?: string;
	/**
	 * CRC-32 of every byte before `offset`: a line read before and changed since in place (a
	 * password scrubbed from it, another of the same length put there) changes it, and the file is
	 * read anew; the head and the tail alone saw only changes at the start and just before `offset`.
	 */
	sum?: number;
	/**
	 * The file's mtime when it was read: a file whose time moved while no byte came past `offset`
	 * was not appended to (an append makes it longer) but rewritten in place, at the same size (a
	 * secret scrubbed with as many `*`), and is read anew.
	 */
	mtimeMs?: number;
	/** The line before `offset` was taken without its `\n` (see `unterminatedLine`): a `\n` that comes next ends it, not a line of its own. */
	open?: true;
	/** A complete last line without its `\n` was left, as the file had changed a moment before: the next read takes it. */
	settling?: true;
	/** `offset` is inside a line too long to read (`MAX_LINE_BYTES`): its bytes up to the next `\n` are skipped, its number counted then. */
	skipping?: true;
}

export interface ScanDiff {
	added: TranscriptFile[];
	changed: TranscriptFile[];
	unchanged: TranscriptFile[];
	/** Files unchanged themselves whose sub-agent meta file came, changed or went: only the meta is read again. */
	metaChanged: TranscriptFile[];
	/** Paths known before and gone now: expired upstream, never a reason to delete a note. */
	removed: string[];
}

/** Compares a fresh scan with the stamps of the last one. */
export function diffScan(previous: ReadonlyMap<string, FileStamp>, current: readonly TranscriptFile[]): ScanDiff {
	const diff: ScanDiff = { added: [], changed: [], unchanged: [], metaChanged: [], removed: [] };
	const present = new Set<string>();
	for (const file of current) {
		present.add(file.path);
		const before = previous.get(file.path);
		if (!before) diff.added.push(file);
		else if (!sameStamp(before, file) || before.settling) diff.changed.push(file);
		else if (before.metaStamp !== file.metaStamp) diff.metaChanged.push(file);
		else diff.unchanged.push(file);
	}
	for (const path of previous.keys()) if (!present.has(path)) diff.removed.push(path);
	return diff;
}

const AGENT_FILE = /^agent-(.+)$/;
/** iCloud Drive's conflict copy, `<name> 2`: the agents' names hold no space, so it is never one of theirs. */
const ICLOUD_COPY = /^([^ ]+) \d+$/;

/**
 * The name of the file that `name` is a file-sync tool's conflict copy of (`<id>.sync-conflict-….jsonl`,
 * `<id> (conflicted copy).jsonl`, `<id> 2.jsonl` → `<id>.jsonl`); `name` itself when it is none.
 */
export function copiedName(name: string): string {
	// Every copy's suffix holds a space or "conflict": a name with neither (an id, nearly every name a scan meets) is its own.
	if (!name.includes(" ") && !name.includes("conflict")) return name;
	const dot = name.lastIndexOf(".");
	const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
	return `${conflictCopyOf(stem) ?? ICLOUD_COPY.exec(stem)?.[1] ?? stem}${extension}`;
}

/**
 * Classifies a `.jsonl` name found directly in a project folder (or a session's `subagents/`). A
 * file-sync tool's conflict copy of a transcript has the id of the file it copies (`copiedName`):
 * it is the same session, and `oneFilePerSession` reads one of the two. A hidden name
 * (`.<id>.jsonl`, a macOS `._<id>.jsonl` beside a copy on a shared drive) or an Office owner file
 * (`~$<id>.jsonl`) is no transcript: Claude Code names its files by a session or agent id alone.
 */
export function classifyProjectFile(name: string): { kind: "session" | "subagent"; fileId: string; agentId?: string } | undefined {
	if (!name.endsWith(".jsonl") || name.startsWith(".") || name.startsWith("~")) return undefined;
	const fileId = copiedName(name).slice(0, -".jsonl".length);
	if (fileId === "") return undefined;
	const agent = AGENT_FILE.exec(fileId);
	return agent ? { kind: "subagent", fileId, agentId: agent[1] } : { kind: "session", fileId };
}

/** Whether `longer` begins with all of `shorter`: the session went on in it (see `oneFilePerSession`). */
export type Continues = (shorter: TranscriptFile, longer: TranscriptFile) => boolean;

/**
 * One file of each session among a scan's transcripts, where a file-sync tool left a conflict copy
 * beside one (the copy's name is the file's, with the tool's suffix: `copiedName`), the others
 * named in `passed`: a copy was a second note of its session (the same `session_id`, listed twice
 * in the index). The one read is the file under its own name, where this machine's agent goes on
 * writing, unless a copy holds all of it and more (`continues`: the session went on on the other
 * machine), which is read instead: no turn of either is lost then. Two that went their own ways
 * each hold turns the other does not: the original is read and the copy named, to merge by hand
 * (a merge of two sessions' lines is no sync's to guess). When the file read changes (the copy
 * grew past the original, or the original went on again), the session's record follows it as for
 * a moved transcript (`movedTranscripts`): still one note. Files of one session under names of
 * their own (a Gemini CLI session resumed into a new file) are not matched: only a copy and what
 * it copies.
 */
export function oneFilePerSession(files: readonly TranscriptFile[], passed: { path: string; reason: string }[], continues: Continues): TranscriptFile[] {
	const groups = new Map<string, TranscriptFile[]>();
	for (const file of files) {
		const key = copyGroupKey(file.path);
		const group = groups.get(key);
		if (group) group.push(file);
		else groups.set(key, [file]);
	}
	if (groups.size === files.length) return [...files];
	const own = (f: TranscriptFile) => copiedName(baseName(f.path)) === baseName(f.path);
	const left = new Set<TranscriptFile>();
	for (const group of groups.values()) {
		if (group.length === 1) continue;
		// No original (the tool kept copies only): the largest.
		let read = group.find(own) ?? group.reduce((a, b) => (b.size > a.size ? b : a));
		const longer = group.filter((f) => f.size > read.size).sort((a, b) => b.size - a.size);
		read = longer.find((f) => continues(read, f)) ?? read;
		for (const file of group) {
			if (file === read) continue;
			left.add(file);
			const name = baseName(read.path);
			const within = file.size <= read.size && continues(file, read);
			const reason = !within
				? `${name} beside it is the same session (one is a file-sync tool's conflict copy of the other), and is read as the session; this one holds turns that one does not: merge them by hand, then delete the copy`
				: own(file)
					? `${name} beside it, a file-sync tool's conflict copy of it, holds all of its turns and more (the session went on on another machine), and is read as the session; put the copy in this file's place`
					: `a file-sync tool's conflict copy of ${name}, which holds all of its turns and is read as the session; delete the copy`;
			passed.push({ path: file.path, reason: `not read: ${reason}` });
		}
	}
	return files.filter((f) => !left.has(f));
}

/**
 * `<folder>/<the name it copies>`: the path itself for a file that copies none in a folder named
 * with `/` (nearly every one), no key made for it.
 */
function copyGroupKey(path: string): string {
	const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
	const name = path.slice(cut + 1);
	const copied = copiedName(name);
	return copied === name && path.charCodeAt(cut) === 0x2f ? path : `${path.slice(0, cut)}/${copied}`;
}

function baseName(path: string): string {
	return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

