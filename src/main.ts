import { FileSystemAdapter, Notice, Plugin } from "obsidian";
import { join } from "node:path";
import { migrateSettings, type Settings } from "./core/settings";
import { claudeConfigDir, claudeProjectsDir } from "./node/claude-paths";
import { VaultSync } from "./node/vault-sync";
import { saveSelectionAsFact } from "./obsidian/save-fact-command";
import { VaultNoteStore } from "./obsidian/vault-note-store";

/** Lifecycle only: registers commands; the work lives in core/ and the adapters. */
export default class AiConversationMemoryPlugin extends Plugin {
	override settings: Settings = migrateSettings(undefined).settings;
	private syncer: VaultSync | undefined;

	override async onload(): Promise<void> {
		this.settings = migrateSettings(await this.loadData()).settings;
		this.addCommand({
			id: "sync-ai-conversations",
			name: "Sync AI conversations",
			callback: () => this.sync(),
		});
		this.addCommand({
			id: "save-selection-as-memory-fact",
			name: "Save selection as memory fact",
			editorCallback: (editor, ctx) => saveSelectionAsFact(this.app, this.settings, editor, ctx.file),
		});
	}

	async sync(): Promise<void> {
		const adapter = this.app.vault.adapter;
		if (!(adapter instanceof FileSystemAdapter)) {
			new Notice("This plugin needs a vault on the local file system.");
			return;
		}
		this.syncer ??= new VaultSync(claudeProjectsDir(claudeConfigDir()), join(adapter.getBasePath(), this.manifest.dir ?? "", "state"), new VaultNoteStore(this.app.vault, (file) => this.app.fileManager.trashFile(file)), { vaultPath: adapter.getBasePath() });
		try {
			const report = await this.syncer.run(this.settings);
			new Notice(`Synced ${report.transcriptsRead} transcripts: ${report.notesWritten.length} notes written, ${report.notesUnchanged} unchanged.`);
			for (const notice of report.notices) new Notice(notice);
		} catch (error) {
			new Notice(`Sync failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
