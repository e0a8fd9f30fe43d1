import { describe, expect, it } from "vitest";
import { foldCase } from "../../../src/core/text/fold-case";

describe("foldCase", () => {
	it.each([
		// German sharp s, small and capital.
		["straße", "STRASSE", "Strasse", "STRAẞE"],
		// Turkish dotted capital I (lower-cased to i and a combining dot) and dotless small i.
		["İstanbul", "ISTANBUL", "istanbul", "ıstanbul"],
		// Greek final sigma, and the capital that lower-cases to it at a word's end.
		["ΟΔΟΣ", "οδος", "οδοσ"],
		// Spellings NFKC makes one: decomposed and composed, full-width, a ligature.
		["Cafe\u0301", "CAFÉ", "café"],
		["ＡＰＩ", "api"],
		["ﬁle", "FILE"],
	])("folds %s and its other spellings alike", (...spellings) => {
		expect(new Set(spellings.map(foldCase)).size).toBe(1);
	});

	it("keeps ASCII as lower case does, and what has no case as it is", () => {
		expect(foldCase("Fix the LOGIN page: 3f2a9c1")).toBe("fix the login page: 3f2a9c1");
		expect(foldCase("토큰 갱신 令牌刷新")).toBe("토큰 갱신 令牌刷新");
	});
});
