import { describe, expect, it } from "vitest";
import { grouped } from "../../../src/core/text/grouped-number";

describe("grouped", () => {
	it("writes whole numbers as toLocaleString('en-US') does", () => {
		const samples = [0, 1, 12, 123, 999, 1000, 1234, 12_345, 123_456, 1_000_000, 1_234_567, 98_765_432_109, -1, -999, -1000, -1_234_567, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
		for (let n = 1; n < 1e15; n = n * 7 + 3) samples.push(n, -n);
		for (const n of samples) expect(grouped(n)).toBe(n.toLocaleString("en-US"));
	});

	it("leaves what is not a safe whole number to toLocaleString", () => {
		for (const n of [1.5, 1234.5678, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 60, -0]) expect(grouped(n)).toBe(n.toLocaleString("en-US"));
	});
});
