import { Notice, Plugin } from "obsidian";
import { runSync } from "./core/sync/sync-engine";
import { claudeConfigDir, claudeProjectsDir } from "./node/claude-paths";
import { ProjectFolderFiles } from "./node/project-files";
import { TranscriptIndex } from "./node/transcript-index";
import { VaultNoteStore } from "./obsidian/vault-note-store";

/** Lifecycle only: registers commands; the work lives in core/ and the adapters. */
export default class AiConversationMemoryPlugin extends Plugin {
	private index: TranscriptIndex | undefined;

	override onload(): void {
		this.addCommand({
			id: "sync-ai-conversations",
			name: "Sync AI conversations",
			callback: () => this.sync(),
		});
	}

	async sync(): Promise<void> {
		this.index ??= new TranscriptIndex(claudeProjectsDir(claudeConfigDir()));
		try {
			const read = await this.index.refresh();
			const report = await runSync(this.index.sessions(), { notesFolder: "AI Conversations", tagPrefix: "ai/", projects: [] }, new VaultNoteStore(this.app.vault), new ProjectFolderFiles());
			new Notice(`Synced ${read.updated.length} transcripts: ${report.notesWritten.length} notes written, ${report.notesUnchanged} unchanged.`);
		} catch (error) {
			new Notice(`Sync failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
