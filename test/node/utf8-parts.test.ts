import { describe, expect, it } from "vitest";
import { utf8Parts } from "../../src/node/utf8-parts";

describe("utf8Parts", () => {
	it("encodes the parts one after another, as their joined text would be", () => {
		const parts = ["{", "é😀".repeat(300), "", "ascii", "\u2028", "a\ud800b", "}"];
		const bytes = utf8Parts(parts);
		expect(bytes.equals(Buffer.from(parts.join(""), "utf8"))).toBe(true);
		expect(utf8Parts([]).length).toBe(0);
	});
});
