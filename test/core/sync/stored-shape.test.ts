import { describe, expect, it } from "vitest";
import { nestedDeeperThan } from "../../../src/core/sync/stored-shape";

describe("nestedDeeperThan", () => {
	it("counts arrays and objects inside one another, not their width", () => {
		expect(nestedDeeperThan({ a: [1, { b: "x" }] }, 3)).toBe(false);
		expect(nestedDeeperThan({ a: [1, { b: ["x"] }] }, 3)).toBe(true);
		expect(nestedDeeperThan({}, 1)).toBe(false);
		expect(nestedDeeperThan("text", 0)).toBe(false);
		expect(nestedDeeperThan(Array.from({ length: 10_000 }, () => ({ k: [] })), 3)).toBe(false);
	});

	it("finds a tower far deeper than the stack would hold a recursion for", () => {
		const tower = JSON.parse("[".repeat(200_000) + "]".repeat(200_000)) as unknown;
		expect(nestedDeeperThan(tower, 64)).toBe(true);
		expect(nestedDeeperThan({ fine: { version: 3 }, deep: tower }, 64)).toBe(true);
	});
});
