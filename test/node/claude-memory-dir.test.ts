import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	canonicalGitRoot,
	claudeMemoryDir,
	claudeMemoryKey,
	encodeClaudeProjectDir,
	findGitRoot,
	resolveAutoMemoryDirectory,
} from "../../src/node/claude-memory-dir";

let dir: string;
let claudeDir: string;
let home: string;

beforeEach(() => {
	// realpath: on macOS the temp folder is behind a link, and the key is a real path.
	dir = realpathSync(mkdtempSync(join(tmpdir(), "claude-memory-dir-")));
	home = join(dir, "home");
	claudeDir = join(home, ".claude");
	mkdirSync(claudeDir, { recursive: true });
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

function folder(...parts: string[]): string {
	const path = join(dir, ...parts);
	mkdirSync(path, { recursive: true });
	return path;
}

/** A main checkout at `main` with a linked worktree at `wt`, laid out the way `git worktree add` does. */
function worktree(main: string, wt: string, name = "wt"): string {
	const adminDir = folder(main, ".git", "worktrees", name);
	folder(wt);
	writeFileSync(join(dir, wt, ".git"), `gitdir: ${adminDir}\n`);
	writeFileSync(join(adminDir, "commondir"), "../..\n");
	writeFileSync(join(adminDir, "gitdir"), `${join(dir, wt, ".git")}\n`);
	return join(dir, wt);
}

describe("encodeClaudeProjectDir", () => {
	it("replaces every character outside [A-Za-z0-9] with '-'", () => {
		expect(encodeClaudeProjectDir("/tmp/ai-memory-demo/shop-api")).toBe("-tmp-ai-memory-demo-shop-api");
		expect(encodeClaudeProjectDir("/work/my.proj_v2 name")).toBe("-work-my-proj-v2-name");
	});

	it("works on UTF-16 units, as the client does (seen: café-日本🙂 → caf------)", () => {
		expect(encodeClaudeProjectDir("/w/café-日本🙂")).toBe("-w-caf------");
		expect(encodeClaudeProjectDir("/w/cafe\u0301")).toBe("-w-cafe-"); // decomposed é: e + combining mark
	});

	it("cuts names over 200 characters and appends the path's hash (folder name recorded from Claude Code 2.1.332)", () => {
		const long = `/tmp/mexp2-bwUHoQ/work/${"a".repeat(60)}/${"b".repeat(60)}/${"c".repeat(60)}/${"d".repeat(40)}`;
		const name = encodeClaudeProjectDir(long);
		expect(name).toBe(`-tmp-mexp2-bwUHoQ-work-${"a".repeat(60)}-${"b".repeat(60)}-${"c".repeat(55)}-sc34ik`);
		expect(name.length).toBe(207);
		const exactly200 = `/${"x".repeat(199)}`;
		expect(encodeClaudeProjectDir(exactly200)).toBe(`-${"x".repeat(199)}`);
		expect(encodeClaudeProjectDir(`${exactly200}y`)).toMatch(new RegExp(`^-x{199}-[0-9a-z]+$`));
	});
});

describe("git root and memory key", () => {
	it("is the repository root for the root and any subfolder", () => {
		const repo = folder("repo");
		folder("repo", ".git");
		const deep = folder("repo", "src", "deep");
		expect(findGitRoot(deep)).toBe(repo);
		expect(claudeMemoryKey(repo)).toBe(repo);
		expect(claudeMemoryKey(deep)).toBe(repo);
	});

	it("is the folder itself outside git, not a parent", () => {
		const inner = folder("plain", "inner");
		expect(findGitRoot(inner)).toBeUndefined();
		expect(claudeMemoryKey(inner)).toBe(inner);
	});

	it("counts any .git entry: an empty folder, a file, a link to a folder", () => {
		folder("empty", ".git");
		expect(claudeMemoryKey(folder("empty", "sub"))).toBe(join(dir, "empty"));
		folder("filegit");
		writeFileSync(join(dir, "filegit", ".git"), "gitdir: /nonexistent\n");
		expect(claudeMemoryKey(folder("filegit", "in"))).toBe(join(dir, "filegit"));
		folder("linked");
		symlinkSync(folder("elsewhere", ".git"), join(dir, "linked", ".git"));
		expect(claudeMemoryKey(folder("linked", "sub"))).toBe(join(dir, "linked"));
		folder("dangling");
		symlinkSync(join(dir, "nothing-here"), join(dir, "dangling", ".git"));
		expect(findGitRoot(join(dir, "dangling"))).toBeUndefined();
	});

	it("maps a linked worktree (and its subfolders) to the main checkout", () => {
		folder("main", ".git");
		const wt = worktree("main", "wt");
		expect(canonicalGitRoot(wt)).toBe(join(dir, "main"));
		expect(claudeMemoryKey(folder("wt", "x", "y"))).toBe(join(dir, "main"));
		// A relative gitdir works too.
		writeFileSync(join(wt, ".git"), "gitdir: ../main/.git/worktrees/wt\n");
		expect(claudeMemoryKey(wt)).toBe(join(dir, "main"));
	});

	it("maps a worktree of a bare repository to the bare repository's folder", () => {
		const adminDir = folder("proj.git", "worktrees", "bare-wt");
		const wt = folder("bare-wt");
		writeFileSync(join(wt, ".git"), `gitdir: ${adminDir}\n`);
		writeFileSync(join(adminDir, "commondir"), "../..\n");
		writeFileSync(join(adminDir, "gitdir"), `${join(wt, ".git")}\n`);
		expect(claudeMemoryKey(wt)).toBe(join(dir, "proj.git"));
	});

	it("keeps its own root for a submodule, a moved worktree, and broken pointers", () => {
		// submodule: gitdir in the superproject's .git/modules, no commondir
		folder("super", ".git", "modules", "lib");
		const lib = folder("super", "lib");
		writeFileSync(join(lib, ".git"), "gitdir: ../.git/modules/lib\n");
		expect(claudeMemoryKey(lib)).toBe(lib);
		expect(claudeMemoryKey(folder("super", "lib", "src"))).toBe(lib);
		// moved worktree: the admin dir's gitdir file still names the old place
		folder("main", ".git");
		worktree("main", "old-wt");
		const moved = folder("moved-wt");
		writeFileSync(join(moved, ".git"), `gitdir: ${join(dir, "main", ".git", "worktrees", "wt")}\n`);
		expect(claudeMemoryKey(moved)).toBe(moved);
		// not a gitdir line
		const odd = folder("odd");
		writeFileSync(join(odd, ".git"), "something else\n");
		expect(claudeMemoryKey(odd)).toBe(odd);
	});

	it("resolves links in the project path, as the client's cwd is a real path", () => {
		const real = folder("real");
		symlinkSync(real, join(dir, "link"));
		expect(claudeMemoryKey(join(dir, "link"))).toBe(real);
		expect(claudeMemoryKey(join(dir, "gone"))).toBe(join(dir, "gone"));
	});
});

describe("autoMemoryDirectory", () => {
	it("takes absolute and ~/ paths, without trailing separators", () => {
		expect(resolveAutoMemoryDirectory("/srv/mem//", home)).toBe("/srv/mem");
		expect(resolveAutoMemoryDirectory("/srv/./a/../mem", home)).toBe("/srv/mem");
		expect(resolveAutoMemoryDirectory("~/notes/mem", home)).toBe(join(home, "notes", "mem"));
		expect(resolveAutoMemoryDirectory("~/notes/../mem/", home)).toBe(join(home, "mem"));
	});

	it("ignores what the client ignores", () => {
		for (const bad of ["", "rel/mem", "./mem", "~", "~/", "~/.", "~/..", "~/../x", "~user/mem", "/", "/a", "/a\0b", 42, null, {}]) {
			expect(resolveAutoMemoryDirectory(bad, home), JSON.stringify(bad)).toBeUndefined();
		}
		expect(resolveAutoMemoryDirectory("/ab", home)).toBe("/ab");
	});
});

describe("claudeMemoryDir", () => {
	it("defaults to <claudeDir>/projects/<encoded git root>/memory", () => {
		folder("my.repo_x", ".git");
		const sub = folder("my.repo_x", "src");
		const expected = join(claudeDir, "projects", encodeClaudeProjectDir(join(dir, "my.repo_x")), "memory");
		expect(claudeMemoryDir(sub, { claudeDir })).toBe(expected);
		expect(claudeMemoryDir(sub, { claudeDir, settings: { autoMemoryEnabled: true } })).toBe(expected);
		expect(claudeMemoryDir(sub, { claudeDir, settings: "not an object" })).toBe(expected);
	});

	it("uses a usable autoMemoryDirectory as the folder itself, else the default", () => {
		const plain = folder("plain");
		const fallback = join(claudeDir, "projects", encodeClaudeProjectDir(plain), "memory");
		expect(claudeMemoryDir(plain, { claudeDir, home, settings: { autoMemoryDirectory: "/srv/mem/" } })).toBe("/srv/mem");
		expect(claudeMemoryDir(plain, { claudeDir, home, settings: { autoMemoryDirectory: "~/tilde-mem" } })).toBe(join(home, "tilde-mem"));
		expect(claudeMemoryDir(plain, { claudeDir, home, settings: { autoMemoryDirectory: "rel-mem" } })).toBe(fallback);
		expect(claudeMemoryDir(plain, { claudeDir, home, settings: { autoMemoryDirectory: "~/" } })).toBe(fallback);
	});

	it("is undefined when auto memory is off, and CLAUDE_CODE_DISABLE_AUTO_MEMORY wins over the settings", () => {
		const plain = folder("plain");
		const on = join(claudeDir, "projects", encodeClaudeProjectDir(plain), "memory");
		expect(claudeMemoryDir(plain, { claudeDir, settings: { autoMemoryEnabled: false, autoMemoryDirectory: "/srv/mem" } })).toBeUndefined();
		for (const value of ["1", "true", "YES", " on "]) expect(claudeMemoryDir(plain, { claudeDir, env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: value } })).toBeUndefined();
		for (const value of ["0", "false", "No", "off"]) {
			expect(claudeMemoryDir(plain, { claudeDir, settings: { autoMemoryEnabled: false }, env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: value } })).toBe(on);
		}
		// Anything else neither forces it on nor off.
		expect(claudeMemoryDir(plain, { claudeDir, settings: { autoMemoryEnabled: false }, env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "maybe" } })).toBeUndefined();
		expect(claudeMemoryDir(plain, { claudeDir, env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: "" } })).toBe(on);
	});
});
