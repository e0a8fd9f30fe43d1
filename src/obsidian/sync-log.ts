import { type App, Modal, Setting } from "obsidian";
import { format } from "date-fns";

export interface LogEntry {
	at: Date;
	kind: "problem" | "notice" | "done";
	text: string;
}

/** The last syncs' outcomes and problems, newest first, kept while Obsidian runs. */
export class SyncLog {
	private readonly entries: LogEntry[] = [];
	/** Problems already shown in a notice: each is shown once, however often it recurs. */
	private readonly shown = new Set<string>();

	add(kind: LogEntry["kind"], text: string, at = new Date()): void {
		this.entries.unshift({ at, kind, text });
		this.entries.length = Math.min(this.entries.length, 200);
	}

	/** True the first time a problem is seen: the caller shows a notice then, never again. */
	firstTime(text: string): boolean {
		if (this.shown.has(text)) return false;
		this.shown.add(text);
		return true;
	}

	/** A problem that is gone may be shown again if it comes back. */
	resolved(current: readonly string[]): void {
		for (const text of [...this.shown]) if (!current.includes(text)) this.shown.delete(text);
	}

	list(): readonly LogEntry[] {
		return this.entries;
	}
}

/** The sync log, opened from the status bar. */
export class SyncLogModal extends Modal {
	constructor(
		app: App,
		private readonly log: SyncLog,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle("AI conversation memory: sync log");
		const entries = this.log.list();
		if (entries.length === 0) {
			this.contentEl.createEl("p", { text: "Nothing synced yet in this session of Obsidian." });
			return;
		}
		const list = this.contentEl.createDiv({ cls: "ai-memory-log" });
		for (const entry of entries) {
			const row = list.createDiv({ cls: `ai-memory-log-entry is-${entry.kind}` });
			row.createSpan({ cls: "ai-memory-log-time", text: format(entry.at, "HH:mm:ss") });
			row.createSpan({ text: entry.text });
		}
		new Setting(this.contentEl).addButton((b) => b.setButtonText("Close").onClick(() => this.close()));
	}

	override onClose(): void {
		this.contentEl.empty();
	}
}
