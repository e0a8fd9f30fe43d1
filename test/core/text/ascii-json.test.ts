import { describe, expect, it } from "vitest";
import { asciiJson, asciiJsonParts } from "../../../src/core/text/ascii-json";

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

	it("in parts, the object of the entries: ASCII only, parsed back the same, values JSON leaves out left out", () => {
		const entries: [string, unknown][] = [
			["/p/Café \"q\".jsonl", { title: "日本語 😀", lone: "a\ud800b" }],
			["gone", undefined],
			["/p/b.jsonl", [1, "x"]],
		];
		const parts = asciiJsonParts(entries);
		const text = parts.join("");
		expect(text).not.toMatch(/[\u0080-\uffff]/);
		expect(JSON.parse(text)).toEqual(JSON.parse(asciiJson(Object.fromEntries(entries))));
		expect(Object.keys(JSON.parse(text) as object)).toEqual(["/p/Café \"q\".jsonl", "/p/b.jsonl"]);
		expect(asciiJsonParts([]).join("")).toBe("{}");
	});
});
