import { stat } from "node:fs/promises";
import { ProjectFolderFiles } from "../node/project-files";
import { terminalText } from "../core/text/terminal-text";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { BEGIN_MARKER, END_MARKER } from "../core/text/marked-block";
import { HOOK_EVENTS } from "../core/hooks/hook-settings";
import { contextFilesOf, foldersProblem, isExcluded, otherContextFiles, type ProjectSettings, type Settings } from "../core/settings";
import { baseName, safeFileName } from "../core/notes/note-name";
import { memoryPathOf, notesPathOf, packetPathOf } from "../core/plan/project-paths";
import { projectKeyOf } from "../core/projects/project-identity";
import { resolveProjectFolder } from "../node/project-resolver";
import { emptySyncState, type SyncState } from "../core/sync/sync-state";
import { DamagedStateError, StateFolder } from "../node/state-folder";
import { claudeMemoryDir, readClaudeSettings } from "../node/claude-memory-dir";
import { deviceClaudeDir } from "../node/claude-paths";
import { hookNameOf } from "../node/hook-handlers";
import { claudeHookStatus, type HookTarget } from "../node/hook-install";
import { hookLogEntries, hookLogPath, lastHookRuns } from "../node/hook-log";
import { lastSessionDelivery, type DeliveryEntry } from "../core/hooks/delivery";
import { claudeUserConfigPath, mcpEntry, mcpServerStatus, type McpStatus } from "../node/mcp-install";
import { mcpScriptPath } from "./mcp-script";
import { readHookContext } from "../node/hook-project";
import { hookContextPath } from "../node/plugin-paths";
import { cliScriptPath, count, fail, hookScriptPath, suggestCommand, vaultFolders, type VaultOptions, errorSentence } from "./cli-common";
import { describeHookStatus } from "./hooks-command";
import { loadSettings } from "./settings-file";

/**
 * `ai-memory doctor`: what each enabled project gets and where everything is. The context block
 * (in lazy mode the facade, with its size in tokens), whether it is in the target CLAUDE.md, the
 * notes, packet and memory folders, Claude Code's memory folder, whether the hooks and the MCP
 * server are installed and when each hook last ran (from hooks.log); and for each project, what
 * reached its last session (the block, the facade, each recall and tool answer), with a warning for
 * what was produced but never delivered.
 */

export interface DoctorOptions extends VaultOptions {
	claudeDir?: string;
	cliPath?: string;
	host?: string;
}

const CHARS_PER_TOKEN = 4;

export async function runDoctor(options: DoctorOptions): Promise<number> {
	const where = await vaultFolders(options);
	if ("error" in where) return fail(where.error);
	let settings: Settings;
	try {
		settings = await loadSettings(where.dataJson, [], options.host ?? hostname());
	} catch (error) {
		return fail(errorSentence(error));
	}
	const claudeDir = options.claudeDir ? resolve(options.claudeDir) : deviceClaudeDir(settings);
	const stateDir = join(where.folder, "state");
	const { state, problem } = await readState(stateDir);
	const folders = foldersProblem(settings);
	const out: string[] = [`Vault: ${where.vault}`, `Settings: ${where.dataJson}${(await exists(where.dataJson)) ? "" : " (none yet: defaults)"}`, ...(folders ? [`  Problem: ${folders}; no sync runs until it is fixed`] : []), ...(problem ? [`State: ${stateDir}`, `  Problem: ${problem}`] : []), `Claude Code folder: ${claudeDir}`, ""];

	// Hooks: installed, and when each last ran.
	const target: HookTarget = { claudeDir, vault: where.vault, configDir: options.configDir, cliPath: options.cliPath ?? cliScriptPath(), hookPath: options.cliPath === undefined ? hookScriptPath() : undefined };
	const status = await claudeHookStatus(target).catch((error: unknown) => ({ error: errorSentence(error) }));
	if ("events" in status) out.push(...describeHookStatus(status, target).map((l, i) => (i === 0 ? `Hooks, in ${l.replace(/^Claude Code settings: /, "")}:` : l)));
	else out.push(`Hooks: ${status.error}`);
	const runs = await lastHookRuns(where.folder);
	out.push(`Last runs (${hookLogPath(where.folder)}):`);
	for (const event of HOOK_EVENTS) {
		const run = runs.get(hookNameOf(event));
		out.push(`  ${hookNameOf(event).padEnd(18)} ${run ? `${run.at} ${run.status}${run.detail ? `: ${run.detail}` : ""}` : "never"}`);
	}

	const server = mcpScriptPath();
	const mcp: McpStatus = await mcpServerStatus("claude-code", claudeUserConfigPath(claudeDir), server ? mcpEntry({ serverPath: server, vault: where.vault, configDir: options.configDir }) : { command: "", args: [], env: {} });
	// A `.claude.json` that cannot be read (a folder, a FIFO) is said so: "not installed" sent the user to install into it.
	if (!mcp.installed && mcp.error !== undefined) out.push(`MCP server for Claude Code (${mcp.configPath}): ${mcp.error}`);
	else out.push(`MCP server: ${mcp.installed ? `installed for Claude Code in ${mcp.configPath}${mcp.current ? "" : mcp.outdated ? " (an earlier version's entry: run `ai-memory mcp install` again)" : " (another command: run `ai-memory mcp install` again)"}` : `not installed for Claude Code (${mcp.configPath}): \`ai-memory mcp install --vault ${JSON.stringify(where.vault)}\``}`);

	const claudeSettings = await readClaudeSettings(join(claudeDir, "settings.json"));
	const enabled = settings.projects.filter((p) => p.enabled);
	if (enabled.length === 0) out.push("", `No enabled projects on this device: add one with \`${suggestCommand("projects add <path>", { vault: where.vault, configDir: options.configDir })}\`.`);
	const log = await hookLogEntries(where.folder);
	const instructionsHook = "events" in status && status.events.some((e) => e.event === "InstructionsLoaded" && e.installed);
	const syncCommand = suggestCommand("sync", { vault: where.vault, claudeDir: options.claudeDir, configDir: options.configDir });
	for (const project of enabled) out.push("", ...(await describeProject(project, settings, state, where.vault, stateDir, claudeDir, claudeSettings, { log, instructionsHook }, syncCommand)));
	const off = settings.projects.filter((p) => !p.enabled);
	if (off.length > 0) out.push("", `Turned off: ${off.map((p) => p.path).join(", ")}`);
	// Titles and facades come from prompts: no terminal escape of theirs reaches the user's terminal.
	process.stdout.write(`${terminalText(out.join("\n"))}\n`);
	return 0;
}

async function describeProject(project: ProjectSettings, settings: Settings, state: SyncState, vault: string, stateDir: string, claudeDir: string, claudeSettings: unknown, delivery: { log: readonly DeliveryEntry[]; instructionsHook: boolean }, syncCommand: string): Promise<string[]> {
	const files = contextFilesOf(project);
	const lines = [`Project ${project.path}: ${project.mode} mode, context in ${files.join(", ")}${isExcluded(project.path, settings.excludedProjects) ? " (EXCLUDED: nothing is written for it)" : ""}`];
	const key = projectKeyOf(project.path, resolveProjectFolder(project.path), [], []);
	const sessions = Object.values(state.sessions).filter((r) => r.projectKey === key).length;
	const when = sessions === 0 ? "no session of it is known yet: the block comes with its first session" : "the next sync adds it";
	// Each file as the sync reads it (AGENTS.md and GEMINI.md too): a link out of the project, a FIFO or a file that is not UTF-8 is said to be one.
	let block: string | undefined;
	const folderFiles = new ProjectFolderFiles();
	for (const name of files) {
		const file = join(project.path, name);
		let refused: string | undefined;
		let text: string | undefined;
		try {
			text = (await folderFiles.read(project.path, name)) ?? undefined;
		} catch (error) {
			refused = error instanceof Error ? error.message : String(error);
		}
		const found = text === undefined ? undefined : blockOf(text);
		if (name === project.target) block = found;
		if (refused !== undefined) lines.push(`  ${name}: ${refused}; the sync writes no block into it`);
		else if (text === undefined) lines.push(`  ${name}: ${file} does not exist yet (${sessions === 0 ? when : "the next sync creates it"})`);
		else if (found === undefined) lines.push(`  ${name}: no context block in ${file} yet (${when}, unless it imports another of these files)`);
		else lines.push(`  ${name}: block present in ${file}, ${count(found.length, "character")} ≈ ${count(tokens(found), "token")}`);
	}
	// A block left in a file the block no longer goes to: its agent loads that stale copy too (unless the file is a link to one that gets it).
	const realPath = (name: string) => folderFiles.realPath(project.path, name).catch(() => undefined);
	const targets = await Promise.all(files.map(realPath));
	for (const name of otherContextFiles(project)) {
		const text = await folderFiles.read(project.path, name).catch(() => null);
		if (text === null || blockOf(text) === undefined) continue;
		const real = await realPath(name);
		if (real !== undefined && targets.includes(real)) continue;
		lines.push(`  WARNING: ${name}: ${join(project.path, name)} still holds a context block from an earlier setting; its agent loads that stale copy too (remove the lines between the markers unless another device writes it there)`);
	}

	let context;
	let unreadable = false;
	try {
		context = await readHookContext(stateDir, project.path);
	} catch (error) {
		unreadable = true;
		lines.push(`  Hook context: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (project.mode === "lazy") {
		const facade = context?.facade ?? block;
		const how = context?.blockInFile === false ? "printed at session start" : `in ${project.target}`;
		if (facade) lines.push(`  Facade (${count(facade.length, "character")} ≈ ${count(tokens(facade), "token")}, ${how}):`, ...facade.trimEnd().split(/\r?\n/).map((l) => (l === "" ? "" : `    ${l}`)));
	}
	const contextFile = hookContextPath(stateDir, project.path);
	const written = await stat(contextFile).then((s) => s.mtime.toISOString(), () => undefined);
	// One that cannot be read is said above: "none yet" below it said the opposite.
	if (!unreadable) lines.push(`  Hook context: ${written ? `${contextFile} (written ${written}${context ? `, ${count(context.recall.facts.length, "fact")} for recall` : ""})` : `none yet: run \`${syncCommand}\``}`);

	const record = state.projects[key] ?? { folder: safeFileName(baseName(key), "Unknown project") };
	lines.push(`  Identity: ${key}${record.folder ? ` (vault folder "${record.folder}")` : ""}, ${count(sessions, "session")} synced`);
	const packet = join(vault, packetPathOf(record, settings.notesFolder));
	lines.push(`  Notes: ${join(vault, notesPathOf(record, settings.notesFolder))}`);
	lines.push(`  Context packet: ${packet}${(await exists(packet)) ? "" : project.mode === "lazy" ? " (not written yet)" : " (written in lazy mode only; recall prints it from the hook context)"}`);
	lines.push(`  Memory in the vault: ${join(vault, memoryPathOf(record, settings.memoryFolder))}${project.memorySharing ? "" : " (sharing with Claude Code is off)"}`);
	const memory = claudeSettings instanceof Error ? undefined : claudeMemoryDir(project.path, { claudeDir, settings: claudeSettings });
	lines.push(`  Claude Code memory: ${claudeSettings instanceof Error ? `not known: its settings.json cannot be read (${claudeSettings.message}), so no fact is shared` : (memory ?? "off (autoMemoryEnabled is false)")}`);

	// What reached the last session, from hooks.log.
	const reached = lastSessionDelivery(delivery.log, { path: project.path, key, mode: project.mode, target: project.target, blockPresent: block !== undefined, blockInFile: context?.blockInFile, instructionsHook: delivery.instructionsHook });
	lines.push(...reached.lines.map((l) => `  ${l}`), ...reached.warnings.map((w) => `  WARNING: ${w}`));
	return lines;
}

/** What lies between the marker lines (the last BEGIN: one quoted in a code fence comes earlier). */
function blockOf(text: string): string | undefined {
	const lines = text.split(/\r?\n/);
	const begin = lines.map((l) => l.trim()).lastIndexOf(BEGIN_MARKER);
	if (begin < 0) return undefined;
	const end = lines.findIndex((l, i) => i > begin && l.trim() === END_MARKER);
	if (end < 0) return undefined;
	return lines.slice(begin + 1, end).join("\n");
}

function tokens(text: string): number {
	return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The sync state, or none and why: a damaged one is one finding of the report (it stopped the whole report, saying "nothing was synced"). */
async function readState(stateDir: string): Promise<{ state: SyncState; problem?: string }> {
	try {
		return { state: await new StateFolder(stateDir).loadState() };
	} catch (error) {
		if (!(error instanceof DamagedStateError)) throw error;
		return { state: emptySyncState(), problem: error.message };
	}
}

async function exists(path: string): Promise<boolean> {
	return stat(path).then(() => true, () => false);
}
