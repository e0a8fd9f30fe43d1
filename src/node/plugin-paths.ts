import { join } from "node:path";
import { hash53 } from "../core/transcript/hash";

/** Where the plugin keeps its files, for the plugin, the CLI and the hooks alike (kept light: a hook loads it). */
export const PLUGIN_ID = "ai-conversation-memory";

/** `<vault>/<configDir>/plugins/ai-conversation-memory`: settings and sync state, for plugin and CLI. */
export function pluginFolder(vault: string, configDir = ".obsidian"): string {
	return join(vault, configDir, "plugins", PLUGIN_ID);
}

/** `state/hooks/<hash>.json`: what a project's hooks print, prepared by each sync. */
export function hookContextPath(stateDir: string, projectPath: string): string {
	return join(stateDir, "hooks", `${hash53(projectPath).toString(36)}.json`);
}
