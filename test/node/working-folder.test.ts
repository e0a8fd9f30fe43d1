import { describe, expect, it } from "vitest";
import { workingFolder } from "../../src/node/working-folder";

const gone = () => {
	throw Object.assign(new Error("ENOENT: no such file or directory, uv_cwd"), { code: "ENOENT" });
};

describe("workingFolder", () => {
	it("is the process's folder while it is there", () => {
		expect(workingFolder({ PWD: "/elsewhere" }, () => "/work/app")).toBe("/work/app");
	});

	it("is the folder the shell recorded once the process's folder is removed (process.cwd() throws)", () => {
		expect(workingFolder({ PWD: "/work/app-worktree" }, gone)).toBe("/work/app-worktree");
	});

	it("is none when no absolute folder was recorded either", () => {
		expect(workingFolder({}, gone)).toBeUndefined();
		expect(workingFolder({ PWD: "relative/x" }, gone)).toBeUndefined();
	});
});
