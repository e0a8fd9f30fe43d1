import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { linkedFiles, updateMemoryIndex } from "../../../src/core/memory/memory-index";

/** What the index looked for before, a regex from each `](` to the text's end. */
const OLD = /\]\(<?([^)>]+?\.md)>?\)/g;

describe("MEMORY.md's links", () => {
	it("are the targets the regex found, on any text of links' characters", () => {
		const piece = fc.constantFrom("](", ")", ">", "<", ".md", "a", " ", "\n", "]", "(", "m", ".");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join("")), (text) => {
				expect(linkedFiles(text)).toEqual([...text.matchAll(OLD)].map((m) => m[1]));
			}),
			{ numRuns: 3000 },
		);
		expect(linkedFiles("- [A](a.md) [B](<b c.md>) [C](<.md) [D](d.mdx) [E](](e.md)")).toEqual(["a.md", "b c.md", "<.md", "](e.md"]);
	});

	it("are found in linear time in 400,000 characters of `](]` the model wrote (the regex took 12 s), and the fact still listed", () => {
		const hostile = `# Memory\n- [Tests](feedback_tests.md) — mine\n${"](]".repeat(133_000)}\n`;
		const start = performance.now();
		const result = updateMemoryIndex(hostile, [{ file: "feedback_tests.md", name: "tests", description: "Run tests" }, { file: "pnpm.md", name: "pnpm", description: "Use pnpm" }]);
		expect(performance.now() - start).toBeLessThan(5_000);
		if (!result.ok) throw new Error(result.reason);
		// No room left in the file's load limit: the one fact it does not link is counted.
		expect(result.text).toContain("…and 1 more fact");
	});
});

describe("MEMORY.md with its markers quoted in a code block (attack round 48b)", () => {
	const facts = [{ file: "a.md", name: "a", description: "Fact a" }, { file: "b.md", name: "b", description: "Fact b" }];
	const block = (body: string) => `<!-- AI-MEMORY:BEGIN -->\n${body}<!-- AI-MEMORY:END -->\n`;
	const list = "- [A](a.md) — Fact a\n- [B](b.md) — Fact b\n";

	it("takes the region the upsert replaces, not the quote, and so writes the index once", () => {
		const quoted = `\`\`\`\n${block("- [Old](old.md) — quoted\n")}\`\`\`\n\n${block(list)}`;
		// The quoted markers were taken for the region: the region's own links counted as the person's, and it was emptied, then refilled, every sync.
		expect(updateMemoryIndex(quoted, facts)).toEqual({ ok: true, text: quoted, changed: false });
	});

	it("comes to rest from a quote of the whole index: the next sync changes nothing", () => {
		let text = `\`\`\`\n${block(list)}\`\`\`\n`;
		const seen: string[] = [];
		for (let i = 0; i < 4; i++) {
			const r = updateMemoryIndex(text, facts);
			if (!r.ok) throw new Error(r.reason);
			seen.push(r.text);
			text = r.text;
		}
		expect(new Set(seen.slice(1)).size).toBe(1);
		expect(seen[0]).toContain("```\n<!-- AI-MEMORY:BEGIN -->\n- [A](a.md)");
	});
});
