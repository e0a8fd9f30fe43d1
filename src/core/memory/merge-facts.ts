/**
 * Three-way merge of one fact file between the vault and Claude Code's memory folder, against the
 * text both had after the last sync (`base`; null: the file did not exist then). Texts are whole
 * files; null means missing. Nothing is lost on any path:
 * - a change on one side wins;
 * - the same change on both sides is no conflict;
 * - a deletion of an unchanged fact deletes it on the other side;
 * - a deletion against an edit keeps the edit;
 * - different changes on both sides keep both: the vault's text stays the fact (it goes to Claude
 *   Code too), Claude Code's becomes a conflict copy next to it in the vault, and the caller tells
 *   the person.
 */
export type FactMerge =
	| { action: "none"; base: string | null }
	| { action: "to-vault"; text: string | null; base: string | null }
	| { action: "to-claude"; text: string | null; base: string | null }
	| { action: "conflict"; vaultText: string; claudeText: string; base: string };

export function mergeFact(base: string | null, vault: string | null, claude: string | null): FactMerge {
	if (vault === claude) return { action: "none", base: vault };
	const vaultChanged = vault !== base;
	const claudeChanged = claude !== base;
	if (!vaultChanged) return { action: "to-vault", text: claude, base: claude };
	if (!claudeChanged) return { action: "to-claude", text: vault, base: vault };
	// Both changed, differently.
	if (vault === null) return { action: "to-vault", text: claude, base: claude };
	if (claude === null) return { action: "to-claude", text: vault, base: vault };
	return { action: "conflict", vaultText: vault, claudeText: claude, base: vault };
}

/**
 * The conflict copy of `file`, beside it: `name.md` → `name.conflict-claude.md` (never synced); the
 * `n`th when earlier ones are there still (`name.conflict-claude 2.md`): a copy is never replaced.
 */
export function conflictCopyName(file: string, n = 1): string {
	return file.replace(/(\.md)?$/i, n > 1 ? `.conflict-claude ${n}.md` : ".conflict-claude.md");
}

export function isConflictCopy(file: string): boolean {
	return /\.conflict-claude(?: \d+)?\.md$/i.test(file);
}
