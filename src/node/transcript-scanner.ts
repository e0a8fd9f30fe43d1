import { closeSync, lstatSync, readdirSync, readSync, statSync, type Dirent, type Stats } from "node:fs";
import { readdir } from "node:fs/promises";
import { mayBlockOnFiles } from "./blocking-files";
import { join, sep } from "node:path";
import { classifyProjectFile, oneFilePerSession, type TranscriptFile } from "../core/transcript/transcript-files";
import type { PassedOverEntry } from "../core/ports";
import { describeWriteError } from "../core/write-error";
import { openPlainFileSync } from "./confined-path";

/** An entry a scan found and did not read, and why (see `PassedOverEntry`). */
export type PassedOver = PassedOverEntry;

/**
 * Lists every transcript under a projects root by stat alone: sessions and legacy sibling
 * sub-agents (`<project>/*.jsonl`), and 2.1.2+ sub-agents (`<project>/<session>/subagents/…`,
 * including Workflow runs one level deeper). Unreadable folders are skipped, never fatal. A link
 * or a FIFO where a project folder or a transcript would be is not read (nothing is read through
 * a link out of the agents' folders, and a FIFO blocks a read) and goes into `passed`, so the
 * sync can say so: the user who put it there learns why its sessions have no notes.
 */
export async function scanTranscripts(root: string, passed: PassedOver[] = []): Promise<TranscriptFile[]> {
	const projects = await list(root, passed);
	for (const d of projects) if (!d.isDirectory() && !d.isFile()) passed.push(passedOver(join(root, d.name), d));
	const perProject = await Promise.all(
		projects.filter((d) => d.isDirectory() && d.name !== "memory").map((d) => scanProject(root, d.name, passed)),
	);
	return perProject.flat();
}

const THROUGH_A_LINK = "not read: a link (transcripts are read where the agent writes them, never through a link)";

/** Why an entry that is neither a plain file nor a folder is not read. */
export function passedOver(path: string, entry: Dirent): PassedOver {
	return { path, reason: entry.isSymbolicLink() ? THROUGH_A_LINK : "not read: neither a file nor a folder (a FIFO, a socket or a device)" };
}

/**
 * Names in `passed` a folder or file a scan could not look at (its lstat or its listing failed
 * with `error`: no permission, a file where a folder of its path should be), and why; nothing when
 * it is simply not there.
 */
export function passCouldNotLook(passed: PassedOver[] | undefined, path: string, error: unknown): void {
	if ((error as NodeJS.ErrnoException).code !== "ENOENT") passed?.push({ path, reason: `not read: ${describeWriteError(error)}` });
}

/** Why what lies under a transcript's own name (`found`, its lstat) is not read: it is not a plain file. */
export function notPlainFile(path: string, found: { isSymbolicLink(): boolean }): PassedOver {
	return { path, reason: found.isSymbolicLink() ? THROUGH_A_LINK : "not read: not a plain file (a FIFO, a socket, a device or a folder)" };
}

/**
 * iCloud Drive's placeholder of a file it keeps in the cloud only ("Optimise Mac Storage", or a
 * session another Mac wrote and this one has not downloaded): `.<name>.icloud`, with the file gone.
 * The session has no note then, and nothing said why (see `PassedOverEntry.standsFor`).
 */
const ICLOUD_PLACEHOLDER = /^\.(.+\.jsonl)\.icloud$/;
const EVICTED = "not read: iCloud Drive keeps this transcript in the cloud only, and this is its placeholder; download it (in Finder, or `brctl download` on the path without the dot and `.icloud`), and the next sync reads it";

/** The name of the session transcript an iCloud Drive placeholder named `name` stands for; undefined when it is none. */
function evictedName(name: string): string | undefined {
	const stands = ICLOUD_PLACEHOLDER.exec(name)?.[1];
	return stands !== undefined && classifyProjectFile(stands)?.kind === "session" ? stands : undefined;
}

async function scanProject(root: string, projectDir: string, passed: PassedOver[]): Promise<TranscriptFile[]> {
	const dir = join(root, projectDir);
	const entries = await list(dir, passed);
	const files: TranscriptFile[] = [];
	const nested: Promise<TranscriptFile[]>[] = [];
	for (const entry of entries) {
		if (entry.isFile()) {
			const kind = classifyProjectFile(entry.name);
			const file = kind && stamp(child(dir, entry.name), { projectDir, ...kind });
			if (file) files.push(file);
			const stands = evictedName(entry.name);
			if (stands !== undefined) passed.push({ path: child(dir, entry.name), reason: EVICTED, standsFor: child(dir, stands) });
		} else if (entry.isDirectory() && entry.name !== "memory") {
			nested.push(scanSubagents(join(dir, entry.name, "subagents"), projectDir, entry.name, passed));
		} else if (!entry.isDirectory() && classifyProjectFile(entry.name)) {
			passed.push(passedOver(join(dir, entry.name), entry));
		}
	}
	return [...oneFilePerSession(files, passed, continues), ...(await Promise.all(nested)).flat()];
}

async function scanSubagents(dir: string, projectDir: string, parentSessionId: string, passed: PassedOver[]): Promise<TranscriptFile[]> {
	const entries = await listOwn(dir, passed);
	if (entries.length === 0) return [];
	const names = new Set(entries.map((e) => e.name));
	const files: TranscriptFile[] = [];
	const nested: Promise<TranscriptFile[]>[] = [];
	for (const entry of entries) {
		if (entry.isFile()) {
			const kind = classifyProjectFile(entry.name);
			if (kind?.kind !== "subagent") continue;
			const metaName = `${kind.fileId}.meta.json`;
			const metaPath = names.has(metaName) ? child(dir, metaName) : undefined;
			const meta = metaPath === undefined ? undefined : metaStampOf(metaPath);
			const file = stamp(child(dir, entry.name), {
				projectDir,
				...kind,
				parentSessionId,
				metaPath,
				...(meta === undefined ? {} : { metaStamp: meta }),
			});
			if (file) files.push(file);
		} else if (entry.isDirectory()) {
			// subagents/workflows/<run>/agent-*.jsonl
			nested.push(
				list(join(dir, entry.name)).then((runs) =>
					Promise.all(
						runs.filter((r) => r.isDirectory()).map((r) => scanSubagents(join(dir, entry.name, r.name), projectDir, parentSessionId, passed)),
					).then((x) => x.flat()),
				),
			);
		}
	}
	return [...oneFilePerSession(files, passed, continues), ...(await Promise.all(nested)).flat()];
}

/**
 * A file's stamp, by a blocking `stat`: a few microseconds each from the page cache, against tens
 * for a promise and a thread-pool round trip (measured: the bench tree's 1,216 files in 5 ms
 * instead of 15–20, a tenth of a sync with nothing to do). Folders are still listed
 * asynchronously where the process may not block (Obsidian), so the event loop is held for one
 * folder's stats at a time.
 */
export function stamp(path: string, info: Omit<TranscriptFile, "path" | "size" | "mtimeMs" | "ino" | "ctimeMs">): TranscriptFile | undefined {
	try {
		// Deleted between readdir and stat (Claude Code's cleanup): simply not there.
		const s = statSync(path, { throwIfNoEntry: false });
		return s === undefined ? undefined : { path, ...info, size: s.size, mtimeMs: s.mtimeMs, ino: Number(s.ino), ctimeMs: s.ctimeMs };
	} catch {
		return undefined;
	}
}

/** How much of the end of the shorter file `continues` compares. */
const OVERLAP_BYTES = 64 * 1024;

/**
 * Whether `longer` begins with all of `shorter` (a conflict copy in which the session went on; see
 * `oneFilePerSession`), told by the last 64 KB of `shorter` being at the same place in `longer`:
 * two files that went their own ways differ from where they parted to the end of either (each line
 * has its own uuid and time), and a whole read of both, each sync while the copy lies there, is up
 * to two transcripts of tens of megabytes. Unreadable: no.
 */
export function continues(shorter: Pick<TranscriptFile, "path" | "size">, longer: Pick<TranscriptFile, "path" | "size">): boolean {
	const length = Math.min(shorter.size, OVERLAP_BYTES);
	const at = shorter.size - length;
	try {
		return readAt(shorter.path, at, length).equals(readAt(longer.path, at, length));
	} catch {
		return false;
	}
}

/** `length` bytes of a plain file from `at` (fewer at its end), opened as every transcript is: no link, no FIFO. */
function readAt(path: string, at: number, length: number): Buffer {
	const { fd } = openPlainFileSync(path);
	try {
		const bytes = Buffer.alloc(length);
		let read = 0;
		for (let n = -1; read < length && n !== 0; read += n) n = readSync(fd, bytes, read, length - read, at + read);
		return bytes.subarray(0, read);
	} finally {
		closeSync(fd);
	}
}

/** A sub-agent meta file's stamp (see `TranscriptFile.metaStamp`); undefined when it is gone or cannot be stated. */
function metaStampOf(path: string): string | undefined {
	try {
		const s = statSync(path, { throwIfNoEntry: false });
		return s === undefined ? undefined : `${s.size}:${s.mtimeMs}`;
	} catch {
		return undefined;
	}
}

/**
 * A folder inside an agent's own folder (a session's `subagents/`, a Gemini project's `chats/`),
 * listed only when it is one: a link there is named in `passed` and not followed (the transcripts
 * it led to, outside the agent's folder, were read into notes and the state).
 */
export async function listOwn(dir: string, passed: PassedOver[]): Promise<Dirent[]> {
	const found = lstatOrSay(dir, passed);
	if (found?.isSymbolicLink()) {
		passed.push({ path: dir, reason: THROUGH_A_LINK });
		return [];
	}
	return found?.isDirectory() ? list(dir, passed) : [];
}

/**
 * The lstat of `path`; undefined when it is not there, or cannot be looked at (then named in
 * `passed`): thrown, one unreadable session folder stopped the scan of all its agent's sessions.
 */
function lstatOrSay(path: string, passed: PassedOver[]): Stats | undefined {
	try {
		return lstatSync(path, { throwIfNoEntry: false });
	} catch (error) {
		passCouldNotLook(passed, path, error);
		return undefined;
	}
}

/** A transcript at a place its agent names (Copilot's `events.jsonl`): stamped when it is a plain file, else named in `passed`. */
export function stampOwn(path: string, info: Omit<TranscriptFile, "path" | "size" | "mtimeMs" | "ino" | "ctimeMs">, passed: PassedOver[]): TranscriptFile | undefined {
	const found = lstatOrSay(path, passed);
	if (found === undefined) return undefined;
	if (!found.isFile()) {
		passed.push(notPlainFile(path, found));
		return undefined;
	}
	return stamp(path, info);
}

/** A folder's entries; none when it is not there, or cannot be listed (then named in `passed`, when given). */
export async function list(dir: string, passed?: PassedOver[]): Promise<Dirent[]> {
	try {
		const entries = mayBlockOnFiles() ? readdirSync(dir, { withFileTypes: true }) : await readdir(dir, { withFileTypes: true });
		return entries.some((e) => e.name.includes("\uFFFD")) ? entries.filter((e) => opensByName(dir, e.name, passed)) : entries;
	} catch (error) {
		passCouldNotLook(passed, dir, error);
		return [];
	}
}

const NOT_UTF8 = "not read: its name is not UTF-8 (Node lists such bytes as \uFFFD, and the name it lists opens nothing); rename it, and the next sync reads it";

/**
 * Whether a listed name holding U+FFFD is the entry's own: Node lists a byte that is not UTF-8 as
 * U+FFFD, and that name opens nothing, so a transcript or a project folder so named was skipped
 * as gone between the listing and its stat, with nothing said. Such an entry is named in `passed`.
 */
export function opensByName(dir: string, name: string, passed: PassedOver[] | undefined): boolean {
	if (!name.includes("\uFFFD")) return true;
	try {
		if (lstatSync(child(dir, name), { throwIfNoEntry: false }) !== undefined) return true;
	} catch {
		return true;
	}
	passed?.push({ path: child(dir, name), reason: NOT_UTF8 });
	return false;
}

/**
 * A file in a folder, as `join` would write it: the folder comes from `join` already and a listed
 * name holds no separator, so there is nothing to normalize (per file, `join` was a third of a scan).
 */
export function child(dir: string, name: string): string {
	return `${dir}${sep}${name}`;
}
