import { join } from "node:path";
import { hash53 } from "../core/transcript/hash";

/** Where the plugin keeps its files, for the plugin, the CLI and the hooks alike (kept light: a hook loads it). */
export const PLUGIN_ID = "ai-conversation-memory";

/** The lock that edits of the plugin's data.json take turns by (the CLI's `projects` and the plugin's settings), in the plugin's folder. */
export const DATA_JSON_LOCK = "data.json.lock";

/**
 * `<vault>/<configDir>/plugins/ai-conversation-memory`: settings and sync state, for plugin and CLI.
 * @param configDir the vault's configuration folder (Obsidian lets it be renamed): one folder
 * name inside the vault, never a path out of it (`../..` would put the state outside the vault).
 */
export function pluginFolder(vault: string, configDir = ".obsidian"): string {
	if (!isFolderName(configDir)) throw new Error(`--config-dir must be the name of a folder inside the vault (like .obsidian), not ${JSON.stringify(configDir)}`);
	return join(vault, configDir, "plugins", PLUGIN_ID);
}

function isFolderName(name: string): boolean {
	return name !== "" && name !== "." && name !== ".." && !/[\\/]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 0x20) && name.trim() === name;
}

/** `state/hooks/<hash>.json`: what a project's hooks print, prepared by each sync. */
export function hookContextPath(stateDir: string, projectPath: string): string {
	return join(stateDir, "hooks", `${hash53(projectPath).toString(36)}.json`);
}
