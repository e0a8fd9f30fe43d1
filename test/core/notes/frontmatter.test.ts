import { describe, expect, it } from "vitest";
import { renderFrontmatter } from "../../../src/core/notes/frontmatter";
import { baseName, safeFileName } from "../../../src/core/notes/note-name";
import { localTime } from "../../../src/core/notes/render-session-note";

describe("renderFrontmatter", () => {
	it("writes keys in order, quoting only what YAML would misread", () => {
		expect(
			renderFrontmatter([
				["title", "Add health check"],
				["colon", "a: b"],
				["bool", "true"],
				["num", "42"],
				["date", "2026-11-29T10:00"],
				["count", 3],
				["empty", []],
				["list", ["ai/claude-code", "#hash"]],
				["skip", undefined],
				["quote", 'say "hi"'],
				["korean", "한국어 제목"],
			]),
		).toBe(
			'---\ntitle: Add health check\ncolon: "a: b"\nbool: "true"\nnum: "42"\ndate: 2026-11-29T10:00\ncount: 3\nempty: []\nlist:\n  - ai/claude-code\n  - "#hash"\nquote: "say \\"hi\\""\nkorean: "한국어 제목"\n---\n',
		);
	});
});

describe("safeFileName", () => {
	// Forbidden characters become look-alikes, so a name keeps its meaning.
	it.each([
		["Add GET /products/:id?", "Add GET ∕products∕꞉id？"],
		["/init", "init"],
		["Show a badge when quantity > 1", "Show a badge when quantity ＞ 1"],
		["CON", "CON_"],
		["lpt1.txt", "lpt1.txt_"],
		["trailing dots...", "trailing dots"],
		[".hidden", "hidden"],
		["tabs\tand\nnewlines", "tabs and newlines"],
		["", "Untitled"],
		["***", "＊＊＊"],
		["\u0001\u0002", "Untitled"],
		["a[b]#c^d|e", "a(b)＃c＾d｜e"],
	])("%j -> %j", (raw, safe) => {
		expect(safeFileName(raw)).toBe(safe);
	});

	it("caps the length without splitting a surrogate pair", () => {
		const name = safeFileName(`${"a".repeat(99)}😀tail`);
		expect(name.length).toBeLessThanOrEqual(100);
		expect(name).toBe("a".repeat(99));
	});

	it("takes the last path segment with either separator", () => {
		expect(baseName("/home/dev/shop-api/")).toBe("shop-api");
		expect(baseName("C:\\code\\api")).toBe("api");
	});
});

describe("time zone of the test run", () => {
	it("is fixed to UTC by vitest.config.mts, so local times in notes are stable", () => {
		expect(new Date(0).getTimezoneOffset()).toBe(0);
		expect(localTime("2026-11-29T22:35:10.000Z")).toBe("2026-11-29T22:35");
	});
});

import { tagsInNote } from "../../../src/core/notes/note-regions";

describe("tagsInNote", () => {
	it("reads block, inline and single tags, quoted or not", () => {
		expect(tagsInNote('---\ntags:\n  - ai/x\n  - "#mine"\n  - \'it\'\'s\'\nother: 1\n---\nbody')).toEqual(["ai/x", "mine", "it's"]);
		expect(tagsInNote("---\ntags: [a, \"b c\"]\n---\n")).toEqual(["a", "b c"]);
		expect(tagsInNote("---\ntags: solo\n---\n")).toEqual(["solo"]);
		expect(tagsInNote("no frontmatter")).toEqual([]);
		expect(tagsInNote(null)).toEqual([]);
	});
});
