import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { quoteLines } from "../../../src/core/notes/render-session-note";

/** The rule, written the plain way: every line ending (CRLF, CR, LF) ends a line; an empty line quotes as `>`. */
const byLines = (text: string): string =>
	text
		.split(/\r\n|\r|\n/)
		.map((l) => (l === "" ? ">" : `> ${l}`))
		.join("\n");

describe("quoteLines", () => {
	it.each([
		["a\n\nb", "> a\n>\n> b"],
		["\r\na\r\rb\r\n", ">\n> a\n>\n> b\n>"],
		["x > \n> ", "> x > \n> > "],
		["a\r\n\nb", "> a\n>\n> b"],
	])("quotes every line, empty ones as `>`, whatever the line endings: %j", (text, quoted) => {
		expect(quoteLines(text)).toBe(quoted);
	});

	it("gives what splitting into lines gives, for any text of line endings, spaces and `>`", () => {
		const piece = fc.constantFrom("\r", "\n", "\r\n", " ", ">", "> ", "a", "\u2028", "");
		fc.assert(fc.property(fc.array(piece, { maxLength: 24 }).map((p) => p.join("")), (text) => {
			expect(quoteLines(text)).toBe(byLines(text));
		}), { numRuns: 5000 });
	});

	it("leaves no line of the text outside the quote", () => {
		fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
			for (const line of quoteLines(text).split(/\r\n|\r|\n/)) expect(line.startsWith(">")).toBe(true);
		}));
	});
});
