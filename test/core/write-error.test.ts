import { describe, expect, it } from "vitest";
import { describeWriteError, isFileSystemError, UNEXPECTED_ERROR } from "../../src/core/write-error";

describe("describeWriteError", () => {
	it("names what a person can act on, by the error's code; other errors keep their message", () => {
		const full = Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
		expect(describeWriteError(full)).toBe("the disk is full (ENOSPC)");
		expect(isFileSystemError(full)).toBe(true);
		expect(describeWriteError(Object.assign(new Error("x"), { code: "EROFS" }))).toBe("the file system is read-only (EROFS)");
		const other = new Error("/p/CLAUDE.md is read-only");
		expect(describeWriteError(other)).toBe("/p/CLAUDE.md is read-only");
		expect(isFileSystemError(other)).toBe(false);
		expect(isFileSystemError(Object.assign(new Error("x"), { code: 28 }))).toBe(false);
		expect(describeWriteError("plain")).toBe("plain");
		// A file size limit (`ulimit -f`) is one too, not a raw "EFBIG: file too large, write".
		expect(describeWriteError(Object.assign(new Error("EFBIG: file too large, write"), { code: "EFBIG" }))).toMatch(/^the file is larger than this system lets a file be \(EFBIG/);
		// A file where the notes folder goes: mkdir says EEXIST of it, not a raw "EEXIST: file already exists, mkdir '/v/Notes'".
		expect(describeWriteError(Object.assign(new Error("EEXIST: file already exists, mkdir '/v/Notes'"), { code: "EEXIST", syscall: "mkdir" }))).toBe("a file stands where a folder of the path should be (EEXIST)");
		expect(describeWriteError(Object.assign(new Error("EEXIST: file already exists, open '/v/a'"), { code: "EEXIST", syscall: "open" }))).toBe("EEXIST: file already exists, open '/v/a'");
	});

	it("says an error of the JavaScript engine (a bug of ours) without V8's words (attack round 48a)", () => {
		let thrown: unknown;
		try {
			(JSON.parse("null") as { id: string }).id.trim();
		} catch (error) {
			thrown = error;
		}
		expect(String(thrown)).toContain("Cannot read properties of null");
		expect(describeWriteError(thrown)).toBe(UNEXPECTED_ERROR);
		expect(describeWriteError(new RangeError("Invalid string length"))).toBe(UNEXPECTED_ERROR);
		// Node's own errors with a code keep their sentence (ERR_ ones say what to fix).
		expect(describeWriteError(Object.assign(new TypeError("The \"path\" argument must be of type string"), { code: "ERR_INVALID_ARG_TYPE" }))).toContain("argument must be");
	});
});
