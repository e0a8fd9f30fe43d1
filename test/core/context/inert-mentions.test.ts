import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inertMentions } from "../../../src/core/context/inert-mentions";
import { outsideCodeSpans } from "../../../src/core/text/code-spans";

/** Mentions an agent would import: `@` and a path at the line's start or after a space, outside code spans (a path starts with no backtick). */
function liveMentions(text: string): string[] {
	return text.split("\n").flatMap((line) => outsideCodeSpans(line).match(/(?:^|\s)@[^\s`]+/g) ?? []);
}

describe("inertMentions", () => {
	it.each([
		["- Asked: review @src/auth.ts and fix", "- Asked: review `@src/auth.ts` and fix"],
		["@.env first", "`@.env` first"],
		["look at @notes/plan.md.", "look at `@notes/plan.md`."],
		["(see @a.txt), then @b.txt!", "(see `@a.txt`), then `@b.txt`!"],
		["already `@code.ts` here", "already `@code.ts` here"],
		["mail bob@example.com", "mail bob@example.com"],
		["an @ alone", "an @ alone"],
		["a bare @.", "a bare `@.`"],
		// A stray backtick on the line: the span's delimiters are two, so they cannot pair with it.
		["a ` tick and @x.txt", "a ` tick and ``@x.txt``"],
		["no mention at all", "no mention at all"],
		// Beside a backtick, a space keeps the delimiters from making a longer run with it.
		["`code`@x.txt and @y.txt`", "`code` ``@x.txt`` and ``@y.txt`` `"],
	])("%s", (input, output) => {
		expect(inertMentions(input)).toBe(output);
	});

	it("leaves no mention an agent would import, and changes nothing but backticks and spaces", () => {
		const unit = fc.constantFrom("@", "`", " ", "\n", "a", ".", "/", "(", "é", "x@y");
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
				const out = inertMentions(text);
				expect(liveMentions(out)).toEqual([]);
				expect(out.replace(/[` ]/g, "")).toBe(text.replace(/[` ]/g, ""));
			}),
			{ numRuns: 5000 },
		);
	});
});
