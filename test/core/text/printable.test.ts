import { describe, expect, it } from "vitest";
import { printable } from "../../../src/core/text/printable";

describe("printable", () => {
	it("drops control characters and terminal escapes whole, and keeps tabs, line breaks and every other character", () => {
		expect(printable("Fix \u001b[31mRED\u001b[0m and \u001b]0;pwned\u0007 title\b\b now")).toBe("Fix RED and  title now");
		expect(printable("a\tb\r\nc\u007f\u0085\u009b1;2Hd")).toBe("a\tb\r\ncd");
		expect(printable("nul\u0000byte \u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\")).toBe("nulbyte link");
		const plain = "日本語 😀 — ordinary text\n";
		expect(printable(plain)).toBe(plain);
	});

	it("a stray escape takes no text after it: an OSC is ended on its line or not taken", () => {
		expect(printable("a \u001b]0;no end\nnext line")).toBe("a ]0;no end\nnext line");
		expect(printable("\u001b[")).toBe("[");
	});

	it("drops the bidirectional controls that show text in another order than it is", () => {
		expect(printable("invoice \u202egnp.exe\u202c and \u2067isolated\u2069")).toBe("invoice gnp.exe and isolated");
		expect(printable("שלום hello مرحبا \u200f")).toBe("שלום hello مرحبا \u200f");
	});
});
