import { readBackup, writeBackup } from "./backup-file";
import { access, constants, stat, unlink } from "node:fs/promises";
import { readPlainFile } from "./confined-path";
import { writeUserFile } from "./atomic-write";
import { dirname, join, resolve } from "node:path";
import { HOOK_EVENTS, HOOK_MARK, installedHooks, installHooks, uninstallHooks, type HookEvent } from "../core/hooks/hook-settings";
import { hookNameOf } from "./hook-handlers";
import { makeFolder } from "./make-folder";

/**
 * Our hooks in Claude Code's user settings (`<claude dir>/settings.json`), installed and removed
 * with `hook-settings.ts` (every other key, hook and byte kept). Before the first install the
 * user's file is copied to `settings.json.bak-ai-memory`, and uninstalling gives back those exact
 * bytes when nothing else changed meanwhile. With no file there is no backup: uninstalling removes
 * the file again when nothing but our hooks is in it.
 */

const BACKUP_SUFFIX = ".bak-ai-memory";

/**
 * Seconds Claude Code gives each hook. SessionEnd hooks share a budget of 1.5 s that a `timeout`
 * raises (up to 60 s): ours spawns a background sync and exits at once, 5 s covers a slow start.
 * UserPromptSubmit defaults to 30 s, and a timed-out hook's output is lost: ours reads two files.
 */
const HOOK_TIMEOUTS: Readonly<Record<HookEvent, number>> = { SessionStart: 10, UserPromptSubmit: 10, SessionEnd: 5, PreCompact: 10, InstructionsLoaded: 5 };

export interface HookTarget {
	/** Claude Code's config folder (holds settings.json). */
	claudeDir: string;
	/** The vault the hooks serve (made absolute). */
	vault: string;
	/** The vault's configuration folder when not `.obsidian`. */
	configDir?: string;
	/** The CLI (absolute): what the hooks run, or what they start syncs with when `hookPath` is set. */
	cliPath: string;
	/** A small script of the hook code alone, which starts faster than the whole CLI (absolute). */
	hookPath?: string;
	/** The Node that runs it. Default: this one. */
	execPath?: string;
}

function claudeSettingsPath(claudeDir: string): string {
	return join(claudeDir, "settings.json");
}

/**
 * A word for a POSIX shell (Claude Code runs hook commands with `sh -c`, Git Bash on Windows):
 * double quotes, with `"`, `\`, `$` and backquotes escaped.
 */
export function shellQuote(word: string): string {
	return `"${word.replace(/(["\\$`])/g, "\\$1")}"`;
}

/** The words of a command as a POSIX shell splits them (quotes and backslashes; no expansions). */
export function shellWords(command: string): string[] {
	const words: string[] = [];
	let word: string | undefined;
	for (let i = 0; i < command.length; i++) {
		const ch = command[i]!;
		if (/\s/.test(ch)) {
			if (word !== undefined) words.push(word);
			word = undefined;
		} else if (ch === "'") {
			const end = command.indexOf("'", i + 1);
			word = (word ?? "") + command.slice(i + 1, end < 0 ? undefined : end);
			i = end < 0 ? command.length : end;
		} else if (ch === '"') {
			word ??= "";
			for (i++; i < command.length && command[i] !== '"'; i++) {
				if (command[i] === "\\" && /["\\$`\n]/.test(command[i + 1] ?? "")) i++;
				word += command[i];
			}
		} else if (ch === "\\") {
			word = (word ?? "") + (command[++i] ?? "");
		} else word = (word ?? "") + ch;
	}
	if (word !== undefined) words.push(word);
	return words;
}

/** The commands we install, one per event. */
export function hookCommands(target: HookTarget): Record<HookEvent, string> {
	const config = target.configDir && target.configDir !== ".obsidian" ? ` --config-dir ${shellQuote(target.configDir)}` : "";
	const script = target.hookPath ?? target.cliPath;
	const cli = target.hookPath ? ` --cli ${shellQuote(resolve(target.cliPath))}` : "";
	// Node reads `NODE_OPTIONS` before any of our code runs: one the user's shell exports for other
	// work (`--require` of a file not there, `--inspect-brk`, a flag this Node refuses) made every
	// hook exit 1, or wait for a debugger until Claude Code killed it, instead of failing open. And
	// `NODE_EXTRA_CA_CERTS` (set for a company's proxy, as Claude Code's own docs advise) has Node
	// load and parse the certificates at every start, 50 ms of a 65 ms start (measured, a 200 KB
	// bundle): a hook and the sync it starts make no TLS connection.
	const command = (event: HookEvent) => `NODE_OPTIONS= NODE_EXTRA_CA_CERTS= ${shellQuote(target.execPath ?? process.execPath)} ${shellQuote(resolve(script))} hook ${hookNameOf(event)} --vault ${shellQuote(resolve(target.vault))}${config}${cli} ${HOOK_MARK}`;
	return Object.fromEntries(HOOK_EVENTS.map((e) => [e, command(e)])) as Record<HookEvent, string>;
}

/** What one of our commands runs: the script, the vault and the config folder it names. */
export function parseHookCommand(command: string): { execPath?: string; cliPath?: string; hook?: string; vault?: string; configDir?: string } {
	const words = shellWords(command);
	// Past the variables set for it (`NODE_OPTIONS=`, `NODE_EXTRA_CA_CERTS=`): the words run.
	while (/^[A-Za-z_]\w*=/.test(words[0] ?? "")) words.shift();
	const at = words.indexOf("hook");
	const option = (name: string) => {
		const i = words.indexOf(name);
		return i >= 0 ? words[i + 1] : undefined;
	};
	return { execPath: at >= 2 ? words[0] : undefined, cliPath: option("--cli") ?? (at >= 1 ? words[at - 1] : undefined), hook: at >= 0 ? words[at + 1] : undefined, vault: option("--vault"), configDir: option("--config-dir") };
}

export interface InstallResult {
	settingsPath: string;
	changed: boolean;
	/** There was no settings.json: it was made for our hooks (and no backup was written). */
	created?: boolean;
	/** The backup written now, if one was. */
	backupWritten?: string;
}

/** Installs (or updates) our hooks. Throws with a clear reason (invalid JSON…) and changes nothing then. */
export async function installClaudeHooks(target: HookTarget): Promise<InstallResult> {
	const settingsPath = claudeSettingsPath(target.claudeDir);
	const backupPath = `${settingsPath}${BACKUP_SUFFIX}`;
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		const text = await readText(settingsPath);
		const edit = installHooks(text, hookCommands(target), HOOK_TIMEOUTS);
		if (!edit.ok) throw new Error(`${settingsPath}: ${edit.reason}`);
		if (!edit.changed) return { settingsPath, changed: false };
		let backupWritten: string | undefined;
		// The backup keeps the user's own file: written before our first install, never over one
		// taken then (unless the file now holds none of our hooks, so it is the user's again).
		if (text !== null && ((await readBackup(backupPath)) === null || Object.keys(installedHooks(text)).length === 0)) {
			await writeBackup(backupPath, text);
			backupWritten = backupPath;
		}
		if (await writeIfUnchanged(settingsPath, text, edit.text)) return { settingsPath, changed: true, ...(text === null ? { created: true } : {}), backupWritten };
	}
	throw new Error(`${settingsPath} kept changing while the hooks were installed; nothing was changed, try again`);
}

export interface UninstallResult {
	settingsPath: string;
	changed: boolean;
	/** settings.json was removed: it held nothing but our hooks, and there was no backup of a file of the user's. */
	removed: boolean;
}

/** Removes our hooks; the user's file as it was before the install when nothing else changed. */
export async function uninstallClaudeHooks(claudeDir: string): Promise<UninstallResult> {
	const settingsPath = claudeSettingsPath(claudeDir);
	const backupPath = `${settingsPath}${BACKUP_SUFFIX}`;
	for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
		const text = await readText(settingsPath);
		const backup = await readBackup(backupPath);
		// No backup: there was no file, so a file left with nothing in it goes. An empty backup is
		// the user's empty file, which stays.
		const edit = uninstallHooks(text, backup);
		if (!edit.ok) throw new Error(`${settingsPath}: ${edit.reason}`);
		let done: boolean;
		if (edit.text === null) done = text === null || (await removeIfUnchanged(settingsPath, text));
		else done = !edit.changed || (await writeIfUnchanged(settingsPath, text, edit.text));
		if (!done) continue;
		// Installing again takes a fresh backup of whatever the file is then.
		if (backup !== null) await unlink(backupPath).catch(() => undefined);
		return { settingsPath, changed: edit.changed || (edit.text === null && text !== null), removed: edit.text === null && text !== null };
	}
	throw new Error(`${settingsPath} kept changing while the hooks were removed; nothing was changed, try again`);
}

export interface EventStatus {
	event: HookEvent;
	installed: boolean;
	command?: string;
	/** The command is exactly what `install` writes for this CLI and vault now. */
	current: boolean;
	sameCli: boolean;
	sameVault: boolean;
	cliPath?: string;
	vault?: string;
}

export interface HookStatus {
	settingsPath: string;
	/** Why settings.json could not be read as JSON, if so. */
	error?: string;
	events: EventStatus[];
	backup: boolean;
}

export async function claudeHookStatus(target: HookTarget): Promise<HookStatus> {
	const settingsPath = claudeSettingsPath(target.claudeDir);
	const text = await readText(settingsPath);
	const backup = (await readBackup(`${settingsPath}${BACKUP_SUFFIX}`)) !== null;
	const check = installHooks(text, hookCommands(target), HOOK_TIMEOUTS);
	const error = check.ok ? undefined : check.reason;
	const found = installedHooks(text);
	const expected = hookCommands(target);
	const events = HOOK_EVENTS.map((event): EventStatus => {
		const command = found[event];
		if (command === undefined) return { event, installed: false, current: false, sameCli: false, sameVault: false };
		const parsed = parseHookCommand(command);
		return {
			event,
			installed: true,
			command,
			current: command === expected[event],
			sameCli: parsed.cliPath !== undefined && resolve(parsed.cliPath) === resolve(target.cliPath),
			sameVault: parsed.vault !== undefined && resolve(parsed.vault) === resolve(target.vault),
			cliPath: parsed.cliPath,
			vault: parsed.vault,
		};
	});
	return { settingsPath, error, events, backup };
}

const ATTEMPTS = 3;

export async function readText(path: string): Promise<string | null> {
	try {
		return await readPlainFile(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

/** Writes `text` (atomically, mode kept, through a symlink) unless the file no longer holds `expected`. */
export async function writeIfUnchanged(path: string, expected: string | null, text: string): Promise<boolean> {
	if ((await readText(path)) !== expected) return false;
	await refuseReadOnly(path);
	await makeFolder(dirname(path));
	await writeUserFile(path, text);
	return true;
}

export async function removeIfUnchanged(path: string, expected: string): Promise<boolean> {
	if ((await readText(path)) !== expected) return false;
	await refuseReadOnly(path);
	await unlink(path);
	return true;
}

/** A file the user made read-only (settings.json, data.json) stays as it is: a rename would replace it all the same. */
async function refuseReadOnly(path: string): Promise<void> {
	const info = await stat(path).catch(() => undefined);
	if (info === undefined) return;
	const writable = (info.mode & 0o222) !== 0 && (await access(path, constants.W_OK).then(() => true, () => false));
	if (!writable) throw new Error(`${path} is read-only; nothing was changed (make it writable, then run the command again)`);
}
