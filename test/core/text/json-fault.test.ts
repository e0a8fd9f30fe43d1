import { describe, expect, it } from "vitest";
import { jsonFault } from "../../../src/core/text/json-fault";

/** What JSON.parse throws for `text`. */
function thrown(text: string): unknown {
	try {
		JSON.parse(text);
	} catch (error) {
		return error;
	}
	throw new Error("parsed");
}

describe("jsonFault", () => {
	// A redaction pattern is the secret word itself: V8 quotes the text around the fault.
	const SECRET = "Qv9TopSecretWord8Hz";
	it.each([
		[`{"redaction":{"extraPatterns":["${SECRET}", ]}}`, 1, 55],
		[`{"redaction":{"extraPatterns":[${SECRET}]}}`, 1, 32],
		[`{"a":"${SECRET}"}}`, 1, 28],
		[`{\n  "a": ["${SECRET}"],\n  "b": undefined\n}`, 3, 8],
	])("says where %j breaks, quoting none of it", (text, line, column) => {
		const error = thrown(text);
		const fault = jsonFault(text, error);
		for (let i = 0; i + 5 <= SECRET.length; i++) expect(fault).not.toContain(SECRET.slice(i, i + 5));
		expect(fault).toContain(`at line ${line}, column ${column}`);
	});

	it("keeps a message that quotes nothing, without V8's position when it gives the line", () => {
		expect(jsonFault("{", thrown("{"))).toBe("Expected property name or '}' in JSON at line 1, column 2");
		// Not JSON.parse's (a key given twice is refused after it parsed): the message as it is.
		expect(jsonFault('{"a":1,"a":2}', new Error('"a" is given twice'))).toBe('"a" is given twice');
	});
});
