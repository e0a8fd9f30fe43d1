import { describe, expect, it } from "vitest";
import { MAX_MARKS, visibleText } from "../../../src/core/text/visible-text";

describe("visibleText", () => {
	it("drops the characters that show nothing", () => {
		expect(visibleText("Fix the par\u200Bser")).toBe("Fix the parser");
		expect(visibleText("\uFEFFRe\u00ADview the log\u2060in flow\u2062")).toBe("Review the login flow");
	});

	it("keeps one joiner between two characters, and none at a blank or an end", () => {
		// Persian needs its ZWNJ, a family emoji its ZWJ.
		expect(visibleText("می\u200Cخواهم")).toBe("می\u200Cخواهم");
		expect(visibleText("👩\u200D👩\u200D👧 plans")).toBe("👩\u200D👩\u200D👧 plans");
		expect(visibleText("a\u200D\u200D\u200D\u200Cb")).toBe("a\u200Db");
		expect(visibleText("\u200Dstart end\u200C \u200Dword\u200D")).toBe("start end word");
	});

	it(`keeps at most ${MAX_MARKS} combining marks in a row`, () => {
		const stack = "\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030A\u030B\u030C\u0323\u0324";
		expect(visibleText(`Ze${stack.repeat(2)}bra`)).toBe(`Ze${stack.slice(0, MAX_MARKS)}bra`);
		// Real stacks stay whole: Vietnamese, and a Tibetan cluster of a consonant under eight signs.
		expect(visibleText("Tiếng Việt")).toBe("Tiếng Việt");
		const tibetan = "\u0F67\u0F90\u0FB5\u0FA8\u0FB3\u0FBA\u0FBC\u0FBB\u0F82";
		expect(visibleText(tibetan)).toBe(tibetan);
	});

	it("gives plain text back as it is", () => {
		const text = "Add a login page";
		expect(visibleText(text)).toBe(text);
	});
});
