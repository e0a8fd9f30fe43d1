import { Notice } from "obsidian";
import type { Settings } from "../core/settings";
import type { SyncReport } from "../core/sync/sync-engine";
import type { VaultSync } from "../node/vault-sync";
import type { StatusBar } from "./status-bar";
import type { SyncLog } from "./sync-log";

export interface SyncJob {
	/** A person asked: say what happened. Background syncs stay silent unless something failed. */
	manual?: boolean;
	rebuild?: boolean;
	/** Only this project's path. */
	project?: string;
}

/** Long manual syncs show their progress past this many notes. */
const PROGRESS_AFTER = 50;

/**
 * Runs syncs one at a time for the plugin and tells the person what they need to know: the
 * status bar always, a notice after a manual sync, a notice for each new problem (once), and the
 * details in the sync log.
 */
export class SyncController {
	private tail: Promise<unknown> = Promise.resolve();
	private stopped = false;

	constructor(
		private readonly syncer: () => VaultSync,
		private readonly settings: () => Settings,
		private readonly status: StatusBar,
		private readonly log: SyncLog,
	) {}

	/** Queued behind the sync running now; resolves with its report (undefined when stopped or failed). */
	sync(job: SyncJob = {}): Promise<SyncReport | undefined> {
		const run = this.tail.then(() => (this.stopped ? undefined : this.run(job)));
		this.tail = run.catch(() => undefined);
		return run;
	}

	/** Resolves when every sync asked for so far has run. */
	async idle(): Promise<void> {
		for (let seen: Promise<unknown> | undefined; seen !== this.tail; ) {
			seen = this.tail;
			await seen;
		}
	}

	/** No new sync starts; the one running finishes. */
	async stop(): Promise<void> {
		this.stopped = true;
		await this.tail;
	}

	private async run(job: SyncJob): Promise<SyncReport | undefined> {
		this.status.show({ state: "syncing" });
		let progress: Notice | undefined;
		try {
			const report = await this.syncer().run(this.settings(), {
				rebuild: job.rebuild,
				project: job.project,
				onProgress: (done, total) => {
					this.status.show({ state: "syncing", done, total });
					if (!job.manual || total < PROGRESS_AFTER) return;
					const text = `Syncing ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} sessions`;
					if (progress) progress.setMessage(text);
					else progress = new Notice(text, 0);
				},
			});
			progress?.hide();
			this.report(report, job);
			return report;
		} catch (error) {
			progress?.hide();
			const text = `Sync failed: ${error instanceof Error ? error.message : String(error)}`;
			this.log.add("problem", text);
			if (job.manual || this.log.firstTime(text)) new Notice(text);
			this.status.show({ state: "problem", count: 1 });
			return undefined;
		}
	}

	private report(report: SyncReport, job: SyncJob): void {
		const summary = summarize(report);
		this.log.add("done", summary);
		for (const notice of report.notices) {
			this.log.add("notice", notice);
			if (this.log.firstTime(notice)) new Notice(notice);
		}
		for (const error of report.errors) {
			this.log.add("problem", error);
			// Shown once, even when a background sync meets it again and again.
			if (this.log.firstTime(error)) new Notice(error, 10_000);
		}
		this.log.resolved([...report.errors, ...report.notices]);
		if (job.manual) new Notice(summary);
		if (report.errors.length > 0) this.status.show({ state: "problem", count: report.errors.length });
		else this.status.show({ state: "synced", at: new Date(), notes: report.notesWritten.length, transcripts: report.transcriptsRead });
	}
}

export function summarize(r: SyncReport): string {
	const parts = [`${r.transcriptsRead} transcript${r.transcriptsRead === 1 ? "" : "s"} read`, `${r.notesWritten.length} note${r.notesWritten.length === 1 ? "" : "s"} written`, `${r.notesUnchanged} unchanged`];
	if (r.contextWritten.length > 0) parts.push(`${r.contextWritten.length} CLAUDE.md updated`);
	if (r.memoryWritten.length > 0) parts.push(`${r.memoryWritten.length} memory file${r.memoryWritten.length === 1 ? "" : "s"} written`);
	if (r.errors.length > 0) parts.push(`${r.errors.length} problem${r.errors.length === 1 ? "" : "s"} (see the sync log)`);
	return `Synced: ${parts.join(", ")}.`;
}
