import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inertFact, liveFact } from "../../../src/core/memory/inert-fact";

describe("inertFact and liveFact: a fact the model wrote, in the vault and back", () => {
	it("breaks each construct that would run, and nothing else", () => {
		expect(inertFact("```dataviewjs\nx\n```")).toBe("```\u200bdataviewjs\nx\n```");
		expect(inertFact("- > ~~~ button")).toBe("- > ~~~ \u200bbutton");
		expect(inertFact("`$= dv.x` and `` $= y ``")).toBe("`\u200b$= dv.x` and `` \u200b$= y ``");
		expect(inertFact("<% x %> <IFRAME src=y> </script> ![a](b) ![[c]]")).toBe("<\u200b% x %> <\u200bIFRAME src=y> <\u200b/script> !\u200b[a](b) ![[c]]");
		for (const text of ["```js\nconst a = b < c;\n```", "a <div> and <b>", "`= this.file`", "```dataviewjsx"]) expect(inertFact(text)).toBe(text);
	});

	it("goes back byte for byte, and is idempotent (property)", () => {
		const piece = fc.constantFrom("```dataviewjs\n", "> ~~~button\n", "`$= a`", "<%", "<iframe", "</img>", "![x](y)", "![[n]]", "text ", "\n", "`", "<", "!", "[", "$=");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
				const text = pieces.join("");
				const inert = inertFact(text);
				expect(liveFact(inert)).toBe(text);
				expect(inertFact(inert)).toBe(inert);
			}),
		);
	});
});

describe("inertFact and liveFact on hostile text", () => {
	it("stay linear: 100,000 list markers before a fence, a run of 100,000 backticks with or without spaces after", () => {
		const texts = [`${"- ".repeat(100_000)}\`\`\``, `${"`".repeat(100_000)}x`, `${"`".repeat(100_000)}${" ".repeat(100_000)}x`, `${"> ".repeat(50_000)}~~~button`];
		const started = Date.now();
		for (const text of texts) expect(liveFact(inertFact(text))).toBe(text);
		// No timing can be exact; before, the first took minutes (each marker doubled it) and the second 12 s.
		expect(Date.now() - started).toBeLessThan(5_000);
	});
});

