import { deviceIdOf, type Settings } from "../src/core/settings";
// @vitest-environment happy-dom
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
// The stub is the module the plugin gets for `obsidian` here (vitest alias), with its test-only members.
import { Modal, Notice, Vault } from "./stubs/obsidian";
import { stubApp } from "./stubs/app";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import esbuild from "esbuild";
import manifest from "../manifest.json";
import AiConversationMemoryPlugin from "../src/main";
import { acquireSyncLock, syncLockPath } from "../src/node/sync-lock";

const repo = resolve(__dirname, "..");
let claudeDir: string;
let vaultDir: string;
let saved: string | undefined;

beforeEach(() => {
	claudeDir = mkdtempSync(join(tmpdir(), "plugin-claude-"));
	vaultDir = mkdtempSync(join(tmpdir(), "plugin-vault-"));
	cpSync(join(repo, "examples", "claude-projects"), join(claudeDir, "projects"), { recursive: true });
	saved = process.env.CLAUDE_CONFIG_DIR;
	process.env.CLAUDE_CONFIG_DIR = claudeDir;
});
afterEach(() => {
	while (Modal.open.length > 0) Modal.open.at(-1)!.close();
	if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
	else process.env.CLAUDE_CONFIG_DIR = saved;
	rmSync(claudeDir, { recursive: true, force: true });
	rmSync(vaultDir, { recursive: true, force: true });
});

const pluginManifest = { ...manifest, dir: ".obsidian/plugins/ai-conversation-memory" };

interface Loaded {
	plugin: AiConversationMemoryPlugin;
	app: ReturnType<typeof stubApp>;
	vault: Vault;
	stub: {
		commands: { id: string; name: string; hotkeys?: unknown[]; callback?: () => unknown }[];
		statusBarItems: HTMLElement[];
		ribbonIcons: { title: string; el: HTMLElement }[];
		intervals: Set<number>;
		data: unknown;
	};
}

function load(vault = new Vault(), data?: unknown): Loaded {
	const app = stubApp(vault, vaultDir);
	const plugin = new AiConversationMemoryPlugin(app as never, pluginManifest);
	if (data !== undefined) (plugin as unknown as { data: unknown }).data = data;
	plugin.load();
	return { plugin, app, vault, stub: plugin as unknown as Loaded["stub"] };
}

/** A prompt appended to the first demo session's transcript, as Claude Code writes one. */
function appendPrompt(uuid: string, timestamp: string, content: string): void {
	const sessionId = "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01";
	const line = { type: "user", sessionId, uuid, timestamp, cwd: "/tmp/ai-memory-demo/shop-api", message: { role: "user", content } };
	appendFileSync(join(claudeDir, "projects", "-tmp-ai-memory-demo-shop-api", `${sessionId}.jsonl`), `${JSON.stringify(line)}\n`);
}

async function settle(plugin: AiConversationMemoryPlugin): Promise<void> {
	// The catch-up sync runs in the background once the layout is ready: wait for it and the queue.
	const inside = plugin as unknown as { started?: Promise<void>; controller: { idle(): Promise<void> } };
	await inside.started;
	await new Promise((r) => setTimeout(r, 0));
	await inside.controller.idle();
}

function run(l: Loaded, id: string): unknown {
	const command = l.stub.commands.find((c) => c.id === id);
	if (!command?.callback) throw new Error(`no command ${id}`);
	return command.callback();
}

async function waitFor(done: () => boolean, ms = 2_000): Promise<void> {
	for (let i = 0; i < ms / 10 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
	expect(done()).toBe(true);
}

const sessionNotes = (vault: Vault) => vault.getFiles().filter((f) => /AI Conversations\/shop-api\/2026-/.test(f.path));

/**
 * The plugin loaded and synced, the shop's session notes sorted by path, and the one at `at` to be
 * lost: `linking` names the notes and the index that link to it (more than one, checked).
 */
async function loadedWithNoteToLose(at: number) {
	const l = load();
	l.app.workspace.ready();
	await settle(l.plugin);
	const notes = sessionNotes(l.vault).sort((a, b) => a.path.localeCompare(b.path));
	const gone = notes[at]!;
	const name = gone.path.slice(0, -3);
	const index = "AI Conversations/shop-api/shop-api.md";
	const linking = () => [...notes.filter((n) => n !== gone).map((n) => n.path), index].filter((p) => l.vault.cachedText(p)?.includes(`[[${name}`));
	expect(linking().length).toBeGreaterThan(1);
	return { l, gone, linking };
}

describe("the plugin", () => {
	it("registers its commands, status bar and ribbon icon on load, with no default hotkey, and reads no file yet", () => {
		const l = load();
		expect(l.stub.commands.map((c) => [c.id, c.name, c.hotkeys])).toEqual([
			["sync-ai-conversations", "Sync AI conversations", undefined],
			["sync-current-project", "Sync current project", undefined],
			["rebuild-all-notes", "Rebuild all notes", undefined],
			["update-claude-md", "Update CLAUDE.md now", undefined],
			["open-latest-session", "Open latest session of this project", undefined],
			["save-selection-as-memory-fact", "Save selection as memory fact", undefined],
			["open-sessions-view", "Open sessions view", undefined],
			["update-sessions-dashboard", "Update sessions dashboard", undefined],
			["review-proposed-facts", "Review proposed facts", undefined],
			["install-claude-code-hooks", "Install Claude Code hooks", undefined],
			["remove-claude-code-hooks", "Remove Claude Code hooks", undefined],
		]);
		expect(l.stub.statusBarItems[0]?.textContent).toBe("AI memory: idle");
		expect(l.stub.ribbonIcons.map((r) => r.title)).toEqual(["Sync AI conversations", "Open AI sessions"]);
		expect(l.vault.getFiles()).toEqual([]);
	});

	it("catches up when the layout is ready, silently, then syncs on command with a result notice", async () => {
		const l = load();
		const before = Notice.shown.length;
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(4);
		expect(Notice.shown.length).toBe(before);
		expect(l.stub.statusBarItems[0]?.textContent).toMatch(/^AI memory: synced \d\d:\d\d · 6 notes$/);

		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		expect(Notice.shown.at(-1)).toBe("Nothing to sync: no transcript changed since the last sync, nothing written.");
	});

	it("settings of the wrong type where they keep things out are not the defaults: it syncs nothing and says what is wrong", async () => {
		const l = load();
		const plugin = l.plugin as unknown as { loadData(): Promise<unknown> };
		const stored = plugin.loadData.bind(plugin);
		plugin.loadData = () => Promise.resolve({ excludedProjects: "/home/me/secret" });
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(0);
		expect(Notice.shown.at(-1)).toMatch(/^AI conversation memory: its settings \(data\.json\) are not valid, so nothing is synced: "excludedProjects" is not a list of paths/);
		plugin.loadData = stored;
		await (run(l, "sync-ai-conversations") as Promise<void>);
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(4);
	});

	it("a data.json that gives a key twice is refused, naming the key: Obsidian read the last, and a project excluded first was synced", async () => {
		const folder = join(vaultDir, pluginManifest.dir);
		mkdirSync(folder, { recursive: true });
		const text = '{"excludedProjects": ["/home/me/secret"], "excludedProjects": []}';
		writeFileSync(join(folder, "data.json"), text);
		const l = load(new Vault(), JSON.parse(text));
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(0);
		expect(Notice.shown.at(-1)).toMatch(/^AI conversation memory: its settings \(data\.json\) are not valid, so nothing is synced: the key "excludedProjects" is given twice/);
		writeFileSync(join(folder, "data.json"), '{"excludedProjects": []}');
		await (run(l, "sync-ai-conversations") as Promise<void>);
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(4);
	});

	it("settings it cannot read are not missing: it syncs nothing, says so, and starts once they can be read", async () => {
		const l = load();
		const plugin = l.plugin as unknown as { loadData(): Promise<unknown> };
		const stored = plugin.loadData.bind(plugin);
		plugin.loadData = () => Promise.reject(new SyntaxError("Unexpected token } in JSON at position 12"));
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(0);
		expect(Notice.shown.at(-1)).toMatch(/^AI conversation memory: its settings \(data\.json\) cannot be read, so nothing is synced: Unexpected token/);
		await (run(l, "sync-ai-conversations") as Promise<void>);
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(0);
		plugin.loadData = stored;
		await (run(l, "sync-ai-conversations") as Promise<void>);
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(4);
	});

	it("saves nothing from the settings tab over a data.json it refused: the person's file stays, and no sync takes the defaults", async () => {
		const data = { version: 2, notesFolder: "My Chats", excludedProjects: "/tmp/ai-memory-demo/shop-api", redaction: { enabled: true, extraPatterns: ["ACME-[0-9]+"] } };
		const l = load(new Vault(), structuredClone(data));
		l.app.workspace.ready();
		await settle(l.plugin);
		const plugin = l.plugin as unknown as { settings: Settings; saveSettings(s: Settings): Promise<void> };
		await plugin.saveSettings({ ...plugin.settings, detail: "full" });
		expect(l.stub.data).toEqual(data);
		expect(Notice.shown.at(-1)).toBe('AI conversation memory: the settings were not saved: data.json is not valid ("excludedProjects" is not a list of paths (["/path/one", "/path/two"])); fix the file, then change the setting again.');
		await (run(l, "sync-ai-conversations") as Promise<void>);
		await settle(l.plugin);
		expect(l.vault.getFiles()).toEqual([]);
		// Not JSON at all: the same, and no rejection left to the tab.
		(l.plugin as unknown as { loadData(): Promise<unknown> }).loadData = () => Promise.reject(new SyntaxError("Unexpected end of JSON input"));
		await plugin.saveSettings({ ...plugin.settings, detail: "full" });
		expect(Notice.shown.at(-1)).toMatch(/^AI conversation memory: the settings were not saved: data\.json cannot be read \(Unexpected end of JSON input.*\); fix or remove the file, then change the setting again\.$/);
		expect(l.stub.data).toEqual(data);
		l.plugin.unload();
	});

	it("tells where data.json is not JSON without quoting its text there (a redaction pattern is a secret word)", async () => {
		const text = '{"version":2,"redaction":{"enabled":true,"extraPatterns":["Qv9TopSecretWord8Hz", ]}}';
		mkdirSync(join(vaultDir, pluginManifest.dir), { recursive: true });
		writeFileSync(join(vaultDir, pluginManifest.dir, "data.json"), text);
		const l = load();
		(l.plugin as unknown as { loadData(): Promise<unknown> }).loadData = async () => JSON.parse(text) as unknown;
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(Notice.shown.at(-1)).toBe("AI conversation memory: its settings (data.json) cannot be read, so nothing is synced: Unexpected token ']' at line 1, column 82. Fix or remove the file.");
	});

	it("data.json changed on disk into settings it cannot use: stops, says why, and starts again once they are right", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(4);
		const plugin = l.plugin as unknown as { loadData(): Promise<unknown>; onExternalSettingsChange(): Promise<void>; watchers: unknown[] };
		const stored = plugin.loadData.bind(plugin);
		plugin.loadData = () => Promise.resolve({ version: 2, devices: {}, projects: [{ path: "/p", enabled: "false" }] });
		await plugin.onExternalSettingsChange();
		expect(Notice.shown.at(-1)).toMatch(/^AI conversation memory: its settings \(data\.json\) are not valid, so nothing is synced: the project "\/p": "enabled" is "false"/);
		expect(plugin.watchers).toEqual([]);
		plugin.loadData = () => Promise.reject(new SyntaxError("Unexpected end of JSON input"));
		await plugin.onExternalSettingsChange();
		expect(Notice.shown.at(-1)).toMatch(/cannot be read, so nothing is synced: Unexpected end of JSON input/);
		plugin.loadData = stored;
		await plugin.onExternalSettingsChange();
		await settle(l.plugin);
		expect(plugin.watchers.length).toBeGreaterThan(0);
	});

	it("a data.json whose notes folder leads out of the vault syncs nothing and says why", async () => {
		const l = load();
		l.stub.data = { version: 2, notesFolder: "../outside" };
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(0);
		expect(Notice.shown.at(-1)).toBe('Sync failed: the notes folder "../outside" leads out of the vault: set one inside it');
		expect(l.vault.getFiles().map((f) => f.path)).toEqual([]);
	});

	it("rebuilds all notes only after asking, and brings back a deleted note", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const note = sessionNotes(l.vault)[0]!;
		await l.app.fileManager.trashFile(note);
		run(l, "rebuild-all-notes");
		const modal = Modal.open.at(-1)!;
		expect(modal.titleEl.textContent).toBe("Rebuild all notes?");
		modal.contentEl.querySelector<HTMLButtonElement>("button.mod-warning")!.click();
		await settle(l.plugin);
		expect(sessionNotes(l.vault)).toHaveLength(4);
	});

	it("a session note deleted in Obsidian: at once, with no transcript changed, the notes beside it and the index link past it", async () => {
		const { l, gone, linking } = await loadedWithNoteToLose(1);
		await l.app.fileManager.trashFile(gone);
		await new Promise((r) => setTimeout(r, 0));
		await settle(l.plugin);
		expect(linking()).toEqual([]);
		expect(l.vault.getFileByPath(gone.path)).toBeNull();
		expect(l.stub.statusBarItems[0]?.textContent).toMatch(/^AI memory: synced/);
		// Deleted by the person, it stays so.
		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		expect(l.vault.getFileByPath(gone.path)).toBeNull();
		l.plugin.unload();
	});

	it("a session note deleted while Obsidian was closed (no event told of it): the next sync links past it, in the notes beside it and the index", async () => {
		const { l, gone, linking } = await loadedWithNoteToLose(2);
		l.vault.goneWhileClosed(gone);
		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		expect(linking()).toEqual([]);
		expect(l.vault.getFileByPath(gone.path)).toBeNull();
		expect(Notice.shown.at(-1)).toMatch(/1 deleted by you and left so/);
		l.plugin.unload();
	});

	it("with live watching off, a deletion asks for no sync; the next sync takes it, and a folder's deletion is one event for the notes below it", async () => {
		const l = load();
		const plugin = l.plugin as unknown as { settings: Settings; saveSettings(s: Settings): Promise<void>; controller: { sync(job?: object): Promise<unknown> } };
		l.app.workspace.ready();
		await settle(l.plugin);
		await plugin.saveSettings({ ...plugin.settings, watch: false });
		const notes = sessionNotes(l.vault).sort((a, b) => a.path.localeCompare(b.path));
		const index = "AI Conversations/shop-api/shop-api.md";
		await l.vault.createFolder("Archive");
		await l.app.fileManager.renameFile(notes[2]!, "Archive/kept a while.md");
		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		let syncs = 0;
		const sync = plugin.controller.sync.bind(plugin.controller);
		plugin.controller.sync = (job?: object) => (syncs++, sync(job));
		await l.app.fileManager.trashFile(l.vault.getFolderByPath("Archive")!);
		await new Promise((r) => setTimeout(r, 0));
		await settle(l.plugin);
		expect(syncs).toBe(0);
		expect(l.vault.cachedText(index)).toContain("[[Archive/kept a while");
		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		expect(l.vault.cachedText(index)).not.toContain("[[Archive/kept a while");
		expect(Notice.shown.at(-1)).toMatch(/1 deleted by you and left so/);
		l.plugin.unload();
	});

	it("follows a session note and the index the user moved: updated where they are now, never taken for deleted", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const note = sessionNotes(l.vault).find((f) => f.path.includes("Add a GET"))!;
		const index = l.vault.getFileByPath("AI Conversations/shop-api/shop-api.md")!;
		await l.vault.createFolder("Projects");
		await l.app.fileManager.renameFile(note, "Projects/GET endpoint.md");
		await l.app.fileManager.renameFile(index, "Projects/Shop API sessions.md");
		appendPrompt("0f0f0f0f-0000-4000-8000-000000000002", "2026-11-29T23:00:00.000Z", "One more thing after the move");
		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		expect(l.vault.cachedText("Projects/GET endpoint.md")).toContain("One more thing after the move");
		expect(l.vault.getFileByPath(note.path)).toBe(note);
		expect(sessionNotes(l.vault).some((f) => f.path.includes("Add a GET"))).toBe(false);
		expect(l.vault.getFileByPath("AI Conversations/shop-api/shop-api.md")).toBeNull();
		expect(l.vault.cachedText("Projects/Shop API sessions.md")).toContain("[[Projects/GET endpoint|");
		// The other notes link to it where it is now.
		expect(sessionNotes(l.vault).some((f) => l.vault.cachedText(f.path)?.includes("[[Projects/GET endpoint|"))).toBe(true);
		expect(Notice.shown.at(-1)).toMatch(/^Synced 1 transcript: /);
		l.plugin.unload();
	});

	it("the notes folder set to another folder and back: every note and the index go back, its own moves never taken for the user's", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const plugin = l.plugin as unknown as { settings: Settings; saveSettings(s: Settings): Promise<void> };
		const paths = () => l.vault.getFiles().map((f) => f.path);
		expect(paths()).toContain("AI Conversations/shop-api/shop-api.md");
		await plugin.saveSettings({ ...plugin.settings, notesFolder: "Chats" });
		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		expect(paths()).toContain("Chats/shop-api/shop-api.md");
		await plugin.saveSettings({ ...plugin.settings, notesFolder: "AI Conversations" });
		run(l, "sync-ai-conversations");
		await settle(l.plugin);
		expect(paths().filter((p) => p.startsWith("Chats/") && p.endsWith(".md"))).toEqual([]);
		expect(paths()).toContain("AI Conversations/shop-api/shop-api.md");
		l.plugin.unload();
	});

	it("an index renamed, then Obsidian quit before any sync: after the restart the renamed one is still the index, no second one", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const index = l.vault.getFileByPath("AI Conversations/shop-api/shop-api.md")!;
		await l.app.fileManager.renameFile(index, "AI Conversations/shop-api/Shop API sessions.md");
		l.plugin.unload();
		const again = load(l.vault, (l.plugin as unknown as { data: unknown }).data);
		appendPrompt("0f0f0f0f-0000-4000-8000-000000000003", "2026-11-29T23:30:00.000Z", "One more thing after the restart");
		again.app.workspace.ready();
		await settle(again.plugin);
		expect(again.vault.getFileByPath("AI Conversations/shop-api/shop-api.md")).toBeNull();
		expect(again.vault.cachedText("AI Conversations/shop-api/Shop API sessions.md")).toMatch(/sessions: \d/);
		again.plugin.unload();
	});

	it("unloaded while a manual sync runs: the sync finishes and releases the lock, and no notice pops up after the plugin is gone", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		appendPrompt("0f0f0f0f-0000-4000-8000-000000000004", "2026-11-29T23:40:00.000Z", "Work while the plugin goes");
		run(l, "sync-ai-conversations");
		// Under way: past the queue, reading.
		await new Promise((resolve) => setTimeout(resolve, 5));
		l.plugin.unload();
		const unloadedAt = Notice.shown.length;
		await (l.plugin as unknown as { controller: { idle(): Promise<void> } }).controller.idle();
		expect(Notice.shown.slice(unloadedAt)).toEqual([]);
		expect(existsSync(join(vaultDir, pluginManifest.dir, "state", "sync.lock"))).toBe(false);
	});

	it("syncs the project of the open note, and opens the latest session of a project", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		run(l, "sync-current-project");
		expect(Notice.shown.at(-1)).toMatch(/^Open a session note/);

		l.app.workspace.activeFile = l.vault.getFileByPath("AI Conversations/shop-api/shop-api.md");
		run(l, "open-latest-session");
		await Promise.resolve();
		const opened = l.app.workspace.opened.at(-1)!;
		expect(opened.path).toMatch(/^AI Conversations\/shop-api\/2026-11-29 /);
		run(l, "sync-current-project");
		await settle(l.plugin);
		expect(Notice.shown.at(-1)).toMatch(/^Nothing to sync/);
	});

	it("reviews proposed facts: accept moves one into the memory, reject deletes it", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const fact = (name: string) => `---\nname: ${name}\ndescription: Always ${name}\nmetadata:\n  type: feedback\n---\nBody\n`;
		await l.vault.createFolder("AI Memory");
		await l.vault.createFolder("AI Memory/shop-api");
		await l.vault.createFolder("AI Memory/shop-api/_inbox");
		await l.vault.create("AI Memory/shop-api/_inbox/use-pnpm.md", fact("use-pnpm"));
		await l.vault.create("AI Memory/shop-api/_inbox/run-tests.md", fact("run-tests"));
		run(l, "review-proposed-facts");
		await new Promise((r) => setTimeout(r, 0));
		const modal = Modal.open.at(-1)!;
		const rows = () => [...modal.contentEl.querySelectorAll(".setting-item")];
		expect(rows().map((r) => r.querySelector(".setting-item-name")?.textContent)).toEqual(["Always run-tests", "Always use-pnpm"]);
		rows()[0]!.querySelector<HTMLButtonElement>("button.mod-warning")!.click();
		await new Promise((r) => setTimeout(r, 0));
		rows()[0]!.querySelector<HTMLButtonElement>("button.mod-cta")!.click();
		await new Promise((r) => setTimeout(r, 0));
		expect(l.vault.getFileByPath("AI Memory/shop-api/_inbox/run-tests.md")).toBeNull();
		expect(l.vault.getFileByPath("AI Memory/shop-api/use-pnpm.md")).not.toBeNull();
		expect(modal.contentEl.textContent).toContain("No proposed facts are waiting.");
	});

	it("has a settings tab, and keeps another machine's projects when this one saves", async () => {
		const other = { claudeDir: "/Users/me/.claude", projects: [{ path: "/Users/me/code/api", enabled: true }] };
		const l = load();
		l.stub.data = { version: 2, notesFolder: "Claude", devices: { "other-laptop": other } };
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(l.plugin.settings.notesFolder).toBe("Claude");
		expect(l.plugin.settings.projects).toEqual([]);
		const tab = (l.stub as unknown as { settingTabs: { host: { save(s: unknown): Promise<void> } }[] }).settingTabs;
		expect(tab).toHaveLength(1);
		await tab[0]!.host.save({ ...l.plugin.settings, projects: [{ ...l.plugin.settings.projects, path: "/home/dev/shop-api", enabled: true, target: "CLAUDE.md", mode: "lazy", sessions: 5, budget: 1000, memorySharing: true, redaction: true }] });
		const data = l.stub.data as { devices: Record<string, unknown> };
		expect(data.devices["other-laptop"]).toEqual(other);
		expect(Object.keys(data.devices)).toHaveLength(2);
	});

	it("reads a data.json a newer release wrote and syncs with it, but never stores it in this release's form: not at start, not from the settings tab (attack round 34)", async () => {
		const l = load();
		const newer = { version: 4, notesFolder: "Claude", detail: "outline", devices: {} };
		l.stub.data = structuredClone(newer);
		l.app.workspace.ready();
		await settle(l.plugin);
		expect(l.plugin.settings.notesFolder).toBe("Claude");
		expect(l.stub.data).toEqual(newer);
		const tab = (l.stub as unknown as { settingTabs: { host: { save(s: unknown): Promise<void> } }[] }).settingTabs;
		await tab[0]!.host.save({ ...l.plugin.settings, notesFolder: "Elsewhere" });
		expect(l.stub.data).toEqual(newer);
		expect(l.plugin.settings.notesFolder).toBe("Claude");
		expect(Notice.shown.at(-1)).toMatch(/^AI conversation memory: the settings were not saved: they were written by a newer release of AI Conversation Memory \(settings version 4, this one knows 2\)/);
	});

	it("installs the Claude Code hooks with the CLI it carries, and removes them leaving no settings file", async () => {
		const built = await esbuild.build({ entryPoints: [join(repo, "src", "cli", "main.ts")], bundle: true, platform: "node", format: "cjs", mainFields: ["module", "main"], external: builtinModules.flatMap((m) => [m, `node:${m}`]), loader: { ".wasm": "binary" }, define: { "import.meta.url": "undefined" }, write: false, logLevel: "warning" });
		(globalThis as { AI_MEMORY_CLI_SOURCE?: { loader: string } }).AI_MEMORY_CLI_SOURCE = { loader: built.outputFiles[0]!.text };
		try {
			const l = load();
			l.app.workspace.ready();
			await settle(l.plugin);
			run(l, "install-claude-code-hooks");
			const settingsFile = join(claudeDir, "settings.json");
			await waitFor(() => Notice.shown.at(-1)?.startsWith("Claude Code hooks installed") === true);
			const cli = join(vaultDir, pluginManifest.dir, "ai-memory.cjs");
			const hooks = (JSON.parse(readFileSync(settingsFile, "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
			expect(Object.keys(hooks)).toEqual(["SessionStart", "UserPromptSubmit", "SessionEnd", "PreCompact", "InstructionsLoaded"]);
			expect(hooks.SessionStart![0]!.hooks[0]!.command).toContain(`"${cli}" hook session-start --vault "${vaultDir}"`);
			expect(spawnSync(process.execPath, [cli, "--help"], { encoding: "utf8" }).stdout).toContain("ai-memory");
			// The CLI reads SQLite's WebAssembly (opencode's database) from beside it: written with it, byte for byte.
			expect(readFileSync(join(vaultDir, pluginManifest.dir, "wa-sqlite.wasm")).equals(readFileSync(join(repo, "node_modules", "@journeyapps", "wa-sqlite", "dist", "wa-sqlite.wasm")))).toBe(true);
			expect(Notice.shown.at(-1)).toBe(`Claude Code hooks installed in ${settingsFile} (a new file: there was none).`);
			expect(existsSync(`${settingsFile}.bak-ai-memory`)).toBe(false);

			run(l, "remove-claude-code-hooks");
			await waitFor(() => Notice.shown.at(-1)?.startsWith("Claude Code hooks removed") === true);
			expect(existsSync(settingsFile)).toBe(false);
			expect(Notice.shown.at(-1)).toBe(`Claude Code hooks removed from ${settingsFile}.`);
		} finally {
			delete (globalThis as { AI_MEMORY_CLI_SOURCE?: { loader: string } }).AI_MEMORY_CLI_SOURCE;
		}
	});

	it("syncs by itself when a transcript grows, while watching", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		appendPrompt("0f0f0f0f-0000-4000-8000-000000000001", "2026-11-29T23:00:00.000Z", "Also add a watcher test note");
		const note = () => sessionNotes(l.vault).find((f) => f.path.includes("Add a GET"));
		await waitFor(() => l.vault.cachedText(note()!.path)?.includes("Also add a watcher test note") === true, 15_000);
		l.plugin.unload();
	}, 20_000);

	it("leaves nothing behind when unloaded", async () => {
		const before = process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap").length;
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const bar = l.stub.statusBarItems[0]!;
		document.body.appendChild(bar);
		l.plugin.unload();
		expect(bar.isConnected).toBe(false);
		expect(l.stub.intervals.size).toBe(0);
		expect(l.app.workspace.listenerCount()).toBe(0);
		// The watcher and its timers are gone too (a moment for handles to close).
		await waitFor(() => process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap").length <= before);
	});

	it("syncs a turn still in the watcher's quiet time when a setting restarts the watching", async () => {
		const l = load(undefined, { version: 2, debounceMs: 5_000 });
		l.app.workspace.ready();
		await settle(l.plugin);
		const plugin = l.plugin as unknown as { settings: Settings; saveSettings(s: Settings): Promise<void>; watchers: { ready: Promise<void> }[] };
		await Promise.all(plugin.watchers.map((w) => w.ready));
		appendPrompt("0f0f0f0f-0000-4000-8000-000000000003", "2026-11-29T23:00:00.000Z", "Written just before the setting changed");
		await new Promise((r) => setTimeout(r, 300));
		await plugin.saveSettings({ ...plugin.settings, debounceMs: 4_000 });
		const note = () => sessionNotes(l.vault).find((f) => f.path.includes("Add a GET"));
		await waitFor(() => l.vault.cachedText(note()!.path)?.includes("Written just before the setting changed") === true, 3_000);
		l.plugin.unload();
	});

	it("keeps a notes folder still being typed in its settings tab when unloaded (Obsidian quit with the tab open)", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const tab = (l.stub as unknown as { settingTabs: { display(): void; containerEl: HTMLElement }[] }).settingTabs[0]!;
		tab.display();
		const row = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")].find((x) => x.querySelector(".setting-item-name")?.textContent === "Notes folder")!;
		const field = row.querySelector<HTMLInputElement>("input")!;
		field.value = "Chats";
		field.dispatchEvent(new Event("input"));
		l.plugin.unload();
		await waitFor(() => (l.stub.data as { notesFolder?: string } | null)?.notesFolder === "Chats");
	});

	it("writes nothing once unloaded while its sync waited for the CLI's lock", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const cli = await acquireSyncLock(syncLockPath(join(vaultDir, pluginManifest.dir, "state")), { tool: "cli" });
		appendPrompt("0f0f0f0f-0000-4000-8000-000000000002", "2026-11-29T23:00:00.000Z", "Asked while the CLI synced");
		const waiting = (l.plugin as unknown as { controller: { sync(): Promise<unknown> } }).controller.sync();
		await new Promise((r) => setTimeout(r, 300));
		l.plugin.unload();
		await cli.release();
		await waiting;
		expect(sessionNotes(l.vault).some((f) => l.vault.cachedText(f.path)?.includes("Asked while the CLI synced"))).toBe(false);
	});

	it("keeps a project the CLI added a moment before when the settings tab saves, and takes turns with the CLI's lock", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const plugin = l.plugin as unknown as { settings: Settings; saveSettings(s: Settings): Promise<void> };
		// `projects add` wrote data.json; the plugin has not heard of it yet.
		const added = { path: "/code/added-by-cli", enabled: true, target: "CLAUDE.md", mode: "eager", sessions: 5, budget: 1200, memorySharing: true, redaction: true };
		const data = JSON.parse(JSON.stringify(l.stub.data ?? { version: 2 })) as { devices?: Record<string, { projects?: unknown[] }> };
		const id = deviceIdOf(hostname());
		data.devices = { ...data.devices, [id]: { ...data.devices?.[id], projects: [...(data.devices?.[id]?.projects ?? []), added] } };
		l.stub.data = data;
		// The CLI holds the lock a moment: the save waits for it.
		const lock = await acquireSyncLock(join(vaultDir, pluginManifest.dir, "data.json.lock"), { tool: "cli", waitMs: 1000 });
		const saving = plugin.saveSettings({ ...plugin.settings, debounceMs: 4321 });
		await new Promise((r) => setTimeout(r, 300));
		expect((l.stub.data as { debounceMs?: number }).debounceMs).not.toBe(4321);
		await lock.release();
		await saving;
		const stored = l.stub.data as { debounceMs: number; devices: Record<string, { projects: { path: string }[] }> };
		expect(stored.debounceMs).toBe(4321);
		expect(stored.devices[id]!.projects.map((p) => p.path)).toContain("/code/added-by-cli");
		expect(plugin.settings.projects.map((p) => p.path)).toContain("/code/added-by-cli");
		l.plugin.unload();
	});

	it("keeps one set of watchers when data.json changes twice at once, and none once unloaded", async () => {
		const before = process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap").length;
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const plugin = l.plugin as unknown as { onExternalSettingsChange(): Promise<void>; watchers: { ready: Promise<void> }[] };
		await Promise.all(plugin.watchers.map((w) => w.ready));
		// Each version changes the quiet time, so each restarts the watchers.
		l.stub.data = { version: 2, debounceMs: 300 };
		const first = plugin.onExternalSettingsChange();
		l.stub.data = { version: 2, debounceMs: 350 };
		await Promise.all([first, plugin.onExternalSettingsChange()]);
		l.plugin.unload();
		await waitFor(() => process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap").length <= before);
	});
});

describe("the plugin and a person editing its notes", () => {
	it("leaves a note whose properties the person left open, renamed into a folder of theirs, and updates it there once they are closed", async () => {
		const l = load();
		l.app.workspace.ready();
		await settle(l.plugin);
		const note = sessionNotes(l.vault).find((f) => l.vault.cachedText(f.path)!.includes("session_id: 5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01"))!;
		await l.vault.createFolder("Mine");
		await l.vault.rename(note, "Mine/Renamed.md");
		const open = l.vault.cachedText("Mine/Renamed.md")!.replace(/\n---\n/, "\nrating: 5\n") + "\nMY WORDS\n";
		await l.vault.process(note, () => open);
		appendPrompt("u-24c-1", "2026-11-20T12:00:00.000Z", "Also add a readiness check");
		await (run(l, "sync-ai-conversations") as Promise<void>);
		await settle(l.plugin);
		expect(l.vault.cachedText("Mine/Renamed.md")).toBe(open);
		expect(l.stub.statusBarItems[0]?.textContent).toMatch(/problem/);
		await l.vault.process(note, (text) => text.replace("\nrating: 5\n", "\nrating: 5\n---\n"));
		await (run(l, "sync-ai-conversations") as Promise<void>);
		await settle(l.plugin);
		const after = l.vault.cachedText("Mine/Renamed.md")!;
		expect(after).toContain("Also add a readiness check");
		expect(after).toContain("\nrating: 5\n");
		expect(after.endsWith("\nMY WORDS\n")).toBe(true);
		expect(l.vault.getFiles().filter((f) => l.vault.cachedText(f.path)!.includes("session_id: 5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01"))).toHaveLength(1);
	});
});
