import { terminalLine, terminalText } from "../core/text/terminal-text";
import { jsonFault } from "../core/text/json-fault";
import { settingsProblem, type Settings } from "../core/settings";
import { hostname } from "node:os";
import { blockedAt } from "../node/absent-folder";
import { claudeDirSlip, deviceClaudeDir } from "../node/claude-paths";
import { loadSettings, parseDataJson } from "./settings-file";
import { describeWriteError, isEngineError, isFileSystemError, UNEXPECTED_ERROR } from "../core/write-error";
import { readPlainFile } from "../node/confined-path";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pluginFolder } from "../node/plugin-paths";
import { danglingLink, isAbsentFolder, isDirectory, noFolder } from "../node/absent-folder";

/** `--vault` and `--config-dir`, as every command takes them. */
export interface VaultOptions {
	vault: string;
	configDir?: string;
}

/** The CLI script itself (the bundle: `dist/cli.cjs`), for the hook commands to run. */
/** The hook script built beside the CLI (`hook.cjs`), when there is one: hooks start faster with it. */
export function hookScriptPath(): string | undefined {
	const path = join(dirname(resolve(__filename)), "hook.cjs");
	return existsSync(path) && path !== resolve(__filename) ? path : undefined;
}

export function cliScriptPath(): string {
	return resolve(__filename);
}

/**
 * Writes a line for a person to read. Paths and names in it may come from a repository or a
 * transcript: no escape sequence or control character of theirs reaches the terminal (a cloned
 * repository's file name retitled it and cleared the screen; a folder's bare CR overwrote the line).
 */
export function say(stream: NodeJS.WritableStream, line: string): void {
	stream.write(said(line));
}

/** `say` for a line that stays one (see `terminalLine`): a notice or an error, which names files. */
export function sayLine(stream: NodeJS.WritableStream, line: string): void {
	stream.write(saidOnOneLine(line));
}

/** What `say` writes, for a command that prints it another way (see `printOut`). */
export function said(line: string): string {
	return `${terminalText(line)}\n`;
}

/** What `sayLine` writes. */
export function saidOnOneLine(line: string): string {
	return `${terminalLine(line)}\n`;
}

/** Prints `ai-memory: <reason>` and gives the exit code. */
export function fail(reason: string, code = 2): number {
	sayLine(process.stderr, `ai-memory: ${reason}`);
	return code;
}

/** The commands ask them of the vault and the agents' folders. */
export { danglingLink, isDirectory, noFolder };

/**
 * Why Claude Code's folder is not one to install into, or undefined. One given by hand
 * (`--claude-dir`) that is not there is a typo more likely than a Claude Code to come: made, it
 * would hold settings Claude Code never reads (it reads the folder it uses). The default one
 * (`~/.claude`, `$CLAUDE_CONFIG_DIR`) may be missing (it is made), but not a link that leads
 * nowhere (making it failed with a bare ENOENT, and `mcp install` wrote `~/.claude.json` beside
 * it), nor a file or a FIFO.
 */
export async function notClaudeDir(given: string | undefined, used: string): Promise<string | undefined> {
	const dir = given ? resolve(given) : used;
	const slip = await claudeDirSlip(dir);
	if (slip) return `${slip}; nothing was installed (check ${given ? "--claude-dir" : "CLAUDE_CONFIG_DIR"})`;
	if (await isDirectory(dir)) return undefined;
	if (given) return `${await noFolder("Claude Code's folder", dir)}; nothing was installed (check --claude-dir: Claude Code reads its settings in the folder it uses)`;
	// Missing, it is made; anything else there (a file, a FIFO) was named as `settings.json`'s or `.claude.json`'s ENOTDIR.
	return (await isAbsentFolder(dir)) ? undefined : `${await noFolder("Claude Code's folder", dir)}; nothing was installed`;
}

/** The vault's folder and the plugin's, or why not (the vault must exist). */
export async function vaultFolders(options: VaultOptions): Promise<{ vault: string; folder: string; dataJson: string } | { error: string }> {
	const vault = resolve(options.vault);
	if (!(await isDirectory(vault))) return { error: await noFolder("vault folder", vault) };
	const folder = pluginFolder(vault, options.configDir);
	return { vault, folder, dataJson: join(folder, "data.json") };
}

/**
 * The settings of the vault named (none when no vault is) and the Claude Code folder they give
 * this device: `--claude-dir`, else the settings' folder for this machine, else the default. The
 * hook and MCP commands use the same one as the sync and the plugin: `hooks install` took the
 * default while `mcp install` took the settings' folder, so the hooks and the server could end up
 * in two Claude Code folders. Settings that cannot be read are an error, not the defaults.
 */
export async function claudeDirOf(options: { vault?: string; configDir?: string; claudeDir?: string }): Promise<{ claudeDir: string; settings?: Settings } | { error: string }> {
	let settings: Settings | undefined;
	if (options.vault !== undefined) {
		const where = await vaultFolders({ vault: options.vault, configDir: options.configDir });
		// A vault removed before its hooks: the way to take them out all the same.
		if ("error" in where) return { error: `${where.error}; its settings name the Claude Code folder: give that with --claude-dir (or leave out --vault for the default one)` };
		try {
			settings = await loadSettings(where.dataJson, [], hostname());
		} catch (error) {
			return { error: errorSentence(error).replace(/; nothing was synced$/, "; nothing was changed") };
		}
	}
	return { claudeDir: options.claudeDir ? resolve(options.claudeDir) : deviceClaudeDir(settings ?? {}), ...(settings ? { settings } : {}) };
}

/** data.json as stored (undefined: there is none). Not JSON: an error, so that nothing overwrites it. */
export async function readDataJson(path: string): Promise<unknown> {
	return (await readDataJsonText(path)).raw;
}

/** data.json's text (null: there is none) and its value; unreadable or not JSON throws (see `readDataJson`). */
export async function readDataJsonText(path: string): Promise<{ text: string | null; raw: unknown }> {
	// Missing is none; unreadable is not missing (what is written next would replace the user's settings).
	const text = await readPlainFile(path).catch(async (error: NodeJS.ErrnoException) => {
		// A folder above it that is none (`.obsidian` a file) is named: a bare ENOTDIR sent the user looking at data.json.
		const blocked = error.code === "ENOTDIR" || error.code === "ENOENT" ? await blockedAt(path) : undefined;
		if (blocked !== undefined) throw new Error(`the settings in ${path} cannot be read: ${blocked}; make it a folder again (nothing was changed)`);
		if (error.code === "ENOENT") return null;
		throw new Error(`the settings in ${path} cannot be read (${error.code ?? error.message}); nothing was changed`);
	});
	if (text === null) return { text, raw: undefined };
	let raw: unknown;
	try {
		raw = parseDataJson(text);
	} catch (error) {
		throw new Error(`the settings in ${path} are not valid JSON (${jsonFault(text, error)}); fix or remove the file`);
	}
	// Read as defaults, a wrong type would be listed so, and an edit would write the default back over it.
	const problem = settingsProblem(raw);
	if (problem !== undefined) throw new Error(`the settings in ${path} are not valid: ${problem}; fix the file, nothing was changed`);
	return { text, raw };
}

/** A word as a POSIX shell reads it: bare when safe, else in single quotes. */
export function shellArg(word: string): string {
	return /^[A-Za-z0-9_/.,:@%+=~-]+$/.test(word) && !word.startsWith("~") ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A command to suggest, with the folders this run was given, so that following the hint
 * literally acts on the same vault and Claude Code folder (not on ~/.claude by default).
 */
export function suggestCommand(command: string, where: { vault?: string; claudeDir?: string; configDir?: string }): string {
	const words = [`ai-memory ${command}`];
	if (where.vault !== undefined) words.push(`--vault ${shellArg(resolve(where.vault))}`);
	if (where.claudeDir !== undefined) words.push(`--claude-dir ${shellArg(resolve(where.claudeDir))}`);
	if (where.configDir !== undefined && where.configDir !== ".obsidian") words.push(`--config-dir ${shellArg(where.configDir)}`);
	return words.join(" ");
}

export { count } from "../core/sync/sync-summary";

/** An error as the sentence the CLI prints: a file system's with its path (`ELOOP: too many symbolic links…, open '…'` was printed raw), others as their message. */
export function errorSentence(error: unknown): string {
	const path = (error as NodeJS.ErrnoException | undefined)?.path;
	if (isFileSystemError(error) && typeof path === "string") return `${path}: ${describeWriteError(error)}`;
	if (isEngineError(error)) return UNEXPECTED_ERROR;
	return error instanceof Error ? error.message : String(error);
}
