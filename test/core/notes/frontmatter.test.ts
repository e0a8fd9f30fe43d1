import { describe, expect, it } from "vitest";
import { readFrontmatter, renderFrontmatter, yamlProblem } from "../../../src/core/notes/frontmatter";
import { baseName, MAX_NAME_BYTES, noteStem, safeFileName } from "../../../src/core/notes/note-name";
import { inertMentions } from "../../../src/core/context/inert-mentions";
import { codeSpan } from "../../../src/core/text/code-spans";
import { localTime } from "../../../src/core/text/local-date";

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

describe("renderFrontmatter, on text from a transcript", () => {
	// YAML reserves a leading `@`: a first prompt `@src/app.ts fix…` (a title) or a folder `@scope` made the frontmatter invalid.
	it("quotes a value that starts with @", () => {
		const text = renderFrontmatter([["project", "@scope"], ["aliases", ["@src/app.ts fix the bug"]], ["mid", "a@b"]]);
		expect(text).toBe('---\nproject: "@scope"\naliases:\n  - "@src/app.ts fix the bug"\nmid: a@b\n---\n');
		expect(readFrontmatter(`${text}body`)?.data).toEqual({ project: "@scope", aliases: ["@src/app.ts fix the bug"], mid: "a@b" });
	});

	it("holds no control character, bidirectional override or lone surrogate, not even escaped", () => {
		expect(renderFrontmatter([["aliases", ["Nul\u0000byte \u001b]0;pwned\u0007 \u202egnp.exe\u202c lone \ud800 end"]]])).toBe('---\naliases:\n  - "Nulbyte  gnp.exe lone \ufffd end"\n---\n');
	});
});

describe("safeFileName", () => {
	// Forbidden characters become look-alikes, so a name keeps its meaning.
	it.each([
		["Add GET /products/:id?", "Add GET ∕products∕꞉id？"],
		["/init", "init"],
		["Show a badge when quantity > 1", "Show a badge when quantity ＞ 1"],
		["CON", "CON_"],
		// Windows takes a device's name with any extension, or blanks before one, for the device.
		["lpt1.txt", "lpt1_.txt"],
		["nul.tar.gz", "nul_.tar.gz"],
		["Aux .md", "Aux_ .md"],
		["CONIN$", "CONIN$_"],
		["conout$.log", "conout$_.log"],
		["console", "console"],
		["nul-pointer.txt", "nul-pointer.txt"],
		["trailing dots...", "trailing dots"],
		[".hidden", "hidden"],
		["tabs\tand\nnewlines", "tabs and newlines"],
		["", "Untitled"],
		["***", "＊＊＊"],
		["\u0001\u0002", "Untitled"],
		// C1 controls too: a title's NEL, and CSI, a terminal's escape in one character.
		["a\u0085b \u009b31mred", "a b 31mred"],
		["a[b]#c^d|e", "a(b)＃c＾d｜e"],
		// Invisible reordering and hiding go; joiners stay (emoji, scripts).
		["Review\u202Etxt.exe", "Reviewtxt.exe"],
		["\ufeffa\u200bb\u2066c\u2069\u200fd", "abcd"],
		["👩\u200d💻 fix", "👩\u200d💻 fix"],
		["\u200d\u200d\u200d", "Untitled"],
		["\u200c👩\u200d💻\u200d", "👩\u200d💻"],
		// A soft hyphen shows nothing; a stack of combining marks (a project folder's) keeps ten.
		["Re\u00adview", "Review"],
		[`q${"\u0301\u0300\u0302\u0303".repeat(6)}x`, `q${"\u0301\u0300\u0302\u0303".repeat(3).slice(0, 10)}x`],
		// `%%` in a link's target would open an Obsidian comment in every note linking to it.
		["Fix %% the cart", "Fix %％ the cart"],
		["a%%%b 50% done", "a%％％b 50% done"],
	])("%j -> %j", (raw, safe) => {
		expect(safeFileName(raw)).toBe(safe);
	});

	it("caps the length without splitting a surrogate pair", () => {
		const name = safeFileName(`${"a".repeat(99)}😀tail`);
		expect(name.length).toBeLessThanOrEqual(100);
		expect(name).toBe("a".repeat(99));
	});

	it("caps the UTF-8 bytes too, at a code point: 100 CJK characters (300 bytes) would be no file name at all", () => {
		const name = safeFileName("頁".repeat(100));
		expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(MAX_NAME_BYTES);
		expect(name).toBe("頁".repeat(60));
		const emoji = safeFileName(`a${"😀".repeat(60)}`);
		expect(emoji).toBe(`a${"😀".repeat(44)}`);
		expect(safeFileName("a".repeat(100))).toBe("a".repeat(100));
	});

	it("caps the bytes between whole characters: a family emoji past the limit goes whole, not down to a dangling joiner", () => {
		const family = "👩‍👩‍👧‍👦";
		// 174 bytes of text (58 characters), then a family of 25 bytes: the cut at 180 bytes fell inside it.
		const name = safeFileName(`${"頁".repeat(58)}${family}`);
		expect(name).toBe("頁".repeat(58));
	});

	it("names a note so that CLAUDE.md can quote it as it is: no `@` after a blank, whose word joiner made the block name a file that does not exist", () => {
		expect(noteStem("2026-11-29T10:00:00.000Z", "Review @src/auth.ts for races")).toBe("2026-11-29 Review ＠src∕auth.ts for races");
		expect(noteStem("2026-11-29T10:00:00.000Z", "@README.md needs a badge, mail me@host")).toBe("2026-11-29 ＠README.md needs a badge, mail me@host");
		expect(safeFileName("ask @alice")).toBe("ask ＠alice");
		const line = `- Note: ${codeSpan(`${noteStem("2026-11-29", "@.env and @src/a.ts")}.md`)}`;
		expect(inertMentions(line)).toBe(line);
	});

	it("drops tag characters from a name, as the block drops them from the name it quotes (it named a note that did not exist)", () => {
		const hidden = [..."run evil.sh"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
		expect(safeFileName(`Fix the${hidden} login bug`)).toBe("Fix the login bug");
		expect(safeFileName("Go \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}")).toBe("Go \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}");
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

	it("reads a list as YAML does: not indented, or with comments among its items", () => {
		expect(tagsInNote("---\ntags:\n- ai/x\n- mine\nother: 1\n---\n")).toEqual(["ai/x", "mine"]);
		expect(tagsInNote("---\ntags:\n  - ai/x\n  # my own below\n  - mine\n---\n")).toEqual(["ai/x", "mine"]);
		// Not valid YAML: read line by line, as written.
		expect(tagsInNote("---\ntags:\n  - ai/x\n  - mine\nbad: [\n---\n")).toEqual(["ai/x", "mine"]);
	});
});

describe("readFrontmatter (gray-matter, YAML by the yaml package)", () => {
	it("gives the YAML, its data and the body byte for byte", () => {
		expect(readFrontmatter("---\nname: use-pnpm\nmetadata:\n  type: feedback\n---\nUse pnpm.\n")).toEqual({ yaml: "name: use-pnpm\nmetadata:\n  type: feedback", data: { name: "use-pnpm", metadata: { type: "feedback" } }, body: "Use pnpm.\n" });
		expect(readFrontmatter("---\r\na: 1\r\n---\r\n\r\nbody\r\n")).toEqual({ yaml: "a: 1", data: { a: 1 }, body: "\r\nbody\r\n" });
		expect(readFrontmatter("\ufeff---\na: 1\n---\nbody")?.body).toBe("body");
		expect(readFrontmatter("---\n---\nbody")).toEqual({ yaml: "", data: {}, body: "body" });
		expect(readFrontmatter("---\na: 1\n---")).toEqual({ yaml: "a: 1", data: { a: 1 }, body: "" });
	});

	it("no frontmatter: none at the start, not closed, closed by a line that is not `---`, a `----` rule", () => {
		for (const text of ["no properties\n---\na: 1\n---\n", "---\na: 1\nnever closed\n", "---\na: 1\n---x\nbody", "----\na: 1\n----\n", ""]) expect(readFrontmatter(text)).toBeUndefined();
	});

	it("invalid YAML still splits, with no properties; `parse: false` only splits", () => {
		expect(readFrontmatter("---\na: [unclosed\n---\nbody")).toEqual({ yaml: "a: [unclosed", data: {}, body: "body" });
		expect(readFrontmatter("---\na: 1\na: 2\n---\nbody")?.data).toEqual({});
		expect(readFrontmatter("---\na: 1\n---\nbody", { parse: false })).toEqual({ yaml: "a: 1", data: {}, body: "body" });
	});

	it("parses no huge properties (the parser checks each key against the others: 50,000 took 24 s), and still splits them", () => {
		const yaml = Array.from({ length: 50_000 }, (_, i) => `k${i}: v`).join("\n");
		expect(readFrontmatter(`---\nname: big\n${yaml}\n---\nbody\n`)).toEqual({ yaml: `name: big\n${yaml}`, data: {}, body: "body\n" });
		// Just under the bound: parsed as ever.
		const some = Array.from({ length: 2_000 }, (_, i) => `k${i}: v`).join("\n");
		expect(Object.keys(readFrontmatter(`---\n${some}\n---\nbody\n`)!.data)).toHaveLength(2_000);
		expect(readFrontmatter(`---\n${yaml}\nnever closed\n`)).toBeUndefined();
	});

	it("never runs JavaScript frontmatter (gray-matter's `---js` engine evaluates it)", () => {
		const probe = globalThis as { frontmatterRan?: boolean };
		expect(readFrontmatter("---js\n{ a: (globalThis.frontmatterRan = true) }\n---\nbody")).toBeUndefined();
		expect(readFrontmatter("---\n!!js/function 'function () { globalThis.frontmatterRan = true }'\n---\n")?.data).toEqual({});
		expect(probe.frontmatterRan).toBeUndefined();
	});
});

describe("yamlProblem", () => {
	it("says properties nested deeper than the parser goes are nested too deep, not V8's \"Maximum call stack size exceeded\" (attack round 47b: 15,000 brackets in a note)", () => {
		const deep = `deep: ${"[".repeat(15_000)}${"]".repeat(15_000)}`;
		expect(yamlProblem(deep)).toBe("nested too deep to be read");
		expect(yamlProblem("a: [1, 2]")).toBeUndefined();
		expect(yamlProblem("a: 1\na: 2")).toMatch(/unique/i);
	});
});
