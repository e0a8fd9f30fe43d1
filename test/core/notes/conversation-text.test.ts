import { describe, expect, it } from "vitest";
import { conversationText } from "../../../src/core/notes/conversation-text";

describe("conversationText", () => {
	it("is the text as it is, or the text its UTF-8 bytes hold (a lone surrogate comes back as U+FFFD, as the note would be written)", () => {
		const text = "### You · 1\n\nTraduis — 日本語 🎌";
		expect(conversationText(text)).toBe(text);
		expect(conversationText(new TextEncoder().encode(text))).toBe(text);
		expect(conversationText(undefined)).toBeUndefined();
		expect(conversationText(new TextEncoder().encode("a\ud800b"))).toBe("a\ufffdb");
	});
});
