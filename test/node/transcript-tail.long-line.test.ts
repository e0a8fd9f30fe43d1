import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RawLine } from "../../src/core/transcript/jsonl-lines";
import { createSession } from "../../src/core/transcript/session-model";
import { foldLines } from "../../src/core/transcript/fold";
import { readAppended, type TailCursor } from "../../src/node/transcript-tail";

/** The lines a read hands out are lent for the call: copied to be kept. */
const copies = (batch: readonly RawLine[]): RawLine[] => batch.map((l) => ({ ...l }));

let dir: string;
let file: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "tail-long-"));
	file = join(dir, "s.jsonl");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A read with a line limit of 100 bytes and chunks of 16, so a long line spans many chunks. */
async function read(cursor: TailCursor | undefined, maxLineBytes = 100) {
	const lines: RawLine[] = [];
	const r = await readAppended(file, cursor, (batch) => lines.push(...copies(batch)), { chunkBytes: 16, maxLineBytes });
	return { ...r, lines };
}

const short = (n: number) => `{"n":${n}}`;
const long = (length: number) => `{"x":"${"a".repeat(length)}"}`;

describe("readAppended: a line longer than the limit", () => {
	it("is counted as a line that could not be read, never held, and the lines after it are read with their numbers", async () => {
		await writeFile(file, `${short(1)}\n${long(300)}\n${short(3)}\n`);
		const r = await read(undefined);
		expect(r.lines).toEqual([{ no: 1, text: short(1) }, { no: 2, text: null, tooLong: true }, { no: 3, text: short(3) }]);
		expect(r.cursor).toMatchObject({ offset: (await import("node:fs")).statSync(file).size, nextLineNo: 4 });
		expect(r.cursor.skipping).toBeUndefined();
	});

	it("still being written (no newline yet): skipped as it grows, and the next read goes on after its end", async () => {
		await writeFile(file, `${short(1)}\n${long(300)}`);
		const first = await read(undefined);
		expect(first.lines).toEqual([{ no: 1, text: short(1) }, { no: 2, text: null, tooLong: true }]);
		expect(first.cursor).toMatchObject({ nextLineNo: 2, skipping: true });
		await appendFile(file, "a".repeat(500));
		const second = await read(first.cursor);
		expect(second.lines).toEqual([]);
		expect(second.cursor).toMatchObject({ nextLineNo: 2, skipping: true });
		await appendFile(file, `"}\n${short(3)}\n`);
		const third = await read(second.cursor);
		expect(third.lines).toEqual([{ no: 3, text: short(3) }]);
		expect(third.cursor.skipping).toBeUndefined();
		expect(third.cursor.nextLineNo).toBe(4);
	});

	it("a line up to the limit is read whole, across many chunks", async () => {
		await writeFile(file, `${long(80)}\n${short(2)}\n`);
		const r = await read(undefined);
		expect(r.lines).toEqual([{ no: 1, text: long(80) }, { no: 2, text: short(2) }]);
	});

	it("reads the same lines in one read as appended byte by byte", async () => {
		const text = `${short(1)}\n${long(150)}\n${short(3)}\n${long(120)}\n${short(5)}\n`;
		await writeFile(file, text);
		const whole = (await read(undefined)).lines;
		await writeFile(file, "");
		let cursor: TailCursor | undefined;
		const pieces: RawLine[] = [];
		for (let i = 0; i < text.length; i += 7) {
			await appendFile(file, text.slice(i, i + 7));
			const r = await read(cursor);
			pieces.push(...r.lines);
			cursor = r.cursor;
		}
		expect(pieces).toEqual(whole);
	});

	it("the session says which line it skipped and why", async () => {
		await writeFile(file, `${long(300)}\n`);
		const model = createSession("s");
		await readAppended(file, undefined, (lines) => foldLines(model, lines), { chunkBytes: 16, maxLineBytes: 100 });
		expect(model.malformedLines).toEqual([{ line: 1, reason: "longer than 64 MiB: skipped" }]);
	});
});

describe("readAppended: lines longer than a chunk, one read after another and at once", () => {
	const lettered = (letter: string, length: number) => `{"x":"${letter.repeat(length)}"}`;

	it("each read has its own bytes, though the buffer grown for one long line serves the next", async () => {
		// Each file: lines of many chunks, longest first, so a later line fits the buffer an earlier one grew.
		const texts = ["a", "b", "c", "d"].map((l, i) => [lettered(l, 90 - i), short(i), lettered(l, 40 + i), lettered(l, 70)].join("\n") + "\n");
		const files = texts.map((_, i) => join(dir, `s${i}.jsonl`));
		await Promise.all(files.map((f, i) => writeFile(f, texts[i]!)));
		const readOf = async (path: string) => {
			const lines: RawLine[] = [];
			await readAppended(path, undefined, (batch) => lines.push(...copies(batch)), { chunkBytes: 16, maxLineBytes: 100 });
			return lines.map((l) => l.text).join("\n") + "\n";
		};
		// One after another, then all at once (their reads interleave at each chunk), twice.
		for (const [i, path] of files.entries()) expect(await readOf(path)).toBe(texts[i]);
		for (let round = 0; round < 2; round++) expect(await Promise.all(files.map(readOf))).toEqual(texts);
	});
});
