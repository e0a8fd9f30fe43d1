import { describe, expect, it } from "vitest";
import { asciiJson } from "../../../src/core/text/ascii-json";

describe("asciiJson", () => {
	it("writes only ASCII, and JSON.parse gives back the same value", () => {
		const value = { title: "Café — 日本語 😀", lone: "a\ud800b", quote: 'say "hi"\n', nested: [{ "clé": "\u2028" }] };
		const text = asciiJson(value);
		expect(text).not.toMatch(/[\u0080-\uffff]/);
		expect(JSON.parse(text)).toEqual(value);
		expect(text).toContain("Caf\\u00e9");
	});

	it("leaves ASCII JSON as JSON.stringify writes it", () => {
		const value = { a: 1, b: ["x", null, true], c: "plain \\ text" };
		expect(asciiJson(value)).toBe(JSON.stringify(value));
	});
});
