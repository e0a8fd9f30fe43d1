import { realpathSync, statSync } from "node:fs";
import type { ResolvedFolder } from "../core/projects/project-identity";
import { canonicalGitRoot, findGitRoot } from "./claude-memory-dir";

/**
 * A folder's project on this machine, resolved the way Claude Code finds a project's memory
 * folder: the git root above it (a linked worktree's main checkout), symlinks resolved, else the
 * folder itself. Undefined when there is no such folder here (purged, or recorded elsewhere).
 */
export function resolveProjectFolder(folder: string): ResolvedFolder | undefined {
	const real = realFolder(folder);
	if (real === undefined) return undefined;
	const root = findGitRoot(real);
	return root === undefined ? { root: real, repository: false } : { root: canonicalGitRoot(root), repository: true };
}

/**
 * The folder as the disk spells it. A name with accents may be recorded composed or decomposed
 * (macOS hands out either; a transcript copied from there keeps its spelling), and a file system
 * that keeps names as bytes finds only the one it holds: the other spelling is tried before the
 * folder counts as gone, so `Café` is one project, not two.
 */
function realFolder(folder: string): string | undefined {
	for (const spelling of new Set([folder, folder.normalize("NFC"), folder.normalize("NFD")])) {
		try {
			// No error made for nothing there: every enabled project is resolved at each sync, and many may be gone.
			if (statSync(spelling, { throwIfNoEntry: false })?.isDirectory()) return realpathSync(spelling);
		} catch {
			// Not there in this spelling.
		}
	}
	return undefined;
}
