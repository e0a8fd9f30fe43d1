import { mkdtemp, open, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { racyStamp, readAppended } from "../../src/node/transcript-tail";

/**
 * A file system that keeps whole seconds (ext2 with 128-byte inodes, HFS+, FAT's two) gives a
 * transcript rewritten in place, same size, in the second of the sync's read the very stamp it had,
 * change time too. Attack round 47b: the rewrite was never read, its note kept the old words.
 */

let dir: string;
let file: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "coarse-"));
	file = join(dir, "s.jsonl");
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const noLines = () => undefined;

describe("a stamp in whole seconds", () => {
	it("marks a read of a file stamped in whole seconds within the last two `settling`, so the next sync reads it again; not one with a finer time, nor one seconds old", async () => {
		await writeFile(file, '{"a":1}\n{"b":2}\n');
		const now = Date.now();
		const second = Math.floor(now / 1000) * 1000;
		await utimes(file, second / 1000, second / 1000);
		expect((await readAppended(file, undefined, noLines, { now })).cursor.settling).toBe(true);
		// Read again from its cursor (the next sync), as the first read too.
		const first = await readAppended(file, undefined, noLines);
		expect((await readAppended(file, first.cursor, noLines, { now })).cursor.settling).toBe(true);
		await utimes(file, (second - 10_000) / 1000, (second - 10_000) / 1000);
		expect((await readAppended(file, undefined, noLines, { now })).cursor.settling).toBeUndefined();
		await utimes(file, (second + 123.456) / 1000, (second + 123.456) / 1000);
		expect((await readAppended(file, undefined, noLines, { now })).cursor.settling).toBeUndefined();
	});

	it("the read after, from its cursor, finds a same-size rewrite made in that second", async () => {
		await writeFile(file, '{"t":"first"}\n');
		const second = Math.floor(Date.now() / 1000) * 1000;
		await utimes(file, second / 1000, second / 1000);
		const read = await readAppended(file, undefined, noLines);
		expect(read.cursor.settling).toBe(true);
		const handle = await open(file, "r+");
		await handle.write('{"t":"LATER"}\n', 0);
		await handle.close();
		await utimes(file, second / 1000, second / 1000);
		const lines: string[] = [];
		let restarted = false;
		await readAppended(file, read.cursor, (batch) => lines.push(...batch.map((l) => String(l.text))), { onRestart: () => (restarted = true) });
		expect(restarted).toBe(true);
		expect(lines).toEqual(['{"t":"LATER"}']);
	});

	it("racyStamp: whole seconds, within two seconds either way", () => {
		expect(racyStamp(5_000, 5_500)).toBe(true);
		expect(racyStamp(5_000, 6_999)).toBe(true);
		expect(racyStamp(5_000, 7_000)).toBe(false);
		expect(racyStamp(5_000.5, 5_500)).toBe(false);
		expect(racyStamp(5_000, 4_000)).toBe(true);
	});
});
