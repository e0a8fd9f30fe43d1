import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Claude Code's config folder: `$CLAUDE_CONFIG_DIR` when set (the first entry of a comma list,
 * as some tools accept), else `~/.claude`.
 */
export function claudeConfigDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
	const configured = env.CLAUDE_CONFIG_DIR?.split(",")[0]?.trim();
	return configured ? configured : join(home, ".claude");
}

export function claudeProjectsDir(configDir: string): string {
	return join(configDir, "projects");
}
