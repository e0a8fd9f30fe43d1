import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { trackedByGit } from "../../src/node/git-tracked";

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();

/** A repository holding `tracked.md` (committed) and `loose.md` (not added). */
function repository(path: string): void {
	mkdirSync(path, { recursive: true });
	git(path, "init", "-q");
	writeFileSync(join(path, "tracked.md"), "x");
	writeFileSync(join(path, "loose.md"), "y");
	git(path, "add", "tracked.md");
	git(path, "commit", "-q", "-m", "one");
}

describe("trackedByGit", () => {
	let root = "";
	beforeEach(() => {
		root = mkdtempSync(join(tmpdir(), "git-tracked-"));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("reads a version 2 index itself, and asks git of a version 4 one", () => {
		const app = join(root, "app");
		repository(app);
		expect(trackedByGit(join(app, "tracked.md"))).toBe(true);
		expect(trackedByGit(join(app, "loose.md"))).toBe(false);
		git(app, "update-index", "--index-version", "4");
		expect(trackedByGit(join(app, "tracked.md"))).toBe(true);
		expect(trackedByGit(join(app, "loose.md"))).toBe(false);
		expect(trackedByGit(join(root, "outside.md"))).toBe(false);
	});

	it("asks git of the file's own repository, whatever GIT_DIR this process has, and runs none of the repository's commands", () => {
		const app = join(root, "app");
		repository(app);
		git(app, "update-index", "--index-version", "4");
		const ran = join(root, "monitor-ran");
		const monitor = join(root, "monitor.sh");
		writeFileSync(monitor, `#!/bin/sh\ntouch '${ran}'\n`);
		chmodSync(monitor, 0o755);
		git(app, "config", "core.fsmonitor", monitor);
		// Another repository, where `loose.md` is tracked: GIT_DIR pointing there made git answer for it.
		const other = join(root, "other");
		mkdirSync(other);
		git(other, "init", "-q");
		writeFileSync(join(other, "loose.md"), "z");
		git(other, "add", "loose.md");
		const before = process.env.GIT_DIR;
		process.env.GIT_DIR = join(other, ".git");
		try {
			expect(trackedByGit(join(app, "loose.md"))).toBe(false);
		} finally {
			if (before === undefined) delete process.env.GIT_DIR;
			else process.env.GIT_DIR = before;
		}
		expect(existsSync(ran)).toBe(false);
	});
});
