import { confinedFile } from "../node/confined-path";
import { lstat, readdir, realpath } from "node:fs/promises";
import { homedir, hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { writeIfUnchanged } from "../node/hook-install";
import { DEFAULT_PROJECT, deviceIdOf, isExcluded, migrateSettings, newerSettingsProblem, storeSettings, type AgentFile, contextFilesOf, type ContextMode, type ContextTarget, type ProjectSettings } from "../core/settings";
import { isWithin } from "../core/projects/project-identity";
import { NEW_REPOSITORY, recordedFingerprint, sameRepository } from "../core/projects/replaced-repository";
import type { SyncState } from "../core/sync/sync-state";
import { repositoryFingerprint } from "../node/repository-fingerprint";
import { deviceClaudeDir, claudeProjectsDir } from "../node/claude-paths";
import { storedProjects } from "../node/hook-project";
import { StateFolder } from "../node/state-folder";
import { acquireSyncLock, describeSyncLockHolder, SyncLockBusyError, type SyncLock } from "../node/sync-lock";
import { checkProjectToAdd } from "../node/project-to-add";
import { resolveProjectFolder } from "../node/project-resolver";
import { fail, readDataJson, readDataJsonText, sayLine, suggestCommand, vaultFolders, type VaultOptions, errorSentence } from "./cli-common";
import { makeFolder } from "../node/make-folder";
import { DATA_JSON_LOCK } from "../node/plugin-paths";
import { grouped } from "../core/text/grouped-number";

/**
 * `ai-memory projects add|list|remove`: this device's projects in the plugin's data.json, as the
 * settings tab edits them. Every other key (shared settings, other devices, keys of a newer
 * version, a project's own extra keys such as `triggers`) is kept; the file is written atomically.
 */

export interface ProjectsOptions extends VaultOptions {
	mode?: ContextMode;
	target?: ContextTarget;
	/** Other agents' files that get the block too. */
	also?: AgentFile[];
	json?: boolean;
	/** This device (tests). */
	host?: string;
}

export async function runProjectsAdd(path: string, options: ProjectsOptions): Promise<number> {
	return edit(options, async (projects, settings, folder) => {
		// An empty path would be the current folder, which is not what was meant.
		if (path.trim() === "") return { error: "give the project's folder (an empty path would mean the current folder)" };
		// One project per repository: a worktree or subfolder of an added one is the same project.
		const checked = await checkProjectToAdd(resolve(path), projects);
		if ("error" in checked) return checked;
		const { path: projectPath, root: here } = checked;
		const existing = projects.find((p) => p.path === projectPath);
		const changes: Partial<ProjectSettings> = { enabled: true, ...(options.mode ? { mode: options.mode } : {}), ...(options.target ? { target: options.target } : {}), ...(options.also ? { alsoWriteTo: [...new Set(options.also)] } : {}) };
		const before = existing ? contextFilesOf(existing) : [];
		if (existing) Object.assign(existing, changes);
		else projects.push({ path: projectPath, ...DEFAULT_PROJECT, ...changes });
		const project = existing ?? projects.at(-1)!;
		const excluded = isExcluded(projectPath, settings.excludedProjects) ? " (note: it is also in the excluded projects, so nothing is written for it)" : "";
		const files = contextFilesOf(project).join(" and ");
		const sessions = await knownSessions(projectPath, here, folder, deviceClaudeDir(settings));
		const next =
			sessions.synced > 0
				? `The next sync writes its context from ${sessions.synced === 1 ? "its session" : `its ${grouped(sessions.synced)} sessions`}.`
				: sessions.transcripts
					? "The next sync reads its sessions and writes its context."
					: `No session of it is known yet (none in the vault's last sync, no Claude Code transcripts for it in ${sessions.claudeProjects}): ${files} get${contextFilesOf(project).length === 1 ? "s" : ""} the context block with its first session.`;
		// A file the block no longer goes to keeps the block written there: its agent would load that stale copy.
		const left = before.filter((name) => !contextFilesOf(project).includes(name));
		const stays = left.length > 0 ? ` The block already in ${left.join(" and ")} stays there, and its agent loads it: remove the lines between the AUTO-CONTEXT markers by hand unless another device writes it there.` : "";
		return { message: `${existing ? "Updated" : "Added"} ${projectPath}: enabled, ${project.mode} mode, context in ${files}${excluded}. ${next}${stays}${reachesBelow(project, sessions.below)}` };
	});
}

export async function runProjectsRemove(path: string, options: ProjectsOptions): Promise<number> {
	return edit(options, async (projects) => {
		const projectPath = resolve(path);
		// As written, else the same folder by another way (a project added through a link, removed by its real path, or the other way round).
		const real = (folder: string) => realpath(folder).catch(() => undefined);
		const given = await real(projectPath);
		let at = projects.findIndex((p) => p.path === projectPath || p.path === path);
		if (at < 0 && given !== undefined) at = (await Promise.all(projects.map((p) => real(p.path)))).indexOf(given);
		if (at < 0) return { error: `${projectPath} is not one of this device's projects (see \`${suggestCommand("projects list", options)}\`)`, code: 1 };
		const removed = projects.splice(at, 1)[0]!.path;
		return { message: `Removed ${removed} from this device's projects. A context block the sync wrote into its files stays there: remove the lines between the AUTO-CONTEXT markers by hand if you no longer want them.` };
	});
}

export async function runProjectsList(options: ProjectsOptions): Promise<number> {
	const where = await vaultFolders(options);
	if ("error" in where) return fail(where.error);
	let raw: unknown;
	try {
		raw = await readDataJson(where.dataJson);
	} catch (error) {
		return fail(errorSentence(error));
	}
	const { settings } = migrateSettings(raw, options.host ?? hostname());
	if (options.json) {
		process.stdout.write(`${JSON.stringify(settings.projects)}\n`);
		return 0;
	}
	if (settings.projects.length === 0) {
		process.stdout.write(`No projects on this device (${deviceIdOf(options.host ?? hostname())}). Add one with \`${suggestCommand("projects add <path>", options)}\`.\n`);
		return 0;
	}
	for (const p of settings.projects) {
		const excluded = isExcluded(p.path, settings.excludedProjects) ? "  (excluded)" : "";
		sayLine(process.stdout, `${p.enabled ? "on " : "off"}  ${p.mode.padEnd(5)}  ${contextFilesOf(p).join(", ").padEnd(15)}  ${p.path}${excluded}`);
	}
	return 0;
}

/**
 * Sessions of a project the vault's last sync recorded, and whether Claude Code has a transcript
 * folder for it or a folder below it (named by the session's `cwd`, every other character a `-`).
 */
async function knownSessions(projectPath: string, root: string | undefined, pluginFolder: string, claudeDir: string): Promise<{ synced: number; transcripts: boolean; claudeProjects: string; below: string[] }> {
	const state = await new StateFolder(join(pluginFolder, "state")).loadState().catch(() => undefined);
	const holder = root ?? projectPath;
	// A repository of its own below the folder stays its own project (see `projectKeyOf`): its sessions are not this one's.
	const ownRepository = new Map<string, boolean>();
	const isOwnRepository = (key: string): boolean => {
		let own = ownRepository.get(key);
		if (own === undefined) {
			const found = key === holder ? undefined : resolveProjectFolder(key);
			own = found?.repository === true && found.root === key;
			ownRepository.set(key, own);
		}
		return own;
	};
	const all = Object.values(state?.sessions ?? {});
	const mine = all.filter((r) => r.projectKey === holder || (r.projectPath !== undefined && isWithin(r.projectPath, projectPath) && !(r.projectKey !== undefined && isOwnRepository(r.projectKey))));
	const others = state && root !== undefined ? await otherRepositoryKeys(state, new Set(mine.map((r) => r.projectKey)), holder, root) : new Set<string>();
	const synced = mine.filter((r) => r.projectKey === undefined || !others.has(r.projectKey)).length;
	const claudeProjects = claudeProjectsDir(claudeDir);
	const encoded = projectPath.replace(/[^A-Za-z0-9]/g, "-");
	const names = await readdir(claudeProjects).catch(() => [] as string[]);
	// Other projects in folders under this one (their sessions ran there, and are not this project's).
	const below = [...new Set(all.flatMap((r) => (r.projectKey !== undefined && r.projectKey !== holder && isWithin(r.projectKey, projectPath) && isOwnRepository(r.projectKey) ? [r.projectKey] : [])))].sort();
	return { synced, transcripts: names.some((n) => n === encoded || n.startsWith(`${encoded}-`)), claudeProjects, below };
}

/**
 * Claude Code loads `CLAUDE.md` and `CLAUDE.local.md` from every folder above a session's, so a
 * block written in a folder that holds other projects (the home folder, `~/code`) reaches their
 * sessions too: said when the project is added, with the projects the last sync knew there.
 */
function reachesBelow(project: ProjectSettings, below: readonly string[]): string {
	const claudes = contextFilesOf(project).filter((f) => f === "CLAUDE.md" || f === "CLAUDE.local.md");
	const home = resolve(homedir()) === project.path;
	if (claudes.length === 0 || (below.length === 0 && !home)) return "";
	const named = below.slice(0, 3).join(", ") + (below.length > 3 ? ` and ${below.length - 3} more` : "");
	const whose = below.length > 0 ? `the sessions of ${below.length === 1 ? "another project" : `${below.length} other projects`} under it (${named})` : "every session in a folder under it";
	return ` Note: Claude Code loads ${claudes.join(" and ")} from the folders above a session's too, so this project's block will reach ${whose}${home ? ": it is your home folder" : ""}. Add the projects themselves instead if that is not what you want.`;
}

/**
 * Which of `keys`, the identities of the sessions found for the path, are of another repository
 * than the one at `root` now: the path's own when another repository was made there since the last
 * sync, or one the sync set aside (`replacedAt`) for a newcomer. Their sessions are not this
 * project's. Told as the sync tells it, by root commits: git runs only when the repository here
 * does not hold the commits recorded for the path.
 */
async function otherRepositoryKeys(state: Pick<SyncState, "projects">, keys: Set<string | undefined>, holder: string, root: string): Promise<Set<string>> {
	const recorded = new Map<string, string>();
	for (const key of keys) {
		const record = key === undefined ? undefined : state.projects[key];
		const fingerprint = recordedFingerprint(record);
		if (fingerprint !== undefined && (key === holder || record!.replacedAt !== undefined)) recorded.set(key!, fingerprint);
	}
	const first = recorded.get(holder) ?? recorded.values().next().value;
	if (first === undefined) return new Set();
	const here = await repositoryFingerprint(root, first);
	if (here === undefined) return new Set();
	return new Set([...recorded].filter(([, fingerprint]) => here === NEW_REPOSITORY || !sameRepository(here, fingerprint)).map(([key]) => key));
}

type Change = { message: string } | { error: string; code?: number };

/** Reads data.json, lets `change` edit this device's projects, writes it back with everything else kept. */
async function edit(options: ProjectsOptions, change: (projects: ProjectSettings[], settings: ReturnType<typeof migrateSettings>["settings"], pluginFolder: string) => Promise<Change>): Promise<number> {
	const where = await vaultFolders(options);
	if ("error" in where) return fail(where.error);
	// Two commands at once both passed the compare before the rename, and one project was lost: edits take turns.
	let lock: SyncLock;
	try {
		lock = await acquireSyncLock(join(where.folder, DATA_JSON_LOCK), { tool: "cli", waitMs: LOCK_WAIT_MS });
	} catch (error) {
		if (error instanceof SyncLockBusyError) return fail(`another command is editing the settings in ${where.dataJson} (${error.holder ? describeSyncLockHolder(error.holder) : `lock file ${error.path}`}); nothing was changed: run the command again`);
		return fail(errorSentence(error));
	}
	try {
		return await editLocked(options, where, change);
	} finally {
		await lock.release();
	}
}

/** The plugin takes the same lock to save its settings; the write still compares what it read first. */
const LOCK_WAIT_MS = 10_000;

async function editLocked(options: ProjectsOptions, where: { folder: string; dataJson: string }, change: (projects: ProjectSettings[], settings: ReturnType<typeof migrateSettings>["settings"], pluginFolder: string) => Promise<Change>): Promise<number> {
	const host = options.host ?? hostname();
	let read: { text: string | null; raw: unknown };
	try {
		// The settings are the plugin's: a data.json that links out of its folder is not written through.
		if ((await lstat(where.dataJson).catch(() => undefined))?.isSymbolicLink()) await confinedFile(where.folder, where.dataJson, "The plugin's settings (data.json)");
		read = await readDataJsonText(where.dataJson);
	} catch (error) {
		return fail(errorSentence(error));
	}
	const raw = read.raw;
	const newer = newerSettingsProblem(raw);
	if (newer !== undefined) return fail(`the settings in ${where.dataJson}: ${newer}; nothing was changed`);
	const { settings } = migrateSettings(raw, host);
	const result = await change(settings.projects, settings, where.folder);
	if ("error" in result) return fail(result.error, result.code);
	const stored = storeSettings(settings, raw, host);
	keepProjectExtras(stored, raw, host);
	await makeFolder(dirname(where.dataJson));
	// Written only if it still holds what was read (the plugin may have saved its settings meanwhile),
	// and never over a data.json the user made read-only (a rename would replace it all the same).
	try {
		if (!(await writeIfUnchanged(where.dataJson, read.text, `${JSON.stringify(stored, null, 2)}\n`))) return fail(`the settings in ${where.dataJson} changed while they were edited (the plugin saved them?); nothing was changed: run the command again`);
	} catch (error) {
		return fail(errorSentence(error));
	}
	if (options.json) process.stdout.write(`${JSON.stringify(settings.projects)}\n`);
	else sayLine(process.stdout, result.message);
	return 0;
}

/**
 * Keys of a stored project that this version's settings do not carry (`triggers`, a newer
 * version's) go back onto the same project: `storeSettings` writes projects as it knows them.
 */
function keepProjectExtras(stored: Record<string, unknown>, raw: unknown, host: string): void {
	// By path, the first of each as `find` gave it: looked up in a list for each project, 100,000 projects took minutes.
	const before = new Map<string, Record<string, unknown>>();
	for (const p of storedProjects(raw, host)) if (typeof p.path === "string" && !before.has(p.path.trim())) before.set(p.path.trim(), p);
	for (const project of storedProjects(stored, host)) {
		const old = typeof project.path === "string" ? before.get(project.path) : undefined;
		if (!old) continue;
		for (const [key, value] of Object.entries(old)) if (!(key in project)) project[key] = value;
	}
}
