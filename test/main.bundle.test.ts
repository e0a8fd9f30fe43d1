// @vitest-environment happy-dom
/**
 * The shipped artifact, not the sources: `main.js` is built as for a release
 * (`node esbuild.config.mjs production`) and loaded with Node's own `require`, its
 * `require("obsidian")` answered by the in-repo stub, the same module instance this test uses (so
 * the bundle's `instanceof FileSystemAdapter` and `instanceof TFile` see the test's objects). It
 * runs "Sync AI conversations" on a temporary vault over the bundled real transcripts and finds
 * the notes, byte for byte as test/golden/notes/ holds them.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import manifest from "../manifest.json";
import { stubApp } from "./stubs/app";
import * as obsidianStub from "./stubs/obsidian";
import { Notice, Vault, type App, type Command, type PluginManifest } from "./stubs/obsidian";

const repo = resolve(__dirname, "..");
const bundlePath = join(repo, "main.js");

interface LoadedPlugin {
	app: App;
	commands: Command[];
	intervals: Set<number>;
	onload(): unknown;
	unload(): void;
}
type PluginClass = new (app: App, manifest: PluginManifest) => LoadedPlugin;

/** Node's module loader, with the one internal hook that lets a test answer a bare `require`. */
type Load = (this: unknown, request: string, parent: { filename?: string } | null | undefined, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };

/**
 * `require(main.js)`, fresh, with `obsidian` (for that file only) answered by the stub module, as
 * the app answers it with its own. The hook is removed once the bundle is evaluated: esbuild
 * hoists its external `require`s to the top of the bundle.
 */
function loadBundle(path: string): PluginClass {
	const load = loader._load;
	loader._load = function (request, parent, isMain) {
		if (request === "obsidian" && parent?.filename === path) return obsidianStub;
		return load.call(this, request, parent, isMain);
	};
	try {
		const req = createRequire(path);
		delete req.cache[path];
		const exported = req(path) as { default?: PluginClass } | PluginClass;
		return typeof exported === "function" ? exported : exported.default!;
	} finally {
		loader._load = load;
	}
}

async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
	const start = Date.now();
	while (!check()) {
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

let claudeDir: string;
let vaultDir: string;
let savedConfigDir: string | undefined;
let Plugin: PluginClass;

beforeAll(() => {
	const build = spawnSync(process.execPath, [join(repo, "esbuild.config.mjs"), "production"], { cwd: repo, encoding: "utf8" });
	if (build.status !== 0) throw new Error(`building main.js failed:\n${build.stderr}`);
	Plugin = loadBundle(bundlePath);
	claudeDir = mkdtempSync(join(tmpdir(), "bundle-claude-"));
	vaultDir = mkdtempSync(join(tmpdir(), "bundle-vault-"));
	cpSync(join(repo, "examples", "claude-projects"), join(claudeDir, "projects"), { recursive: true });
	savedConfigDir = process.env.CLAUDE_CONFIG_DIR;
	process.env.CLAUDE_CONFIG_DIR = claudeDir;
}, 60_000);

afterAll(() => {
	if (savedConfigDir === undefined) delete process.env.CLAUDE_CONFIG_DIR;
	else process.env.CLAUDE_CONFIG_DIR = savedConfigDir;
	if (claudeDir) rmSync(claudeDir, { recursive: true, force: true });
	if (vaultDir) rmSync(vaultDir, { recursive: true, force: true });
});

describe("the built main.js in the obsidian stub", () => {
	it("is a minified CommonJS bundle that leaves obsidian to the app", () => {
		const text = readFileSync(bundlePath, "utf8");
		expect(text).toMatch(/require\("obsidian"\)/);
		expect(text).not.toContain("test/stubs");
		// The community scanner's rule: no eval, no new Function; gray-matter's engines (js-yaml, its eval of `---js`) are left out.
		expect(text).not.toMatch(/\beval\(|new Function/);
		expect(text).not.toContain("safeLoad");
		// `npm run build` makes the CLI beside it too.
		for (const script of ["cli.cjs", "hook.cjs", "fold-worker.cjs"]) expect(existsSync(join(repo, "dist", script))).toBe(true);
		expect(typeof Plugin).toBe("function");
		expect(Plugin.prototype).toBeInstanceOf(obsidianStub.Plugin);
	});

	it("syncs real transcripts into the vault through 'Sync AI conversations'", async () => {
		const vault = new Vault();
		const app = stubApp(vault, vaultDir);
		const plugin = new Plugin(app, { ...manifest, dir: ".obsidian/plugins/ai-conversation-memory" });
		const shownBefore = Notice.shown.length;
		await plugin.onload();
		// The plugin may defer work (a catch-up sync) until the layout is ready: let it.
		app.workspace.ready();

		const command = plugin.commands.find((c) => c.id === "sync-ai-conversations");
		expect(command?.name).toBe("Sync AI conversations");
		const shownByCommand = Notice.shown.length;
		await command?.callback?.();

		// A sync someone asked for ends with a notice that says what it did (the plugin may run it
		// after the catch-up sync, queued or in the background).
		const paths = () => vault.getFiles().map((f) => f.path).sort();
		await until("the notes and the notice of the sync asked for", () => paths().length >= 6 && Notice.shown.slice(shownByCommand).some((m) => /^(Synced|Nothing to sync)\b/.test(m)));

		expect(paths()).toHaveLength(6);
		expect(paths().filter((p) => p.startsWith("AI Conversations/shop-api/2026-11-29 "))).toHaveLength(4);
		expect(paths()).toContain("AI Conversations/shop-api/shop-api.md");
		expect(paths()).toContain("AI Conversations/AI Conversations.base");
		expect(Notice.shown.slice(shownBefore).filter((m) => /fail|problem|error/i.test(m))).toEqual([]);

		// The notes are exactly those the golden test expects from the same transcripts.
		const note = (part: string) => {
			const path = paths().find((p) => p.includes(part));
			expect(path, part).toBeDefined();
			return vault.cachedText(path!)!.split(claudeDir).join("<claude-dir>");
		};
		const golden = (name: string) => readFileSync(join(repo, "test", "golden", "notes", name), "utf8");
		expect(note("Add a GET")).toBe(golden("add-endpoint.md"));
		expect(note("The cart total")).toBe(golden("bug-fix-thinking.md"));
		expect(note("Refactor")).toBe(golden("refactor-subagent.md"));
		expect(note("주문 목록")).toBe(golden("korean-pagination.md"));
		expect(note("shop-api/shop-api.md")).toBe(golden("project-index.md"));

		// The sync state went to the plugin's folder on disk, beside the vault's notes.
		expect(existsSync(join(vaultDir, ".obsidian", "plugins", "ai-conversation-memory", "state"))).toBe(true);

		// Unloading leaves nothing behind: no event handler, no interval.
		plugin.unload();
		expect(app.workspace.listenerCount()).toBe(0);
		expect(plugin.intervals.size).toBe(0);
	}, 60_000);

	it("'Install Claude Code hooks' writes the CLI and the hook beside the plugin, the hook's rest too, and the installed hook runs", async () => {
		const vault = new Vault();
		const app = stubApp(vault, vaultDir);
		const plugin = new Plugin(app, { ...manifest, dir: ".obsidian/plugins/ai-conversation-memory" });
		await plugin.onload();
		app.workspace.ready();
		await plugin.commands.find((c) => c.id === "install-claude-code-hooks")?.callback?.();
		const pluginDir = join(vaultDir, ".obsidian", "plugins", "ai-conversation-memory");
		await until("the hook commands in Claude Code's settings", () => existsSync(join(claudeDir, "settings.json")));
		const written = readdirSync(pluginDir);
		for (const name of [/^ai-memory\.cjs$/, /^ai-memory\.[0-9a-f]{16}\.js$/, /^ai-memory-hook\.cjs$/, /^ai-memory-hook\.[0-9a-f]{16}\.js$/, /^ai-memory-hook\.rest\.[0-9a-f]{16}\.js$/, /^re2js\.cjs$/]) expect(written.filter((f) => name.test(f)), String(name)).toHaveLength(1);
		const command = (JSON.parse(readFileSync(join(claudeDir, "settings.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks.UserPromptSubmit![0]!.hooks[0]!.command;
		expect(command).toContain("ai-memory-hook.cjs");
		// A hook name it does not know, long enough that its log line goes through redaction: the rest is loaded for it.
		const run = spawnSync("sh", ["-c", command.replace(" hook user-prompt-submit ", " hook an-event-of-a-later-claude-code ")], { input: "{}", encoding: "utf8", timeout: 20_000 });
		expect([run.status, run.stdout, run.stderr]).toEqual([0, "", ""]);
		expect(readFileSync(join(pluginDir, "hooks.log"), "utf8")).toContain('unknown hook "an-event-of-a-later-claude-code"');
		await (plugin as unknown as { controller: { idle(): Promise<void> } }).controller.idle();
		plugin.unload();
	}, 60_000);

	it("reads opencode's database (SQLite as WebAssembly inside main.js, WAL applied) in a window of its own", async () => {
		const data = mkdtempSync(join(tmpdir(), "bundle-xdg-"));
		const vaultOf = mkdtempSync(join(tmpdir(), "bundle-vault-opencode-"));
		const saved = process.env.XDG_DATA_HOME;
		cpSync(join(repo, "test", "fixtures", "agents", "opencode", "1.18.33", "data"), join(data, "opencode"), { recursive: true });
		process.env.XDG_DATA_HOME = data;
		try {
			const vault = new Vault();
			const app = stubApp(vault, vaultOf);
			const plugin = new Plugin(app, { ...manifest, dir: ".obsidian/plugins/ai-conversation-memory" });
			await plugin.onload();
			app.workspace.ready();
			await plugin.commands.find((c) => c.id === "sync-ai-conversations")?.callback?.();
			const opencode = () => vault.getFiles().filter((f) => /\nagent: opencode\n/.test(vault.cachedText(f.path) ?? ""));
			await until("the opencode notes", () => opencode().length >= 9);
			expect(opencode()).toHaveLength(9);
			expect(opencode().some((f) => vault.cachedText(f.path)!.includes("You are in the src folder of the demo project."))).toBe(true);
			// The notes come before the state is stored: the sync ends before the folder is removed.
			await (plugin as unknown as { controller: { idle(): Promise<void> } }).controller.idle();
			plugin.unload();
		} finally {
			if (saved === undefined) delete process.env.XDG_DATA_HOME;
			else process.env.XDG_DATA_HOME = saved;
			rmSync(data, { recursive: true, force: true });
			rmSync(vaultOf, { recursive: true, force: true });
		}
	}, 60_000);
});
