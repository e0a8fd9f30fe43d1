import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFact } from "../../../src/core/memory/fact-file";
import { withFlatProperties, withoutFlatProperties } from "../../../src/core/memory/fact-properties";
import { readFrontmatter } from "../../../src/core/notes/frontmatter";

const CLAUDE = "---\nname: use-pnpm\ndescription: Use pnpm\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: 8d6f4a65\n  modified: 2026-11-30T00:47:29.136Z\n---\n\nUse pnpm.\n";

describe("a fact's metadata, flat too in the vault (Obsidian's Properties view shows no nested object)", () => {
	it("adds flat type and modified after the metadata block, every other byte kept, and takes them away again", () => {
		const vault = withFlatProperties(CLAUDE);
		expect(vault).toBe(CLAUDE.replace("modified: 2026-11-30T00:47:29.136Z\n---", "modified: 2026-11-30T00:47:29.136Z\ntype: feedback\nmodified: 2026-11-30T00:47:29.136Z\n---"));
		expect(readFrontmatter(vault)?.data).toMatchObject({ type: "feedback", metadata: { type: "feedback" } });
		expect(withFlatProperties(vault)).toBe(vault);
		expect(withoutFlatProperties(vault)).toBe(CLAUDE);
		expect(withoutFlatProperties(CLAUDE)).toBe(CLAUDE);
	});

	it("every fact file the real client wrote goes there and back byte for byte; CRLF too", () => {
		const dir = join(__dirname, "..", "..", "fixtures", "claude-memory");
		for (const name of readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "MEMORY.md" && f !== "README.md")) {
			const text = readFileSync(join(dir, name), "utf8");
			expect(withoutFlatProperties(withFlatProperties(text)), name).toBe(text);
			expect(readFact(name, withFlatProperties(text)), name).toEqual(readFact(name, text));
		}
		const crlf = CLAUDE.replace(/\n/g, "\r\n");
		expect(withFlatProperties(crlf)).toContain("\r\ntype: feedback\r\nmodified: 2026-11-30T00:47:29.136Z\r\n---\r\n");
		expect(withoutFlatProperties(withFlatProperties(crlf))).toBe(crlf);
	});

	it("a flat value changed in Obsidian wins: it goes under metadata, in its place", () => {
		const edited = withFlatProperties(CLAUDE).replace("\ntype: feedback\n", "\ntype: project\n");
		expect(readFact("use-pnpm.md", edited).type).toBe("project");
		expect(withoutFlatProperties(edited)).toBe(CLAUDE.replace("  type: feedback", "  type: project"));
		// Obsidian's Properties view may write the flat key first, above metadata.
		const reordered = "---\nname: a\ntype: user\nmetadata:\n  type: project\n---\nBody\n";
		expect(withoutFlatProperties(reordered)).toBe("---\nname: a\nmetadata:\n  type: user\n---\nBody\n");
		// A flat key metadata lacks moves in.
		expect(withoutFlatProperties("---\nname: a\nmetadata:\n  type: user\nmodified: 2026-01-01\n---\n")).toBe("---\nname: a\nmetadata:\n  type: user\n  modified: 2026-01-01\n---\n");
	});

	it("leaves alone what is not Claude Code's nested form: the older top-level type, no frontmatter, a nested type", () => {
		for (const text of ["---\nname: a\ntype: user\n---\nBody\n", "no frontmatter\n", "---\nname: a\nmetadata:\n  type:\n    - user\n---\n", "---\nmetadata: {type: user}\n---\n"]) {
			expect(withFlatProperties(text)).toBe(text);
			expect(withoutFlatProperties(text)).toBe(text);
		}
	});
});
