import { describe, expect, it } from "vitest";
import { conflictCopyName, isConflictCopy, mergeFact, type FactMerge } from "../../../src/core/memory/merge-facts";

const B = "base text\n";
const V = "edited in the vault\n";
const C = "edited by Claude Code\n";

/** What each side holds after applying a merge: the result every path must end in. */
function apply(vault: string | null, claude: string | null, m: FactMerge): { vault: string | null; claude: string | null; copy?: string } {
	if (m.action === "none") return { vault, claude };
	if (m.action === "to-vault") return { vault: m.text, claude };
	if (m.action === "to-claude") return { vault, claude: m.text };
	return { vault: m.vaultText, claude: m.vaultText, copy: m.claudeText };
}

describe("mergeFact: every pair of (unchanged, edited, deleted, created) on the two sides", () => {
	const cases: [string, string | null, string | null, string | null, { vault: string | null; claude: string | null; copy?: string }][] = [
		["unchanged / unchanged", B, B, B, { vault: B, claude: B }],
		["unchanged / edited: Claude's edit wins", B, B, C, { vault: C, claude: C }],
		["edited / unchanged: the vault's edit wins", B, V, B, { vault: V, claude: V }],
		["unchanged / deleted: deleted on both", B, B, null, { vault: null, claude: null }],
		["deleted / unchanged: deleted on both", B, null, B, { vault: null, claude: null }],
		["edited / deleted: the edit is kept", B, V, null, { vault: V, claude: V }],
		["deleted / edited: the edit is kept", B, null, C, { vault: C, claude: C }],
		["deleted / deleted", B, null, null, { vault: null, claude: null }],
		["edited / edited alike: no conflict", B, V, V, { vault: V, claude: V }],
		["edited / edited differently: both kept", B, V, C, { vault: V, claude: V, copy: C }],
		["created in the vault", null, V, null, { vault: V, claude: V }],
		["created by Claude Code", null, null, C, { vault: C, claude: C }],
		["created alike on both", null, V, V, { vault: V, claude: V }],
		["created differently on both: both kept", null, V, C, { vault: V, claude: V, copy: C }],
	];
	it.each(cases)("%s", (_name, base, vault, claude, expected) => {
		const merge = mergeFact(base, vault, claude);
		const after = apply(vault, claude, merge);
		expect(after).toEqual(expected);
		// The new base is what both sides hold now, so the next sync sees nothing to do.
		const base2 = merge.action === "conflict" ? merge.base : merge.base;
		expect(base2).toBe(after.vault);
		expect(mergeFact(base2, after.vault, after.claude).action).toBe("none");
	});

	it("never loses a text that either side had changed", () => {
		for (const [, base, vault, claude] of cases) {
			const merge = mergeFact(base, vault, claude);
			const after = apply(vault, claude, merge);
			const kept = [after.vault, after.claude, after.copy];
			if (vault !== base && vault !== null) expect(kept).toContain(vault);
			if (claude !== base && claude !== null) expect(kept).toContain(claude);
		}
	});

	it("names conflict copies so that they are never synced as facts", () => {
		expect(conflictCopyName("feedback_testing.md")).toBe("feedback_testing.conflict-claude.md");
		expect(isConflictCopy(conflictCopyName("feedback_testing.md"))).toBe(true);
		expect(isConflictCopy("feedback_testing.md")).toBe(false);
	});
});
