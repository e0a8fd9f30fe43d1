import { growYoungIfHolding } from "./code-cache";
import { withExclusionsHere } from "./exclusions";
import { realpathSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { MemoryFolder, NoteStore, TranscriptStore } from "../core/ports";
import { DEFAULT_SETTINGS, type Settings } from "../core/settings";
import { redactionSpec } from "../core/ingest/redaction-policy";
import { planFromSources, runSync, type PlannedSync, type SyncDeps, type SyncOptions, type SyncReport } from "../core/sync/sync-engine";
import type { SyncState } from "../core/sync/sync-state";
import type { HookContext } from "../core/plan/hook-context";
import { TranscriptIndex } from "../core/ingest/transcript-index";
import { discoverProjects, type DiscoveredProject } from "../core/projects/project-discovery";
import { ClaudeMemoryFolder } from "./claude-memory-folder";
import { claudeMemoryDir, readClaudeSettings } from "./claude-memory-dir";
import { ProjectFolderFiles } from "./project-files";
import { resolveProjectFolder } from "./project-resolver";
import { repositoryFingerprint } from "./repository-fingerprint";
import type { FoldWorkerPool } from "./fold-worker-pool";
import { confineStateFolder, removeStateLeftovers, StateFolder } from "./state-folder";
import { acquireSyncLock, syncLockPath, type SyncTool } from "./sync-lock";
import { fencedNotes, withWriteFence } from "./write-fence";
import { keptOutOfStore } from "./kept-out";
import { readPendingRenames } from "./pending-renames";
import { openTranscriptIndex } from "./transcript-index";
import { nodeTranscriptSource, type AgentRoots } from "./transcript-source";
import { PRIVATE_FOLDER_MODE } from "./atomic-write";
import { makeFolder } from "./make-folder";
import { isDirectory } from "./absent-folder";


/**
 * The sync of one vault, as the plugin and the CLI both run it: transcripts from `projectsDir`,
 * state in `<plugin folder>/state`, notes through the given store. Models are redacted as they are
 * read, so neither notes nor state hold a secret.
 * Keeps its index between runs, so a long-lived caller (the plugin) re-reads only appended bytes.
 */
export class VaultSync {
	private readonly store: StateFolder;
	private readonly index: TranscriptIndex;
	private settings: Settings = DEFAULT_SETTINGS;
	private readonly claudeDir: string;
	private readonly stateDir: string;
	private readonly projectsDir: string;
	private readonly vaultPath: string | undefined;
	/** Why no fact was shared with Claude Code's folder in the last run, when it was not its folder. */
	private unshared: string | undefined;

	/**
	 * @param options.pool worker threads for the first read of new transcripts (the CLI has them);
	 * options.vaultPath the vault's folder, to give Claude Code absolute paths to notes.
	 */
	constructor(
		projectsDir: string,
		stateDir: string,
		private readonly notes: NoteStore,
		private readonly options: { pool?: FoldWorkerPool; vaultPath?: string; lock?: { tool: SyncTool; waitMs: number; signal?: AbortSignal; onLocked?: () => Promise<void> }; roots?: (settings: Settings) => AgentRoots } = {},
	) {
		this.stateDir = stateDir;
		this.projectsDir = projectsDir;
		// Its real path: what the facts were last shared with is told by this folder's name, the same through any link (the hook names it as the transcript's path does).
		this.claudeDir = realPathOr(dirname(projectsDir));
		// Its real path too: the block names the notes by it, and a vault synced through a link and through its folder rewrote the block at each change of spelling.
		this.vaultPath = options.vaultPath === undefined ? undefined : realPathOr(options.vaultPath);
		this.store = new StateFolder(stateDir);
		this.index = openTranscriptIndex(projectsDir, this.store, () => redactionSpec(this.settings), options.pool, () => this.roots(this.settings));
	}

	/** The agents to read and where: as the caller says, else Claude Code's folder alone. */
	private roots(settings: Settings): AgentRoots {
		return this.options.roots?.(settings) ?? { "claude-code": this.projectsDir };
	}

	/** Projects with sessions in the sync state whose folder exists on this machine, latest first. */
	async projects(): Promise<DiscoveredProject[]> {
		const found = discoverProjects(await this.store.loadState());
		const here = await Promise.all(found.map((p) => stat(p.path).then((s) => s.isDirectory(), () => false)));
		return found.filter((_, i) => here[i]);
	}

	/**
	 * One sync, under the lock the plugin, the CLI and the hooks share (when `options.lock` is set):
	 * two writers never run at once. Throws `SyncLockBusyError` (who holds it) after `waitMs`.
	 */
	async run(given: Settings, options: SyncOptions = {}): Promise<SyncReport> {
		const settings = withExclusionsHere(given);
		await confineStateFolder(this.stateDir);
		if (!this.options.lock) return this.runUnlocked(settings, options);
		await makeFolder(this.stateDir, PRIVATE_FOLDER_MODE);
		const lock = await acquireSyncLock(syncLockPath(this.stateDir), this.options.lock);
		try {
			// Before anything is read: what the caller waited for is now this sync's to read.
			await this.options.lock.onLocked?.();
			// Every write it commits first checks the lock is still its own (see `write-fence`).
			return await withWriteFence(() => lock.assertHeld(), () => this.runUnlocked(settings, options));
		} finally {
			await lock.release();
		}
	}

	/**
	 * What a sync would do, writing nothing: not the notes, not the state, not even the stored
	 * models (the transcripts are read into a throw-away index).
	 */
	async plan(given: Settings, options: SyncOptions = {}): Promise<PlannedSync> {
		const settings = withExclusionsHere(given);
		this.settings = settings;
		const state = await this.store.loadState();
		const readOnly: TranscriptStore = { known: () => this.store.known(), load: (path) => this.store.load(path), save: async () => undefined };
		const index = new TranscriptIndex(nodeTranscriptSource(this.projectsDir, undefined, () => this.roots(settings)), readOnly, () => redactionSpec(settings), keptOutOfStore);
		const planned = await planFromSources(await this.deps(settings, state, index, false), { ...options, dryRun: true });
		if (this.unshared !== undefined) planned.plan.notices.push(this.unshared);
		return planned;
	}

	private async runUnlocked(settings: Settings, options: SyncOptions): Promise<SyncReport> {
		this.settings = settings;
		await this.store.removeLeftPacks();
		await removeStateLeftovers(this.stateDir);
		// The digests' lists read when asked for: no other sync removes their files while this one holds the lock.
		const state = await this.store.loadState(true);
		growYoungIfHolding();
		// A CLI or hook sync takes the renames the plugin heard and no sync of its own took (Obsidian
		// quit first): an index renamed then is not written again at its old place. They stay for
		// the plugin, which passes its own: applied twice, a rename changes nothing more.
		const renames = options.renames ?? (await readPendingRenames(this.stateDir));
		const report = await runSync(await this.deps(settings, state, this.index), { ...options, renames });
		await this.store.flush(state);
		if (this.unshared !== undefined) report.notices.push(this.unshared);
		return report;
	}

	/**
	 * A project whose folder is not here (a drive not mounted, a folder moved away) keeps the hook
	 * context it had: no session starts in it, and 100,000 such projects were as many files read
	 * and compared at each sync. Written again once the folder is back; removed when kept out.
	 */
	private async writeHookContext(projectPath: string, context: HookContext | null): Promise<void> {
		if (context !== null && !(await isDirectory(projectPath))) return;
		await this.store.writeHookContext(projectPath, context);
	}

	/** @param removeLeftovers whether reading Claude Code's memory folders removes a killed run's temporary files (not in a dry run). */
	private async deps(settings: Settings, state: SyncState, index: TranscriptIndex, removeLeftovers = true): Promise<SyncDeps> {
		// Claude Code's own settings say where (and whether) it keeps each project's memory.
		const settingsPath = join(this.claudeDir, "settings.json");
		const claudeSettings = await readClaudeSettings(settingsPath);
		// No `projects/` folder: not Claude Code's folder (a typo in "claudeDir", the vault, a drive not
		// mounted), and the first write made `projects/<project>/memory` there with the vault's facts.
		const notClaude = (await isDirectory(this.projectsDir)) ? undefined : `Claude Code's folder ${this.claudeDir} has no projects folder (is it Claude Code's? check "claudeDir" in the settings, or --claude-dir), so no fact was shared with it`;
		this.unshared = undefined;
		const claudeMemory = (projectPath: string): MemoryFolder | undefined => {
			if (claudeSettings instanceof Error) return unknownMemoryFolder(settingsPath, claudeSettings);
			const dir = claudeMemoryDir(projectPath, { claudeDir: this.claudeDir, settings: claudeSettings });
			if (dir === undefined) return undefined;
			// The default folder stays inside Claude Code's projects folder; one the user set, inside itself.
			const projects = resolve(this.claudeDir, "projects").normalize("NFC");
			if (notClaude !== undefined && resolve(dir).startsWith(projects + sep)) {
				this.unshared = notClaude;
				return undefined;
			}
			return new ClaudeMemoryFolder(dir, resolve(dir).startsWith(projects + sep) ? projects : dir, removeLeftovers);
		};
		return { index, settings, state, notes: fencedNotes(this.notes), projects: new ProjectFolderFiles(), vaultPath: this.vaultPath, claudeMemory, hookContext: (path, context) => this.writeHookContext(path, context), resolve: resolveProjectFolder, fingerprint: repositoryFingerprint, now: Date.now };
	}
}

/** Where Claude Code keeps memory is not known: its folder is not shared this time, and the sync says why. */
function unknownMemoryFolder(settingsPath: string, why: Error): MemoryFolder {
	const refuse = (): never => {
		throw new Error(`Claude Code's settings cannot be read (${why.message}), so where it keeps memory is not known; fix the file, and the next sync shares memory again`);
	};
	return { path: settingsPath, list: async () => refuse(), write: async () => refuse(), remove: async () => refuse() };
}

function realPathOr(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return path;
	}
}
