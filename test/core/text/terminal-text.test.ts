import { describe, expect, it } from "vitest";
import { redrawnLines, terminalLine, terminalText } from "../../../src/core/text/terminal-text";

describe("terminalText", () => {
	it("shows a bare CR as ␍, so what follows it cannot overwrite the line's start, and keeps CRLF and LF", () => {
		expect(terminalText("Added /p/evil\rAdded /etc: enabled")).toBe("Added /p/evil\u240dAdded /etc: enabled");
		expect(terminalText("a\r\nb\nc\r")).toBe("a\r\nb\nc\u240d");
		expect(terminalText("C:\\repo\\x")).toBe("C:\\repo\\x");
	});

	it("drops what printable drops", () => {
		expect(terminalText("x\u001b]0;title\u0007\u001b[2J\u202ey\r")).toBe("xy\u240d");
	});

	it("makes a lone surrogate U+FFFD, so the MCP server's JSON has no `\\ud800` a strict reader refuses, and keeps a pair", () => {
		expect(JSON.stringify(terminalText("parser \ud800 here \udc00 \ud83d\ude00"))).toBe('"parser \ufffd here \ufffd \ud83d\ude00"');
	});
});

describe("terminalLine", () => {
	it("shows a line break (from a file's name) as ␤, so the rest of a name never starts a line of its own", () => {
		expect(terminalLine("Note: /s/ses_x\nSynced 0 notes.json: not read")).toBe("Note: /s/ses_x\u2424Synced 0 notes.json: not read");
		expect(terminalLine("a\r\nb\rc\u001b[2J")).toBe("a\u2424b\u240dc");
	});

	it("redrawnLines keeps what a terminal shows last on each line a bare CR redraws, and CRLF as it is", () => {
		expect(redrawnLines("a 10%\ra 90%\ra done\nnext")).toBe("a done\nnext");
		expect(redrawnLines("x\r\ry\r\nz\r")).toBe("y\r\nz");
		const plain = "a\r\nb\nc";
		expect(redrawnLines(plain)).toBe(plain);
	});
});
