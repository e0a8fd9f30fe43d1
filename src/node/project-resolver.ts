import { realpathSync, statSync } from "node:fs";
import type { ResolvedFolder } from "../core/projects/project-identity";
import { canonicalGitRoot, findGitRoot } from "./claude-memory-dir";

/**
 * A folder's project on this machine, resolved the way Claude Code finds a project's memory
 * folder: the git root above it (a linked worktree's main checkout), symlinks resolved, else the
 * folder itself. Undefined when there is no such folder here (purged, or recorded elsewhere).
 */
export function resolveProjectFolder(folder: string): ResolvedFolder | undefined {
	let real: string;
	try {
		if (!statSync(folder).isDirectory()) return undefined;
		real = realpathSync(folder);
	} catch {
		return undefined;
	}
	const root = findGitRoot(real);
	return root === undefined ? { root: real, repository: false } : { root: canonicalGitRoot(root), repository: true };
}
