import fc from "fast-check";
import { conflictCopyOf } from "../../../src/core/text/file-sync-copy";
import { describe, expect, it } from "vitest";
import { classifyProjectFile, copiedName, diffScan, oneFilePerSession, sectionFile, sectionPath, type TranscriptFile } from "../../../src/core/transcript/transcript-files";

const history: TranscriptFile = { path: "/work/app/.aider.chat.history.md", agent: "aider", cwd: "/work/app", projectDir: "aider", kind: "sessions", fileId: "aider-app", size: 120, mtimeMs: 5, ino: 7 };

describe("sectionFile", () => {
	it("is a session of the file, named by its path and key, with the file's stamp and folder", () => {
		const section = sectionFile(history, "2026-11-30 09:12:03");
		expect(section).toEqual({ ...history, path: "/work/app/.aider.chat.history.md#2026-11-30 09:12:03", kind: "session", within: history.path, fileId: "aider-app-2026-11-30-09-12-03" });
		expect(sectionPath(history, "2026-11-30 09:12:03")).toBe(section.path);
		// Its properties are those of a file, nothing else (stored as JSON, the undefined ones leave nothing).
		expect(JSON.parse(JSON.stringify(section))).toEqual({ path: section.path, agent: "aider", cwd: "/work/app", projectDir: "aider", kind: "session", within: history.path, fileId: section.fileId, size: 120, mtimeMs: 5, ino: 7 });
	});

	it("makes the id of any key as the runs of other characters made one dash, none at the ends, `start` for none", () => {
		expect(sectionFile(history, "").fileId).toBe("aider-app-start");
		expect(sectionFile(history, " :: ").fileId).toBe("aider-app-start");
		expect(sectionFile(history, "-2026-11-30 09:12:03 #2-").fileId).toBe("aider-app-2026-11-30-09-12-03-2");
		expect(sectionFile(history, "ünïcode 1").fileId).toBe("aider-app-n-code-1");
		// As the regular expressions that wrote it before.
		const before = (key: string) => key.replace(/[^0-9A-Za-z]+/g, "-").replace(/^-|-$/g, "");
		fc.assert(fc.property(fc.string({ maxLength: 40 }), (key) => sectionFile(history, key).fileId === `aider-app-${before(key) === "" ? "start" : before(key)}`));
	});
});

describe("classifyProjectFile", () => {
	const id = "0b6f1c2e-4a5d-4e6f-8a7b-9c0d1e2f3a4b";
	it("gives a sync tool's conflict copy of a transcript the id of the file it copies", () => {
		for (const suffix of [".sync-conflict-20261104-101010-ABCDEFG", " (conflicted copy)", " (Ann's conflicted copy 2026-11-04)", "_conflict-20261104-101010", " 2"]) {
			expect(classifyProjectFile(`${id}${suffix}.jsonl`)).toEqual({ kind: "session", fileId: id });
			expect(classifyProjectFile(`agent-a1b2c3${suffix}.jsonl`)).toEqual({ kind: "subagent", fileId: "agent-a1b2c3", agentId: "a1b2c3" });
		}
	});

	it("takes a hidden name or an Office owner file for no transcript", () => {
		expect(classifyProjectFile(`${id}.jsonl`)).toEqual({ kind: "session", fileId: id });
		expect(classifyProjectFile(`._${id}.jsonl`)).toBeUndefined();
		expect(classifyProjectFile(`.${id}.jsonl`)).toBeUndefined();
		expect(classifyProjectFile(`~$${id}.jsonl`)).toBeUndefined();
	});
});

describe("copiedName", () => {
	it("names the file a conflict copy copies, extension kept, and any other name itself", () => {
		expect(copiedName("session-2026-12-01T10-00-dddd4444 (conflicted copy).jsonl")).toBe("session-2026-12-01T10-00-dddd4444.jsonl");
		expect(copiedName("session-2026-12-01T10-00-dddd4444 3.json")).toBe("session-2026-12-01T10-00-dddd4444.json");
		expect(copiedName("session-2026-12-01T10-00-dddd4444.jsonl")).toBe("session-2026-12-01T10-00-dddd4444.jsonl");
		expect(copiedName("two words 2.jsonl")).toBe("two words 2.jsonl");
	});

	it("knows every tool's copy, in any case the tool writes it, and takes a name with no space and no \"conflict\" for itself", () => {
		const id = "9f1c2d3e-4b5a-6789-abcd-ef0123456789";
		expect(copiedName(`${id}.sync-conflict-20261204-101010-ABCDEF7.jsonl`)).toBe(`${id}.jsonl`);
		expect(copiedName(`${id} (Ann's Conflicted Copy 2026-12-04).jsonl`)).toBe(`${id}.jsonl`);
		expect(copiedName(`${id}_conflict-20261204-101010.jsonl`)).toBe(`${id}.jsonl`);
		expect(copiedName(`${id} 2.jsonl`)).toBe(`${id}.jsonl`);
		// Whatever a name without those holds, no tool's suffix is at its end (as the shortcut takes it).
		fc.assert(fc.property(fc.string({ maxLength: 60 }).filter((n) => !n.includes(" ") && !n.includes("conflict")), (stem) => conflictCopyOf(stem) === undefined && copiedName(`${stem}.jsonl`) === `${stem}.jsonl`));
	});
});

describe("oneFilePerSession", () => {
	// Each file's lines, by path: a file continues another when it begins with all of its lines.
	const lines = new Map<string, string>();
	const file = (name: string, fileId: string, text: string): TranscriptFile => {
		const path = `/c/projects/-p/${name}`;
		lines.set(path, text);
		return { path, projectDir: "-p", kind: "session", fileId, size: text.length, mtimeMs: 1, ino: text.length };
	};
	const continues = (shorter: TranscriptFile, longer: TranscriptFile) => lines.get(longer.path)!.startsWith(lines.get(shorter.path)!);

	it("reads a conflict copy in which the session went on, and names the original, to be put in its place", () => {
		const own = file("s1.jsonl", "s1", "a\nb\n");
		const copy = file("s1 (conflicted copy).jsonl", "s1", "a\nb\nc\nd\n");
		const other = file("s2.jsonl", "s2", "x\n");
		const passed: { path: string; reason: string }[] = [];
		expect(oneFilePerSession([own, copy, other], passed, continues)).toEqual([copy, other]);
		expect(passed).toEqual([{ path: own.path, reason: expect.stringContaining("s1 (conflicted copy).jsonl beside it, a file-sync tool's conflict copy of it, holds all of its turns and more") as unknown }]);
	});

	it("reads the original when the two went their own ways, the copy the longer, and names the copy to merge by hand", () => {
		const own = file("s1.jsonl", "s1", "a\nb\nmine\n");
		const copy = file("s1.sync-conflict-20261104-101010-ABCDEFG.jsonl", "s1", "a\nb\ntheirs, longer\n");
		const passed: { path: string; reason: string }[] = [];
		expect(oneFilePerSession([copy, own], passed, continues)).toEqual([own]);
		expect(passed).toEqual([{ path: copy.path, reason: expect.stringContaining("this one holds turns that one does not: merge them by hand") as unknown }]);
	});

	it("reads the original of a copy it holds all of, whatever the order listed, and says the copy can go", () => {
		const own = file("s1.jsonl", "s1", "a\nb\n");
		const copy = file("s1 2.jsonl", "s1", "a\nb\n");
		const shorter = file("s1_conflict-20261104-101010.jsonl", "s1", "a\n");
		for (const order of [[copy, own, shorter], [shorter, own, copy]]) {
			const passed: { path: string; reason: string }[] = [];
			expect(oneFilePerSession(order, passed, continues)).toEqual([own]);
			expect(passed.map((p) => p.reason)).toEqual([expect.stringContaining("delete the copy"), expect.stringContaining("delete the copy")]);
		}
	});

	it("reads the largest of copies with no original", () => {
		const one = file("s1 (conflicted copy).jsonl", "s1", "a\n");
		const two = file("s1 2.jsonl", "s1", "a\nb\n");
		expect(oneFilePerSession([two, one], [], continues)).toEqual([two]);
	});
});

describe("diffScan", () => {
	it("takes a file rewritten with its size and mtime put back for changed, by its change time; a stamp stored without one stays unchanged", () => {
		const session: TranscriptFile = { ...history, path: "/c/projects/p/s.jsonl", agent: "claude-code", kind: "session", ctimeMs: 100 };
		const rewritten = { ...session, ctimeMs: 250 };
		expect(diffScan(new Map([[session.path, session]]), [rewritten]).changed).toEqual([rewritten]);
		expect(diffScan(new Map([[session.path, session]]), [{ ...session }]).unchanged).toHaveLength(1);
		const { ctimeMs: _none, ...older } = session;
		expect(diffScan(new Map([[session.path, older]]), [rewritten]).unchanged).toHaveLength(1);
	});
});
