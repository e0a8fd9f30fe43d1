import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JSON_STRING_ESCAPES, XML_ENTITIES } from "../../../src/core/digest/escaped-text";

describe("JSON_STRING_ESCAPES", () => {
	it("decodes one level of a JSON string's escapes, a quote not escaped as a line end, and says where each character was", () => {
		const text = '{"env":"A=1\\nB=\\"2\\"\\u003c\\\\n"}';
		const decoded = JSON_STRING_ESCAPES.decode(text)!;
		expect(decoded.text).toBe('{\nenv\n:\nA=1\nB="2"<\\n\n}');
		expect(decoded.at.length).toBe(decoded.text.length + 1);
		// Each decoded character's place, and the text's end after the last.
		expect([...decoded.text].map((_, i) => text.slice(decoded.at[i], decoded.at[i + 1]))).toEqual(["{", '"', "e", "n", "v", '"', ":", '"', "A", "=", "1", "\\n", "B", "=", '\\"', "2", '\\"', "\\u003c", "\\\\", "n", '"', "}"]);
		expect(decoded.at[decoded.text.length]).toBe(text.length);
	});

	it("leaves alone what is no escape, and a text with none", () => {
		expect(JSON_STRING_ESCAPES.holds("C:\\Users\\dev and \\d+")).toBe(false);
		expect(JSON_STRING_ESCAPES.decode("a \\d \\x \\u12 b")).toBeUndefined();
		expect(JSON_STRING_ESCAPES.decode("\\d\\n")!.text).toBe("\\d\n");
	});

	it("escapes a replacement back as JSON writes it", () => {
		expect(JSON_STRING_ESCAPES.escape('[redacted:secret] "q"\n')).toBe('[redacted:secret] \\"q\\"\\n');
	});

	it("maps every place of any text back into it, in order", () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("a", "\\", "n", "u", '"', "0", "3", "c", "r", "t", "/", "'"), maxLength: 60 }), (text) => {
				const decoded = JSON_STRING_ESCAPES.decode(text);
				if (decoded === undefined) return;
				expect(decoded.at[0]).toBe(0);
				expect(decoded.at[decoded.text.length]).toBe(text.length);
				for (let i = 1; i <= decoded.text.length; i++) expect(decoded.at[i]!).toBeGreaterThan(decoded.at[i - 1]!);
			}),
		);
	});
});

describe("XML_ENTITIES", () => {
	it("decodes named and numeric entities, and escapes a replacement back", () => {
		const text = "&lt;a key=&quot;x&quot;&gt;&#60;&#x3E;&amp;amp;&bogus;&#99999999;";
		expect(XML_ENTITIES.holds(text)).toBe(true);
		expect(XML_ENTITIES.decode(text)!.text).toBe('<a key="x"><>&amp;&bogus;&#99999999;');
		expect(XML_ENTITIES.escape("<b>&'\"")).toBe("&lt;b&gt;&amp;&apos;&quot;");
		expect(XML_ENTITIES.holds("a && b; x &amp; y")).toBe(false);
	});
});
