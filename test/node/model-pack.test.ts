import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendToPack, isOwnPack, isPackName, readPacked } from "../../src/node/model-pack";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "model-pack-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("model packs", () => {
	it("appends each text as a line of one pack per thread and reads each back by its place, whatever its characters", async () => {
		const texts = ['{"a":1}', `{"b":"${"é😀".repeat(1000)}"}`, '{"c":"\\n in a string"}'];
		const places = texts.map((t) => appendToPack(dir, t));
		expect(new Set(places.map((p) => p.pack)).size).toBe(1);
		for (const [i, at] of places.entries()) expect(await readPacked(dir, at)).toBe(texts[i]);
		const [name] = await readdir(dir);
		expect(isPackName(name)).toBe(true);
		expect(isOwnPack(name!)).toBe(true);
		expect((await readFile(join(dir, name!), "utf8")).split("\n")).toEqual([...texts, ""]);
	});

	it("a text in parts is written as one line, each part encoded as it is", async () => {
		const parts = ['{"a":"', "é😀".repeat(500), '","b":[', "1", ",", "2", "]}"];
		const at = appendToPack(dir, parts);
		const next = appendToPack(dir, "{}");
		expect(await readPacked(dir, at)).toBe(parts.join(""));
		expect(await readPacked(dir, next)).toBe("{}");
		expect(next.offset).toBe(at.offset + at.length + 1);
	});

	it("another folder gets a pack of its own", async () => {
		const other = join(dir, "other");
		const a = appendToPack(dir, "{}");
		const b = appendToPack(other, "{}");
		expect(a.pack).not.toBe(b.pack);
		expect(await readPacked(other, b)).toBe("{}");
	});

	it("refuses a place that is no pack's, and a pack shorter than the place", async () => {
		await expect(readPacked(dir, { pack: "../x.jsonl", offset: 0, length: 1 })).rejects.toThrow(/not a pack location/);
		await expect(readPacked(dir, { pack: "pack-1-0-a.jsonl", offset: -1, length: 1 })).rejects.toThrow(/not a pack location/);
		await writeFile(join(dir, "pack-1-0-a.jsonl"), "{}\n");
		await expect(readPacked(dir, { pack: "pack-1-0-a.jsonl", offset: 0, length: 10 })).rejects.toThrow(/shorter/);
	});

	it("names another process's pack as not its own", () => {
		expect(isOwnPack(`pack-${process.pid + 1}-0-a.jsonl`)).toBe(false);
	});
});
