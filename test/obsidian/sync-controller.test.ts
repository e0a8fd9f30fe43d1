// @vitest-environment happy-dom
import { describe, expect, it, vi } from "vitest";
import { migrateSettings } from "../../src/core/settings";
import type { SyncReport } from "../../src/core/sync/sync-engine";
import type { VaultSync } from "../../src/node/vault-sync";
import { RenameLog } from "../../src/obsidian/rename-log";
import { StatusBar } from "../../src/obsidian/status-bar";
import { SyncLockBusyError } from "../../src/node/sync-lock";
import { BUSY_RETRY_MS, summarize, SyncController } from "../../src/obsidian/sync-controller";
import { SyncLog } from "../../src/obsidian/sync-log";
import { Notice, Plugin } from "../stubs/obsidian";
import { stubApp } from "../stubs/app";

class TestPlugin extends Plugin {}

const report = (errors: string[]): SyncReport => ({ transcriptsRead: 1, notesWritten: [], notesUnchanged: 0, notesSkipped: [], notesMoved: [], contextWritten: [], memoryWritten: [], errors, notices: [] });

/** A controller whose syncs report `errors`, and the sync log it fills. */
function controller(errors: string[], run: VaultSync["run"] = async () => report(errors)): { sync: SyncController; log: SyncLog } {
	const log = new SyncLog();
	const syncer = { run } as unknown as VaultSync;
	const settings = migrateSettings(undefined).settings;
	const item = new TestPlugin(stubApp(), { id: "t", name: "t", version: "0", minAppVersion: "1.8.7", description: "", author: "" }).addStatusBarItem();
	return { sync: new SyncController(() => syncer, () => settings, new StatusBar(item, () => undefined), log, new RenameLog()), log };
}

describe("SyncController", () => {
	it("shows a few new problems as notices and the rest in the sync log: a notes folder that is a file fails every note", async () => {
		const errors = Array.from({ length: 40 }, (_, i) => `Notes/p/${i}.md: not written, the file "Notes" stands where a folder of the path should be; the next sync tries again`);
		const { sync, log } = controller(errors);
		const before = Notice.shown.length;
		await sync.sync();
		expect(Notice.shown.slice(before)).toEqual([...errors.slice(0, 3), "And 37 more things to look at: see the sync log."]);
		expect(log.list().filter((e) => e.kind === "problem")).toHaveLength(40);
		// Each once: the next sync meeting them again shows none.
		await sync.sync();
		expect(Notice.shown.length).toBe(before + 4);
	});

	it("keeps one manual sync's summary on screen: clicks in a row do not stack them", async () => {
		const { sync } = controller([]);
		const summary = summarize(report([]));
		for (let i = 0; i < 5; i++) await sync.sync({ manual: true });
		const summaries = [...Notice.visible].filter((n) => n.message === summary);
		expect(summaries).toHaveLength(1);
		// A background sync shows none and leaves the manual one's be.
		await sync.sync();
		expect([...Notice.visible].filter((n) => n.message === summary)).toEqual(summaries);
	});

	it("asks again for a background sync the CLI's lock kept out, with the paths it was asked for, and not once stopped", async () => {
		vi.useFakeTimers();
		try {
			const runs: (readonly string[] | undefined)[] = [];
			let busy = true;
			const { sync, log } = controller([], async (_settings, options) => {
				runs.push(options?.paths);
				if (busy) throw new SyncLockBusyError("/v/state/sync.lock", { pid: 1, host: "h", tool: "cli", since: new Date().toISOString() });
				return report([]);
			});
			await sync.sync({ paths: ["/c/a.jsonl"] });
			await sync.sync({ paths: ["/c/b.jsonl"] });
			expect(log.list()[0]?.text).toMatch(/^Skipped a background sync: another sync is running \(the ai-memory CLI, pid 1.*; trying again in 5 s\.$/);
			busy = false;
			await vi.advanceTimersByTimeAsync(BUSY_RETRY_MS);
			await sync.idle();
			expect(runs).toEqual([["/c/a.jsonl"], ["/c/b.jsonl"], ["/c/a.jsonl", "/c/b.jsonl"]]);
			// Kept out again, then the plugin unloaded: nothing more runs.
			busy = true;
			await sync.sync({ paths: ["/c/c.jsonl"] });
			await sync.stop();
			await vi.advanceTimersByTimeAsync(2 * BUSY_RETRY_MS);
			expect(runs).toHaveLength(4);
		} finally {
			vi.useRealTimers();
		}
	});
});
