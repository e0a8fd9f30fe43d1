import { describe, expect, it } from "vitest";
import { aiderHistorySetting } from "../../../src/core/transcript/aider-config";

describe("aiderHistorySetting", () => {
	it("reads chat-history-file of a YAML mapping, the last one when it is given twice (as Aider's YAML reader takes it)", () => {
		expect(aiderHistorySetting("model: sonnet\nchat-history-file: notes/chat.md\n")).toBe("notes/chat.md");
		expect(aiderHistorySetting("chat-history-file: a.md\nchat-history-file: ' b.md '\n")).toBe("b.md");
	});

	it("names nothing for other YAML, a value that is no string, an empty one, a NUL, or an alias bomb", () => {
		for (const text of ["", "chat-history-file:\n", "chat-history-file: 3\n", "chat-history-file: [a]\n", "- chat-history-file: a\n", "chat-history-file: \"a\\0b\"\n", "{", "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nchat-history-file: x.md\n"]) {
			expect(aiderHistorySetting(text), JSON.stringify(text)).toBeUndefined();
		}
	});
});
