import { resolve } from "node:path";
import { HOOK_EVENTS } from "../core/hooks/hook-settings";
import { claudeHookStatus, installClaudeHooks, uninstallClaudeHooks, type HookStatus, type HookTarget, type InstallResult } from "../node/hook-install";
import { claudeUserConfigPath, installMcpServer, mcpEntry, uninstallMcpServer } from "../node/mcp-install";
import { claudeDirOf, cliScriptPath, fail, hookScriptPath, isDirectory, noFolder, notClaudeDir, sayLine, suggestCommand, type VaultOptions, errorSentence } from "./cli-common";
import { mcpScriptPath } from "./mcp-script";

/** `ai-memory hooks install|uninstall|status`: our hooks in Claude Code's user settings. */

export interface HooksOptions extends VaultOptions {
	claudeDir?: string;
	json?: boolean;
	/** The CLI the hooks run (tests); default: this one. */
	cliPath?: string;
	/** Also the MCP server in Claude Code's user configuration (the facade names its tools); `--no-mcp` is false. Default: when its script is beside this CLI. */
	mcp?: boolean;
	/** The MCP server script (tests); default: the one beside this CLI. */
	mcpPath?: string;
}

/** Where the hooks go and what they run, or why that cannot be known (the vault's settings unreadable). */
async function targetOf(options: HooksOptions): Promise<HookTarget | { error: string }> {
	const where = await claudeDirOf(options);
	if ("error" in where) return where;
	return {
		claudeDir: where.claudeDir,
		vault: resolve(options.vault),
		configDir: options.configDir,
		cliPath: options.cliPath ?? cliScriptPath(),
		hookPath: options.cliPath === undefined ? hookScriptPath() : undefined,
	};
}

export async function runHooksInstall(options: HooksOptions): Promise<number> {
	const vault = resolve(options.vault);
	if (!(await isDirectory(vault))) return fail(await noFolder("vault folder", vault));
	const target = await targetOf(options);
	if ("error" in target) return fail(target.error);
	const notThere = await notClaudeDir(options.claudeDir, target.claudeDir);
	if (notThere) return fail(notThere);
	try {
		const result = await installClaudeHooks(target);
		const server = options.mcp === false ? undefined : (options.mcpPath ?? mcpScriptPath());
		const mcp = server === undefined ? undefined : await installMcpServer("claude-code", claudeUserConfigPath(target.claudeDir), mcpEntry({ serverPath: server, vault: target.vault, configDir: target.configDir }));
		if (options.json) process.stdout.write(`${JSON.stringify(mcp ? { ...result, mcp } : result)}\n`);
		else {
			sayLine(process.stdout, describeInstall(result, target.vault));
			if (mcp?.changed) sayLine(process.stdout, `Installed the MCP server "ai-memory" (search_sessions, get_session, recall_facts, project_context) in ${mcp.configPath}${mcp.created ? " (a new file: there was none)" : ""}.${mcp.backupWritten ? ` Your file as it was is in ${mcp.backupWritten}.` : ""}`);
		}
		return 0;
	} catch (error) {
		return fail(errorSentence(error), 1);
	}
}

const EVENTS = `${HOOK_EVENTS.slice(0, -1).join(", ")} and ${HOOK_EVENTS.at(-1)} hooks`;

/** What `hooks install` did, in one sentence or two. */
export function describeInstall(result: InstallResult, vault: string): string {
	if (!result.changed) return `Our hooks are in ${result.settingsPath} already, for this CLI and ${vault}; nothing changed.`;
	const then = "They take effect in new Claude Code sessions.";
	if (result.created) return `Created ${result.settingsPath} (there was none) with the ${EVENTS}, for ${vault}. ${then}`;
	const backup = result.backupWritten ? ` Your file as it was is in ${result.backupWritten}.` : "";
	return `Installed the ${EVENTS} in ${result.settingsPath}, for ${vault}.${backup} ${then}`;
}

export async function runHooksUninstall(options: Omit<HooksOptions, "vault"> & { vault?: string }): Promise<number> {
	const where = await claudeDirOf(options);
	if ("error" in where) return fail(where.error);
	const { claudeDir } = where;
	try {
		const result = await uninstallClaudeHooks(claudeDir);
		const mcp = await uninstallMcpServer("claude-code", claudeUserConfigPath(claudeDir));
		if (mcp.changed && !options.json) sayLine(process.stdout, mcp.removed ? `Removed our MCP server, and ${mcp.configPath} with it: nothing else was in it.` : `Removed our MCP server from ${mcp.configPath}; everything else in it is as it was.`);
		if (options.json) process.stdout.write(`${JSON.stringify({ ...result, mcp })}\n`);
		else if (result.removed) sayLine(process.stdout, `Removed our hooks, and ${result.settingsPath} with them: nothing else was in it.`);
		else if (result.changed) sayLine(process.stdout, `Removed our hooks from ${result.settingsPath}; everything else in it is as it was.`);
		else sayLine(process.stdout, `No hooks of ours in ${result.settingsPath}; nothing changed.`);
		return 0;
	} catch (error) {
		return fail(errorSentence(error), 1);
	}
}

export async function runHooksStatus(options: HooksOptions): Promise<number> {
	const target = await targetOf(options);
	if ("error" in target) return fail(target.error);
	let status: HookStatus;
	try {
		status = await claudeHookStatus(target);
	} catch (error) {
		return fail(errorSentence(error), 1);
	}
	if (options.json) {
		process.stdout.write(`${JSON.stringify(status)}\n`);
		return status.error ? 1 : 0;
	}
	// A line each: a folder's name with a line break in it does not start a line of its own.
	for (const line of describeHookStatus(status, target)) sayLine(process.stdout, line);
	return status.error ? 1 : 0;
}

/** One line for the file, then one per event: installed or not, and whether it runs this CLI for this vault. */
export function describeHookStatus(status: HookStatus, target: HookTarget): string[] {
	if (status.error) return [`Claude Code settings ${status.settingsPath}: ${status.error.replace(/; nothing was changed$/, "")}`];
	const lines = [`Claude Code settings: ${status.settingsPath}`];
	for (const e of status.events) {
		let state: string;
		if (!e.installed) state = "not installed";
		else if (e.current) state = "installed (this CLI, this vault)";
		else {
			const parts = [e.sameCli ? "this CLI" : `another CLI: ${e.cliPath ?? "?"}`, e.sameVault ? "this vault" : `another vault: ${e.vault ?? "?"}`];
			state = `installed (${parts.join(", ")}${e.sameCli && e.sameVault ? ", an older command: install them again" : ""})`;
		}
		lines.push(`  ${e.event.padEnd(16)} ${state}`);
	}
	const install = suggestCommand("hooks install", target);
	if (status.events.some((e) => !e.installed)) lines.push(`  Install them with: ${install}`);
	else if (status.events.some((e) => !e.current)) lines.push(`  Point them at this CLI and vault with: ${install}`);
	return lines;
}
