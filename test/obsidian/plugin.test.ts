// @vitest-environment happy-dom
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
// The stub is the module the plugin gets for `obsidian` here (vitest alias), with its test-only members.
import { Notice, Vault } from "../stubs/obsidian";
import { stubApp as makeApp } from "../stubs/app";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import manifest from "../../manifest.json";
import AiConversationMemoryPlugin from "../../src/main";

const repo = resolve(__dirname, "..", "..");
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
	if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
	else process.env.CLAUDE_CONFIG_DIR = saved;
	rmSync(claudeDir, { recursive: true, force: true });
	rmSync(vaultDir, { recursive: true, force: true });
});

function stubApp(vault: Vault): never {
	return makeApp(vault, vaultDir) as never;
}

const pluginManifest = { ...manifest, dir: ".obsidian/plugins/ai-conversation-memory" };

function commandsOf(plugin: AiConversationMemoryPlugin): { id: string; name: string; hotkeys?: unknown[] }[] {
	return (plugin as unknown as { commands: { id: string; name: string; hotkeys?: unknown[] }[] }).commands;
}

describe("the plugin", () => {
	it("registers its command on load, with no default hotkey", async () => {
		const plugin = new AiConversationMemoryPlugin(stubApp(new Vault()), pluginManifest);
		await plugin.onload();
		expect(commandsOf(plugin).map((c) => [c.id, c.name, c.hotkeys])).toEqual([
			["sync-ai-conversations", "Sync AI conversations", undefined],
			["save-selection-as-memory-fact", "Save selection as memory fact", undefined],
		]);
	});

	it("syncs the transcripts into notes through the vault, and again without changes", async () => {
		const vault = new Vault();
		const plugin = new AiConversationMemoryPlugin(stubApp(vault), pluginManifest);
		await plugin.onload();
		await plugin.sync();
		const paths = vault.getFiles().map((f) => f.path).sort();
		expect(paths).toHaveLength(6);
		expect(paths.filter((p) => p.startsWith("AI Conversations/shop-api/2026-11-29 "))).toHaveLength(4);
		expect(paths).toContain("AI Conversations/shop-api/shop-api.md");
		expect(paths).toContain("AI Conversations/AI Conversations.base");
		expect(Notice.shown.at(-1)).toBe("Synced 5 transcripts: 6 notes written, 0 unchanged.");
		await plugin.sync();
		expect(Notice.shown.at(-1)).toBe("Synced 0 transcripts: 0 notes written, 0 unchanged.");
	});
});
