import { describe, expect, it } from "vitest";
import { codeUnitOrder } from "../../../src/core/text/code-unit-order";

describe("code-unit order", () => {
	it("orders by UTF-16 code units, whatever the locale: capitals first, accents after z", () => {
		expect(["b", "é", "B", "a", "z", "Z"].sort(codeUnitOrder)).toEqual(["B", "Z", "a", "b", "z", "é"]);
		expect(codeUnitOrder("x", "x")).toBe(0);
	});
});
