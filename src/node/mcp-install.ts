import { readBackup, writeBackup } from "./backup-file";
import { unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { writeUserFile } from "./atomic-write";
import { describeWriteError } from "../core/write-error";
import { envFolder } from "./env-folder";
import { addCodexServer, addJsonServer, codexServerOf, jsonServerOf, MCP_MARK, MCP_SERVER_NAME, removeCodexServer, removeJsonServer, type ConfigEdit, type McpEntry } from "../core/hooks/mcp-config";
import { readText, removeIfUnchanged, writeIfUnchanged } from "./hook-install";
import { makeFolder } from "./make-folder";

/**
 * Our MCP server in the agents' user configuration, installed and removed with `mcp-config.ts`
 * (every other key and byte kept), with the hooks' promises: before the first install the file is
 * copied to `<file>.bak-ai-memory` (empty: there was none), and uninstalling gives back those
 * exact bytes when nothing else changed meanwhile. Claude Code rewrites its `.claude.json` while
 * it runs, so there, usually, only our entry goes.
 */

export const MCP_AGENTS = ["claude-code", "codex", "gemini-cli"] as const;
export type McpAgent = (typeof MCP_AGENTS)[number];

const BACKUP_SUFFIX = ".bak-ai-memory";
const ATTEMPTS = 3;


export interface McpServerTarget {
	/** The Node that runs the server. Default: this one. */
	execPath?: string;
	/** The server script (`mcp.cjs`, or a CLI that runs it). */
	serverPath: string;
	vault: string;
	configDir?: string;
}

/**
 * The command line an agent starts: `<node> <mcp.cjs> mcp --vault <vault> [--config-dir …] --from ai-conversation-memory`,
 * with `NODE_OPTIONS` emptied: the agent spawns it with its own environment, where an inherited
 * `--require /missing.js` or `--inspect-brk` would stop Node before the server starts (the hooks' command clears it too).
 * Not for Gemini CLI: see entryFor.
 */
export function mcpEntry(target: McpServerTarget): McpEntry {
	const config = target.configDir && target.configDir !== ".obsidian" ? ["--config-dir", target.configDir] : [];
	return { command: target.execPath ?? process.execPath, args: [resolve(target.serverPath), "mcp", "--vault", resolve(target.vault), ...config, ...MCP_MARK], env: { NODE_OPTIONS: "" } };
}

/**
 * Where Claude Code reads user-scope MCP servers (`claude mcp add --scope user` writes there, checked
 * with the real client 2.1.332): `$CLAUDE_CONFIG_DIR/.claude.json` when that variable names the
 * folder, else `.claude.json` beside the `.claude` folder (the home folder's), else inside it.
 */
export function claudeUserConfigPath(claudeDir: string, env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
	const configured = envFolder(env.CLAUDE_CONFIG_DIR?.split(",")[0], home);
	if (configured && resolve(configured) === resolve(claudeDir)) return join(resolve(claudeDir), ".claude.json");
	if (resolve(claudeDir) === join(home, ".claude") || basename(claudeDir) === ".claude") return join(dirname(resolve(claudeDir)), ".claude.json");
	return join(resolve(claudeDir), ".claude.json");
}

/** Each agent's file: Claude Code's `.claude.json`, Codex's `<CODEX_HOME>/config.toml`, Gemini CLI's `<.gemini>/settings.json`. */
export function mcpConfigPath(agent: McpAgent, dirs: { claudeDir: string; codexHome: string; geminiDir: string }, env: NodeJS.ProcessEnv = process.env): string {
	if (agent === "claude-code") return claudeUserConfigPath(dirs.claudeDir, env);
	if (agent === "codex") return join(dirs.codexHome, "config.toml");
	return join(dirs.geminiDir, "settings.json");
}

/**
 * The entry as one agent gets it. Gemini CLI (0.61.0) drops `NODE_OPTIONS` from a server's `env`
 * ("Blocked dangerous environment variable override", a warning at every start) and passes its own
 * on: there the entry would only add the warning.
 */
function entryFor(agent: McpAgent, entry: McpEntry): McpEntry {
	return agent === "gemini-cli" ? { ...entry, env: Object.fromEntries(Object.entries(entry.env).filter(([k]) => k !== "NODE_OPTIONS")) } : entry;
}

function add(agent: McpAgent, text: string | null, entry: McpEntry): ConfigEdit {
	return agent === "codex" ? addCodexServer(text, MCP_SERVER_NAME, entry) : addJsonServer(text, MCP_SERVER_NAME, entryFor(agent, entry), agent === "claude-code" ? "claude" : "gemini");
}

function remove(agent: McpAgent, text: string | null, before?: string | null): ConfigEdit {
	return agent === "codex" ? removeCodexServer(text, MCP_SERVER_NAME, before) : removeJsonServer(text, MCP_SERVER_NAME, before);
}

export function installedEntry(agent: McpAgent, text: string | null): McpEntry | undefined {
	return agent === "codex" ? codexServerOf(text, MCP_SERVER_NAME) : jsonServerOf(text, MCP_SERVER_NAME);
}

/**
 * Why the agent itself will not read its file as it is, whatever we wrote into it: Gemini CLI
 * (0.61.0) parses `settings.json` with `JSON.parse`, which a byte order mark stops (the file is
 * kept as it is, mark and all: it is the person's). Undefined when nothing stops it.
 */
export function unreadableByAgent(agent: McpAgent, text: string | null): string | undefined {
	if (agent !== "gemini-cli" || text?.charCodeAt(0) !== 0xfeff) return undefined;
	return "Gemini CLI cannot read this file while it starts with a byte order mark (it takes none of its settings then): save it as UTF-8 without one";
}

export interface McpInstallResult {
	agent: McpAgent;
	configPath: string;
	changed: boolean;
	/** The agent will not read the file as it is (`unreadableByAgent`). */
	unreadable?: string;
	/** There was no such file: it was made for our server (and no backup was written). */
	created?: boolean;
	backupWritten?: string;
}

/** Installs (or updates) our server in one agent's file. Throws with the reason (invalid JSON, a server of that name not ours…), changing nothing. */
export async function installMcpServer(agent: McpAgent, configPath: string, entry: McpEntry): Promise<McpInstallResult> {
	const backupPath = `${configPath}${BACKUP_SUFFIX}`;
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		const text = await readText(configPath);
		const edit = add(agent, text, entry);
		if (!edit.ok) throw new Error(`${configPath}: ${edit.reason}`);
		const unreadable = unreadableByAgent(agent, text);
		const said = unreadable === undefined ? {} : { unreadable };
		if (!edit.changed || edit.text === null) return { agent, configPath, changed: false, ...said };
		let backupWritten: string | undefined;
		// The user's own file, taken before our first install (again once it holds nothing of ours).
		// With no file there is nothing to keep: uninstalling removes the file again when only ours is in it.
		if (text !== null && ((await readBackup(backupPath)) === null || installedEntry(agent, text) === undefined)) {
			await writeBackup(backupPath, text, 0o600);
			backupWritten = backupPath;
		}
		if (text === null) {
			// A new file: only its owner reads it (Claude Code keeps its account in .claude.json).
			await makeFolder(dirname(configPath));
			if ((await readText(configPath)) !== null) continue;
			await writeUserFile(configPath, edit.text, 0o600);
			return { agent, configPath, changed: true, created: true };
		}
		if (await writeIfUnchanged(configPath, text, edit.text)) return { agent, configPath, changed: true, backupWritten, ...said };
	}
	throw new Error(`${configPath} kept changing while the MCP server was installed; nothing was changed, try again`);
}

export interface McpUninstallResult {
	agent: McpAgent;
	configPath: string;
	changed: boolean;
	/** The file was removed: nothing but our server was in it, and there was no backup of a file of the user's. */
	removed: boolean;
}

/** Removes our server from one agent's file; the file as it was before the install when nothing else changed. */
export async function uninstallMcpServer(agent: McpAgent, configPath: string): Promise<McpUninstallResult> {
	const backupPath = `${configPath}${BACKUP_SUFFIX}`;
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		const text = await readText(configPath);
		const backup = await readBackup(backupPath);
		// No backup: there was no file before ours. An empty backup is the user's empty file, which stays.
		const edit = remove(agent, text, backup);
		if (!edit.ok) throw new Error(`${configPath}: ${edit.reason}`);
		let done: boolean;
		if (edit.text === null) done = text === null || (await removeIfUnchanged(configPath, text));
		else done = !edit.changed || (await writeIfUnchanged(configPath, text, edit.text));
		if (!done) continue;
		if (backup !== null && installedEntry(agent, edit.text) === undefined) await unlink(backupPath).catch(() => undefined);
		return { agent, configPath, changed: edit.changed, removed: edit.text === null && text !== null };
	}
	throw new Error(`${configPath} kept changing while the MCP server was removed; nothing was changed, try again`);
}

export interface McpStatus {
	agent: McpAgent;
	configPath: string;
	installed: boolean;
	/** The entry is exactly what `install` writes now. */
	current: boolean;
	/** Not current, but the same command: an earlier version's entry (without the emptied NODE_OPTIONS). */
	outdated?: boolean;
	entry?: McpEntry;
	error?: string;
	/** The agent will not read the file as it is (`unreadableByAgent`). */
	unreadable?: string;
}

export async function mcpServerStatus(agent: McpAgent, configPath: string, expected: McpEntry): Promise<McpStatus> {
	let text: string | null;
	try {
		text = await readText(configPath);
	} catch (error) {
		// In words: `doctor` and `mcp status` printed "ENOTDIR: not a directory, open '…/.claude.json'" for a Claude Code folder given as a file.
		return { agent, configPath, installed: false, current: false, error: describeWriteError(error) };
	}
	const check = add(agent, text, expected);
	const entry = installedEntry(agent, text);
	const current = entry !== undefined && JSON.stringify(entry) === JSON.stringify(entryFor(agent, expected));
	const outdated = entry !== undefined && !current && JSON.stringify([entry.command, entry.args]) === JSON.stringify([expected.command, expected.args]);
	const unreadable = unreadableByAgent(agent, text);
	return { agent, configPath, installed: entry !== undefined, current, ...(outdated ? { outdated } : {}), entry, error: check.ok ? undefined : check.reason, ...(unreadable === undefined ? {} : { unreadable }) };
}
