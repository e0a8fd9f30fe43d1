import { describe, expect, it } from "vitest";
import type { SyncReport } from "../../../src/core/sync/apply-plan";
import { count, describeSyncReport } from "../../../src/core/sync/sync-summary";

const empty: SyncReport = { transcriptsRead: 0, notesWritten: [], notesUnchanged: 0, notesSkipped: [], notesMoved: [], contextWritten: [], memoryWritten: [], errors: [], notices: [] };

describe("the one-line result of a sync", () => {
	it("says when there was nothing to do", () => {
		expect(describeSyncReport(empty)).toBe("Nothing to sync: no transcript changed since the last sync, nothing written.");
		expect(describeSyncReport({ ...empty, transcriptsRead: 1, notesUnchanged: 1 })).toBe("Read 1 transcript; every note was already current, nothing written.");
	});

	it("a rebuild that found every note current says it checked them, not that there was nothing to do", () => {
		expect(describeSyncReport({ ...empty, notesUnchanged: 1200 })).toBe("Synced: 0 notes written, 1,200 unchanged.");
	});

	it("counts in the singular and the plural, and leaves out what is zero", () => {
		expect(describeSyncReport({ ...empty, transcriptsRead: 1, notesWritten: ["a.md"], memoryWritten: ["m.md"] })).toBe("Synced 1 transcript: 1 note written, 1 memory file written.");
		expect(describeSyncReport({ ...empty, transcriptsRead: 1200, notesWritten: ["a.md", "b.md"], notesUnchanged: 3, notesSkipped: ["c.md"], contextWritten: ["/p/CLAUDE.md"], memoryWritten: ["m.md", "n.md"] })).toBe(
			"Synced 1,200 transcripts: 2 notes written, 3 unchanged, 1 deleted by you and left so, 1 CLAUDE.md updated, 2 memory files written.",
		);
		expect(describeSyncReport({ ...empty, transcriptsRead: 2, contextWritten: ["/p/CLAUDE.md", "/q/CLAUDE.md"] })).toBe("Synced 2 transcripts: 0 notes written, 2 CLAUDE.md files updated.");
		expect(describeSyncReport({ ...empty, transcriptsRead: 2, contextWritten: ["/p/CLAUDE.md", "C:\\q\\AGENTS.md"] })).toBe("Synced 2 transcripts: 0 notes written, 2 context files (AGENTS.md, CLAUDE.md) updated.");
	});

	it("a sync that read nothing new but wrote (a fact edited in the vault) says what it wrote", () => {
		expect(describeSyncReport({ ...empty, memoryWritten: ["m.md"] })).toBe("Synced: 0 notes written, 1 memory file written.");
	});

	it("a sync that only failed is not 'nothing to do'", () => {
		expect(describeSyncReport({ ...empty, transcriptsRead: 1, errors: ["x"] })).toBe("Synced 1 transcript: 0 notes written.");
	});

	it("count", () => {
		expect([count(0, "fact"), count(1, "fact"), count(2, "entry", "entries")]).toEqual(["0 facts", "1 fact", "2 entries"]);
	});
});
