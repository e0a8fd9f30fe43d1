import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isBlank, objectsOnOneLine, type RawLine, splitCompleteLines } from "../../../src/core/transcript/jsonl-lines";

const enc = (s: string) => new TextEncoder().encode(s);

describe("splitCompleteLines", () => {
	it("drops a UTF-8 byte order mark before the file's first line (an editor's save), and only there", () => {
		// As the adapters decode (Buffer's decoder keeps a BOM; TextDecoder drops one at the start of each line).
		const decode = (bytes: Uint8Array, start: number, end: number) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8", start, end);
		const bytes = Buffer.from('\ufeff{"a":1}\n\ufeff{"b":2}\n', "utf8");
		expect(splitCompleteLines(bytes, 1, decode).lines.map((l) => l.text)).toEqual(['{"a":1}', '\ufeff{"b":2}']);
		expect(splitCompleteLines(Buffer.from('\ufeff{"c":3}\n', "utf8"), 7, decode).lines[0]!.text).toBe('\ufeff{"c":3}');
		expect(splitCompleteLines(bytes, 1).lines[0]!.text).toBe('{"a":1}');
	});

	it("returns complete lines and leaves the unterminated rest", () => {
		const bytes = enc('{"a":1}\n{"b":2}\n{"c":');
		const r = splitCompleteLines(bytes, 1);
		expect(r.lines).toEqual([
			{ no: 1, text: '{"a":1}' },
			{ no: 2, text: '{"b":2}' },
		]);
		expect(r.consumed).toBe(16);
	});

	it("returns nothing when no line is complete", () => {
		expect(splitCompleteLines(enc('{"a":'), 5)).toEqual({ lines: [], consumed: 0 });
		expect(splitCompleteLines(new Uint8Array(0), 1)).toEqual({ lines: [], consumed: 0 });
	});

	it("numbers lines from the given start and keeps blank lines", () => {
		expect(splitCompleteLines(enc("a\n\nb\n"), 10).lines).toEqual([
			{ no: 10, text: "a" },
			{ no: 11, text: "" },
			{ no: 12, text: "b" },
		]);
	});

	it("drops a CR before LF (CRLF files)", () => {
		expect(splitCompleteLines(enc("a\r\nb\r\n"), 1).lines.map((l) => l.text)).toEqual(["a", "b"]);
	});

	it("splits only on LF, never on U+2028 or U+2029 inside strings", () => {
		expect(splitCompleteLines(enc('{"t":"x\u2028y\u2029z\u0085"}\n'), 1).lines).toEqual([{ no: 1, text: '{"t":"x\u2028y\u2029z\u0085"}' }]);
	});

	it("does not consume a multi-byte character cut by the read", () => {
		const full = enc("한국어\n");
		const cut = full.subarray(0, 4); // "한" + first byte of "국"
		expect(splitCompleteLines(cut, 1)).toEqual({ lines: [], consumed: 0 });
		expect(splitCompleteLines(full, 1).lines[0]?.text).toBe("한국어");
	});

	it("gives a line with a few bytes that are not UTF-8 as text with U+FFFD for them too, for a fold to read in its place", () => {
		const bytes = new Uint8Array([...enc('{"p":"caf'), 0xe9, ...enc('"}\n{"ok":2}\n')]);
		expect(splitCompleteLines(bytes, 1).lines).toEqual([
			{ no: 1, text: null, lossy: '{"p":"caf\uFFFD"}' },
			{ no: 2, text: '{"ok":2}' },
		]);
		// Lines lent again forget it.
		const lent: RawLine[] = [];
		splitCompleteLines(bytes, 1, undefined, lent);
		expect(splitCompleteLines(enc("a\n"), 1, undefined, lent).lines[0]?.lossy).toBeUndefined();
	});

	it("marks only the lines with invalid UTF-8", () => {
		const bytes = new Uint8Array([...enc('{"ok":1}\n'), 0xff, 0xfe, 0x0a, ...enc('{"ok":2}\n')]);
		expect(splitCompleteLines(bytes, 1).lines).toEqual([
			{ no: 1, text: '{"ok":1}' },
			{ no: 2, text: null },
			{ no: 3, text: '{"ok":2}' },
		]);
	});

	it("lends the same line objects to the next batch, holding that batch's lines only", () => {
		const lent: RawLine[] = [];
		const first = splitCompleteLines(enc("a\nb\nc\n"), 1, undefined, lent).lines;
		const objects = [...first];
		const second = splitCompleteLines(enc("d\ne\n"), 4, undefined, lent).lines;
		expect(second).toBe(lent);
		expect(second).toEqual([
			{ no: 4, text: "d" },
			{ no: 5, text: "e" },
		]);
		expect(second[0]).toBe(objects[0]);
		expect(second[1]).toBe(objects[1]);
	});
});

describe("objectsOnOneLine", () => {
	it("splits objects back to back, braces and quotes inside strings kept, and nothing else", () => {
		expect(objectsOnOneLine('{"a":"}{\\"x"} {"b":[1,{"c":2}]}\r')).toEqual(['{"a":"}{\\"x"}', '{"b":[1,{"c":2}]}']);
		for (const text of ['{"a":1}', '{"a":1}x{"b":2}', '[1]{"a":1}', '{"a":1}{"b":', '{"a":"1}{"b":2}', '"s"{"a":1}', '{"a":1}}{"b":2}', ""]) expect(objectsOnOneLine(text), text).toBeUndefined();
	});

	it("gives back the objects that were glued, whatever they hold", () => {
		fc.assert(fc.property(fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { minLength: 2, maxLength: 4 }), (objects) => {
			const texts = objects.map((o) => JSON.stringify(o));
			expect(objectsOnOneLine(texts.join(""))).toEqual(texts);
		}));
	});
});

describe("isBlank", () => {
	it("says what `trim() === \"\"` says, Unicode's spaces included", () => {
		for (const text of ["", "  ", "\t\r\n\v\f", "\u00a0", " \u2028 \u3000\ufeff", "  x  ", "\u00a0x", "x\u00a0", "#### hi  ", "\u200b"]) expect(isBlank(text), JSON.stringify(text)).toBe(text.trim() === "");
		const piece = fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\ufeff", "\u200b", "a", "é", ">", "\u0085");
		fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => isBlank(pieces.join("")) === (pieces.join("").trim() === "")));
	});
});
