import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { classifyUserText, withoutInjected } from "../../../src/core/transcript/prompt-text";

/** What took the client's context out before: a regex from each opening tag to the text's end. */
const OLD = /<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>[\s\S]*?<\/\1>/g;

describe("the client's injected context", () => {
	it("is taken out as the regex took it, on any text of its tags", () => {
		const piece = fc.constantFrom("<system-reminder>", "</system-reminder>", "<ide_selection>", "</ide_selection>", "<ide_opened_file>", "</ide_diagnostics>", "<ide_diagnostics>", "x", "\n", "<", "</", ">");
		fc.assert(fc.property(fc.array(piece, { maxLength: 30 }).map((p) => p.join("")), (text) => withoutInjected(text) === text.replace(OLD, "")), { numRuns: 5000 });
	});

	it("is taken out in linear time from a prompt of a million characters of opening tags (the regex took a minute)", () => {
		const raw = `${"<ide_selection>".repeat(70_000)}<system-reminder>hi</system-reminder>\n</b> Fix the parser.`;
		const start = performance.now();
		const read = classifyUserText(raw);
		expect(performance.now() - start).toBeLessThan(5_000);
		expect(read.kind).toBe("prompt");
		expect(withoutInjected(raw)).toBe(`${"<ide_selection>".repeat(70_000)}\n</b> Fix the parser.`);
	});
});
