import { readPlainFile } from "../node/confined-path";
import { hostname } from "node:os";
import { blockedAt } from "../node/absent-folder";
import { withExclusionsHere } from "../node/exclusions";
import { jsonFault } from "../core/text/json-fault";
import { repeatedKeyProblem } from "../core/text/repeated-key";
import { DEFAULT_PROJECT, migrateSettings, settingsProblem, type Settings } from "../core/settings";

/**
 * The plugin's settings from the vault when present, as this machine sees them (its own projects
 * and Claude Code folder, keyed by host name as the plugin keys them); `--project` adds enabled
 * projects for this run. A data.json that is not JSON is an error, not an empty file.
 * @param outcome what a refusal costs, said after what to do (the recall tools sync nothing: attack round 50a).
 */
export async function loadSettings(path: string, projects: readonly string[], host: string = hostname(), outcome = "nothing was synced"): Promise<Settings> {
	// Missing is the defaults; unreadable is not missing (the defaults would sync an excluded project).
	const text = await readPlainFile(path).catch(async (error: NodeJS.ErrnoException) => {
		// A folder above it that is none (`.obsidian` a file) is named: a bare ENOTDIR sent the user looking at data.json.
		const blocked = error.code === "ENOTDIR" || error.code === "ENOENT" ? await blockedAt(path) : undefined;
		if (blocked !== undefined) throw new Error(`the settings in ${path} cannot be read: ${blocked}; make it a folder again (${outcome})`);
		if (error.code === "ENOENT") return undefined;
		throw new Error(`the settings in ${path} cannot be read (${error.code ?? error.message}); ${outcome}`);
	});
	let raw: unknown;
	try {
		raw = text === undefined ? undefined : parseDataJson(text);
	} catch (error) {
		// Syncing with default folders and no projects instead would put notes where the user did not ask.
		throw new Error(`the settings in ${path} are not valid JSON (${jsonFault(text ?? "", error)}); fix or remove the file`);
	}
	// Wrong types in what keeps things out are not defaults either (see `settingsProblem`).
	const problem = settingsProblem(raw);
	if (problem !== undefined) throw new Error(`the settings in ${path} are not valid: ${problem}; fix the file, ${outcome}`);
	const { settings } = migrateSettings(raw, host);
	for (const projectPath of projects) {
		const existing = settings.projects.find((p) => p.path === projectPath);
		if (existing) existing.enabled = true;
		else settings.projects.push({ path: projectPath, ...DEFAULT_PROJECT });
	}
	// `~` and links in the excluded projects, as this machine resolves them (the hooks check them too).
	return withExclusionsHere(settings);
}

/**
 * data.json's value. A byte order mark first is how Notepad saved UTF-8 until 2019: JSON.parse
 * refuses it, and the sync stopped saying `Unexpected token '\ufeff'`, a character no one sees.
 * A key given twice is refused (see `repeatedKeyProblem`).
 */
export function parseDataJson(text: string): unknown {
	const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	const value = JSON.parse(json) as unknown;
	// Read as the last of the two, a key given twice by a hand edit lost the first (an exclusion), and an edit wrote it back so.
	const twice = repeatedKeyProblem(json);
	if (twice !== undefined) throw new Error(twice);
	return value;
}
