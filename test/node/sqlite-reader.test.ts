import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SqliteImage } from "../../src/node/sqlite-image";
import { closeDatabases, DatabaseChangedError, readDatabase } from "../../src/node/sqlite-reader";

/** Reading opencode's recorded database while it "changes": the view is read again, or the read says why not. */
const FIXTURE = join(__dirname, "..", "fixtures", "agents", "opencode", "1.18.33", "data");
let dir: string;
let db: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "sqlite-reader-"));
	cpSync(FIXTURE, dir, { recursive: true });
	db = join(dir, "opencode.db");
});
afterEach(async () => {
	vi.restoreAllMocks();
	await closeDatabases();
	rmSync(dir, { recursive: true, force: true });
});

/** What a checkpoint does to the main file's stamp. */
let bump = 0;
const checkpoint = () => utimesSync(db, new Date(), new Date(Date.now() + 10_000 + ++bump * 1_000));
const count = (sql: string) => async (d: Parameters<Parameters<typeof readDatabase>[1]>[0]) => Number((await d.all(sql))[0]!.n);

describe("readDatabase", () => {
	it("reads rows by name and by position, with parameters", async () => {
		const rows = await readDatabase(db, (d) => d.all("SELECT id, parent_id FROM session WHERE parent_id IS NOT NULL"));
		expect(rows).toEqual([{ id: "ses_dcd5c7bb6ffeqh9l1DiBpzPbIE", parent_id: "ses_dcd5c92d6ffelM9p6XPBL08S0T" }]);
		const titles: unknown[] = [];
		await readDatabase(db, (d) => d.each("SELECT title FROM session WHERE id = ?", ["ses_dcd5c7bb6ffeqh9l1DiBpzPbIE"], (v) => titles.push(v[0])));
		expect(titles).toEqual(["List top-level files (@explore subagent)"]);
	});

	it("gives each kind of value as SQLite holds it: a text whole (a NUL in it too), bytes not UTF-8 as U+FFFD, a blob copied out", async () => {
		const [row] = await readDatabase(db, (d) => d.all("SELECT 'a' || char(0) || 'b' AS nul, CAST(x'ff41' AS TEXT) AS bad, '日本語 🎌' AS wide, x'0102' AS blob, 42 AS n, 1.5 AS f, NULL AS z, 9007199254740993 AS big"));
		expect(row).toEqual({ nul: "a\u0000b", bad: "\ufffdA", wide: "日本語 🎌", blob: new Uint8Array([1, 2]), n: 42, f: 1.5, z: null, big: 9007199254740993n });
		// The blob is a copy: later reads reuse SQLite's memory under it.
		expect((row!.blob as Uint8Array).buffer.byteLength).toBe(2);
	});

	it("gives one column's text as its UTF-8 bytes, good while the row is read, and any other value there as null", async () => {
		const got: unknown[][] = [];
		await readDatabase(db, (d) =>
			d.each(
				"SELECT 'a' AS t, x FROM (SELECT '日本 ✓' AS x UNION ALL SELECT 42 UNION ALL SELECT NULL UNION ALL SELECT x'0102')",
				[],
				(v) => got.push(v.map((x) => (x instanceof Uint8Array ? { bytes: new TextDecoder().decode(x) } : x))),
				1,
			),
		);
		expect(got).toHaveLength(4);
		expect(got.filter((v) => v[1] === null)).toHaveLength(3);
		expect(got).toContainEqual(["a", { bytes: "日本 ✓" }]);
	});

	it("a database that changed during the read is read again, and the later read is what comes back", async () => {
		let calls = 0;
		const n = await readDatabase(db, async (d) => {
			if (++calls === 1) checkpoint();
			return count("SELECT count(*) AS n FROM part")(d);
		});
		expect(calls).toBe(2);
		expect(n).toBeGreaterThan(50);
	});

	it("a database whose first page is rewritten as its view is opened (SQLite: \"file is not a database\") is opened again", async () => {
		rmSync(`${db}-wal`);
		const good = readFileSync(db);
		const torn = Buffer.from(good);
		torn[21] = 0; // the header's payload fractions: SQLite takes the file for none
		const open = SqliteImage.open.bind(SqliteImage);
		let opens = 0;
		vi.spyOn(SqliteImage, "open").mockImplementation((path) => {
			// The first open meets a checkpoint writing the main file after the image was made; the second the file whole again.
			if (++opens === 2) {
				writeFileSync(db, good);
				checkpoint();
			}
			const image = open(path);
			if (opens === 1) {
				writeFileSync(db, torn);
				checkpoint();
			}
			return image;
		});
		expect(await readDatabase(db, count("SELECT count(*) AS n FROM session"))).toBe(9);
		expect(opens).toBe(2);
	});

	it("a database whose first page is corrupt and stays so is said to be none at once, named", async () => {
		rmSync(`${db}-wal`);
		const torn = readFileSync(db);
		torn[21] = 0;
		writeFileSync(db, torn);
		await expect(readDatabase(db, count("SELECT count(*) AS n FROM session"))).rejects.toThrow(`${db}: file is not a database`);
	});

	it("one that keeps changing gives up with a reason that says the next sync reads it again", async () => {
		const read = readDatabase(db, async (d) => {
			checkpoint();
			return count("SELECT count(*) AS n FROM message")(d);
		});
		await expect(read).rejects.toBeInstanceOf(DatabaseChangedError);
		await expect(read).rejects.toThrow(/kept changing while it was read.*the next sync reads it again/);
	});

	it("reads at once go one after another through one view; a changed database gets a new one", async () => {
		const [a, b] = await Promise.all([readDatabase(db, count("SELECT count(*) AS n FROM session")), readDatabase(db, count("SELECT count(*) AS n FROM session"))]);
		expect([a, b]).toEqual([10, 10]);
		rmSync(`${db}-wal`);
		expect(await readDatabase(db, count("SELECT count(*) AS n FROM session"))).toBe(9);
	});

	it("an SQL error is no reason to read again: it is thrown at once, with the database named", async () => {
		let calls = 0;
		await expect(readDatabase(db, (d) => (calls++, d.all("SELECT x FROM nowhere")))).rejects.toThrow(`${db}: no such table: nowhere`);
		expect(calls).toBe(1);
	});

	it("reads a text as TextDecoder does: a leading byte order mark dropped, one further on kept", async () => {
		const [row] = await readDatabase(db, (d) => d.all("SELECT CAST(x'efbbbf6162' AS TEXT) AS lead, CAST(x'61efbbbf62' AS TEXT) AS inner"));
		expect(row).toEqual({ lead: "ab", inner: "a\ufeffb" });
	});

	it("an error met while stepping through rows (after some were given) is thrown in SQLite's words, with the database named", async () => {
		const seen: unknown[] = [];
		const query = "SELECT json(x) FROM (SELECT '[1]' AS x UNION ALL SELECT '{')";
		await expect(readDatabase(db, (d) => d.each(query, [], (values) => seen.push(values[0])))).rejects.toThrow(`${db}: malformed JSON`);
		expect(seen).toEqual(["[1]"]);
	});
});
