import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import SQLiteModuleFactory from "@journeyapps/wa-sqlite/dist/wa-sqlite.mjs";
import * as SQLite from "@journeyapps/wa-sqlite";
import { MemoryVFS } from "@journeyapps/wa-sqlite/src/examples/MemoryVFS.js";
import wasmBinary from "@journeyapps/wa-sqlite/dist/wa-sqlite.wasm";
import { readDatabase, type SqlValue } from "../src/node/sqlite-reader";

/**
 * A larger opencode database for the benchmarks, made from the recorded one
 * (test/fixtures/agents/opencode/1.18.33): its schema, and its rows (sessions, messages, parts,
 * projects, events) copied again and again with other ids, until the messages' and parts' JSON
 * reach `bytes`. Written by SQLite itself (wa-sqlite, in memory), the last twentieth of the copies
 * in WAL mode and never checkpointed, as opencode leaves its database: `opencode.db` and
 * `opencode.db-wal` in `outDir`.
 */
export async function generateOpencodeData(fixtureDataDir: string, outDir: string, bytes: number): Promise<{ sessions: number; payload: number; dbBytes: number; walBytes: number }> {
	const source = join(fixtureDataDir, "opencode.db");
	const tables = ["project", "session", "message", "part", "event_sequence", "event"];
	const { schema, rows } = await readDatabase(source, async (db) => {
		const schema = (await db.all("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid")).map((r) => String(r.sql));
		const rows: Record<string, { columns: string[]; values: SqlValue[][] }> = {};
		for (const table of tables) {
			const all = await db.all(`SELECT * FROM "${table}"`);
			rows[table] = { columns: Object.keys(all[0] ?? {}), values: all.map((r) => Object.values(r)) };
		}
		return { schema, rows };
	});
	const module = (await SQLiteModuleFactory({ wasmBinary, locateFile: (name: string) => name })) as object;
	const sqlite3 = SQLite.Factory(module);
	const vfs = await (MemoryVFS as unknown as { create(name: string, module: object): Promise<MemoryVFS & { mapNameToFile: Map<string, { size: number; data: ArrayBuffer }> }> }).create("bench-memory", module);
	sqlite3.vfs_register(vfs, false);
	const db = await sqlite3.open_v2("/opencode.db", SQLite.SQLITE_OPEN_CREATE | SQLite.SQLITE_OPEN_READWRITE, "bench-memory");
	await sqlite3.exec(db, "PRAGMA page_size = 4096; PRAGMA locking_mode = EXCLUSIVE;");
	for (const sql of schema) await sqlite3.exec(db, sql);

	const ID = /\b(ses|msg|prt|evt)_[0-9A-Za-z]{26}\b/g;
	const payloadOfCopy = ["message", "part"].reduce((n, t) => n + rows[t]!.values.reduce((m, v) => m + v.reduce((k: number, x) => k + (typeof x === "string" ? x.length : 0), 0), 0), 0);
	const copies = Math.max(1, Math.ceil(bytes / payloadOfCopy));
	const walFrom = Math.floor(copies * 0.95);
	for (let copy = 0; copy < copies; copy++) {
		if (copy === walFrom) await sqlite3.exec(db, "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;");
		const tag = copy.toString(36).padStart(4, "0");
		// Each id gets the copy's tag in place of its last four characters: ids stay as long, references stay whole.
		const renamed = (value: SqlValue): SqlValue => (typeof value === "string" ? value.replace(ID, (id) => `${id.slice(0, -4)}${tag}`) : value);
		await sqlite3.exec(db, "BEGIN");
		for (const table of tables) {
			const { columns, values } = rows[table]!;
			if (columns.length === 0 || (table === "project" && copy > 0)) continue;
			const sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
			for await (const stmt of sqlite3.statements(db, sql)) {
				for (const row of values) {
					sqlite3.bind_collection(stmt, row.map(renamed));
					await sqlite3.step(stmt);
					await sqlite3.reset(stmt);
				}
			}
		}
		await sqlite3.exec(db, "COMMIT");
	}
	mkdirSync(outDir, { recursive: true });
	const files = vfs.mapNameToFile as Map<string, { size: number; data: ArrayBuffer }>;
	const dump = (name: string) => {
		const file = files.get(name);
		const data = file ? new Uint8Array(file.data, 0, file.size) : new Uint8Array(0);
		writeFileSync(join(outDir, name.slice(1)), data);
		return data.length;
	};
	// Dumped before closing: closing would checkpoint the WAL into the main file.
	const dbBytes = dump("/opencode.db");
	const walBytes = dump("/opencode.db-wal");
	return { sessions: copies * rows.session!.values.length, payload: copies * payloadOfCopy, dbBytes, walBytes };
}
