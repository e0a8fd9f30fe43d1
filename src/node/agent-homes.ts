import { homedir } from "node:os";
import { join } from "node:path";
import type { Settings } from "../core/settings";
import { envFolder } from "./env-folder";
import type { AgentRoots } from "./transcript-source";

/**
 * Where a sync reads each agent this device has turned on: the folder set in the settings, else
 * the agent's own environment variable, else its default (`$CODEX_HOME` or `~/.codex`;
 * `$GEMINI_CLI_HOME/.gemini` or `~/.gemini`; `$COPILOT_HOME` or `~/.copilot`; opencode's data folder,
 * `$XDG_DATA_HOME/opencode` or `~/.local/share/opencode`, on every system as opencode itself has it).
 * A folder that does not exist simply gives nothing.
 * Aider keeps its history in the repository: the enabled projects' folders are where it is read.
 * @param claudeProjects Claude Code's `projects/` folder, found as before (`--claude-dir`, the settings, `$CLAUDE_CONFIG_DIR`).
 */
export function agentRoots(settings: Pick<Settings, "agents" | "agentDirs"> & Partial<Pick<Settings, "projects">>, claudeProjects: string, env: NodeJS.ProcessEnv = process.env, home: string = homedir()): AgentRoots {
	const on = new Set(settings.agents);
	const roots: AgentRoots = {};
	if (on.has("claude-code")) roots["claude-code"] = claudeProjects;
	// A folder the settings name may start with `~`, as the settings tab's placeholders show them.
	const own = (agent: keyof NonNullable<Settings["agentDirs"]>) => envFolder(settings.agentDirs?.[agent], home);
	if (on.has("codex")) roots.codex = own("codex") ?? (envFolder(env.CODEX_HOME, home) ?? join(home, ".codex"));
	if (on.has("gemini-cli")) roots["gemini-cli"] = own("gemini-cli") ?? join(envFolder(env.GEMINI_CLI_HOME, home) ?? home, ".gemini");
	if (on.has("copilot-cli")) roots["copilot-cli"] = own("copilot-cli") ?? (envFolder(env.COPILOT_HOME, home) ?? join(home, ".copilot"));
	if (on.has("opencode")) roots.opencode = own("opencode") ?? join(envFolder(env.XDG_DATA_HOME, home) ?? join(home, ".local", "share"), "opencode");
	if (on.has("aider")) roots.aider = (settings.projects ?? []).filter((p) => p.enabled).map((p) => p.path);
	return roots;
}
