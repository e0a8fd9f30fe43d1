import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sectionFile, sectionPath, type TranscriptFile } from "../../../src/core/transcript/transcript-files";

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
