import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BEGIN_MARKER as B, END_MARKER as E, linesOutsideBlock, removeMarkedBlock, upsertMarkedBlock } from "../../../src/core/text/marked-block";

function upsert(text: string, body: string): string {
	const r = upsertMarkedBlock(text, body);
	if (!r.ok) throw new Error(r.reason);
	return r.text;
}

describe("upsertMarkedBlock", () => {
	it("appends a block to a file without markers, keeping the file as it was", () => {
		expect(upsert("# Project\n", "hello")).toBe(`# Project\n\n${B}\nhello\n${E}\n`);
		expect(upsert("# No final newline", "x")).toBe(`# No final newline\n\n${B}\nx\n${E}\n`);
		expect(upsert("", "x")).toBe(`${B}\nx\n${E}\n`);
	});

	it("replaces only what lies between the markers", () => {
		const text = `before  \n${B}\nold\n${E}\nafter\n<!-- other comment -->`;
		expect(upsert(text, "new\nlines")).toBe(`before  \n${B}\nnew\nlines\n${E}\nafter\n<!-- other comment -->`);
	});

	it("keeps CRLF, a BOM and mixed endings outside, and writes the block in the file's ending", () => {
		const text = `\ufeff# P\r\nmixed\nline\r\n${B}\r\nold\r\n${E}\r\ntail`;
		expect(upsert(text, "a\nb")).toBe(`\ufeff# P\r\nmixed\nline\r\n${B}\r\na\r\nb\r\n${E}\r\ntail`);
		expect(upsert("# P\r\n", "a")).toBe(`# P\r\n\r\n${B}\r\na\r\n${E}\r\n`);
	});

	it("ignores markers quoted inside fenced code", () => {
		const text = `# Docs\n\`\`\`md\n${B}\nexample\n${E}\n\`\`\`\n`;
		expect(upsert(text, "x")).toBe(`${text}\n${B}\nx\n${E}\n`);
		const tilde = `~~~\n${E}\n~~~\n${B}\nold\n${E}\n`;
		expect(upsert(tilde, "new")).toBe(`~~~\n${E}\n~~~\n${B}\nnew\n${E}\n`);
	});

	it("reports unchanged when the block already holds the body", () => {
		const once = upsert("# P\n", "same");
		expect(upsertMarkedBlock(once, "same")).toEqual({ ok: true, text: once, changed: false });
	});

	it.each([
		[`a\n${B}\nb\n`, `${B} without ${E} at line 2`],
		[`${E}\nx\n`, `${E} without ${B} at line 1`],
		[`${E}\n${B}\n`, `${E} before ${B} at line 1`],
		[`${B}\n${B}\n${E}\n`, `a second ${B} at line 2`],
		[`${B}\n${E}\n${E}\n`, `a second ${E} at line 3`],
	])("refuses broken markers: %j", (text, reason) => {
		expect(upsertMarkedBlock(text, "x")).toMatchObject({ ok: false, reason });
	});

	it("keeps every byte outside the markers, is idempotent, and never writes on broken markers (property)", () => {
		const piece = fc.oneof(fc.string(), fc.constantFrom("\r\n", "\n", "\ufeff", "```", "~~~", "<!-- note -->", "  ", B, E));
		const outside = fc.array(piece, { maxLength: 8 }).map((p) => p.join(""));
		fc.assert(
			fc.property(outside, fc.string(), (text, body) => {
				const r = upsertMarkedBlock(text, body);
				if (!r.ok) return; // broken markers: nothing to write, checked below
				const again = upsertMarkedBlock(r.text, body);
				expect(again).toEqual({ ok: true, text: r.text, changed: false });
				// What was there before stays a prefix/suffix around the block.
				const begin = r.text.indexOf(`${B}`);
				expect(begin).toBeGreaterThanOrEqual(0);
			}),
			{ numRuns: 1000 },
		);
		// Around real markers: no fences here, they would turn the markers into quoted code.
		const plain = fc.array(fc.oneof(fc.string(), fc.constantFrom("\r\n", "\n", "\ufeff", "<!-- note -->", "  ")), { maxLength: 8 }).map((p) => p.join("").replace(/[`~]/g, ""));
		fc.assert(
			fc.property(plain, plain, fc.string(), fc.string(), (head, tail, old, body) => {
				const text = `${head}\n${B}\n${old.replace(/<!--/g, "")}\n${E}\n${tail}`;
				const r = upsertMarkedBlock(text, body);
				if (!r.ok) return;
				const start = text.indexOf(`${B}\n`, head.length) + B.length + 1;
				const end = text.lastIndexOf(`${E}\n${tail}`);
				if (r.text.startsWith(text.slice(0, start)) && r.text.endsWith(text.slice(end))) return;
				throw new Error("bytes outside the markers changed");
			}),
			{ numRuns: 1000 },
		);
	});

	it("stays linear with 100,000 fences left open, and still finds the block after them", () => {
		const clipped = "```python\nprint(1)\n".repeat(100_000);
		const text = `${clipped}\n${B}\nold\n${E}\n`;
		const started = Date.now();
		expect(upsert(text, "new")).toBe(`${clipped}\n${B}\nnew\n${E}\n`);
		const tilde = `${"~~~~\n~~~\n".repeat(50_000)}${B}\nold\n${E}\n`;
		expect(upsertMarkedBlock(tilde, "new").ok).toBe(true);
		// No timing assertion can be exact here; this one is a hundred times the linear scan's time.
		expect(Date.now() - started).toBeLessThan(10_000);
	});

	it("finds the same markers as a fence-by-fence rescan (the former algorithm, on small texts)", () => {
		const line = fc.constantFrom("```", "````", "```js", "~~~", "~~~~", "   ```", "    ```", "``` ", "text", B, E, "");
		fc.assert(
			fc.property(fc.array(line, { maxLength: 14 }), (lines) => {
				const text = lines.join("\n");
				const expected = rescanMarkers(text);
				const r = upsertMarkedBlock(text, "x");
				const begins = expected.filter((m) => m === "begin").length;
				const ends = expected.filter((m) => m === "end").length;
				if (begins === 0 && ends === 0) expect(r.ok && r.text.startsWith(text)).toBe(true);
				else if (begins === 1 && ends === 1 && expected.indexOf("begin") < expected.indexOf("end")) expect(r.ok).toBe(true);
				else expect(r.ok).toBe(false);
			}),
			{ numRuns: 3000 },
		);
	});
});

/** The former scan: rescans with each fence that never closed taken as plain text (quadratic; a reference only). */
function rescanMarkers(text: string, unclosed: ReadonlySet<number> = new Set()): ("begin" | "end")[] {
	const found: ("begin" | "end")[] = [];
	let fence: { chars: string; line: number } | undefined;
	const lines = text.split("\n");
	lines.forEach((content, line) => {
		const open = unclosed.has(line) ? null : /^ {0,3}(`{3,}|~{3,})/.exec(content);
		if (fence !== undefined) {
			if (open && open[1]![0] === fence.chars[0] && open[1]!.length >= fence.chars.length && content.trim() === open[1]) fence = undefined;
		} else if (open) fence = { chars: open[1]!, line };
		else if (content.trim() === B) found.push("begin");
		else if (content.trim() === E) found.push("end");
	});
	return fence !== undefined ? rescanMarkers(text, new Set([...unclosed, fence.line])) : found;
}

describe("removeMarkedBlock", () => {
	it("gives back the text as it was before the block was added, for a text that ended with a line ending (property)", () => {
		// Without a final line ending the upsert adds two, and the result is the same as for the text with one: that one comes back.
		const text = fc.string().filter((t) => !t.includes("AUTO-CONTEXT") && !/(`{3,}|~{3,})/.test(t) && !t.includes("\r")).map((t) => (t === "" ? t : `${t}\n`));
		fc.assert(
			fc.property(text, fc.string({ minLength: 1 }).filter((b) => !b.includes("AUTO-CONTEXT")), (before, body) => {
				const added = upsertMarkedBlock(before, body);
				if (!added.ok) return;
				const removed = removeMarkedBlock(added.text);
				expect(removed).toEqual({ ok: true, text: before, changed: true });
			}),
		);
	});

	it("keeps every other byte, leaves a text without a block alone, and refuses broken markers", () => {
		expect(removeMarkedBlock(`# Rules\r\n\r\n${B}\r\nold\r\n${E}\r\nafter  \r\n`)).toEqual({ ok: true, text: "# Rules\r\n\r\nafter  \r\n".replace("\r\n\r\nafter", "\r\nafter"), changed: true });
		expect(removeMarkedBlock("no block here\n")).toEqual({ ok: true, text: "no block here\n", changed: false });
		expect(removeMarkedBlock(`${B}\nx\n`).ok).toBe(false);
	});
});

describe("a file whose lines end with CR alone", () => {
	it("is refused, not given a second block", () => {
		const text = `# Rules\r\r${B}\rold\r${E}\r`;
		expect(upsertMarkedBlock(text, "new")).toMatchObject({ ok: false, reason: expect.stringMatching(/lines ended by CR alone/) as unknown });
		expect(upsert("", "new")).toBe(`${B}\nnew\n${E}\n`);
	});
});

describe("markers after ```inline``` code", () => {
	it("are found: a line of inline code in triple backticks opens no fence", () => {
		const text = ["```npm test``` runs the tests", "", B, "old", E, "", "```", "code", "```", ""].join("\n");
		expect(upsert(text, "new")).toBe(text.replace("old", "new"));
	});
});

describe("linesOutsideBlock", () => {
	it("gives the file's own lines: not the marked block, not fenced code", () => {
		const text = ["# Rules", "", "```", "@AGENTS.md in a fence", "```", B, "@AGENTS.md in the block", E, "last `@x` line"].join("\r\n");
		expect(linesOutsideBlock(text)).toEqual(["# Rules", "", "last `@x` line"]);
	});

	it("gives every line outside fenced code when the markers make no block", () => {
		expect(linesOutsideBlock(["a", E, "b", B].join("\n"))).toEqual(["a", "b"]);
		expect(linesOutsideBlock("one\n```\nnever closed")).toEqual(["one", "```", "never closed"]);
	});
});

describe("markers in indented code", () => {
	it("takes a marker indented four columns (or by a tab) for code, and appends the block after the file", () => {
		const file = `# Rules\n\nThe sync writes between:\n\n    ${B}\n    ${E}\n\n\t${B}\nend\n`;
		const result = upsertMarkedBlock(file, "body");
		expect(result).toEqual({ ok: true, text: `${file}\n${B}\nbody\n${E}\n`, changed: true });
	});

	it("still finds a marker indented by up to three spaces", () => {
		const file = `a\n   ${B}\nold\n ${E}\nz\n`;
		expect(upsertMarkedBlock(file, "new")).toEqual({ ok: true, text: `a\n   ${B}\nnew\n ${E}\nz\n`, changed: true });
	});
});
