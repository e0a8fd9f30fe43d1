import { stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
import { envFolder } from "./env-folder";

/**
 * Claude Code's config folder: `$CLAUDE_CONFIG_DIR` when set (the first entry of a comma list,
 * as some tools accept; a leading `~` is the home folder), else `~/.claude`.
 */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
	return envFolder(env.CLAUDE_CONFIG_DIR?.split(",")[0], home) ?? join(home, ".claude");
}

/**
 * This device's Claude Code folder: the one its settings name (a leading `~` the home folder, as
 * the settings tab's own placeholder writes it), else `claudeConfigDir`.
 */
export function deviceClaudeDir(settings: { claudeDir?: string }, env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
	return envFolder(settings.claudeDir, home) ?? claudeConfigDir(env, home);
}

export function claudeProjectsDir(configDir: string): string {
	return join(configDir, "projects");
}

/** What is wrong with a Claude Code folder for reading transcripts, or undefined when it is fine. */
export async function checkClaudeDir(dir: string): Promise<string | undefined> {
	const isDir = (p: string) => stat(p).then((s) => s.isDirectory(), () => false);
	if (!(await isDir(dir))) return `${dir} does not exist.`;
	if (!(await isDir(claudeProjectsDir(dir)))) return `${dir} has no projects folder: is it Claude Code's folder?`;
	return undefined;
}

/**
 * Why `dir` cannot be Claude Code's folder, whatever it holds, or undefined: a path that is not
 * whole (a relative `CLAUDE_CONFIG_DIR` names another folder from wherever a command runs: `hooks
 * install` made `./rel/settings.json` there), or Claude Code's transcripts folder given for it
 * (`--claude-dir ~/.claude/projects`, a common slip: the sync read `projects/projects`, found
 * nothing and said "nothing to sync", and `hooks install` wrote a `settings.json` Claude Code never
 * reads). A folder Claude Code has used as its own holds `projects/`: that one is never refused.
 */
export async function claudeDirSlip(dir: string): Promise<string | undefined> {
	if (!isAbsolute(dir)) return `Claude Code's folder ${dir} is not a whole path (read from wherever a command runs, it names another folder each time)`;
	const isDir = (p: string) => stat(p).then((s) => s.isDirectory(), () => false);
	if (basename(dir) === "projects" && (await isDir(dir)) && !(await isDir(claudeProjectsDir(dir)))) return `${dir} is Claude Code's transcripts folder, not Claude Code's own folder: give the folder that holds it, ${dirname(dir)}`;
	return undefined;
}
