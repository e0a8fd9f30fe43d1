import { lstatSync, realpathSync, type Dirent, type Stats } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { aiderHistorySetting } from "../core/transcript/aider-config";
import { startsAsAiderHistory } from "../core/transcript/aider-fold";
import { hash53 } from "../core/transcript/hash";
import { copiedName, oneFilePerSession, sameStamp, type TranscriptFile } from "../core/transcript/transcript-files";
import { readPlainHeadAndStatSync, readPlainHeadSync } from "./confined-path";
import { isDirectory } from "./absent-folder";
import { trackedByGit } from "./git-tracked";
import { child, continues, list, listOwn, notPlainFile, passCouldNotLook, passedOver, stamp, stampOwn, type PassedOver } from "./transcript-scanner";

/**
 * The other agents' session files, listed by stat alone like Claude Code's (see
 * `transcript-scanner.ts`). Unreadable or missing folders give nothing, never an error.
 */

const ROLLOUT = /^rollout-.*\.jsonl$/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * Codex CLI: `<home>/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl` and the same names in
 * `<home>/archived_sessions/`. A rollout holds its own cwd; `projectDir` only groups them. A
 * session found twice (a rollout copied into `archived_sessions/`, the original left) is one
 * session: one of its files is read (see `oneRolloutPerSession`).
 */
export async function scanCodex(home: string, passed: PassedOver[] = []): Promise<TranscriptFile[]> {
	const found: TranscriptFile[] = [];
	const archived = new Set<TranscriptFile>();
	const visit = async (dir: string, depth: number, archive: boolean): Promise<void> => {
		for (const entry of await list(dir, passed)) {
			if (entry.isDirectory() && depth > 0) await visit(child(dir, entry.name), depth - 1, archive);
			else if (!entry.isFile() && ROLLOUT.test(entry.name)) passed.push(entry.isDirectory() ? { path: child(dir, entry.name), reason: "not read: a folder under a rollout's name" } : passedOver(child(dir, entry.name), entry));
			else if (entry.isFile() && ROLLOUT.test(entry.name)) {
				const fileId = UUID.exec(entry.name)?.[0] ?? entry.name.slice(0, -".jsonl".length);
				const file = stamp(child(dir, entry.name), { agent: "codex", projectDir: "codex", kind: "session", fileId });
				if (!file) continue;
				found.push(file);
				if (archive) archived.add(file);
			}
		}
	};
	await visit(join(home, "sessions"), 3, false);
	await visit(join(home, "archived_sessions"), 0, true);
	// A conflict copy beside a rollout is one too, but named when not read: it may hold turns the other does not.
	return oneRolloutPerSession(oneFilePerSession(found, passed, continues), archived);
}

/**
 * One file per Codex session id. Each copy was two notes of one session; the one kept is the
 * one a user expects the note to be made from: the larger (a rollout is only appended to, so the
 * larger holds all the smaller does, and more), and at equal size the one under `sessions/`,
 * where Codex writes (a copy into `archived_sessions/` being made, or just made, is no larger).
 * When the file kept changes (the original deleted, the copy grown), the session's record
 * follows it as for a moved rollout (`movedTranscripts`): still one note.
 */
function oneRolloutPerSession(found: TranscriptFile[], archived: ReadonlySet<TranscriptFile>): TranscriptFile[] {
	const kept = new Map<string, TranscriptFile>();
	for (const file of found) {
		const other = kept.get(file.fileId);
		if (other === undefined || file.size > other.size || (file.size === other.size && archived.has(other) && !archived.has(file))) kept.set(file.fileId, file);
	}
	return kept.size === found.length ? found : found.filter((f) => kept.get(f.fileId) === f);
}

/** GitHub Copilot CLI: `<home>/session-state/<session id>/events.jsonl`. */
export async function scanCopilot(home: string, passed: PassedOver[] = []): Promise<TranscriptFile[]> {
	const found: TranscriptFile[] = [];
	const state = join(home, "session-state");
	for (const entry of await list(state, passed)) {
		if (entry.isSymbolicLink() && UUID.test(entry.name)) passed.push(passedOver(child(state, entry.name), entry));
		if (!entry.isDirectory()) continue;
		const file = stampOwn(child(child(state, entry.name), "events.jsonl"), { agent: "copilot-cli", projectDir: "copilot", kind: "session", fileId: entry.name }, passed);
		if (file) found.push(file);
	}
	return found;
}

const GEMINI_SESSION = /^session-.*\.jsonl?$/;

/** The files a scan read whole (for the read that follows it), by path, with the stat they were read at. */
export type Prefetched = Map<string, { bytes: Buffer; ino: number; mtimeMs: number }>;

/** A Gemini CLI session file up to this size is read whole by the scan that opens it for its id (most are a few KB). */
const PREFETCH_FILE_BYTES = 64 * 1024;
const SLAB_BYTES = 1024 * 1024;
/** What one scan keeps of the files it read whole, at most, until they are folded. */
const PREFETCH_TOTAL_BYTES = 64 * 1024 * 1024;

/**
 * Gemini CLI: `<home>/tmp/<project>/chats/session-<time>-<id8>.jsonl` (older ones `.json`), and
 * sub-agents in `chats/<parent session id>/<id>.jsonl`. The project's folder is in
 * `tmp/<project>/.project_root`, not in the session files.
 *
 * A session file's id is on its first line, so a new or changed one is opened: then a small one is
 * read whole and kept in `prefetch` for the read that comes next (one open of each new file, not
 * two: the scan's opens were as many as the reads). A file unchanged since `known` keeps its id, unopened.
 */
export async function scanGemini(home: string, known?: ReadonlyMap<string, TranscriptFile>, prefetch?: Prefetched, passed: PassedOver[] = []): Promise<TranscriptFile[]> {
	const found: TranscriptFile[] = [];
	const tmp = join(home, "tmp");
	let kept = 0;
	// Files read whole go into slabs of a megabyte, not a buffer each (thousands of small buffers were a tenth of the read).
	let slab = Buffer.allocUnsafe(0);
	let used = 0;
	const subagents: { at: number; files: Promise<TranscriptFile[]> }[] = [];
	/** The file's first bytes (up to `bytes`) and stat; read whole into a slab, kept in `prefetch`. */
	const readKept = (path: string, bytes: number): { head: Buffer; stats: Stats } | undefined => {
		if (slab.length - used < PREFETCH_FILE_BYTES) {
			slab = Buffer.allocUnsafe(SLAB_BYTES);
			used = 0;
		}
		const read = readHead(path, bytes, slab, used);
		if (read && read.head.length === read.stats.size) {
			prefetch!.set(path, { bytes: read.head, ino: Number(read.stats.ino), mtimeMs: read.stats.mtimeMs });
			kept += read.head.length;
			used += read.head.length;
		}
		return read;
	};
	// A new sub-agent's file is read whole as a session's is, for the read that follows: one open of
	// it, not a stat here and then the read's own open, stat and read.
	const subagentStamp = (path: string, info: Omit<TranscriptFile, "path" | "size" | "mtimeMs" | "ino" | "ctimeMs">): TranscriptFile | undefined => {
		if (prefetch === undefined || kept >= PREFETCH_TOTAL_BYTES || known?.has(path)) return stamp(path, info);
		const stats = readKept(path, PREFETCH_FILE_BYTES)?.stats;
		return stats && { path, ...info, size: stats.size, mtimeMs: stats.mtimeMs, ino: Number(stats.ino), ctimeMs: stats.ctimeMs };
	};
	for (const project of await list(tmp, passed)) {
		// A project's folder, or a session's folder of sub-agents (below), that is a link is not followed, and said, as Claude Code's.
		if (project.isSymbolicLink()) passed.push(passedOver(child(tmp, project.name), project));
		if (!project.isDirectory()) continue;
		const cwd = projectRoot(child(child(tmp, project.name), ".project_root"));
		const chats = child(child(tmp, project.name), "chats");
		const base = { agent: "gemini-cli" as const, projectDir: project.name, ...(cwd === undefined ? {} : { cwd }) };
		const entries = await listOwn(chats, passed);
		// Made when an older CLI's `.json` is met: a set of every name in each folder, for those few.
		let names: Set<string> | undefined;
		for (const entry of entries) {
			if (!entry.isFile() && !entry.isDirectory() && (GEMINI_SESSION.test(entry.name) || entry.isSymbolicLink())) passed.push(passedOver(child(chats, entry.name), entry));
			if (entry.isFile() && GEMINI_SESSION.test(entry.name)) {
				// A `.json` of an older CLI is converted to a `.jsonl` of the same name when resumed: one of them is read.
				if (entry.name.endsWith(".json") && (names ??= new Set(entries.map((e) => e.name))).has(`${entry.name}l`)) continue;
				const path = child(chats, entry.name);
				const before = known?.get(path);
				if (before && before.agent === "gemini-cli") {
					const now = stamp(path, { ...base, kind: "session", fileId: before.fileId });
					if (now && sameStamp(before, now)) {
						found.push(now);
						continue;
					}
				}
				// The file's name has 8 characters of the session id; its first line has all of it (sub-agents name their parent by it).
				const read = prefetch !== undefined && kept < PREFETCH_TOTAL_BYTES ? readKept(path, PREFETCH_FILE_BYTES) : readHead(path, ID_WINDOW, undefined, 0);
				if (!read) continue;
				const fileId = sessionIdOf(read.head) ?? entry.name.replace(/\.jsonl?$/, "");
				found.push(sessionStamp(path, base, fileId, read.stats));
			} else if (entry.isDirectory()) {
				// A folder of sub-agents per session that had one: listed all at once, not one after
				// another (measured: the bench's 1,643 such folders, waited for in turn, were nearly a fifth of its read).
				const dir = child(chats, entry.name);
				subagents.push({ at: found.length, files: list(dir, passed).then((agents) => subagentFiles(dir, agents, base, entry.name, passed, subagentStamp)) });
			}
		}
	}
	// Each folder's files where it was in the listing, as if listed in turn.
	const listed = await Promise.all(subagents.map((s) => s.files));
	if (listed.length === 0) return oneFilePerSession(found, passed, continues);
	const all: TranscriptFile[] = [];
	let next = 0;
	for (let i = 0; i <= found.length; i++) {
		for (; next < subagents.length && subagents[next]!.at === i; next++) for (const file of listed[next]!) all.push(file);
		if (i < found.length) all.push(found[i]!);
	}
	// A conflict copy of a session file (or of a sub-agent's) beside it is the same session: one of the two is read.
	return oneFilePerSession(all, passed, continues);
}

/**
 * A session file's stamp, its fields written out in the order `{ path, ...base, … }` gives them:
 * spread, `base` was copied property by property for each of thousands of files.
 */
function sessionStamp(path: string, base: Pick<TranscriptFile, "agent" | "projectDir" | "cwd">, fileId: string, stats: Stats): TranscriptFile {
	const { agent, projectDir, cwd } = base;
	const { size, mtimeMs, ctimeMs } = stats;
	const ino = Number(stats.ino);
	return cwd === undefined ? { path, agent, projectDir, kind: "session", fileId, size, mtimeMs, ino, ctimeMs } : { path, agent, projectDir, cwd, kind: "session", fileId, size, mtimeMs, ino, ctimeMs };
}

function subagentFiles(dir: string, agents: Dirent[], base: Pick<TranscriptFile, "agent" | "projectDir" | "cwd">, parentSessionId: string, passed: PassedOver[], stampOf: typeof stamp): TranscriptFile[] {
	const files: TranscriptFile[] = [];
	for (const agent of agents) {
		if (!agent.name.endsWith(".jsonl")) continue;
		// A link or a FIFO under a sub-agent's name: not read, and said.
		if (!agent.isFile()) {
			if (!agent.isDirectory()) passed.push(passedOver(child(dir, agent.name), agent));
			continue;
		}
		const id = copiedName(agent.name).slice(0, -".jsonl".length);
		const file = stampOf(child(dir, agent.name), { ...base, kind: "subagent", fileId: id, agentId: id, parentSessionId });
		if (file) files.push(file);
	}
	return files;
}

/** Where the session id is looked for: the first line's start. */
const ID_WINDOW = 1024;
const SESSION_ID_KEY = Buffer.from('"sessionId"', "latin1");

/**
 * The session id on a Gemini CLI file's first line (`"sessionId"`, blanks, `:`, blanks, `"` and 8
 * to 64 hex digits or dashes, `"`, all in its first kilobyte), found in its bytes and decoded alone:
 * a kilobyte decoded per file for a pattern to search was a twentieth of a scan of thousands, and a
 * capture kept as a file's id keeps what it was cut from alive.
 */
function sessionIdOf(head: Buffer): string | undefined {
	const end = Math.min(head.length, ID_WINDOW);
	for (let key = keyFirst(head) ? 1 : head.indexOf(SESSION_ID_KEY); key >= 0 && key + SESSION_ID_KEY.length < end; key = head.indexOf(SESSION_ID_KEY, key + 1)) {
		let at = blanksFrom(head, key + SESSION_ID_KEY.length, end);
		if (at >= end || head[at] !== 0x3a) continue; // ":"
		at = blanksFrom(head, at + 1, end);
		if (at >= end || head[at] !== 0x22) continue; // '"'
		const start = at + 1;
		let stop = start;
		while (stop < end && stop - start <= 64 && isIdByte(head[stop]!)) stop++;
		if (stop < end && head[stop] === 0x22 && stop - start >= 8 && stop - start <= 64) return head.toString("latin1", start, stop);
	}
	return undefined;
}

/**
 * Whether the head starts `{"sessionId"`, as Gemini CLI writes its first line: told byte by byte,
 * without a search (a `Buffer.indexOf` costs about 2 µs to set up: 31 ms of a scan of 14,787 files).
 */
function keyFirst(head: Buffer): boolean {
	if (head.length <= SESSION_ID_KEY.length || head[0] !== 0x7b) return false;
	for (let i = 0; i < SESSION_ID_KEY.length; i++) if (head[i + 1] !== SESSION_ID_KEY[i]) return false;
	return true;
}

/** Past the blanks from `at` (what `\s` matches in a byte read as Latin-1). */
function blanksFrom(head: Buffer, at: number, end: number): number {
	while (at < end && isBlankByte(head[at]!)) at++;
	return at;
}

function isBlankByte(b: number): boolean {
	return b === 0x20 || (b >= 0x09 && b <= 0x0d) || b === 0xa0;
}

/** A hex digit or `-`. */
function isIdByte(b: number): boolean {
	return (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46) || b === 0x2d;
}

/** A Gemini CLI session file's first bytes and stat (one open); undefined when it is gone or not a plain file. */
function readHead(path: string, bytes: number, into: Buffer | undefined, at: number): { head: Buffer; stats: Stats } | undefined {
	try {
		return readPlainHeadAndStatSync(path, bytes, into, at);
	} catch {
		return undefined;
	}
}

/** The project folder Gemini CLI wrote for a project's folder: a small plain file (never a FIFO), or nothing. */
function projectRoot(path: string): string | undefined {
	try {
		const text = readPlainHeadSync(path, 4096).trim();
		return text.length > 0 && text.length < 4096 && !text.includes("\n") ? text : undefined;
	} catch {
		return undefined;
	}
}

/** The name Aider gives its chat history, at the root of the repository it runs in (its default `--chat-history-file`). */
export const AIDER_HISTORY = ".aider.chat.history.md";
const AIDER_CONFIG = ".aider.conf.yml";

/**
 * Where Aider keeps a project's chat history: the `chat-history-file` of the project's
 * `.aider.conf.yml`, else of `~/.aider.conf.yml` (Aider reads both, the project's last), else
 * `.aider.chat.history.md`; a relative name is the project's (Aider runs at its root). The
 * project's config is the repository's, untrusted: a name that leads out of the project (`../…`,
 * an absolute path elsewhere, a folder that is a link out) is not followed, and the default is read.
 * @returns the path relative to the project, with `/` between its parts
 */
export function aiderHistoryName(project: string, home: string = homedir()): string {
	return aiderHistoryChoice(project, home).name;
}

/** `aiderHistoryName`, and whether the project's own config (the repository's, untrusted) named it. */
function aiderHistoryChoice(project: string, home: string = homedir()): { name: string; byRepository: boolean } {
	for (const config of [join(project, AIDER_CONFIG), join(home, AIDER_CONFIG)]) {
		let named: string | undefined;
		try {
			named = aiderHistorySetting(readPlainHeadSync(config, 64 * 1024));
		} catch {
			continue; // none, or no plain file
		}
		if (named === undefined) continue;
		const inProject = confinedName(project, named.startsWith("~/") ? join(home, named.slice(2)) : named);
		if (inProject !== undefined) return { name: inProject, byRepository: config === join(project, AIDER_CONFIG) };
	}
	return { name: AIDER_HISTORY, byRepository: false };
}

/** How much of a history the repository's config named is read to tell it is one. */
const AIDER_HEAD_BYTES = 4096;

/** `name` as a path inside `project` once its folders' links are followed, or undefined. */
function confinedName(project: string, name: string): string | undefined {
	try {
		const root = realpathSync(project);
		const folder = realpathSync(dirname(resolve(project, name)));
		const rel = relative(root, join(folder, basename(name)));
		return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? undefined : rel.split(sep).join("/");
	} catch {
		return undefined; // its folder is not there
	}
}

/**
 * Aider: each enabled project's chat history (see `aiderHistoryName`), one file of all its
 * sessions (`kind: "sessions"`, split by the transcript index). A plain file only: a link, a FIFO
 * or a folder of that name is not read.
 */
export async function scanAider(projects: readonly string[], home?: string, passed: PassedOver[] = []): Promise<TranscriptFile[]> {
	const found: TranscriptFile[] = [];
	for (const project of new Set(projects)) {
		// A project folder not there has no history (nor a config to look for one by).
		if (!(await isDirectory(project))) continue;
		const { name, byRepository } = aiderHistoryChoice(project, home);
		const path = join(project, ...name.split("/"));
		try {
			const s = lstatSync(path, { throwIfNoEntry: false });
			// Something else under the history's name (a link, a FIFO, a folder): not read, and said.
			if (s !== undefined && !s.isFile()) passed.push(notPlainFile(path, s));
			if (!s?.isFile()) continue;
			// A history the repository ships (tracked by git) is its author's sessions, not the user's.
			if (trackedByGit(path)) {
				passed.push({ path, reason: "not read: git tracks it, so it came with the repository (its author's sessions, not yours)" });
				continue;
			}
			// A file the repository's config names is read only when Aider wrote it: named `.env`, the
			// project's ignored `.env` was read as a session and copied into the vault.
			if (byRepository && s.size > 0 && !startsAsAiderHistory(readPlainHeadSync(path, AIDER_HEAD_BYTES))) {
				passed.push({ path, reason: "not read: the project's .aider.conf.yml names it as Aider's chat history, but Aider did not write it (it does not start with `# aider chat started at`)" });
				continue;
			}
			found.push({ path, agent: "aider", cwd: project, projectDir: "aider", kind: "sessions", fileId: `aider-${hash53(project).toString(36)}`, size: s.size, mtimeMs: s.mtimeMs, ino: Number(s.ino), ctimeMs: s.ctimeMs });
		} catch (error) {
			// Unreadable: said; nothing when its folder is not there.
			passCouldNotLook(passed, path, error);
		}
	}
	return found;
}
