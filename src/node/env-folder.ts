import { join } from "node:path";

/**
 * The folder an agent's environment variable names (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`…), or one
 * the settings name (the settings tab's placeholders write them `~/.claude`), or undefined when it
 * is unset or blank. A leading `~` is the home folder: a `.env` file, a systemd
 * unit or a Dockerfile leaves `~/.claude` unexpanded, and taken as written it was a folder `~`
 * inside the current one (`hooks install` created `./~/.claude/settings.json` there). Claude Code's
 * maintainers take the same reading of it (anthropics/claude-code#78988).
 */
export function envFolder(value: string | undefined, home: string): string | undefined {
	const trimmed = value?.trim();
	if (!trimmed) return undefined;
	if (trimmed === "~") return home;
	if (trimmed.startsWith("~/") || trimmed.startsWith("~\\")) return join(home, trimmed.slice(2));
	return trimmed;
}
