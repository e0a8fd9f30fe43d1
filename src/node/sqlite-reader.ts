import SQLiteModuleFactory from "@journeyapps/wa-sqlite/dist/wa-sqlite.mjs";
import * as SQLite from "@journeyapps/wa-sqlite";
import { FacadeVFS } from "@journeyapps/wa-sqlite/src/FacadeVFS.js";
import { clearTimeout, setTimeout } from "node:timers";
import { databaseStamp, SqliteImage } from "./sqlite-image";
import { textIn } from "./text-bytes";

/**
 * Queries over another program's SQLite database, read-only, in the plugin (Electron) and the CLI
 * (Node 20) alike: SQLite itself, compiled to WebAssembly (wa-sqlite, PowerSync's maintained
 * build), reading pages through a VFS of our own that serves them from `SqliteImage` (the main
 * file with the WAL's committed pages over it). So only the pages a query needs are read, a
 * database of gigabytes costs no more memory than a small one, and nothing is written, locked or
 * created beside it. README ("opencode") says why this one and not sql.js, node:sqlite or
 * better-sqlite3.
 */
export type SqlValue = number | string | bigint | Uint8Array | null;
type SQLiteAPI = ReturnType<typeof SQLite.Factory>;
type SQLiteVFS = Parameters<SQLiteAPI["vfs_register"]>[0];
type SQLiteCompatibleType = Parameters<SQLiteAPI["bind_collection"]>[1];
export type Row = Record<string, SqlValue>;

export interface ReadOnlyDatabase {
	/** Every row of a query, as objects by column name. */
	all(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
	/**
	 * Each row of a query in turn, as values by column position (no object per row), and the column
	 * names. The text of column `bytesAt` comes as its UTF-8 bytes, a view of SQLite's memory good
	 * until `onRow` returns (any other kind of value there as null): for a caller that keeps many
	 * texts for later, as bytes off the heap (see `TextBytes`), decoded with `keptText`.
	 */
	each(sql: string, params: readonly SqlValue[], onRow: (values: SqlValue[], columns: readonly string[]) => void, bytesAt?: number): Promise<void>;
}

/** A read that saw the database change under it (opencode checkpointed meanwhile): read again. */
export class DatabaseChangedError extends Error {}

interface Engine {
	sqlite3: SQLiteAPI;
	vfs: ImageVFS;
	cells: Cells;
}

/** What a row's cells are read with: SQLite's own functions as the module exports them, and its memory. */
interface Cells {
	HEAPU8: Uint8Array;
	_sqlite3_column_type(stmt: number, column: number): number;
	_sqlite3_column_text(stmt: number, column: number): number;
	_sqlite3_column_bytes(stmt: number, column: number): number;
	_sqlite3_step(stmt: number): number;
	ccall(name: "sqlite3_errmsg", returns: "string", args: ["number"], values: [number]): string;
}

let engine: Promise<Engine> | undefined;
let opened = 0;

/** The engine, made once per process (tens of milliseconds: WebAssembly compiled and started). */
function sqliteEngine(): Promise<Engine> {
	engine ??= (async () => {
		// Its bytes are decoded only now: a CLI run that reads no opencode database never pays for them.
		const { sqliteWasm: wasmBinary } = await import("./sqlite-wasm");
		// `locateFile`: the module never builds a URL of its own (a bundle has no `import.meta.url`).
		const module = (await SQLiteModuleFactory({ wasmBinary, locateFile: (name: string) => name })) as object;
		const sqlite3 = SQLite.Factory(module);
		const vfs = new ImageVFS("ai-memory-image", module);
		sqlite3.vfs_register(vfs as unknown as SQLiteVFS, false);
		return { sqlite3, vfs, cells: module as Cells };
	})();
	return engine;
}

/** Loads SQLite (its WebAssembly compiled and started) ahead of a first read; the comparison of readers times it apart. */
export async function loadSqlite(): Promise<void> {
	await sqliteEngine();
}

/** An open view of one database: kept while its files stay as they were, so a burst of reads opens it once. */
interface OpenView {
	image: SqliteImage;
	name: string;
	db: number;
	/** Its prepared statements, by query text (finalized when it closes). */
	prepared: Map<string, number>;
	stamp: string | undefined;
	api: ReadOnlyDatabase;
	timer?: ReturnType<typeof setTimeout>;
}

const views = new Map<string, OpenView>();
/** Reads of one database run one after another (one connection). */
const queues = new Map<string, Promise<unknown>>();
/** An open view unused this long is closed. */
const IDLE_MS = 2_000;

/**
 * Runs `use` on the database at `path`, read-only. When the database changed under the read or its
 * opening (a checkpoint), and SQLite found a page it could not make sense of (a torn read), it is read again,
 * a few times; then `DatabaseChangedError` says so. A view opened for an earlier read is used
 * again while the database's files have not changed.
 */
export function readDatabase<T>(path: string, use: (db: ReadOnlyDatabase) => Promise<T>, attempts = 3): Promise<T> {
	const run = (queues.get(path) ?? Promise.resolve()).then(() => readQueued(path, use, attempts));
	const settled = run.catch(() => undefined);
	queues.set(path, settled);
	void settled.then(() => {
		if (queues.get(path) === settled) queues.delete(path);
	});
	return run;
}

async function readQueued<T>(path: string, use: (db: ReadOnlyDatabase) => Promise<T>, attempts: number): Promise<T> {
	let last: unknown;
	for (let attempt = 0; attempt < attempts; attempt++) {
		const stamp = databaseStamp(path);
		let view = views.get(path);
		if (view && (view.stamp !== stamp || stamp === undefined)) view = await closeView(path);
		try {
			view ??= await openView(path, stamp);
		} catch (error) {
			// Its first page, read as a checkpoint rewrote it, looks corrupt as any page can ("file is not a
			// database": a live opencode's database was said to be none): read again when its files moved meanwhile.
			if (!isSqliteError(error) || databaseStamp(path) === stamp) throw withPath(path, error);
			last = error;
			continue;
		}
		if (view.timer !== undefined) clearTimeout(view.timer);
		try {
			const result = await use(view.api);
			if (view.image.stillValid()) {
				idle(path, view);
				return result;
			}
			last = new DatabaseChangedError(`${path} changed while it was read`);
		} catch (error) {
			// A page read in the middle of a checkpoint can look corrupt: only then is it read again.
			if (view.image.stillValid() || !isSqliteError(error)) {
				idle(path, view);
				throw withPath(path, error);
			}
			last = error;
		}
		await closeView(path);
	}
	throw new DatabaseChangedError(`${path} kept changing while it was read (${last instanceof Error ? last.message : String(last)}); the next sync reads it again`);
}

async function openView(path: string, stamp: string | undefined): Promise<OpenView> {
	const { sqlite3, vfs, cells } = await sqliteEngine();
	const image = SqliteImage.open(path);
	const name = `/image-${++opened}.db`;
	vfs.images.set(name, image);
	try {
		const db = await sqlite3.open_v2(name, SQLite.SQLITE_OPEN_READONLY, vfs.name);
		// A page cache of 32 MiB (SQLite's default is 2): a batch of sessions looked up by index
		// comes back to the same pages; each read of one is a system call.
		await sqlite3.exec(db, "PRAGMA cache_size = -32768");
		const prepared = new Map<string, number>();
		const view: OpenView = { image, name, db, prepared, stamp, api: databaseOf(sqlite3, cells, db, prepared) };
		views.set(path, view);
		return view;
	} catch (error) {
		vfs.images.delete(name);
		image.close();
		throw error;
	}
}

async function closeView(path: string): Promise<undefined> {
	const view = views.get(path);
	if (!view) return undefined;
	views.delete(path);
	if (view.timer !== undefined) clearTimeout(view.timer);
	const { sqlite3, vfs } = await sqliteEngine();
	for (const stmt of view.prepared.values()) await sqlite3.finalize(stmt).catch(() => undefined);
	await sqlite3.close(view.db).catch(() => undefined);
	vfs.images.delete(view.name);
	view.image.close();
	return undefined;
}

function idle(path: string, view: OpenView): void {
	view.timer = setTimeout(() => void closeView(path), IDLE_MS);
	// The view never keeps a process alive.
	(view.timer as { unref?: () => void }).unref?.();
}

/** Closes every view (tests, and a plugin being unloaded). */
export async function closeDatabases(): Promise<void> {
	for (const path of [...views.keys()]) await closeView(path);
}

function isSqliteError(error: unknown): boolean {
	return error instanceof SQLite.SQLiteError;
}

/** An error of the read, with the database's path in front (a file system error names it already). */
function withPath(path: string, error: unknown): Error {
	const message = error instanceof Error ? error.message : String(error);
	return message.includes(path) ? (error instanceof Error ? error : new Error(message)) : new Error(`${path}: ${message}`);
}

/** SQLite's memory as a Buffer, made again when the memory grows (a new buffer then). */
let heapView: { heap: ArrayBufferLike; bytes: Buffer } | undefined;

/** A text cell decoded where it is (`textIn`): no view of it made first (one a cell was a twentieth of the opencode reader's garbage). */
function textAt(cells: Cells, at: number, length: number): string {
	// The memory is looked up each time: it is a new buffer once SQLite's heap grows.
	const heap = cells.HEAPU8.buffer;
	if (heapView?.heap !== heap) heapView = { heap, bytes: Buffer.from(heap) };
	return textIn(heapView.bytes, at, at + length);
}

/**
 * A row's values, as `sqlite3.row` gives them, but a text read from SQLite's memory by its length:
 * `row` reads each text cell through wa-sqlite's generic call wrapper, which makes its converters
 * anew at each call (measured: a tenth of the opencode reader's time). All of a text is kept (the
 * wrapper stopped at a NUL in it); bytes that are not UTF-8 read as U+FFFD.
 */
function rowOf(sqlite3: SQLiteAPI, cells: Cells, stmt: number, bytesAt: number): SqlValue[] {
	const count = sqlite3.data_count(stmt);
	const row: SqlValue[] = new Array<SqlValue>(count);
	for (let i = 0; i < count; i++) {
		if (cells._sqlite3_column_type(stmt, i) === SQLite.SQLITE_TEXT) {
			// The text first, then its length: SQLite's order (the length may change with the text's form).
			const at = cells._sqlite3_column_text(stmt, i);
			const length = cells._sqlite3_column_bytes(stmt, i);
			row[i] = i === bytesAt ? cells.HEAPU8.subarray(at, at + length) : textAt(cells, at, length);
			continue;
		}
		if (i === bytesAt) {
			row[i] = null;
			continue;
		}
		const value = sqlite3.column(stmt, i) as SqlValue;
		// A blob is a view of SQLite's memory until copied, as `sqlite3.row` copies it.
		row[i] = value instanceof Uint8Array && value.buffer === cells.HEAPU8.buffer ? value.slice() : value;
	}
	return row;
}

/**
 * The queries of one view. Each statement is prepared once and kept, by its text, for the view's
 * life: a query run again (the same for every batch of sessions) is bound and stepped, not
 * compiled again (measured: preparing was most of a small query's cost).
 */
function databaseOf(sqlite3: SQLiteAPI, cells: Cells, db: number, prepared: Map<string, number>): ReadOnlyDatabase {
	const each = async (sql: string, params: readonly SqlValue[], onRow: (values: SqlValue[], columns: string[]) => void, bytesAt = -1): Promise<void> => {
		let stmt = prepared.get(sql);
		if (stmt === undefined) {
			for await (const made of sqlite3.statements(db, sql, { unscoped: true })) {
				// One statement per query text; anything after it is not run.
				if (stmt === undefined) stmt = made;
				else await sqlite3.finalize(made);
			}
			if (stmt === undefined) return;
			prepared.set(sql, stmt);
		} else {
			await sqlite3.reset(stmt);
			sqlite3.clear_bindings(stmt);
		}
		if (params.length > 0) sqlite3.bind_collection(stmt, params as SQLiteCompatibleType);
		const columns = sqlite3.column_names(stmt);
		// Stepped by SQLite's own function: the VFS reads an image in memory, never later, so nothing
		// is retried or waited for, and wa-sqlite's `step` (a promise, a retry loop and an argument
		// list a row) was a third of what the opencode reader allocated (measured: 90 of 248 MB).
		for (;;) {
			const rc = cells._sqlite3_step(stmt);
			if (rc === SQLite.SQLITE_DONE) return;
			if (rc !== SQLite.SQLITE_ROW) throw new SQLite.SQLiteError(cells.ccall("sqlite3_errmsg", "string", ["number"], [db]), rc);
			onRow(rowOf(sqlite3, cells, stmt, bytesAt), columns);
		}
	};
	return {
		each,
		async all(sql, params = []) {
			const rows: Row[] = [];
			await each(sql, params, (values, columns) => {
				const row: Row = {};
				columns.forEach((c, i) => (row[c] = values[i] ?? null));
				rows.push(row);
			});
			return rows;
		},
	};
}

const OK = 0;
const CANTOPEN = 14;
const IOERR_SHORT_READ = 522;
const READONLY = 8;
const IOCAP_IMMUTABLE = 0x2000;

/** The VFS: each name is an image being read; nothing can be written, no other file exists. */
class ImageVFS extends FacadeVFS {
	readonly images = new Map<string, SqliteImage>();
	private readonly files = new Map<number, SqliteImage>();

	override jOpen(filename: string | null, fileId: number, flags: number, pOutFlags: DataView): number {
		const image = filename === null ? undefined : this.images.get(filename);
		if (!image) return CANTOPEN;
		this.files.set(fileId, image);
		pOutFlags.setInt32(0, flags, true);
		return OK;
	}

	override jClose(fileId: number): number {
		this.files.delete(fileId);
		return OK;
	}

	override jRead(fileId: number, pData: Uint8Array, iOffset: number): number {
		const image = this.files.get(fileId);
		// A real Uint8Array over the module's memory (the argument is a proxy of one).
		return image?.read(pData.subarray(0, pData.byteLength), iOffset) ? OK : IOERR_SHORT_READ;
	}

	override jWrite(): number {
		return READONLY;
	}

	override jTruncate(): number {
		return READONLY;
	}

	override jFileSize(fileId: number, pSize64: DataView): number {
		pSize64.setBigInt64(0, BigInt(this.files.get(fileId)?.size ?? 0), true);
		return OK;
	}

	override jAccess(filename: string, _flags: number, pResOut: DataView): number {
		// No journal or log beside an image: the image has the log's pages already.
		pResOut.setInt32(0, this.images.has(filename) ? 1 : 0, true);
		return OK;
	}

	override jDeviceCharacteristics(): number {
		return IOCAP_IMMUTABLE;
	}
}
