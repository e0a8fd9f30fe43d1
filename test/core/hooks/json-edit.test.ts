import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { insertAt, nestingDepth, parseJsonObject, removeAt, sameJson } from "../../../src/core/hooks/json-edit";

const saying = (text: string): unknown => expect.stringContaining(text);

describe("json-edit", () => {
	it("sets a value in place or inserts it, formatting only what it wrote, in the file's indentation", () => {
		const user = '{\r\n\t"a": { "compact": [1, 2] },\r\n\t"servers": {\r\n\t\t"x": 1\r\n\t}\r\n}\r\n';
		const added = insertAt(user, ["servers", "y"], { k: [1] });
		expect(added).toBe('{\r\n\t"a": { "compact": [1, 2] },\r\n\t"servers": {\r\n\t\t"x": 1,\r\n\t\t"y": {\r\n\t\t\t"k": [\r\n\t\t\t\t1\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n');
		// In place: the neighbours keep their bytes.
		expect(insertAt(added, ["servers", "x"], 2)).toBe(added.replace('"x": 1', '"x": 2'));
		// Into a list written on one line: compact.
		expect(insertAt('{ "l": [1] }', ["l", 1], 2)).toBe('{ "l": [1,2] }');
		expect(removeAt(removeAt(added, ["servers", "y"]), ["servers", "x"])).toBe('{\r\n\t"a": { "compact": [1, 2] },\r\n\t"servers": {}\r\n}\r\n');
	});

	it("removing what was inserted gives back the same bytes, for any object", () => {
		fc.assert(
			fc.property(fc.dictionary(fc.string().filter((k) => k !== "ours" && k !== "__proto__"), fc.jsonValue()), fc.constantFrom(0, 2, "\t"), fc.jsonValue(), (value, indent, ours) => {
				const text = `${JSON.stringify(value, null, indent)}\n`;
				const added = insertAt(text, ["ours"], ours);
				expect(sameJson(JSON.parse(added), { ...value, ours })).toBe(true);
				expect(removeAt(added, ["ours"])).toBe(text);
			}),
			{ numRuns: 100 },
		);
	});

	it("reads an object or says why not, with the line, and refuses a key twice where an edit would go", () => {
		expect(parseJsonObject(null, "hooks", { comments: false })).toEqual({ ok: true, value: {} });
		expect(parseJsonObject('{\n  "a": 1,\n  oops\n}', "hooks", { comments: false })).toMatchObject({ ok: false, reason: saying("at line 3") });
		expect(parseJsonObject("// c\n{}", "hooks", { comments: false }).ok).toBe(false);
		expect(parseJsonObject("// c\n{}", "hooks", { comments: true }).ok).toBe(true);
		expect(parseJsonObject("[1]", "hooks", { comments: false })).toMatchObject({ ok: false, reason: saying("JSON object") });
		expect(parseJsonObject('{ "hooks": 1 }', "hooks", { comments: false })).toMatchObject({ ok: false, reason: saying('"hooks" is not an object') });
		expect(parseJsonObject('{ "hooks": { "a": 1, "a": 2 } }', "hooks", { comments: false })).toMatchObject({ ok: false, reason: saying('"hooks"."a" twice') });
		expect(parseJsonObject('{ "b": { "a": 1, "a": 2 } }', "hooks", { comments: false }).ok).toBe(true);
	});
});

describe("nesting depth", () => {
	it("refuses a file nested 100,000 deep with a sentence (the parser's stack overflowed)", () => {
		const deep = `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
		const parsed = parseJsonObject(deep, "hooks", { comments: false });
		expect(parsed).toEqual({ ok: false, reason: "it nests objects or arrays more than 1000 deep; nothing was changed" });
	});

	it("counts brackets outside strings and comments only", () => {
		expect(nestingDepth(`{"a": "[[[[\\"[[", "b": [1, {"c": []}]}`)).toBe(4);
		expect(nestingDepth(`{ // [[[[\n "a": 1 /* {{{{ */ }`)).toBe(1);
		expect(parseJsonObject(`{"hooks": {}, "s": "${"[".repeat(5000)}"}`, "hooks", { comments: false }).ok).toBe(true);
	});

	it("removing an item keeps the comments between it and its neighbours", () => {
		const last = '{\n  "theme": "dark", /* after theme */\n  "x": {"a": 1}\n}\n';
		expect(removeAt(last, ["x"])).toBe('{\n  "theme": "dark" /* after theme */\n}\n');
		expect(removeAt('{\n  "theme": "dark", // why\n  "x": 1\n}\n', ["x"])).toBe('{\n  "theme": "dark" // why\n}\n');
		expect(removeAt('{\n  "x": 1,\n  // about y\n  "y": 2\n}\n', ["x"])).toBe('{\n  // about y\n  "y": 2\n}\n');
		// Without comments, as before.
		expect(removeAt('{\n  "a": 1,\n  "x": 2\n}\n', ["x"])).toBe('{\n  "a": 1\n}\n');
		expect(removeAt('{\n  "x": 1,\n  "y": 2\n}\n', ["x"])).toBe('{\n  "y": 2\n}\n');
	});
});
