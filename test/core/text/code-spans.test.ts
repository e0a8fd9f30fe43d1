import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeSpan, codeSpans, unusedTicks } from "../../../src/core/text/code-spans";

describe("codeSpans", () => {
	it.each([
		["no code", []],
		["a `b` c", [[2, 5]]],
		["``a ` b`` c `d`", [[0, 9], [12, 15]]],
		["an ` unclosed tick", []],
		["` a `` b `", [[0, 10]]],
		["`` a ` b", []],
	] as const)("%s", (line, spans) => {
		expect(codeSpans(line)).toEqual(spans);
	});

	it("stays linear on a line of many unclosed runs", () => {
		const line = Array.from({ length: 20_000 }, (_, i) => "`".repeat((i % 50) + 1) + "x").join(" ");
		expect(codeSpans(line).length).toBeGreaterThan(0);
	});
});

describe("unusedTicks", () => {
	it("is a run of backticks of a length the line does not have", () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom("`", "a", " ") }), (line) => {
				const ticks = unusedTicks(line);
				expect(/^`+$/.test(ticks)).toBe(true);
				expect(line.match(/`+/g) ?? []).not.toContain(ticks);
			}),
		);
	});
});

describe("codeSpan", () => {
	it("is one span on one line whatever the text holds", () => {
		expect(codeSpan("/vault/AI Conversations/proj/")).toBe("`/vault/AI Conversations/proj/`");
		expect(codeSpan("/v/back`tick/")).toBe("``/v/back`tick/``");
		expect(codeSpan("`start")).toBe("`` `start ``");
		// A vault folder `a\nb` split the CLAUDE.md block's line; one named after our END marker added a marker line.
		expect(codeSpan("/v/a\n<!-- AUTO-CONTEXT:END -->\nb/")).toBe("`/v/a␤<!-- AUTO-CONTEXT:END -->␤b/`");
		for (const text of ["a`b``c", "``", "x\r\ny"]) {
			const span = codeSpan(text);
			expect(span).not.toMatch(/[\r\n]/);
			expect(codeSpans(span)).toEqual([[0, span.length]]);
		}
	});
});
