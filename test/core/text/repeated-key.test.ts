import { describe, expect, it } from "vitest";
import { repeatedKey } from "../../../src/core/text/repeated-key";

describe("repeatedKey", () => {
	it("finds a key an object gives twice, with the path to it; JSON.parse alone would keep the last without a word", () => {
		expect(repeatedKey('{"keep": ["/a"], "other": 1, "keep": []}')).toEqual(["keep"]);
		expect(repeatedKey('{"devices": {"pc": {"projects": [], "x": {"projects": 1}, "projects": [1]}}}')).toEqual(["devices", "pc", "projects"]);
		expect(repeatedKey('{"list": [{"a": 1}, {"b": 2, "b": 3}]}')).toEqual(["list", "1", "b"]);
	});

	it("compares keys as parsed: an escape spells the same key", () => {
		expect(repeatedKey('{"a\\u0062": 1, "ab": 2}')).toEqual(["ab"]);
		expect(repeatedKey('{"a\\"": 1, "a": 2}')).toBeUndefined();
	});

	it("holds no key twice in sibling objects, in values, or in strings that look like keys", () => {
		expect(repeatedKey('[{"a": 1}, {"a": 2}]')).toBeUndefined();
		expect(repeatedKey('{"a": {"a": {"a": "a"}}, "b": "\\"a\\": {\\"a\\""}')).toBeUndefined();
		expect(repeatedKey('{"a": ["x", "a", {"y": "a"}], "z": "{\\"a\\": 1, \\"a\\": 2}"}')).toBeUndefined();
		expect(repeatedKey("17")).toBeUndefined();
	});

	it("reads 100,000 nested objects in one pass", () => {
		const deep = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);
		expect(repeatedKey(deep)).toBeUndefined();
		expect(repeatedKey(`{"a": 1, "b": ${deep}, "a": 2}`)).toEqual(["a"]);
	});
});
