import { lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { type RawLine, withoutNuls } from "../core/transcript/jsonl-lines";
import { readPlainHeadSync } from "./confined-path";
import { rowLine } from "./opencode-db";
import { hasSettled } from "./transcript-tail";
import { child, notPlainFile, opensByName, passCouldNotLook, type PassedOver } from "./transcript-scanner";

/**
 * opencode's sessions before 1.2, as JSON files under `<data dir>/storage/`:
 * `session/<project id>/<session id>.json`, `message/<session id>/<message id>.json`,
 * `part/<message id>/<part id>.json`, `project/<project id>.json`. A session's files are made
 * into the same lines as a database session's (`opencode-db.ts`): one reader, one fold.
 */

export interface StorageSession {
	id: string;
	parentId: string | undefined;
	/** `session/<project id>/<id>.json`. */
	path: string;
	projectId: string;
	/** A stamp that moves when the session, its list of messages or its latest message's parts change. */
	size: number;
	mtimeMs: number;
}

/**
 * A file's JSON text (its first 64 MiB), without a UTF-8 BOM an editor put there (JSON.parse refuses
 * it) nor NULs, which JSON never holds raw (see `withoutNuls`: a stray one lost a prompt's part);
 * undefined when it is missing or not a plain file.
 */
function readText(path: string): string | undefined {
	try {
		const read = readPlainHeadSync(path, 64 * 1024 * 1024);
		const text = withoutNuls(read) ?? read;
		return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	} catch {
		return undefined;
	}
}

/**
 * A file's JSON when it is an object, "not JSON" when it is none, "no object" when it is JSON of
 * another kind. Checked here, where the files come in: a session file holding `null` was read as
 * an object, and the TypeError stopped the scan of every opencode session, said in V8's words
 * (attack round 48a, found by fuzzing).
 */
function jsonObject(text: string): Record<string, unknown> | "not JSON" | "no object" {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return "not JSON";
	}
	return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : "no object";
}

/** A name of one folder entry: no separator, not `.` or `..`, no control character. */
function isPlainName(name: string): boolean {
	return name !== "" && name !== "." && name !== ".." && !/[\\/]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 0x20);
}

/**
 * The plain files of a folder that is not itself a link: a session, message or part file (or a
 * session's message folder) that is a link or a FIFO is not read, as no agent's transcript is
 * read through a link (a `session/<project>/<id>.json` linked to a file outside was read). A scan
 * names them in `passed`, so the user learns why those sessions have no notes.
 */
function names(dir: string, passed?: PassedOver[]): string[] {
	try {
		const found = lstatSync(dir);
		if (found.isSymbolicLink()) {
			passed?.push(notPlainFile(dir, found));
			return [];
		}
		const entries = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.name.endsWith(".json") && opensByName(dir, entry.name, passed));
		for (const entry of entries) if (!entry.isFile()) passed?.push(notPlainFile(child(dir, entry.name), entry));
		return entries
			.filter((entry) => entry.isFile())
			.map((entry) => entry.name)
			.sort();
	} catch (error) {
		passCouldNotLook(passed, dir, error);
		return [];
	}
}

/** A file's time, 0 when it cannot be stated (a FIFO where `message/` should be made every stat under it throw: no session of the folder, or of the database, was read). */
function mtime(path: string): number {
	try {
		return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
	} catch {
		return 0;
	}
}

export function listStorageSessions(storage: string, passed?: PassedOver[]): StorageSession[] {
	const found: StorageSession[] = [];
	const sessions = join(storage, "session");
	let projects: string[];
	try {
		projects = readdirSync(sessions).filter((name) => opensByName(sessions, name, passed));
	} catch (error) {
		passCouldNotLook(passed, sessions, error);
		return [];
	}
	for (const projectId of projects) {
		for (const name of names(join(sessions, projectId), passed)) {
			const path = join(sessions, projectId, name);
			const text = readText(path);
			if (text === undefined) continue;
			const info = jsonObject(text);
			if (typeof info === "string") {
				// Half-written by opencode: the next scan sees it whole. Still not an object once settled: said, or its session vanished unexplained.
				if (hasSettled(mtime(path))) passed?.push({ path, reason: info === "not JSON" ? "not read: it is not JSON (opencode writes its session files as UTF-8 JSON)" : "not read: its JSON is no object (opencode writes a session file as one)" });
				continue;
			}
			// The id names folders (`message/<id>`): one that is a path (`../../..`) is not taken, the file's name is.
			const id = typeof info.id === "string" && isPlainName(info.id) ? info.id : name.slice(0, -".json".length);
			const messagesDir = join(storage, "message", id);
			const messages = names(messagesDir, passed);
			const last = messages[messages.length - 1];
			const lastParts = last === undefined ? undefined : join(storage, "part", last.slice(0, -".json".length));
			const stamps = [mtime(path), mtime(messagesDir), last === undefined ? 0 : mtime(join(messagesDir, last)), lastParts === undefined ? 0 : mtime(lastParts), ...(lastParts === undefined ? [] : names(lastParts, passed).map((p) => mtime(join(lastParts, p))))];
			found.push({ id, parentId: typeof info.parentID === "string" ? info.parentID : undefined, path, projectId, size: text.length + messages.length, mtimeMs: Math.max(...stamps) });
		}
	}
	return found;
}

/** A field of a session file as a database column holds it: a string or a number, else null. */
function column(value: unknown): string | number | null {
	return typeof value === "string" || typeof value === "number" ? value : null;
}

/** One session's files as lines (see `opencode-fold.ts`); undefined when its session file is gone. */
export function storageSessionLines(storage: string, session: Pick<StorageSession, "id" | "path" | "projectId">): { lines: RawLine[]; bytes: number } | undefined {
	const text = readText(session.path);
	if (text === undefined) return undefined;
	const info = jsonObject(text);
	if (typeof info === "string") return { lines: [{ no: 1, text: JSON.stringify(["session"]) }], bytes: text.length };
	const time = typeof info.time === "object" && info.time !== null ? (info.time as Record<string, unknown>) : {};
	const projectText = readText(join(storage, "project", `${session.projectId}.json`));
	const project = projectText === undefined ? undefined : jsonObject(projectText);
	const worktree = typeof project === "object" ? project.worktree : undefined;
	// The columns a database session has, from the file's fields: a column holds a string or a number,
	// so another value is none (a title nested 100,000 deep overflowed the stack when the row was written out).
	const row = { id: column(info.id) ?? session.id, parent_id: column(info.parentID), project_id: session.projectId, directory: column(info.directory), title: column(info.title), version: column(info.version), time_created: column(time.created), time_updated: column(time.updated), worktree: column(worktree) };
	const lines: RawLine[] = [{ no: 1, text: JSON.stringify(["session", row]) }];
	let bytes = text.length;
	const messagesDir = join(storage, "message", session.id);
	// Ids sort in the order opencode made them (time first); the folder's listing order means nothing.
	for (const name of names(messagesDir)) {
		const id = name.slice(0, -".json".length);
		const data = readText(join(messagesDir, name)) ?? "null";
		bytes += data.length;
		lines.push(rowLine(["message", id, 0, 0], data, lines.length + 1));
		const partsDir = join(storage, "part", id);
		for (const part of names(partsDir)) {
			const partData = readText(join(partsDir, part)) ?? "null";
			bytes += partData.length;
			lines.push(rowLine(["part", part.slice(0, -".json".length), id, 0, 0], partData, lines.length + 1));
		}
	}
	return { lines, bytes };
}
