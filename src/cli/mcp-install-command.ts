import { join, resolve } from "node:path";
import { agentRoots } from "../node/agent-homes";
import { installMcpServer, mcpConfigPath, mcpEntry, mcpServerStatus, uninstallMcpServer, MCP_AGENTS, type McpAgent, type McpServerTarget } from "../node/mcp-install";
import { AGENT_NAMES } from "../core/transcript/agents";
import { claudeDirOf, fail, isDirectory, noFolder, notClaudeDir, sayLine, errorSentence } from "./cli-common";
import { mcpScriptPath } from "./mcp-script";

/** `ai-memory mcp install|uninstall|status`: our MCP server in Claude Code's user configuration, and Codex's and Gemini CLI's when asked. */

export interface McpInstallOptions {
	vault?: string;
	configDir?: string;
	claudeDir?: string;
	/** Agents to install for (default: Claude Code); uninstall and status look at all three. */
	agent?: McpAgent[];
	json?: boolean;
	/** The server script (tests); default: the one beside this CLI. */
	serverPath?: string;
}

/** Each agent's configuration file on this device, from `--claude-dir`, the settings' folders, or the agents' own defaults; and Claude Code's folder. */
async function configPaths(options: McpInstallOptions): Promise<{ paths: Record<McpAgent, string>; claudeDir: string } | { error: string }> {
	const where = await claudeDirOf(options);
	if ("error" in where) return where;
	const { claudeDir, settings } = where;
	const roots = agentRoots({ agents: ["codex", "gemini-cli"], agentDirs: settings?.agentDirs }, join(claudeDir, "projects"));
	const dirs = { claudeDir, codexHome: roots.codex!, geminiDir: roots["gemini-cli"]! };
	return { paths: Object.fromEntries(MCP_AGENTS.map((a) => [a, mcpConfigPath(a, dirs)])) as Record<McpAgent, string>, claudeDir };
}

function serverTarget(options: McpInstallOptions & { vault: string }): McpServerTarget | { error: string } {
	const serverPath = options.serverPath ?? mcpScriptPath();
	if (serverPath === undefined) return { error: "the MCP server script (mcp.cjs) is not beside this CLI: build it with `npm run build:cli`" };
	return { serverPath, vault: resolve(options.vault), configDir: options.configDir };
}

export async function runMcpInstall(options: McpInstallOptions & { vault: string }): Promise<number> {
	const vault = resolve(options.vault);
	if (!(await isDirectory(vault))) return fail(await noFolder("vault folder", vault));
	const agents = options.agent ?? ["claude-code"];
	const where = await configPaths(options);
	if ("error" in where) return fail(where.error);
	const { paths, claudeDir } = where;
	const notThere = agents.includes("claude-code") ? await notClaudeDir(options.claudeDir, claudeDir) : undefined;
	if (notThere) return fail(notThere);
	const target = serverTarget(options);
	if ("error" in target) return fail(target.error);
	const results = [];
	for (const agent of agents) {
		try {
			results.push(await installMcpServer(agent, paths[agent], mcpEntry(target)));
		} catch (error) {
			return fail(errorSentence(error), 1);
		}
	}
	if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
	else
		for (const r of results) {
			const kept = r.created ? " The file is new: there was none." : r.backupWritten ? ` Your file as it was is in ${r.backupWritten}.` : "";
			process.stdout.write(r.changed ? `Installed the MCP server "ai-memory" for ${AGENT_NAMES[r.agent]} in ${r.configPath}, for ${vault}.${kept} New sessions get its tools.\n` : `The MCP server in ${r.configPath} is installed already, for this CLI and ${vault}.\n`);
			if (r.unreadable !== undefined) process.stderr.write(`${r.configPath}: ${r.unreadable}.\n`);
		}
	return 0;
}

export async function runMcpUninstall(options: McpInstallOptions): Promise<number> {
	const where = await configPaths(options);
	if ("error" in where) return fail(where.error);
	const { paths } = where;
	const results = [];
	for (const agent of options.agent ?? MCP_AGENTS) {
		try {
			results.push(await uninstallMcpServer(agent, paths[agent]));
		} catch (error) {
			return fail(errorSentence(error), 1);
		}
	}
	if (options.json) process.stdout.write(`${JSON.stringify(results)}\n`);
	else {
		const changed = results.filter((r) => r.changed);
		for (const r of changed) process.stdout.write(r.removed ? `Removed our MCP server, and ${r.configPath} with it: nothing else was in it.\n` : `Removed our MCP server from ${r.configPath}; everything else in it is as it was.\n`);
		if (changed.length === 0) process.stdout.write("No MCP server of ours was installed; nothing changed.\n");
	}
	return 0;
}

export async function runMcpStatus(options: McpInstallOptions & { vault: string }): Promise<number> {
	const target = serverTarget(options);
	const where = await configPaths(options);
	if ("error" in where) return fail(where.error);
	const { paths } = where;
	const statuses = await Promise.all(MCP_AGENTS.map((agent) => mcpServerStatus(agent, paths[agent], "error" in target ? { command: "", args: [], env: {} } : mcpEntry(target))));
	if (options.json) process.stdout.write(`${JSON.stringify(statuses)}\n`);
	else for (const line of describeMcpStatus(statuses)) sayLine(process.stdout, line);
	return statuses.some((s) => s.error !== undefined && s.installed) ? 1 : 0;
}

/** One line per agent: installed or not, for this CLI and vault or another. */
export function describeMcpStatus(statuses: Awaited<ReturnType<typeof mcpServerStatus>>[]): string[] {
	return statuses.map((s) => {
		const state = s.error && !s.installed ? `cannot be read: ${s.error.replace(/; nothing was changed$/, "")}` : !s.installed ? "not installed" : s.current ? "installed (this CLI, this vault)" : s.outdated ? "installed by an earlier version (an inherited NODE_OPTIONS reaches the server; run `ai-memory mcp install` again)" : `installed (another command: ${[s.entry?.command, ...(s.entry?.args ?? [])].join(" ")}; run \`ai-memory mcp install\` again)`;
		return `  ${AGENT_NAMES[s.agent].padEnd(12)} ${state} — ${s.configPath}${s.unreadable === undefined ? "" : ` (${s.unreadable})`}`;
	});
}
