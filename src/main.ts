import { Notice, Plugin } from "obsidian";
import { claudeConfigDir, claudeProjectsDir } from "./node/claude-paths";
import { TranscriptIndex } from "./node/transcript-index";

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

	private async sync(): Promise<void> {
		this.index ??= new TranscriptIndex(claudeProjectsDir(claudeConfigDir()));
		try {
			const result = await this.index.refresh();
			const sessions = this.index.sessions().length;
			new Notice(`Read ${result.updated.length} changed transcripts; ${sessions} sessions known.`);
		} catch (error) {
			new Notice(`Sync failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
