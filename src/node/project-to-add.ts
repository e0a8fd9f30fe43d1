import { stat } from "node:fs/promises";
import { normalize } from "node:path";
import type { ProjectSettings } from "../core/settings";
import { resolveProjectFolder } from "./project-resolver";

/**
 * Whether a folder may be added as a project, as `ai-memory projects add` and the settings tab
 * both check it: an absolute path (normalized: `dir/.`, `dir//x` and a trailing slash are the
 * folder itself), a folder that is there, and no second project in a repository that is one
 * already (its worktrees and subfolders are that project: a second entry wrote a second block,
 * and Claude Code loads both). An entry of that very folder is fine: it is enabled again.
 */
export async function checkProjectToAdd(path: string, projects: readonly Pick<ProjectSettings, "path">[]): Promise<{ path: string } | { error: string }> {
	const folder = normalize(path).replace(/(.)[\\/]+$/, "$1");
	if (!(await stat(folder).then((s) => s.isDirectory(), () => false))) return { error: `no folder at ${folder}` };
	if (projects.some((p) => p.path === folder)) return { path: folder };
	const here = resolveProjectFolder(folder)?.root;
	const same = projects.find((p) => resolveProjectFolder(p.path)?.root === here);
	if (same) return { error: `${folder} is in the same repository as ${same.path}, which is a project already: its sessions go there` };
	return { path: folder };
}
