import { FileSystemAdapter, Notice, Plugin, TFolder, type TFile } from "obsidian";
import { hostname } from "node:os";
import { join } from "node:path";
import { migrateSettings, newerSettingsProblem, settingsProblem, storeSettings, type Settings } from "./core/settings";
import { mergeSettings } from "./core/settings-merge";
import { DATA_JSON_LOCK } from "./node/plugin-paths";
import { acquireSyncLock } from "./node/sync-lock";
import { readPlainFile } from "./node/confined-path";
import { repeatedKeyProblem } from "./core/text/repeated-key";
import { jsonFault } from "./core/text/json-fault";
import { checkClaudeDir, deviceClaudeDir, claudeProjectsDir } from "./node/claude-paths";
import { checkProjectToAdd } from "./node/project-to-add";
import { readPendingRenames, writePendingRenames } from "./node/pending-renames";
import { aiderLayout, CLAUDE_LAYOUT, CODEX_LAYOUT, COPILOT_LAYOUT, GEMINI_LAYOUT, OPENCODE_LAYOUT, type TranscriptWatcher, type WatchLayout, type WatchMode, watchTranscripts } from "./node/transcript-watcher";
import { agentRoots } from "./node/agent-homes";
import { aiderHistoryName } from "./node/agent-scanners";
import { VaultSync } from "./node/vault-sync";
import { ConfirmModal } from "./obsidian/confirm-modal";
import { latestSessionNote, projectNames, projectOf, projectPathOf } from "./obsidian/projects";
import { ReviewFactsModal } from "./obsidian/review-facts-modal";
import { type HooksPlace, installHooksFromPlugin, removeHooksFromPlugin } from "./obsidian/hooks-commands";
import { saveSelectionAsFact } from "./obsidian/save-fact-command";
import { SettingsTab } from "./obsidian/settings-tab";
import { StatusBar } from "./obsidian/status-bar";
import { SyncController } from "./obsidian/sync-controller";
import { DeletionLog } from "./obsidian/deletion-log";
import { RenameLog } from "./obsidian/rename-log";
import { SyncLog, SyncLogModal } from "./obsidian/sync-log";
import { VaultNoteStore } from "./obsidian/vault-note-store";
import { SESSIONS_VIEW_TYPE, SessionsView } from "./obsidian/sessions-view";
import { writeDashboardNote } from "./obsidian/dashboard-command";
import { SessionCatalog } from "./node/session-catalog";

/**
 * Lifecycle and wiring only. `onload` registers commands, the status bar and the ribbon icon and
 * touches no file; the work starts when the layout is ready: settings, a catch-up sync of what
 * changed while Obsidian was closed, then live watching. Everything is registered, so unloading
 * leaves nothing running.
 */
export default class AiConversationMemoryPlugin extends Plugin {
	override settings: Settings = migrateSettings(undefined).settings;
	private readonly log = new SyncLog();
	private readonly renames = new RenameLog((moves) => this.keepRenames(moves));
	/** A note deleted: its neighbours and index link past it at the next sync, asked for at once when watching. */
	private readonly deletions = new DeletionLog(() => {
		if (this.settings.watch && !this.refused && !this.unloading && this.vaultPath() !== undefined) void this.started?.then((ok) => (ok ? this.controller.sync() : undefined));
	});
	private controller!: SyncController;
	private syncer: VaultSync | undefined;
	/** Settings read and the catch-up sync started; false: the settings could not be read (tried again at the next command). */
	private started: Promise<boolean> | undefined;
	/** data.json changed on disk into settings that cannot be used: watching stopped until they are right. */
	private refused = false;
	private watchers: TranscriptWatcher[] = [];
	private settingsTab: SettingsTab | undefined;
	/** The watchers' starts and stops, one after another (`rewatch`). */
	private watching: Promise<void> = Promise.resolve();
	private unloading = false;
	/** Aborted at unload: a sync still waiting for the CLI's lock then never starts. */
	private readonly stopping = new AbortController();

	override onload(): void {
		const status = new StatusBar(this.addStatusBarItem(), () => new SyncLogModal(this.app, this.log).open());
		this.controller = new SyncController(() => this.vaultSync(), () => this.settings, status, this.log, this.renames, () => this.refreshSessionsViews());
		// A note or folder the user moves keeps its session, index, packet or fact.
		this.registerEvent(this.app.vault.on("rename", (file, oldPath) => this.renames.add(oldPath, file.path)));
		this.registerEvent(this.app.vault.on("delete", (file) => this.deletions.add(file.path, file instanceof TFolder)));
		this.addRibbonIcon("messages-square", "Sync AI conversations", () => void this.syncNow({ manual: true }));
		// The view reads nothing until it opens (the sessions, then the search index in the background).
		this.registerView(SESSIONS_VIEW_TYPE, (leaf) => new SessionsView(leaf, {
			source: () => this.sessionCatalog(),
			prices: () => this.settings.prices,
			writeDashboard: (rows) => writeDashboardNote(this.app, this.settings, rows),
		}));
		this.addRibbonIcon("history", "Open AI sessions", () => void this.openSessionsView());
		this.addCommands();
		this.settingsTab = new SettingsTab(this.app, this, {
			get: () => this.settings,
			save: (settings) => this.saveSettings(settings),
			discover: async () => (this.vaultPath() ? this.vaultSync().projects() : []),
			checkClaudeDir: (path) => checkClaudeDir(deviceClaudeDir({ claudeDir: path })),
			checkProject: (path, projects) => checkProjectToAdd(path, projects),
		});
		this.addSettingTab(this.settingsTab);
		this.app.workspace.onLayoutReady(() => void this.start());
	}

	override onunload(): void {
		this.unloading = true;
		this.stopping.abort();
		// The renames heard in the last moment, and those a sync still waiting took, are kept for the next start, and so is a folder or
		// pattern still being typed (saved when its field is left, which a quit may never do).
		this.renames.close();
		this.deletions.close();
		void this.settingsTab?.flush();
		void this.controller.stop();
		void this.stopWatching();
	}

	/** Settings (see `usableSettings`), then a catch-up sync in the background. */
	private start(): Promise<boolean> {
		this.started ??= (async () => {
			const read = await this.usableSettings();
			if (read === undefined) return false;
			const { raw } = read;
			const { settings, migrated } = migrateSettings(raw, hostname());
			this.settings = settings;
			// A version 1 file's projects become this machine's, once; a newer release's file is read, never stored in this one's form.
			if (migrated && raw !== null && raw !== undefined && newerSettingsProblem(raw) === undefined) await this.saveData(storeSettings(settings, raw, hostname()));
			this.refused = false;
			// Renames heard before Obsidian last quit, that no sync took.
			const state = this.stateDir();
			if (state !== undefined) this.renames.putBack(await readPendingRenames(state));
			void this.controller.sync();
			await this.startWatching();
			return true;
		})();
		return this.started;
	}

	/** Live watching of each agent's sessions folder, as the settings say; a change asks the queue for a sync. */
	private startWatching(): Promise<void> {
		return this.rewatch(() => this.watchFolders());
	}

	private stopWatching(): Promise<void> {
		return this.rewatch(() => undefined);
	}

	/**
	 * Closes the watchers, then runs `next`, after any start or stop asked for before. Two at once
	 * (data.json changed twice in a row) each closed the same watchers and made their own: one set
	 * was never closed, and went on syncing with watching off and after the plugin was unloaded.
	 */
	private rewatch(next: () => void): Promise<void> {
		const done = this.watching.then(async () => {
			const watchers = this.watchers;
			this.watchers = [];
			// A change still in its quiet time is synced: closed with it, a session's last turn (the
			// person turned a project on right after) waited for another change.
			for (const w of watchers) w.flush();
			await Promise.all(watchers.map((w) => w.close()));
			next();
		});
		// A start that failed is the caller's to hear; the next one still runs.
		this.watching = done.catch(() => undefined);
		return done;
	}

	private watchFolders(): void {
		if (!this.settings.watch || this.unloading || !this.vaultPath()) return;
		const roots = agentRoots(this.settings, this.projectsDir());
		const folders: [string, string, WatchLayout][] = [];
		if (roots["claude-code"]) folders.push(["Claude Code", roots["claude-code"], CLAUDE_LAYOUT]);
		if (roots.codex) folders.push(["Codex", join(roots.codex, "sessions"), CODEX_LAYOUT]);
		if (roots["gemini-cli"]) folders.push(["Gemini CLI", join(roots["gemini-cli"], "tmp"), GEMINI_LAYOUT]);
		if (roots["copilot-cli"]) folders.push(["Copilot CLI", join(roots["copilot-cli"], "session-state"), COPILOT_LAYOUT]);
		// opencode writes every session into one database: its WAL changes at each step of a turn.
		if (roots.opencode) folders.push(["opencode", roots.opencode, OPENCODE_LAYOUT]);
		for (const project of roots.aider ?? []) folders.push(["Aider", project, aiderLayout(aiderHistoryName(project))]);
		this.watchers = folders.map(([agent, folder, layout]) => {
			let last: WatchMode | undefined;
			return watchTranscripts(folder, {
				debounceMs: this.settings.debounceMs,
				layout,
				// Only the files it names are read again (a new one brings the whole scan).
				onChange: (paths) => void this.controller.sync({ paths }),
				// After a switch to polling (or a folder that appeared), changes in between may be unnamed.
				onModeChange: (mode, reason) => {
					const switched = last !== undefined && last !== mode;
					last = mode;
					if (!switched) return;
					this.log.add("notice", `Watching the ${agent} sessions: ${mode} (${reason}).`);
					if (mode !== "waiting") void this.controller.sync();
				},
				onError: (error) => this.log.add("problem", `Watching the ${agent} sessions: ${error.message}`),
			});
		});
	}

	private projectsDir(): string {
		return claudeProjectsDir(deviceClaudeDir(this.settings));
	}

	async syncNow(job: Parameters<SyncController["sync"]>[0] = { manual: true }): Promise<void> {
		if (!(await this.start())) return;
		if (!this.vaultPath()) {
			new Notice("This plugin needs a vault on the local file system (desktop).");
			return;
		}
		await this.controller.sync(job);
	}

	private addCommands(): void {
		this.addCommand({ id: "sync-ai-conversations", name: "Sync AI conversations", callback: () => void this.syncNow() });
		this.addCommand({
			id: "sync-current-project",
			name: "Sync current project",
			callback: () => {
				const file = this.app.workspace.getActiveFile();
				const project = file ? projectPathOf(this.app, this.settings, file) : undefined;
				if (project === undefined) new Notice("Open a session note, a fact or a project's note first: its project is the one synced.");
				else void this.syncNow({ manual: true, project });
			},
		});
		this.addCommand({
			id: "rebuild-all-notes",
			name: "Rebuild all notes",
			callback: () =>
				new ConfirmModal(
					this.app,
					"Rebuild all notes?",
					"Every session note is rendered again, and notes you deleted are created again. Your own text below each note's generated part is kept.",
					"Rebuild",
					() => void this.syncNow({ manual: true, rebuild: true }),
				).open(),
		});
		this.addCommand({ id: "update-claude-md", name: "Update CLAUDE.md now", callback: () => void this.syncNow() });
		this.addCommand({
			id: "open-latest-session",
			name: "Open latest session of this project",
			callback: () => {
				const file = this.app.workspace.getActiveFile();
				const project = (file ? projectOf(this.app, this.settings, file) : undefined) ?? projectNames(this.app, this.settings)[0];
				const latest = project === undefined ? undefined : latestSessionNote(this.app, this.settings, project);
				if (latest) void this.app.workspace.getLeaf(false).openFile(latest);
				else new Notice("No session notes yet: sync first.");
			},
		});
		this.addCommand({
			id: "save-selection-as-memory-fact",
			name: "Save selection as memory fact",
			editorCallback: (editor, ctx) => saveSelectionAsFact(this.app, this.settings, editor, ctx.file),
		});
		this.addCommand({ id: "open-sessions-view", name: "Open sessions view", callback: () => void this.openSessionsView() });
		this.addCommand({
			id: "update-sessions-dashboard",
			name: "Update sessions dashboard",
			callback: async () => {
				if (!(await this.start())) return;
				const catalog = this.sessionCatalog();
				if (!catalog) new Notice("This plugin needs a vault on the local file system (desktop).");
				else new Notice(await writeDashboardNote(this.app, this.settings, await catalog.rows()));
			},
		});
		this.addCommand({ id: "review-proposed-facts", name: "Review proposed facts", callback: () => new ReviewFactsModal(this.app, this.settings).open() });
		this.addCommand({ id: "install-claude-code-hooks", name: "Install Claude Code hooks", callback: () => void this.withHooksPlace(installHooksFromPlugin) });
		this.addCommand({ id: "remove-claude-code-hooks", name: "Remove Claude Code hooks", callback: () => void this.withHooksPlace(removeHooksFromPlugin) });
	}

	private async withHooksPlace(action: (place: HooksPlace) => Promise<void>): Promise<void> {
		if (!(await this.start())) return;
		const vault = this.vaultPath();
		if (vault === undefined) {
			new Notice("This plugin needs a vault on the local file system (desktop).");
			return;
		}
		const claudeDir = deviceClaudeDir(this.settings);
		await action({ claudeDir, vault, configDir: this.app.vault.configDir, pluginDir: join(vault, this.manifest.dir ?? "") });
	}

	/** The Sessions view in the right sidebar: the open one, or a new one. */
	private async openSessionsView(): Promise<void> {
		if (!(await this.start())) return;
		const workspace = this.app.workspace;
		let leaf = workspace.getLeavesOfType(SESSIONS_VIEW_TYPE)[0];
		if (!leaf) {
			leaf = workspace.getRightLeaf(false) ?? workspace.getLeaf(true);
			await leaf.setViewState({ type: SESSIONS_VIEW_TYPE, active: true });
		}
		await workspace.revealLeaf(leaf);
	}

	/** Open Sessions views read the sessions again: only what changed is indexed and drawn again. */
	private refreshSessionsViews(): void {
		for (const leaf of this.app.workspace.getLeavesOfType(SESSIONS_VIEW_TYPE)) if (leaf.view instanceof SessionsView) void leaf.view.refresh();
	}

	/** What the sync prepared in the plugin's state folder, read by the Sessions view. */
	private sessionCatalog(): SessionCatalog | undefined {
		const vault = this.vaultPath();
		return vault === undefined ? undefined : new SessionCatalog(join(vault, this.manifest.dir ?? "", "state"));
	}

	/**
	 * data.json changed on disk (the CLI's `projects add`, a sync client, a hand edit): checked as at
	 * start (read as the defaults, `"enabled": "false"` enabled a project). Once settings that could
	 * not be used are right again, the plugin starts as it does at launch.
	 */
	override async onExternalSettingsChange(): Promise<void> {
		if (this.unloading) return;
		const read = await this.usableSettings();
		if (read === undefined) return;
		if (this.refused) {
			this.refused = false;
			await this.start();
			return;
		}
		await this.applySettings(migrateSettings(read.raw, hostname()).settings);
	}

	/**
	 * data.json as stored, when it can be used. One that cannot be read (not JSON, no permission) or
	 * is not settings is not missing: with the defaults, notes would go to the wrong folder and an
	 * excluded project would be synced. Then nothing runs: the user is told, watching stops, and the
	 * next command or change tries again.
	 */
	private async usableSettings(): Promise<{ raw: unknown } | undefined> {
		let raw: unknown;
		let message: string | undefined;
		try {
			raw = await this.loadData();
			// Obsidian gives null for no data.json: the defaults. It parses as JSON.parse does, keeping the last of a key given twice.
			const problem = (raw === null ? undefined : await this.repeatedSettingsKey()) ?? settingsProblem(raw === null ? undefined : raw);
			if (problem !== undefined) message = `AI conversation memory: its settings (data.json) are not valid, so nothing is synced: ${problem}. Fix the file.`;
		} catch (error) {
			message = `AI conversation memory: its settings (data.json) cannot be read, so nothing is synced: ${await this.loadFault(error)}. Fix or remove the file.`;
		}
		if (message === undefined) return { raw };
		this.log.add("problem", message);
		new Notice(message);
		this.refused = true;
		this.started = undefined;
		await this.stopWatching();
		return undefined;
	}

	/** Why `loadData` failed; for text that is not JSON, the place of the fault, not V8's quote of the text around it (the person's redaction patterns). */
	private async loadFault(error: unknown): Promise<string> {
		const vault = this.vaultPath();
		if (!(error instanceof SyntaxError) || vault === undefined) return error instanceof Error ? error.message : String(error);
		const text = await readPlainFile(join(vault, this.manifest.dir ?? "", "data.json")).catch(() => "");
		return jsonFault(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, error);
	}

	/** Why data.json's text gives a key twice (see `repeatedKeyProblem`), or undefined; a file that cannot be read here is `loadData`'s to refuse. */
	private async repeatedSettingsKey(): Promise<string | undefined> {
		const vault = this.vaultPath();
		if (vault === undefined) return undefined;
		const text = await readPlainFile(join(vault, this.manifest.dir ?? "", "data.json")).catch(() => undefined);
		return text === undefined ? undefined : repeatedKeyProblem(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	}

	/** Saved as this machine's view: other devices' projects in the same (synced) file stay as they are. */
	/**
	 * Saved taking turns with the CLI's `projects` commands (their lock), over what data.json holds
	 * now: a project `projects add` wrote a moment before, not yet heard here, is kept (`mergeSettings`).
	 */
	private async saveSettings(settings: Settings): Promise<void> {
		const vault = this.vaultPath();
		// Not had in time (a command stuck): saved all the same, merged, as before the lock.
		const lock = vault === undefined ? undefined : await acquireSyncLock(join(vault, this.manifest.dir ?? "", DATA_JSON_LOCK), { tool: "plugin", waitMs: 10_000 }).catch(() => undefined);
		try {
			let raw: unknown;
			try {
				raw = await this.loadData();
			} catch (error) {
				this.notSaved(`data.json cannot be read (${await this.loadFault(error)}); fix or remove the file, then change the setting again`);
				return;
			}
			const newer = newerSettingsProblem(raw);
			if (newer !== undefined) {
				this.notSaved(newer);
				return;
			}
			// A data.json the plugin refuses is the person's hand edit, not to be written over: the tab
			// shows the defaults then (nothing was read), and one toggle stored them, dropping their
			// notes folder, exclusions and patterns, and the next sync took the excluded projects.
			const problem = raw === null || raw === undefined ? undefined : ((await this.repeatedSettingsKey()) ?? settingsProblem(raw));
			if (problem !== undefined) {
				this.notSaved(`data.json is not valid (${problem}); fix the file, then change the setting again`);
				return;
			}
			const merged = raw === null || raw === undefined ? settings : mergeSettings(this.settings, settings, migrateSettings(raw, hostname()).settings);
			await this.saveData(storeSettings(merged, raw, hostname()));
			await this.applySettings(merged);
		} finally {
			await lock?.release();
		}
	}

	private notSaved(why: string): void {
		const message = `AI conversation memory: the settings were not saved: ${why}.`;
		this.log.add("problem", message);
		new Notice(message);
	}

	/** New settings in force: another transcripts folder means another sync engine and watcher. */
	private async applySettings(settings: Settings): Promise<void> {
		const before = this.settings;
		if (settings.claudeDir !== before.claudeDir) this.syncer = undefined;
		this.settings = settings;
		// The folders watched follow the agents read, their folders and (for Aider) the enabled projects.
		const watched = (s: Settings) => JSON.stringify(agentRoots(s, claudeProjectsDir(deviceClaudeDir(s))));
		if (settings.watch !== before.watch || settings.debounceMs !== before.debounceMs || watched(settings) !== watched(before)) await this.startWatching();
	}

	/** The renames waiting, kept in the state folder (`node/pending-renames.ts`) until a sync takes them. */
	private keepRenames(moves: readonly { from: string; to: string }[]): void {
		const state = this.stateDir();
		if (state === undefined) return;
		try {
			writePendingRenames(state, moves);
		} catch (error) {
			// Not kept (a full disk): the next sync in this run takes them all the same.
			this.log.add("problem", `The renames waiting for the next sync could not be kept in ${state}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	private stateDir(): string | undefined {
		const vault = this.vaultPath();
		return vault === undefined ? undefined : join(vault, this.manifest.dir ?? "", "state");
	}

	/** A move the sync makes (`FileManager.renameFile`, links following), announced to the rename log first: it is not the user's. */
	private async ownRename(file: TFile, to: string): Promise<void> {
		const from = file.path;
		this.renames.expect(from, to);
		try {
			await this.app.fileManager.renameFile(file, to);
		} catch (error) {
			this.renames.unexpect(from, to);
			throw error;
		}
	}

	private vaultPath(): string | undefined {
		const adapter = this.app.vault.adapter;
		return adapter instanceof FileSystemAdapter ? adapter.getBasePath() : undefined;
	}

	/** One sync engine for the plugin's life: it keeps its index between syncs and reads only what was appended. */
	private vaultSync(): VaultSync {
		const vault = this.vaultPath();
		if (vault === undefined) throw new Error("This plugin needs a vault on the local file system (desktop).");
		this.syncer ??= new VaultSync(this.projectsDir(), join(vault, this.manifest.dir ?? "", "state"), new VaultNoteStore(this.app.vault, (file) => this.app.fileManager.trashFile(file), (file, to) => this.ownRename(file, to)), {
			vaultPath: vault,
			// Shared with the CLI and the hooks: the plugin waits a while for theirs to end.
			lock: { tool: "plugin", waitMs: 30_000, signal: this.stopping.signal },
			// Every agent the settings turn on, each from its folder on this device.
			roots: (settings) => agentRoots(settings, this.projectsDir()),
		});
		return this.syncer;
	}
}
