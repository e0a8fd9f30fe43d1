import { describe, expect, it } from "vitest";
import { printable } from "../../../src/core/text/printable";

describe("printable", () => {
	it("drops control characters (terminal escapes among them) and keeps tabs, line breaks and every other character", () => {
		expect(printable("Fix \u001b[31mRED\u001b[0m and \u001b]0;pwned\u0007 title\b\b now")).toBe("Fix [31mRED[0m and ]0;pwned title now");
		expect(printable("a\tb\r\nc\u007f\u0085\u009bd")).toBe("a\tb\r\ncd");
		const plain = "日本語 😀 — ordinary text\n";
		expect(printable(plain)).toBe(plain);
	});
});
