import { isDirectory, notUtf8Hint } from "./absent-folder";
import { dirname, normalize } from "node:path";
import type { ProjectSettings } from "../core/settings";
import { resolveProjectFolder } from "./project-resolver";

/**
 * Whether a folder may be added as a project, as `ai-memory projects add` and the settings tab
 * both check it: an absolute path (normalized: `dir/.`, `dir//x` and a trailing slash are the
 * folder itself), a folder that is there, and no second project in a repository that is one
 * already (its worktrees and subfolders are that project: a second entry wrote a second block,
 * and Claude Code loads both). An entry of that very folder is fine: it is enabled again.
 * @returns the folder, and the root of the repository it is in (undefined outside one).
 */
export async function checkProjectToAdd(path: string, projects: readonly Pick<ProjectSettings, "path">[]): Promise<{ path: string; root: string | undefined } | { error: string }> {
	const folder = normalize(path).replace(/(.)[\\/]+$/, "$1");
	// Every session would be its session, and its CLAUDE.md every session's (`/`, `C:\`, a share's root).
	if (dirname(folder) === folder) return { error: `${named(folder)} is the file system's root, not a project: add a repository's folder` };
	if (!(await isDirectory(folder))) return { error: `no folder at ${named(folder)}${notUtf8Hint(folder)}` };
	const root = resolveProjectFolder(folder)?.root;
	if (projects.some((p) => p.path === folder)) return { path: folder, root };
	const same = projects.find((p) => resolveProjectFolder(p.path)?.root === root);
	if (same) return { error: `${named(folder)} is in the same repository as ${named(same.path)}, which is a project already: its sessions go there` };
	return { path: folder, root };
}

/** Longer than this, a path is shown by its start and its end: a pasted 10,000-character line filled the settings tab. */
const SHOWN_PATH_MAX = 240;

function named(path: string): string {
	return path.length <= SHOWN_PATH_MAX ? path : `${path.slice(0, SHOWN_PATH_MAX / 2)}…${path.slice(-SHOWN_PATH_MAX / 2)}`;
}
