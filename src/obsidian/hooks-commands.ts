import { Notice } from "obsidian";
import { join } from "node:path";
import { writeFileReplacing } from "../node/atomic-write";
import { isCarriedScript, writeCarriedScript, type CarriedScript } from "../node/carried-script";
import { findNode } from "../node/find-node";
import { installClaudeHooks, uninstallClaudeHooks } from "../node/hook-install";
import { SQLITE_WASM_FILE } from "../node/sqlite-wasm-file";
import { claudeUserConfigPath, installMcpServer, mcpEntry, uninstallMcpServer } from "../node/mcp-install";

/** The CLI and its hook script, built into main.js at release time, so that hooks need no npm install. */
declare const AI_MEMORY_CLI_SOURCE: CarriedScript | undefined;
declare const AI_MEMORY_HOOK_SOURCE: CarriedScript | undefined;
/** The MCP server (`ai-memory mcp`), carried the same way. */
declare const AI_MEMORY_MCP_SOURCE: CarriedScript | undefined;
/** re2js, which the three scripts require from beside them (the user's own redaction patterns; see esbuild.config.mjs). */
declare const AI_MEMORY_RE2_SOURCE: string | undefined;
const RE2_FILE = "re2js.cjs";

export interface HooksPlace {
	/** Claude Code's config folder. */
	claudeDir: string;
	vault: string;
	/** The vault's configuration folder (`.obsidian` unless changed). */
	configDir: string;
	/** The plugin's folder on disk. */
	pluginDir: string;
}

/**
 * "Install Claude Code hooks": writes the CLI beside the plugin (`ai-memory.cjs`, with its hook
 * and MCP server scripts), adds our hooks to Claude Code's settings.json and our MCP server to its
 * user configuration, run by this machine's Node.js. They work while Obsidian is closed.
 */
export async function installHooksFromPlugin(place: HooksPlace): Promise<void> {
	const source = typeof AI_MEMORY_CLI_SOURCE === "object" && isCarriedScript(AI_MEMORY_CLI_SOURCE) ? AI_MEMORY_CLI_SOURCE : undefined;
	if (source === undefined) {
		new Notice("This build of the plugin carries no command-line tool; install the hooks with `ai-memory hooks install`.");
		return;
	}
	const node = await findNode();
	if (node === undefined) {
		new Notice("The hooks need Node.js 18 or later on this machine, and none was found. Install Node.js, then run this command again.", 15_000);
		return;
	}
	try {
		const cliPath = join(place.pluginDir, "ai-memory.cjs");
		await writeCarriedScript(cliPath, source);
		// The CLI reads SQLite's WebAssembly (for opencode's database) from a file beside it.
		const { sqliteWasm } = await import("../node/sqlite-wasm");
		await writeFileReplacing(join(place.pluginDir, SQLITE_WASM_FILE), sqliteWasm);
		if (typeof AI_MEMORY_RE2_SOURCE === "string") await writeFileReplacing(join(place.pluginDir, RE2_FILE), AI_MEMORY_RE2_SOURCE);
		// The hook code alone starts faster; the hooks run it on every prompt.
		const hook = typeof AI_MEMORY_HOOK_SOURCE === "object" && isCarriedScript(AI_MEMORY_HOOK_SOURCE) ? AI_MEMORY_HOOK_SOURCE : undefined;
		const hookPath = hook === undefined ? undefined : join(place.pluginDir, "ai-memory-hook.cjs");
		if (hookPath !== undefined && hook !== undefined) await writeCarriedScript(hookPath, hook);
		const result = await installClaudeHooks({ claudeDir: place.claudeDir, vault: place.vault, configDir: place.configDir, cliPath, hookPath, execPath: node });
		// The recall tools the facade names: the server script beside the CLI, in Claude Code's user configuration.
		const server = typeof AI_MEMORY_MCP_SOURCE === "object" && isCarriedScript(AI_MEMORY_MCP_SOURCE) ? AI_MEMORY_MCP_SOURCE : undefined;
		let tools = "";
		if (server !== undefined) {
			const serverPath = join(place.pluginDir, "ai-memory-mcp.cjs");
			await writeCarriedScript(serverPath, server);
			const mcp = await installMcpServer("claude-code", claudeUserConfigPath(place.claudeDir), mcpEntry({ execPath: node, serverPath, vault: place.vault, configDir: place.configDir }));
			if (mcp.changed) tools = ` The recall tools are in ${mcp.configPath}.`;
		}
		const kept = result.created ? " (a new file: there was none)" : result.backupWritten ? ` (your file as it was: ${result.backupWritten})` : "";
		new Notice(result.changed ? `Claude Code hooks installed in ${result.settingsPath}${kept}.${tools}` : `The Claude Code hooks were installed already.${tools}`);
	} catch (error) {
		new Notice(`The hooks were not installed: ${error instanceof Error ? error.message : String(error)}`, 15_000);
	}
}

/** "Remove Claude Code hooks": ours only; the user's settings.json as it was when nothing else changed. */
export async function removeHooksFromPlugin(place: HooksPlace): Promise<void> {
	try {
		const result = await uninstallClaudeHooks(place.claudeDir);
		const mcp = await uninstallMcpServer("claude-code", claudeUserConfigPath(place.claudeDir));
		const tools = mcp.changed ? ` The recall tools are removed from ${mcp.configPath}.` : "";
		new Notice(result.changed ? `Claude Code hooks removed from ${result.settingsPath}.${tools}` : `No hooks of this plugin were installed.${tools}`);
	} catch (error) {
		new Notice(`The hooks were not removed: ${error instanceof Error ? error.message : String(error)}`, 15_000);
	}
}
