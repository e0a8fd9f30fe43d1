import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inertMentions } from "../../../src/core/context/inert-mentions";

/**
 * Mentions an agent would import: `@` at a line's start or after a blank, in code spans too
 * (Claude Code 2.1.332 scans a list item's raw text; Gemini CLI pairs backticks across the file).
 */
function liveMentions(text: string): string[] {
	return text.match(/(?:^|\s)@/gm) ?? [];
}

describe("inertMentions", () => {
	it.each([
		["- Asked: review @src/auth.ts and fix", "- Asked: review `@src/auth.ts` and fix"],
		["@.env first", "`@.env` first"],
		["look at @notes/plan.md.", "look at `@notes/plan.md`."],
		["(see @a.txt), then @b.txt!", "(see `@a.txt`), then `@b.txt`!"],
		// A text cut right after a mention: the cut's ellipsis is no part of the path.
		["- Goal: follow @docs/plan.md)…", "- Goal: follow `@docs/plan.md`)…"],
		["- Goal: follow @docs/very-long-na…", "- Goal: follow `@docs/very-long-na`…"],
		["already `@code.ts` here", "already `@code.ts` here"],
		["mail bob@example.com", "mail bob@example.com"],
		["an @ alone", "an \u2060@ alone"],
		// In code, a word joiner stands between the blank and the `@`: code spans stop neither client.
		["- Note: `2026-01-15 Review @.env and fix.md`", "- Note: `2026-01-15 Review \u2060@.env and fix.md`"],
		["then read ` @notes.txt ` please", "then read ` \u2060@notes.txt ` please"],
		["and look at \\` @todo.txt \\` after", "and look at \\` \u2060@todo.txt \\` after"],
		["a bare @.", "a bare `@.`"],
		// A stray backtick on the line: the span's delimiters are two, so they cannot pair with it.
		["a ` tick and @x.txt", "a ` tick and ``@x.txt``"],
		["no mention at all", "no mention at all"],
		// Beside a backtick, a space keeps the delimiters from making a longer run with it.
		["`code`@x.txt and @y.txt`", "`code` ``@x.txt`` and ``@y.txt`` `"],
	])("%s", (input, output) => {
		expect(inertMentions(input)).toBe(output);
	});

	it("leaves no mention an agent would import, and changes nothing but backticks, spaces and word joiners", () => {
		const unit = fc.constantFrom("@", "`", " ", "\n", "a", ".", "/", "(", "é", "x@y");
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
				const out = inertMentions(text);
				expect(liveMentions(out)).toEqual([]);
				expect(out.replace(/[` \u2060]/g, "")).toBe(text.replace(/[` ]/g, ""));
			}),
			{ numRuns: 5000 },
		);
	});
});
