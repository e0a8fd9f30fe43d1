import { describe, expect, it } from "vitest";
import { terminalText } from "../../../src/core/text/terminal-text";

describe("terminalText", () => {
	it("shows a bare CR as ␍, so what follows it cannot overwrite the line's start, and keeps CRLF and LF", () => {
		expect(terminalText("Added /p/evil\rAdded /etc: enabled")).toBe("Added /p/evil\u240dAdded /etc: enabled");
		expect(terminalText("a\r\nb\nc\r")).toBe("a\r\nb\nc\u240d");
		expect(terminalText("C:\\repo\\x")).toBe("C:\\repo\\x");
	});

	it("drops what printable drops", () => {
		expect(terminalText("x\u001b]0;title\u0007\u001b[2J\u202ey\r")).toBe("xy\u240d");
	});
});
