import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseStamp, SqliteImage } from "../../src/node/sqlite-image";
import { readDatabase } from "../../src/node/sqlite-reader";
import { listSessions } from "../../src/node/opencode-db";

/**
 * The database view on opencode's recorded database (test/fixtures/agents/opencode/1.18.33: nine
 * sessions in the main file, the tenth in the WAL alone), and on copies of it broken on purpose.
 */
const FIXTURE = join(__dirname, "..", "fixtures", "agents", "opencode", "1.18.33", "data");
let dir: string;
let db: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "sqlite-image-"));
	cpSync(FIXTURE, dir, { recursive: true });
	db = join(dir, "opencode.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sessions = async () => (await readDatabase(db, listSessions)).length;
const FRAME = 24 + 4096;

describe("SqliteImage", () => {
	it("lays the WAL's committed pages over the main file: the session only the WAL holds is there", async () => {
		const image = SqliteImage.open(db);
		expect(image.pageSize).toBe(4096);
		expect(image.walFrames).toBeGreaterThan(0);
		expect(image.pageCount).toBeGreaterThanOrEqual(statSync(db).size / 4096);
		image.close();
		expect(await sessions()).toBe(10);
		rmSync(`${db}-wal`);
		expect(await sessions()).toBe(9);
	});

	it("page 1 says 'rollback journal' in the view only (bytes 18 and 19), so SQLite looks for no log of its own", () => {
		const image = SqliteImage.open(db);
		const page = new Uint8Array(100);
		image.read(page, 0);
		image.close();
		expect([page[18], page[19]]).toEqual([1, 1]);
		expect([...readFileSync(db).subarray(18, 20)]).toEqual([2, 2]);
	});

	it("a frame cut off (a write under way) ends the log at the commit before it", async () => {
		const full = SqliteImage.open(db);
		const frames = full.walFrames;
		full.close();
		truncateSync(`${db}-wal`, 32 + (frames - 1) * FRAME + 100);
		const cut = SqliteImage.open(db);
		expect(cut.walFrames).toBeLessThan(frames);
		cut.close();
		expect(await sessions()).toBeGreaterThanOrEqual(9);
	});

	it("a frame whose checksum fails ends the log there; a log whose header fails is not used at all", async () => {
		const wal = readFileSync(`${db}-wal`);
		wal[32 + 2 * FRAME + 24 + 100] = wal[32 + 2 * FRAME + 24 + 100]! ^ 0xff;
		writeFileSync(`${db}-wal`, wal);
		const image = SqliteImage.open(db);
		expect(image.walFrames).toBeLessThan(3);
		image.close();
		expect(await sessions()).toBe(9);
		wal[24] = wal[24]! ^ 0xff;
		writeFileSync(`${db}-wal`, wal);
		const ignored = SqliteImage.open(db);
		expect(ignored.walFrames).toBe(0);
		expect(ignored.stillValid()).toBe(true);
		ignored.close();
		// Read as SQLite reads it, without the log: not taken for a read that overlapped a checkpoint.
		expect(await sessions()).toBe(9);
	});

	it("still valid while frames are appended; not once the main file is written or the log starts over", () => {
		const image = SqliteImage.open(db);
		writeFileSync(`${db}-wal`, Buffer.alloc(FRAME), { flag: "a" });
		expect(image.stillValid()).toBe(true);
		const wal = readFileSync(`${db}-wal`);
		wal[16] = wal[16]! ^ 0x01; // new salts: the log was started over
		writeFileSync(`${db}-wal`, wal);
		expect(image.stillValid()).toBe(false);
		image.close();
		const again = SqliteImage.open(db);
		utimesSync(db, new Date(), new Date(Date.now() + 5_000)); // a checkpoint wrote into it
		expect(again.stillValid()).toBe(false);
		again.close();
	});

	it("refuses what is no database with a reason, and never waits on a FIFO", async () => {
		writeFileSync(db, "just text, not a database\n".repeat(10));
		expect(() => SqliteImage.open(db)).toThrow("not an SQLite database");
		await expect(sessions()).rejects.toThrow(`${db}: not an SQLite database`);
		rmSync(db);
		expect(spawnSync("mkfifo", [db]).status).toBe(0);
		expect(() => SqliteImage.open(db)).toThrow("not a file");
		rmSync(db);
		expect(() => SqliteImage.open(db)).toThrow(/ENOENT/);
	});

	it("writes nothing: no -shm, no journal, the two files as they were", async () => {
		const before = databaseStamp(db);
		await sessions();
		expect(readdirSync(dir).sort()).toEqual(["opencode.db", "opencode.db-wal"]);
		expect(databaseStamp(db)).toBe(before);
		expect(readFileSync(db).equals(readFileSync(join(FIXTURE, "opencode.db")))).toBe(true);
	});

	it("follows no link: a -wal linked to another file is refused, not laid over the database", async () => {
		const elsewhere = mkdtempSync(join(tmpdir(), "sqlite-elsewhere-"));
		try {
			renameSync(`${db}-wal`, join(elsewhere, "other-wal"));
			symlinkSync(join(elsewhere, "other-wal"), `${db}-wal`);
			await expect(sessions()).rejects.toThrow(/its -wal is a symbolic link, which is not followed/);
			rmSync(`${db}-wal`);
			renameSync(db, join(elsewhere, "other.db"));
			symlinkSync(join(elsewhere, "other.db"), db);
			expect(() => SqliteImage.open(db)).toThrow(/it is a symbolic link, which is not followed/);
		} finally {
			rmSync(elsewhere, { recursive: true, force: true });
		}
	});

	it("a database just made (an empty main file, no log yet) is an empty database, not an error", async () => {
		writeFileSync(db, "");
		rmSync(`${db}-wal`);
		expect(await sessions()).toBe(0);
	});
});
