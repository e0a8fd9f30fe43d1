import { describe, expect, it } from "vitest";
import { conflictCopyOf, isFileSyncCopy } from "../../../src/core/text/file-sync-copy";

describe("conflictCopyOf", () => {
	it("names the file each sync tool's conflict copy copies", () => {
		expect(conflictCopyOf("notes.sync-conflict-20261104-101010-ABCDEFG")).toBe("notes");
		expect(conflictCopyOf("2026-11-02 Cache work (conflicted copy)")).toBe("2026-11-02 Cache work");
		expect(conflictCopyOf("Cache work (conflicted copy 2026-11-04)")).toBe("Cache work");
		expect(conflictCopyOf("Cache work (Ann's conflicted copy 2026-11-04 1)")).toBe("Cache work");
		expect(conflictCopyOf("Cache work (conflicted copy 2026-11-04 101010)")).toBe("Cache work");
		expect(conflictCopyOf("Cache work_conflict-20261104-101010")).toBe("Cache work");
	});

	it("takes a title that only mentions a copy, or ends in a number, for none", () => {
		expect(conflictCopyOf("Cache work")).toBeUndefined();
		expect(conflictCopyOf("Step 2")).toBeUndefined();
		expect(conflictCopyOf("Why the conflicted copy came back")).toBeUndefined();
		expect(conflictCopyOf("Cache work (2)")).toBeUndefined();
		// A suffix alone copies nothing.
		expect(conflictCopyOf(" (conflicted copy)")).toBeUndefined();
	});
});

describe("isFileSyncCopy", () => {
	it("looks at the file's name alone, its extension aside", () => {
		expect(isFileSyncCopy("AI Conversations/app/2026-11-02 Cache work (conflicted copy 2026-11-04).md")).toBe(true);
		expect(isFileSyncCopy("AI Conversations/app/2026-11-02 Cache work.sync-conflict-20261104-101010-ABCDEFG.md")).toBe(true);
		expect(isFileSyncCopy("Notes (conflicted copy)/2026-11-02 Cache work.md")).toBe(false);
		expect(isFileSyncCopy("AI Conversations/app/Step 2.md")).toBe(false);
	});
});
