import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutAtBoundary } from "../../../src/core/digest/clause-cut";

describe("cutAtBoundary", () => {
	it("keeps short text whole, white space folded", () => {
		expect(cutAtBoundary("Add  the\nlockout message", 80)).toBe("Add the lockout message");
	});

	it("prefers the end of a sentence, then of a clause, then of a word", () => {
		expect(cutAtBoundary("Pagination added to the list endpoint. Tests were updated to cover page two and three.", 60)).toBe("Pagination added to the list endpoint.");
		expect(cutAtBoundary("Pagination added to the list endpoint, with page and limit parameters and a total count", 60)).toBe("Pagination added to the list endpoint…");
		expect(cutAtBoundary("Pagination added to the list endpoint with page and limit parameters", 50)).toBe("Pagination added to the list endpoint with page…");
	});

	it("takes no dot that starts a name (.env, .zip) for a sentence's end, however the room falls", () => {
		const text = "Backups now also cover the archives nested inside another one, the way we handle the .zip files.";
		expect(cutAtBoundary(text, text.indexOf(".zip") + 1)).toBe("Backups now also cover the archives nested inside another one…");
	});

	it("never cuts inside a word", () => {
		const out = cutAtBoundary("Summing total_input_tokens and total_output_tokens across every session file", 30);
		expect(out).toBe("Summing total_input_tokens…");
	});

	it("never leaves an inline code span open", () => {
		expect(cutAtBoundary("Renamed the option to `keepPreviousSessionsAround` in settings", 40)).toBe("Renamed the option to…");
	});

	it("keeps the start of a long code span, up to a break of its own, where the cut falls inside it", () => {
		const text = "Point the reset mail at `https://shop.example.org/account/reset?code={{ .Code }}&lang=en` so the new page handles it";
		expect(cutAtBoundary(text, 70)).toBe("Point the reset mail at `https://shop.example.org/account/reset…`");
		// A span too short to cut inside, or one word, still goes whole or not at all.
		expect(cutAtBoundary("Point the reset mail at `resetHandlerForEveryLocale` so it works", 40)).toBe("Point the reset mail at…");
	});

	it("cuts unspaced scripts after their own punctuation and never splits a surrogate pair", () => {
		expect(cutAtBoundary("ページネーションを追加しました。テストも更新して全部通ることを確認しました。", 25)).toBe("ページネーションを追加しました。");
		const emoji = cutAtBoundary("😀".repeat(20), 9);
		expect(emoji.endsWith("…")).toBe(true);
		expect(/[\ud800-\udbff]…$/.test(emoji)).toBe(false);
	});

	it("is at most max + 1 characters and a prefix of the folded text (property)", () => {
		fc.assert(
			fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 10, max: 200 }), (text, max) => {
				const out = cutAtBoundary(text, max);
				const folded = text.replace(/\s+/g, " ").trim();
				expect(out.length).toBeLessThanOrEqual(max + 1);
				// A code span cut inside closes with "…`": only a span the cut left open, so the text before holds an odd number of backticks.
				expect(folded.startsWith(out.replace(/…`?$/, ""))).toBe(true);
				if (out.endsWith("…`")) expect((out.slice(0, -2).match(/`/g)?.length ?? 0) % 2).toBe(1);
			}),
		);
	});
});
