import type { RawLine } from "../core/transcript/jsonl-lines";
import type { ReadOnlyDatabase, SqlValue } from "./sqlite-reader";
import { keptText, TextBytes, type KeptText } from "./text-bytes";

/**
 * opencode's database (`<data dir>/opencode.db`, SQLite in WAL mode, 1.2 and later): its sessions
 * as the scanner lists them, and one session's rows as the lines `opencode-fold.ts` reads. The
 * tables and columns are those observed in 1.18.33 (docs/agents/opencode-format.md); columns are
 * read by name, so one a version lacks is simply absent.
 */

export interface DbSession {
	id: string;
	parentId: string | undefined;
	/** `time_updated` (ms). */
	updated: number;
	/**
	 * The last event number of the session (`event_sequence.seq`): every change to the session, its
	 * messages or parts bumps it, even after `time_updated` (a message's diff summary comes later).
	 * -1 where the table is missing.
	 */
	seq: number;
}

const num = (v: SqlValue | undefined): number => (typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : 0);
const str = (v: SqlValue | undefined): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

interface Shape {
	tables: Set<string>;
	/** The session columns the fold reads that this version has. */
	sessionColumns: string[];
	worktrees: Map<string, { worktree: SqlValue; vcs: SqlValue }>;
}

/** Each view's session rows (their `sessionColumns`' values), as its listing read them. */
const listed = new WeakMap<ReadOnlyDatabase, Map<string, SqlValue[]>>();

/** What a view of the database holds, looked up once per view (a view is one moment of the database). */
const shapes = new WeakMap<ReadOnlyDatabase, Promise<Shape>>();

function shapeOf(db: ReadOnlyDatabase): Promise<Shape> {
	let shape = shapes.get(db);
	if (!shape) {
		shape = (async () => {
			const tables = new Set((await db.all("SELECT name FROM sqlite_master WHERE type = 'table'")).map((r) => String(r.name)));
			const columns = tables.has("session") ? new Set((await db.all("SELECT name FROM pragma_table_info('session')")).map((r) => String(r.name))) : new Set<string>();
			const worktrees = new Map<string, { worktree: SqlValue; vcs: SqlValue }>();
			if (tables.has("project")) for (const p of await db.all("SELECT id, worktree, vcs FROM project")) worktrees.set(String(p.id), { worktree: p.worktree ?? null, vcs: p.vcs ?? null });
			return { tables, sessionColumns: SESSION_COLUMNS.filter((c) => columns.has(c)), worktrees };
		})();
		shapes.set(db, shape);
	}
	return shape;
}

async function tablesOf(db: ReadOnlyDatabase): Promise<Set<string>> {
	return (await shapeOf(db)).tables;
}

/** Every session of the database (children too), with what a scan needs. */
export async function listSessions(db: ReadOnlyDatabase): Promise<DbSession[]> {
	const tables = await tablesOf(db);
	if (!tables.has("session")) return [];
	// Two plain scans joined here: cheaper than a lookup per session.
	const seqs = new Map<string, number>();
	if (tables.has("event_sequence")) await db.each("SELECT aggregate_id, seq FROM event_sequence", [], (v) => seqs.set(String(v[0]), num(v[1])));
	const sessions: DbSession[] = [];
	const { sessionColumns } = await shapeOf(db);
	// The columns a session's first line holds, kept for reading its rows with this view: the
	// row's values as they came (see `sessionOf`).
	const rows = new Map<string, SqlValue[]>();
	listed.set(db, rows);
	const at = (name: string) => sessionColumns.indexOf(name);
	const [idAt, parentAt, updatedAt] = [at("id"), at("parent_id"), at("time_updated")];
	await db.each(`SELECT ${sessionColumns.join(", ")} FROM session`, [], (v) => {
		const id = str(v[idAt]);
		if (id === undefined) return;
		sessions.push({ id, parentId: str(v[parentAt]), updated: num(v[updatedAt]), seq: seqs.get(id) ?? -1 });
		rows.set(id, v);
	});
	return sessions;
}

/** One session's rows as lines (see `opencode-fold.ts`), and the bytes of JSON in them. */
export interface SessionRows {
	lines: RawLine[];
	bytes: number;
}

/**
 * A part's row until its session's lines are made: its id, its JSON's bytes kept (see
 * `TextBytes`), and its message's next part as read. As few objects as can be: a first sync holds
 * one for every row of the database, and lists linked through the rows (an array grown by `push`
 * holds room for 17: more than the rows themselves, a first sync's rows all outlive the young generation).
 */
interface PartRow extends KeptText {
	id: string;
	next: PartRow | undefined;
}

/** A message's row, its session's next message as read, and its parts as read: in id order unless `unsorted`. */
interface MessageRow extends KeptText {
	id: string;
	/** `time_created`. */
	time: number;
	next: MessageRow | undefined;
	firstPart: PartRow | undefined;
	lastPart: PartRow | undefined;
	unsorted: boolean;
}

/** A session's messages as read (linked by `next`). */
interface MessageList {
	first: MessageRow;
	last: MessageRow;
}

/**
 * The rows of the sessions `ids` as lines, by session, each session's made when it is asked for:
 * the session (with its project's worktree), then each message by time, each followed by its parts
 * in order. A session not in this database has no entry. A few queries for all of them (through the
 * indexes opencode keeps on `session_id`), so reading a thousand sessions costs little more than
 * reading their rows. Until then the rows' JSON is kept as bytes: a first sync holds every row of
 * the database at once, and each session's strings are made as it is folded, and let go young.
 */
export async function sessionsLines(db: ReadOnlyDatabase, ids: readonly string[], whole = false): Promise<Map<string, () => SessionRows>> {
	const out = new Map<string, () => SessionRows>();
	if (ids.length === 0) return out;
	const { tables, sessionColumns, worktrees } = await shapeOf(db);
	if (!tables.has("session")) return out;
	if (ids.length > BATCH_SIZE && !whole) throw new Error(`at most ${BATCH_SIZE} sessions at a time`);
	// Always as many marks (ids repeated to fill them): one query text, prepared once per view.
	// Or, `whole`, every row of the tables in one pass, the sessions asked for kept.
	const marks = Array.from({ length: BATCH_SIZE }, () => "?").join(", ");
	const params = whole ? [] : Array.from({ length: BATCH_SIZE }, (_, i) => ids[i % ids.length]!);
	const where = (column: string) => (whole ? "" : ` WHERE ${column} IN (${marks})`);
	const known = listed.get(db);
	// Every session of the database (a first sync): no row need be told apart by its session.
	const wanted = whole && !(known !== undefined && ids.length >= known.size && ids.every((id) => known.has(id))) ? new Set(ids) : undefined;
	let sessions: SqlValue[][];
	if (known && ids.every((id) => known.has(id))) sessions = ids.map((id) => known.get(id)!);
	else {
		sessions = [];
		await db.each(`SELECT ${sessionColumns.join(", ")} FROM session${where("id")}`, params, (v) => sessions.push(v));
	}
	const texts = new TextBytes();
	// Messages first: each session's in the order read, and each by its id, for its parts.
	const messagesOf = new Map<string, MessageList>();
	const messages = new Map<string, MessageRow>();
	if (tables.has("message")) {
		// A session's messages mostly come one after another: its list looked up once.
		let lastSession: string | undefined;
		let list: MessageList | undefined;
		const onRow = (v: SqlValue[]) => {
			const sessionId = String(v[0]);
			if (wanted && !wanted.has(sessionId)) return;
			const message: MessageRow = { id: String(v[1]), time: num(v[2]), next: undefined, firstPart: undefined, lastPart: undefined, unsorted: false, chunk: undefined, at: 0, end: 0 };
			keep(texts, v[3], message);
			messages.set(message.id, message);
			if (sessionId !== lastSession) {
				lastSession = sessionId;
				list = messagesOf.get(sessionId);
			}
			if (!list) messagesOf.set(sessionId, (list = { first: message, last: message }));
			else {
				list.last.next = message;
				list.last = message;
			}
		};
		await db.each(`SELECT session_id, id, time_created, data FROM message${where("session_id")}`, params, onRow, 3);
	}
	if (tables.has("part")) {
		// The row times are left out: each part's own `time` is in its JSON (fewer columns to convert, row by row).
		const sql = `SELECT message_id, id, data${wanted ? ", session_id" : ""} FROM part${where("session_id")}`;
		// A message's parts mostly come one after another: their message looked up once. A part of
		// no message read is never a line: its bytes are not kept.
		let lastKey: SqlValue | undefined;
		let message: MessageRow | undefined;
		const onRow = (v: SqlValue[]) => {
			if (wanted && !wanted.has(String(v[3]))) return;
			if (lastKey === undefined || v[0] !== lastKey) {
				lastKey = v[0];
				message = messages.get(String(v[0]));
			}
			if (!message) return;
			const part: PartRow = { id: String(v[1]), next: undefined, chunk: undefined, at: 0, end: 0 };
			keep(texts, v[2], part);
			const tail = message.lastPart;
			if (!tail) message.firstPart = part;
			else {
				// Rows come in the order they were made, which is the ids' order: sorted only when not.
				if (tail.id > part.id) message.unsorted = true;
				tail.next = part;
			}
			message.lastPart = part;
		};
		await db.each(sql, params, onRow, 2);
	}
	const [idAt, projectAt] = [sessionColumns.indexOf("id"), sessionColumns.indexOf("project_id")];
	for (const values of sessions) {
		const id = String(values[idAt]);
		if (wanted && !wanted.has(id)) continue;
		out.set(id, linesLater({ columns: sessionColumns, values, project: worktrees.get(String(values[projectAt])) }, messagesOf.get(id)));
	}
	return out;
}

/** A session's row as read (its values by `columns`), and its project's columns. */
interface SessionRow {
	columns: readonly string[];
	values: readonly SqlValue[];
	project: { worktree: SqlValue; vcs: SqlValue } | undefined;
}

/** A session's lines, made when asked for. A function of its own: a function made here holds nothing of `sessionsLines`, whose maps hold every row. */
function linesLater(session: SessionRow, messages: MessageList | undefined): () => SessionRows {
	return () => linesOf(session, messages);
}

/**
 * A session's lines: its rows, their JSON made text, its messages by time and each message's parts
 * by id (sorted here when they were not read so, each session's alone: an ORDER BY made SQLite
 * sort the whole batch, twice the time, measured).
 */
function linesOf(session: SessionRow, list: MessageList | undefined): SessionRows {
	// The session's columns given as made, not written out as JSON for the fold to parse back.
	const lines: RawLine[] = [{ no: 1, text: "", value: SESSION_FIELDS, parsed: sessionOf(session) }];
	let bytes = 0;
	const messages: MessageRow[] = [];
	for (let m = list?.first; m; m = m.next) messages.push(m);
	if (messages.some((m, i) => i > 0 && before(m, messages[i - 1]!))) messages.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
	for (const message of messages) {
		const text = keptText(message) ?? "null";
		lines.push(rowLine(["message", message.id, message.time, 0], text, lines.length + 1));
		bytes += text.length;
		const parts: PartRow[] = [];
		for (let p = message.firstPart; p; p = p.next) parts.push(p);
		if (message.unsorted) parts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
		for (const part of parts) {
			const partText = keptText(part) ?? "null";
			lines.push(rowLine(["part", part.id, message.id, 0, 0], partText, lines.length + 1));
			bytes += partText.length;
		}
	}
	return { lines, bytes };
}

/** A row's JSON's bytes (a view of SQLite's memory) copied into `texts`; a value of another kind, or none, reads as `null`. */
function keep(texts: TextBytes, data: SqlValue | undefined, into: KeptText): void {
	if (data instanceof Uint8Array) texts.keep(data, into);
}

/** The sessions `sessionsLines` reads at once, at most. */
export const BATCH_SIZE = 50;

/** Message order, as opencode keeps it: by time, then id. */
function before(a: MessageRow, b: MessageRow): boolean {
	return a.time < b.time || (a.time === b.time && a.id < b.id);
}

/** The session columns the fold reads (`opencode-fold.ts`), and its project's. */
const SESSION_COLUMNS = ["id", "parent_id", "project_id", "directory", "title", "version", "time_created", "time_updated"];

/**
 * A row as a line: its columns apart, its JSON as the text, parsed by the fold (once, and let go
 * with the row: parsed here, a batch of rows would outlive the young generation).
 */
export function rowLine(columns: readonly (string | number)[], data: string, no: number): RawLine {
	return { no, text: data, value: columns };
}

/**
 * A session's row as an object, its project's columns last, made field by field (a copy of the
 * listing's object with the project's assigned to it cost 3 to 8 µs a session, measured).
 */
function sessionOf({ columns, values, project }: SessionRow): Record<string, string | number | null> {
	const out: Record<string, string | number | null> = {};
	for (let i = 0; i < columns.length; i++) out[columns[i]!] = plain(values[i] ?? null);
	if (project) {
		out.worktree = plain(project.worktree);
		out.vcs = plain(project.vcs);
	}
	return out;
}

/** A session line's fields before its columns (see `rowLine`). */
const SESSION_FIELDS = ["session"] as const;

/**
 * A value as JSON gives it back (integers past 2^53 as numbers; a number JSON cannot hold, and a
 * blob, as null; -0 as 0).
 */
function plain(value: SqlValue): string | number | null {
	if (typeof value === "number") return Number.isFinite(value) ? value + 0 : null;
	return typeof value === "bigint" ? Number(value) : value instanceof Uint8Array ? null : value;
}

