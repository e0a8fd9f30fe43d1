import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tokenCount } from "../../../src/core/transcript/token-count";

describe("tokenCount", () => {
	it("keeps a whole number at or above zero, and counts anything else 0", () => {
		for (const bad of [-5, 1e308, 2.5, Number.NaN, Infinity, "7", null, undefined, {}, 2 ** 53]) expect(tokenCount(bad)).toBe(0);
		fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => tokenCount(n) === n));
	});
});
