import { Notice } from "obsidian";
import { foldersProblem, type Settings } from "../core/settings";
import type { SyncReport } from "../core/sync/sync-engine";
export type { SyncJob };
import { mergeSyncJobs, SyncQueue, type SyncJob } from "../core/sync/sync-queue";
import { count, describeSyncReport } from "../core/sync/sync-summary";
import { SyncLockBusyError } from "../node/sync-lock";
import type { VaultSync } from "../node/vault-sync";
import type { RenameLog } from "./rename-log";
import type { StatusBar } from "./status-bar";
import type { SyncLog } from "./sync-log";
import { grouped } from "../core/text/grouped-number";

/** Long manual syncs show their progress past this many notes. */
const PROGRESS_AFTER = 50;
/** New problems shown as notices by one sync: a folder that cannot be written fails each of its notes with a sentence of its own. */
const NOTICES_PER_SYNC = 3;
/** A background sync the CLI's or a hook's lock kept out is asked for again this long after. */
export const BUSY_RETRY_MS = 5_000;

/**
 * Runs syncs one at a time for the plugin and tells the person what they need to know: the
 * status bar always, a notice after a manual sync, a notice for each new problem (once), and the
 * details in the sync log.
 */
export class SyncController {
	/** Requests made while a sync runs wait as one merged follow-up sync. */
	private readonly queue = new SyncQueue<SyncReport | undefined>((job) => this.run(job));
	/** The plugin was unloaded: runs finish, and tell the log only. */
	private stopped = false;
	/** Background syncs the lock kept out, merged, and the timer that asks for them again. */
	private busy: { job: SyncJob; timer: number } | undefined;
	/** The last manual sync's summary notice (hidden when the next one shows). */
	private summary: Notice | undefined;

	constructor(
		private readonly syncer: () => VaultSync,
		private readonly settings: () => Settings,
		private readonly status: StatusBar,
		private readonly log: SyncLog,
		private readonly renames: RenameLog,
		/** After each sync that finished (the Sessions view reads what it prepared). */
		private readonly onSynced: () => void = () => undefined,
	) {}

	/** Resolves with the report of the run that covered this request (undefined when stopped or failed). */
	async sync(job: SyncJob = {}): Promise<SyncReport | undefined> {
		const outcome = await this.queue.request(job);
		return outcome.status === "done" ? outcome.result : undefined;
	}

	/** Resolves when every sync asked for so far has run. */
	idle(): Promise<void> {
		return this.queue.whenIdle();
	}

	/** No new sync starts; the one running finishes, in the log only (the plugin is gone: no notice pops up after it). */
	stop(): Promise<void> {
		this.stopped = true;
		if (this.busy) window.clearTimeout(this.busy.timer);
		this.busy = undefined;
		return this.queue.stop();
	}

	/** A notice, unless the plugin was unloaded meanwhile. */
	private notify(text: string, timeout?: number): Notice | undefined {
		return this.stopped ? undefined : new Notice(text, timeout);
	}

	private async run(job: SyncJob): Promise<SyncReport | undefined> {
		this.status.show({ state: "syncing" });
		let progress: Notice | undefined;
		const renames = this.renames.take();
		try {
			// A hand-edited data.json: one sentence, not a failure per note.
			const folders = foldersProblem(this.settings());
			if (folders) throw new Error(folders);
			const report = await this.syncer().run(this.settings(), {
				rebuild: job.rebuild,
				project: job.project,
				paths: job.paths,
				renames,
				onProgress: (done, total) => {
					this.status.show({ state: "syncing", done, total });
					if (!job.manual || total < PROGRESS_AFTER) return;
					const text = `Syncing ${grouped(done)} of ${grouped(total)} sessions`;
					if (progress) progress.setMessage(text);
					else if (!this.stopped) progress = new Notice(text, 0);
				},
			});
			progress?.hide();
			this.renames.done(renames);
			this.report(report, job);
			this.onSynced();
			return report;
		} catch (error) {
			progress?.hide();
			this.renames.putBack(renames);
			if (error instanceof SyncLockBusyError && !job.manual) {
				// The CLI or a hook is syncing the same vault. The change that asked may be the session's
				// last (its turn reached no note until another came): asked for again in a while.
				this.log.add("notice", `Skipped a background sync: ${error.message}; trying again in ${BUSY_RETRY_MS / 1000} s.`);
				this.status.show({ state: "idle" });
				this.retryLater(job);
				return undefined;
			}
			const text = `Sync failed: ${error instanceof Error ? error.message : String(error)}`;
			this.log.add("problem", text);
			if (job.manual || this.log.firstTime(text)) this.notify(text);
			this.status.show({ state: "problem", count: 1 });
			return undefined;
		}
	}

	/** Asks for `job` again after `BUSY_RETRY_MS`, merged with any other kept out meanwhile. */
	private retryLater(job: SyncJob): void {
		if (this.stopped) return;
		if (this.busy) {
			this.busy.job = mergeSyncJobs(this.busy.job, job);
			return;
		}
		const timer = window.setTimeout(() => {
			const waiting = this.busy?.job ?? job;
			this.busy = undefined;
			void this.sync(waiting);
		}, BUSY_RETRY_MS);
		this.busy = { job, timer };
	}

	private report(report: SyncReport, job: SyncJob): void {
		const summary = summarize(report);
		this.log.add("done", summary);
		let shown = 0;
		let held = 0;
		// Shown once, even when a background sync meets it again and again; past a few, the rest are in the log only.
		const tell = (text: string, timeout?: number) => {
			if (!this.log.firstTime(text)) return;
			if (shown++ < NOTICES_PER_SYNC) this.notify(text, timeout);
			else held++;
		};
		for (const notice of report.notices) {
			this.log.add("notice", notice);
			tell(notice);
		}
		for (const error of report.errors) {
			this.log.add("problem", error);
			tell(error, 10_000);
		}
		if (held > 0) this.notify(`And ${count(held, "more thing")} to look at: see the sync log.`, 10_000);
		this.log.resolved([...report.errors, ...report.notices]);
		if (job.manual) {
			// One summary on screen: clicks in a row stacked one per sync, each saying much the same.
			this.summary?.hide();
			this.summary = this.notify(summary);
		}
		if (report.errors.length > 0) this.status.show({ state: "problem", count: report.errors.length });
		else this.status.show({ state: "synced", at: new Date(), notes: report.notesWritten.length });
	}
}

export function summarize(r: SyncReport): string {
	const problems = r.errors.length > 0 ? ` ${count(r.errors.length, "problem")}: see the sync log.` : "";
	return `${describeSyncReport(r)}${problems}`;
}
