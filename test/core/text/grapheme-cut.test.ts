import { describe, expect, it } from "vitest";
import { graphemePrefix } from "../../../src/core/text/grapheme-cut";
import { cutAtBoundary } from "../../../src/core/digest/clause-cut";
import { oneLine } from "../../../src/core/digest/one-line";
import { safeFileName } from "../../../src/core/notes/note-name";

const FAMILY = "👩\u200d👩\u200d👧\u200d👦";

describe("graphemePrefix", () => {
	it("cuts between characters as a reader sees them: no family split at a joiner, no half flag, no lone surrogate", () => {
		const text = `ab${FAMILY}🇫🇷x`;
		for (let max = 0; max <= text.length; max++) {
			const cut = graphemePrefix(text, max);
			expect(cut.length).toBeLessThanOrEqual(max);
			expect(["", "a", "ab", `ab${FAMILY}`, `ab${FAMILY}🇫🇷`, text]).toContain(cut);
		}
		expect(graphemePrefix("abcdef", 3)).toBe("abc");
		// A letter under more marks than the room: cut at a code point all the same.
		expect(graphemePrefix(`a${"\u0301".repeat(10)}`, 4)).toBe(`a${"\u0301".repeat(3)}`);
		expect(graphemePrefix(`${"😀".repeat(3)}`, 3)).toBe("😀");
	});

	it("is where the block's items, titles and note names are cut: a dangling joiner before the ellipsis showed half a family", () => {
		const wide = `${"😀" + FAMILY + "🇫🇷"}`.repeat(20);
		for (const cut of [cutAtBoundary(`Fixed ${wide}`, 60), oneLine(wide, 50), safeFileName(wide)]) {
			expect(cut).not.toMatch(/\u200d(?:…|$)/u);
			expect([...new Intl.Segmenter("und", { granularity: "grapheme" }).segment(cut.replace(/^Fixed /, "").replace(/…$/, ""))].every((s) => ["😀", FAMILY, "🇫🇷"].includes(s.segment))).toBe(true);
		}
	});
});
