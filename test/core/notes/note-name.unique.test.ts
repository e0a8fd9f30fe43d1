import { describe, expect, it } from "vitest";
import { uniquePath } from "../../../src/core/notes/note-name";

/** A set that counts its look-ups. */
class CountingSet extends Set<string> {
	lookups = 0;
	override has(value: string): boolean {
		this.lookups++;
		return super.has(value);
	}
}

describe("uniquePath", () => {
	it("numbers notes of one stem in turn, with a look-up or two each rather than one per earlier note", () => {
		const taken = new CountingSet();
		const paths = Array.from({ length: 2000 }, () => uniquePath(taken, "P/2022-01-01 Fix the failing test"));
		expect(paths[0]).toBe("P/2022-01-01 Fix the failing test.md");
		expect(paths[1999]).toBe("P/2022-01-01 Fix the failing test (2000).md");
		expect(new Set(paths).size).toBe(2000);
		expect(taken.lookups).toBeLessThanOrEqual(2 * 2000);
	});

	it("still skips names taken another way, whatever their case", () => {
		const taken = new Set(["p/a (2).md"]);
		expect([uniquePath(taken, "P/A"), uniquePath(taken, "P/a"), uniquePath(taken, "P/A")]).toEqual(["P/A.md", "P/a (3).md", "P/A (4).md"]);
		taken.add("p/a (5).md");
		expect(uniquePath(taken, "P/A")).toBe("P/A (6).md");
	});
});
