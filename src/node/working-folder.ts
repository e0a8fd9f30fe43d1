import { isAbsolute } from "node:path";

/**
 * The folder this process runs in: `process.cwd()`, which throws `ENOENT … uv_cwd` once that folder
 * is removed (a worktree removed, a temporary checkout cleaned up while an agent ran in it), then
 * the folder the shell recorded (`$PWD`, still its path), else undefined: no folder at all.
 */
export function workingFolder(env: NodeJS.ProcessEnv = process.env, cwd: () => string = () => process.cwd()): string | undefined {
	try {
		return cwd();
	} catch {
		const recorded = env.PWD;
		return recorded !== undefined && isAbsolute(recorded) ? recorded : undefined;
	}
}
