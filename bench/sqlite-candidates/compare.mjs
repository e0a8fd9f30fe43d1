import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SqliteImage } from "../../src/node/sqlite-image";
import { loadSqlite, readDatabase } from "../../src/node/sqlite-reader";

/**
 * One candidate SQLite reader on one opencode database, in a process of its own (run.mjs starts
 * them): the time to load the library (its WebAssembly compiled and started), then to open the
 * database (main file and WAL) and read every row of `session`, `message` and `part`, parsing
 * their JSON. Prints one JSON line.
 */
const [candidate, dataDir] = process.argv.slice(2);
const db = join(dataDir, "opencode.db");
const TABLES = { session: ["permission", "model"], message: ["data"], part: ["data"] };

async function readAll(each) {
	let rows = 0;
	for (const [table, json] of Object.entries(TABLES)) {
		await each(`SELECT * FROM "${table}"`, (row) => {
			rows++;
			for (const c of json) if (typeof row[c] === "string") JSON.parse(row[c]);
		});
	}
	return rows;
}

async function main() {
	const t0 = performance.now();
	let t1 = t0;
	let rows = 0;
	if (candidate === "journeyapps-wa-sqlite") {
		// The project's reader: @journeyapps/wa-sqlite, pages read on demand through the image VFS.
		await loadSqlite();
		t1 = performance.now();
		rows = await readDatabase(db, async (d) => {
			return readAll((sql, onRow) => d.each(sql, [], (v, columns) => onRow(Object.fromEntries(columns.map((c, i) => [c, v[i]])))));
		});
	} else if (candidate === "sql.js") {
		// sql.js reads a database image in memory: the main file with the WAL's pages over it, whole.
		const { default: initSqlJs } = await import("sql.js");
		const SQL = await initSqlJs({ wasmBinary: readFileSync(join(__dirname, "..", "node_modules", "sql.js", "dist", "sql-wasm.wasm")) });
		t1 = performance.now();
		const image = SqliteImage.open(db);
		const bytes = new Uint8Array(image.size);
		image.read(bytes, 0);
		image.close();
		const database = new SQL.Database(bytes);
		rows = await readAll((sql, onRow) => database.each(sql, [], onRow, () => undefined));
		database.close();
	} else if (candidate === "wa-sqlite-1.0.0") {
		// rhashimoto's wa-sqlite as published on npm (1.0.0, 2024), the same image VFS on its older VFS API.
		const { default: factory } = await import("wa-sqlite/dist/wa-sqlite.mjs");
		const SQLite = await import("wa-sqlite");
		const VFS = await import("wa-sqlite/src/VFS.js");
		const module = await factory({ wasmBinary: readFileSync(join(__dirname, "..", "node_modules", "wa-sqlite", "dist", "wa-sqlite.wasm")), locateFile: (n) => n });
		const sqlite3 = SQLite.Factory(module);
		t1 = performance.now();
		const image = SqliteImage.open(db);
		const files = new Map();
		class ImageVFS extends VFS.Base {
			name = "image";
			xOpen(name, id, flags, out) { if (name !== "/db") return 14; files.set(id, image); out.setInt32(0, flags, true); return 0; }
			xClose(id) { files.delete(id); return 0; }
			xRead(id, data, offset) { return files.get(id).read(data, offset) ? 0 : 522; }
			xFileSize(_id, size) { size.setBigInt64(0, BigInt(image.size), true); return 0; }
			xAccess(name, _f, out) { out.setInt32(0, name === "/db" ? 1 : 0, true); return 0; }
			xDeviceCharacteristics() { return 0x2000; }
		}
		sqlite3.vfs_register(new ImageVFS(), false);
		const handle = await sqlite3.open_v2("/db", 1, "image");
		rows = await readAll((sql, onRow) => sqlite3.exec(handle, sql, (row, columns) => onRow(Object.fromEntries(columns.map((c, i) => [c, row[i]])))));
		image.close();
	} else if (candidate === "node:sqlite") {
		process.stdout.write(`${JSON.stringify({ candidate, unavailable: `not in Node ${process.versions.node} (node:sqlite needs 22.5)` })}\n`);
		return;
	} else throw new Error(`unknown candidate ${candidate}`);
	const t2 = performance.now();
	process.stdout.write(`${JSON.stringify({ candidate, loadMs: Math.round(t1 - t0), readMs: Math.round(t2 - t1), rows, rssMiB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
}

void main();
