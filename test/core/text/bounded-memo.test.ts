import { describe, expect, it } from "vitest";
import { boundedMemo } from "../../../src/core/text/bounded-memo";

describe("boundedMemo", () => {
	it("works a text out once, an answer of undefined too", () => {
		const asked: string[] = [];
		const termOf = boundedMemo((text: string) => {
			asked.push(text);
			return text.length > 2 ? text.toUpperCase() : undefined;
		}, 10);
		expect(termOf("api")).toBe("API");
		expect(termOf("api")).toBe("API");
		expect(termOf("is")).toBeUndefined();
		expect(termOf("is")).toBeUndefined();
		expect(asked).toEqual(["api", "is"]);
	});

	it("keeps at most `max` texts, and answers right after it let them go", () => {
		const asked: string[] = [];
		const lengthOf = boundedMemo((text: string) => {
			asked.push(text);
			return [text.length];
		}, 2);
		const first = lengthOf("a");
		lengthOf("bb");
		lengthOf("ccc");
		expect(lengthOf("a")).toEqual(first);
		expect(lengthOf("a")).not.toBe(first);
		expect(asked).toEqual(["a", "bb", "ccc", "a"]);
	});

	it("keeps no text longer than `longest`: worked out anew each time", () => {
		const splitOf = boundedMemo((text: string) => text.split(" "), 10, 5);
		expect(splitOf("a b")).toBe(splitOf("a b"));
		expect(splitOf("a b c d")).not.toBe(splitOf("a b c d"));
		expect(splitOf("a b c d")).toEqual(["a", "b", "c", "d"]);
	});
});
