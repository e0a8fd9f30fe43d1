import { appendFile, chmod, mkdtemp, open, rename, rm, truncate, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RawLine } from "../../src/core/transcript/jsonl-lines";
import { readAppended, type TailCursor } from "../../src/node/transcript-tail";

/** The lines a read hands out are lent for the call: copied to be kept. */
const copies = (batch: readonly RawLine[]): RawLine[] => batch.map((l) => ({ ...l }));

let dir: string;
let file: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "tail-"));
	file = join(dir, "s.jsonl");
});
afterEach(async () => {
	await chmod(file, 0o644).catch(() => undefined);
	await rm(dir, { recursive: true, force: true });
});

async function read(cursor: TailCursor | undefined, chunkBytes?: number) {
	const lines: RawLine[] = [];
	let restartedBeforeLines = false;
	const r = await readAppended(file, cursor, (batch) => lines.push(...copies(batch)), {
		chunkBytes,
		onRestart: () => {
			restartedBeforeLines = lines.length === 0;
		},
	});
	return { ...r, lines, texts: lines.map((l) => l.text), restartedBeforeLines };
}

/** The file as one that stopped growing a while ago. */
const settle = () => utimes(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

describe("readAppended: a file that is one JSON document (an older Gemini CLI's `session-*.json`)", () => {
	it.each([["read whole (a small file)", undefined], ["read in chunks", 8]])("gives its last line too, written a moment ago and no JSON alone (`}`): the fold reads the whole (%s)", async (_how, chunkBytes) => {
		file = join(dir, "session-1.json");
		await writeFile(file, JSON.stringify({ sessionId: "s", messages: [] }, null, 2));
		const { texts } = await read(undefined, chunkBytes);
		expect(texts.join("\n")).toBe(JSON.stringify({ sessionId: "s", messages: [] }, null, 2));
	});
});

describe("readAppended: a last line without its newline", () => {
	it.each([["read whole (a small file)", undefined], ["read in chunks", 8]])("is taken once the file has settled and the line is whole JSON, and its newline when it comes is no line of its own (%s)", async (_how, chunkBytes) => {
		await writeFile(file, '{"n":1}\n{"n":2}');
		await settle();
		const first = await read(undefined, chunkBytes);
		expect(first.lines).toEqual([{ no: 1, text: '{"n":1}' }, { no: 2, text: '{"n":2}' }]);
		expect(first.cursor).toMatchObject({ offset: 15, nextLineNo: 3, open: true });
		// Nothing new: nothing again, still open.
		expect(await read(first.cursor, chunkBytes)).toMatchObject({ lines: [], cursor: { offset: 15, open: true } });

		await appendFile(file, '\n{"n":3}\n');
		const second = await read(first.cursor, chunkBytes);
		expect(second.lines).toEqual([{ no: 3, text: '{"n":3}' }]);
		expect(second.cursor.open).toBeUndefined();
		expect(second.restarted).toBe(false);
	});

	it("waits while the file changed a moment ago (settling), and takes it at the next read once it has settled", async () => {
		await writeFile(file, '{"n":1}\n{"n":2}');
		const early = await read(undefined);
		expect(early.texts).toEqual(['{"n":1}']);
		expect(early.cursor).toMatchObject({ offset: 8, settling: true });
		expect(early.cursor.open).toBeUndefined();
		await settle();
		const later = await read(early.cursor);
		expect(later.lines).toEqual([{ no: 2, text: '{"n":2}' }]);
		expect(later.cursor.settling).toBeUndefined();
	});

	it("a file stamped in the future (another machine's clock) is not waited for: its whole last line is taken", async () => {
		await writeFile(file, '{"n":1}\n{"n":2}');
		await utimes(file, new Date(Date.now() + 3_600_000), new Date(Date.now() + 3_600_000));
		expect((await read(undefined)).texts).toEqual(['{"n":1}', '{"n":2}']);
	});

	it("a half-written line is never taken, however old the file; a bare value neither", async () => {
		await writeFile(file, '{"n":1}\n{"n":2,"text":"still wri');
		await settle();
		const half = await read(undefined);
		expect(half.texts).toEqual(['{"n":1}']);
		expect(half.cursor.settling).toBeUndefined();
		await appendFile(file, 'ting"}');
		await settle();
		expect((await read(half.cursor)).lines).toEqual([{ no: 2, text: '{"n":2,"text":"still writing"}' }]);

		await writeFile(file, '{"n":1}\n12');
		await settle();
		expect((await read(undefined)).texts).toEqual(['{"n":1}']);
	});

	it("CRLF: the \\r\\n that ends a line taken without it is skipped whole", async () => {
		await writeFile(file, '{"n":1}\r\n{"n":2}');
		await settle();
		const first = await read(undefined);
		expect(first.texts).toEqual(['{"n":1}', '{"n":2}']);
		await appendFile(file, '\r\n{"n":3}\r\n');
		expect((await read(first.cursor)).lines).toEqual([{ no: 3, text: '{"n":3}' }]);
	});
});

describe("readAppended", () => {
	it("keeps what it gave of one small file when the next is read into the same buffer, in turn or at once", async () => {
		const other = join(dir, "t.jsonl");
		await writeFile(file, '{"a":"first file, first line"}\n{"a":"é and more"}\n{"a":"a last line with no newline"}');
		await writeFile(other, `${'{"b":"second"}\n'.repeat(40)}`);
		await settle();
		const first = await read(undefined);
		const seen: RawLine[] = [];
		await readAppended(other, undefined, (batch) => seen.push(...copies(batch)));
		expect(first.texts).toEqual(['{"a":"first file, first line"}', '{"a":"é and more"}', '{"a":"a last line with no newline"}']);
		expect(seen).toHaveLength(40);
		// Two reads at once each take a buffer of their own.
		const [a, b] = await Promise.all([read(undefined), readAppended(other, undefined, () => undefined)]);
		expect(a.texts).toEqual(first.texts);
		expect(b.cursor.offset).toBe(40 * 15);
	});

	it("reads complete lines and keeps a half-written last line for the next read", async () => {
		await writeFile(file, '{"n":1}\n{"n":2}\n{"n":');
		const first = await read(undefined);
		expect(first.texts).toEqual(['{"n":1}', '{"n":2}']);
		expect(first.cursor.offset).toBe(16);
		expect(first.cursor.nextLineNo).toBe(3);

		await appendFile(file, '3}\n{"n":4}\n');
		const second = await read(first.cursor);
		expect(second.lines).toEqual([
			{ no: 3, text: '{"n":3}' },
			{ no: 4, text: '{"n":4}' },
		]);
		expect(second.restarted).toBe(false);

		const third = await read(second.cursor);
		expect(third.lines).toEqual([]);
		expect(third.bytesRead).toBe(0);
	});

	it("decodes multi-byte UTF-8 split across chunk boundaries at every position", async () => {
		const content = Array.from({ length: 6 }, (_, i) => JSON.stringify({ t: `지난번에 이어서 ${i} 前回 🎉 ✓` })).join("\n") + "\n";
		await writeFile(file, content);
		for (const chunkBytes of [1, 2, 3, 5, 7, 11, 64]) {
			const r = await read(undefined, chunkBytes);
			expect(r.texts.join("\n") + "\n").toBe(content);
		}
	});

	it("reads appends made byte by byte, at every split point, like one read of the whole", async () => {
		const content = `${JSON.stringify({ a: "한국어" })}\n${JSON.stringify({ b: "x😀y" })}\n`;
		const bytes = Buffer.from(content);
		for (let cut = 0; cut <= bytes.length; cut++) {
			await writeFile(file, bytes.subarray(0, cut));
			const first = await read(undefined);
			await appendFile(file, bytes.subarray(cut));
			const second = await read(first.cursor);
			expect([...first.texts, ...second.texts]).toEqual([JSON.stringify({ a: "한국어" }), JSON.stringify({ b: "x😀y" })]);
		}
	});

	it("starts over when the file was truncated", async () => {
		await writeFile(file, '{"n":1}\n{"n":2}\n');
		const first = await read(undefined);
		await truncate(file, 0);
		await writeFile(file, '{"m":1}\n');
		const second = await read(first.cursor);
		expect(second.restarted).toBe(true);
		expect(second.restartedBeforeLines).toBe(true);
		expect(second.lines).toEqual([{ no: 1, text: '{"m":1}' }]);
	});

	it("starts over when the file was replaced by another (new inode), even if longer", async () => {
		await writeFile(file, '{"n":1}\n');
		const first = await read(undefined);
		const other = join(dir, "other.jsonl");
		await writeFile(other, '{"n":1}\n{"n":2}\n{"n":3}\n');
		await rename(other, file);
		const second = await read(first.cursor);
		expect(second.restarted).toBe(true);
		expect(second.texts).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
	});

	it("starts over when it was rewritten in place past its start (same inode, same first bytes, longer): a scrubbed password is not kept", async () => {
		const start = `{"type":"summary","summary":"${"x".repeat(80)}"}\n`;
		await writeFile(file, `${start}{"password":"hunter2"}\n`);
		const first = await read(undefined);
		// The user scrubs the line in place, and the session goes on.
		await writeFile(file, `${start}{"password":"*******"}\n{"n":3}\n`);
		const second = await read(first.cursor);
		expect(second.restarted).toBe(true);
		expect(second.texts).toEqual([start.trimEnd(), '{"password":"*******"}', '{"n":3}']);
		// Only appended: read on from where it was.
		await appendFile(file, '{"n":4}\n');
		const third = await read(second.cursor);
		expect(third.restarted).toBe(false);
		expect(third.texts).toEqual(['{"n":4}']);
	});

	it("starts over when it was rewritten in place at the same size (a secret scrubbed with as many `*` in the middle): its time moved, and no byte came", async () => {
		const start = `{"type":"summary","summary":"${"x".repeat(80)}"}\n`;
		const end = `{"type":"summary","summary":"${"y".repeat(80)}"}\n`;
		await writeFile(file, `${start}{"password":"hunter2"}\n${end}`);
		const first = await read(undefined);
		const handle = await open(file, "r+");
		await handle.write(Buffer.from("*******"), 0, 7, start.length + '{"password":"'.length);
		await handle.close();
		const later = new Date(Date.now() + 5000);
		await utimes(file, later, later);
		const second = await read(first.cursor);
		expect(second.restarted).toBe(true);
		expect(second.texts).toEqual([start.trimEnd(), '{"password":"*******"}', end.trimEnd()]);
		// Its time alone, with nothing changed since this read: read no more.
		const third = await read(second.cursor);
		expect(third.restarted).toBe(false);
		expect(third.texts).toEqual([]);
	});

	it.each([["read whole (a small file)", undefined], ["read in chunks", 16]])("starts over when a line in the middle was changed in place, the same length, and the file grew: the bytes before the cursor sum otherwise (%s)", async (_how, chunkBytes) => {
		const start = `{"type":"summary","summary":"${"x".repeat(80)}"}\n`;
		const end = `{"type":"summary","summary":"${"y".repeat(80)}"}\n`;
		await writeFile(file, `${start}{"password":"hunter2"}\n${end}`);
		const first = await read(undefined, chunkBytes);
		expect(first.cursor.sum).toBeTypeOf("number");
		const handle = await open(file, "r+");
		await handle.write(Buffer.from("*******"), 0, 7, start.length + '{"password":"'.length);
		await handle.close();
		await appendFile(file, '{"n":4}\n');
		const second = await read(first.cursor, chunkBytes);
		expect(second.restarted).toBe(true);
		expect(second.texts).toEqual([start.trimEnd(), '{"password":"*******"}', end.trimEnd(), '{"n":4}']);
		// Appended to alone: read on, the sum carried on over the new bytes.
		await appendFile(file, '{"n":5}\n');
		const third = await read(second.cursor, chunkBytes);
		expect(third.restarted).toBe(false);
		expect(third.texts).toEqual(['{"n":5}']);
	});

	it("refuses a file larger than any transcript (a sparse terabyte was read byte by byte) with a sentence", async () => {
		await writeFile(file, '{"n":1}\n');
		await truncate(file, 5 * 2 ** 30);
		await expect(read(undefined)).rejects.toThrow(/it is 5 GiB, larger than any transcript \(4 GiB at most\): it is not read/);
	});

	it("starts over when the first bytes changed in place", async () => {
		await writeFile(file, '{"n":1}\n');
		const first = await read(undefined);
		await writeFile(file, '{"x":9}\n{"n":2}\n');
		const second = await read({ ...first.cursor });
		expect(second.restarted).toBe(true);
		expect(second.texts).toEqual(['{"x":9}', '{"n":2}']);
	});

	it("reads CRLF files and a 1 MB line", async () => {
		const big = JSON.stringify({ type: "user", data: "A".repeat(1_048_576) });
		await writeFile(file, `{"a":1}\r\n${big}\r\n{"b":2}\r\n`);
		const r = await read(undefined, 64 * 1024);
		expect(r.texts).toEqual(['{"a":1}', big, '{"b":2}']);
	});

	it("reports invalid UTF-8 lines as undecodable and goes on", async () => {
		await writeFile(file, Buffer.concat([Buffer.from('{"a":1}\n'), Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from('{"b":2}\n')]));
		expect((await read(undefined)).texts).toEqual(['{"a":1}', null, '{"b":2}']);
	});

	it("reads a read-only transcript, and fails clearly on a missing one", async () => {
		await writeFile(file, '{"a":1}\n');
		await chmod(file, 0o444);
		expect((await read(undefined)).texts).toEqual(['{"a":1}']);
		await expect(readAppended(join(dir, "gone.jsonl"), undefined, () => undefined)).rejects.toThrow(/ENOENT/);
	});
});

describe("readAppended and a file that is not a plain file", () => {
	it("a FIFO (Copilot CLI's events.jsonl is taken by its name alone) is refused at once, in the main thread and in a worker's blocking read", async () => {
		const fifo = join(dir, "events.jsonl");
		expect((await import("node:child_process")).spawnSync("mkfifo", [fifo]).status).toBe(0);
		await expect(readAppended(fifo, undefined, () => undefined)).rejects.toThrow(/not a plain file/);
		await expect(readAppended(fifo, undefined, () => undefined, { blocking: true })).rejects.toThrow(/not a plain file/);
	});
});
