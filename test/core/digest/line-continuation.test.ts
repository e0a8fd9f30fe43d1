import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { composeSpans, continuedLines, joinContinued, minimalSpan, type Span } from "../../../src/core/digest/line-continuation";

/** `text` with `spans` (sorted, apart) replaced. */
function apply(text: string, spans: readonly Span[]): string {
	let out = "";
	let last = 0;
	for (const s of spans) {
		out += text.slice(last, s.start) + s.replacement;
		last = s.end;
	}
	return out + text.slice(last);
}

/** Sorted spans apart from each other in a text of `length`, from pairs of cut points. */
const spansIn = (length: number) =>
	fc.array(fc.tuple(fc.nat(length), fc.nat(length), fc.string({ maxLength: 6 })), { maxLength: 5 }).map((picks) => {
		const spans: Span[] = [];
		let from = 0;
		for (const [a, b, replacement] of [...picks].sort((x, y) => Math.min(x[0], x[1]) - Math.min(y[0], y[1]))) {
			const start = Math.min(a, b);
			const end = Math.max(a, b);
			if (start < from) continue;
			spans.push({ start, end, replacement });
			from = end + 1;
		}
		return spans;
	});

describe("continuedLines and joinContinued", () => {
	it("finds the lines a `\\` joins, not one escaped, CRLF too, and joins them as long as they were", () => {
		const text = "a\ncurl -X POST \\\n  -H x \\\r\n  https://h\nb \\\\\nc";
		const parts = continuedLines(text);
		expect(parts.map((p) => text.slice(p.start, p.end))).toEqual(["curl -X POST \\\n  -H x \\\r\n  https://h"]);
		const joined = joinContinued(text, parts[0]!);
		expect(joined).toBe("curl -X POST     -H x      https://h");
		expect(joined.length).toBe(parts[0]!.end - parts[0]!.start);
		expect(continuedLines("no continuation\\n here \\\\\n")).toEqual([]);
	});

	it("finds the lines PowerShell's backtick and cmd's caret join: a backtick after a blank, a caret not escaped", () => {
		const text = "$env:API_KEY = `\r\n  'x'\nset A=^\nB\nrun `code`\n```\n  `\necho ^^\nz";
		const parts = continuedLines(text);
		expect(parts.map((p) => text.slice(p.start, p.end))).toEqual(["$env:API_KEY = `\r\n  'x'\nset A=^\nB"]);
		expect(joinContinued(text, parts[0]!)).toBe("$env:API_KEY =      'x'\nset A=  B");
		// A `\` and a caret in one part: each is joined, a `^^` kept.
		const mixed = "a \\\nb ^\nc ^^\nd";
		expect(joinContinued(mixed, continuedLines(mixed)[0]!)).toBe("a   b   c ^^");
	});

	it("makes one part of parts close together", () => {
		const text = "x \\\ny\n".repeat(1000);
		expect(continuedLines(text)).toHaveLength(1);
	});
});

describe("composeSpans", () => {
	it("gives, applied once, what two rounds of edits give applied in turn", () => {
		fc.assert(
			fc.property(
				fc.string({ maxLength: 40 }).chain((text) => fc.tuple(fc.constant(text), spansIn(text.length))),
				fc.nat(),
				([text, first], seed) => {
					const made = apply(text, first);
					const second = fc.sample(spansIn(made.length), { numRuns: 1, seed })[0]!;
					expect(apply(text, composeSpans(first, second, made))).toBe(apply(made, second));
				},
			),
		);
	});

	it("keeps of an edit only what its replacement changes", () => {
		expect(minimalSpan("KEY=  abc\n", 0, 9, "KEY=  [redacted:secret]")).toEqual({ start: 6, end: 9, replacement: "[redacted:secret]" });
	});
});
