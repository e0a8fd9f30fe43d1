import { describe, expect, it } from "vitest";
import { dict, shown } from "../../src/core/dict";

describe("dict", () => {
	it("finds nothing it was not given, whatever the key", () => {
		const map = dict<number[]>({ a: [1] });
		for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) expect(map[key]).toBeUndefined();
		(map["__proto__"] ??= []).push(2);
		expect(JSON.parse(JSON.stringify(map))).toEqual({ a: [1], ["__proto__"]: [2] });
		expect(dict([["constructor", 1]] as const).constructor).toBe(1);
	});
});

describe("shown", () => {
	it("gives text for any value, one whose toString is no function too", () => {
		expect(shown({ toString: 1 })).toBe('{"toString":1}');
		expect(shown("x")).toBe("x");
		expect(shown(3)).toBe("3");
		expect(shown(undefined)).toBe("undefined");
	});
});
