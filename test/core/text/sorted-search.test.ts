import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerBound } from "../../../src/core/text/sorted-search";

describe("lowerBound", () => {
	it("is the first place whose string is not below the value, as a look at each finds it", () => {
		fc.assert(
			fc.property(fc.array(fc.string()), fc.string(), (texts, value) => {
				const sorted = [...texts].sort();
				const first = sorted.findIndex((t) => !(t < value));
				expect(lowerBound(sorted, value)).toBe(first < 0 ? sorted.length : first);
			}),
		);
	});

	it("puts the strings a prefix starts right at it", () => {
		const sorted = ["alpha", "beta", "betamax", "betatron", "gamma"];
		expect(sorted.slice(lowerBound(sorted, "beta")).filter((t) => t.startsWith("beta"))).toEqual(["beta", "betamax", "betatron"]);
		expect(lowerBound(sorted, "zeta")).toBe(5);
	});
});
