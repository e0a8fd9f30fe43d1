import { lstatSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { readPlainBytesSync, readPlainHeadSync } from "./confined-path";
import { UNTRUSTED_GIT_ARGS, untrustedGitEnv } from "./untrusted-git";

/**
 * Whether git tracks the file at `path`, in the repository whose work tree holds it (the nearest
 * `.git` above it: a subfolder of a repository, a submodule, a linked worktree). A file a
 * repository ships came with it, from whoever wrote it (an Aider history committed to a public
 * repository is its author's sessions, not the user's). Read from the repository's index without
 * running git; an index whose paths cannot be read that way (version 4, or split) is asked of
 * `git ls-files`, and taken as tracked when git cannot answer. No repository: not tracked.
 */
export function trackedByGit(path: string): boolean {
	const repo = repositoryOf(dirname(path));
	if (repo === undefined) return false;
	const rel = relative(repo.root, path).split(sep).join("/");
	let bytes: Buffer;
	try {
		bytes = readPlainBytesSync(repo.index);
	} catch {
		return false;
	}
	if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "DIRC") return false;
	const version = bytes.readUInt32BE(4);
	if (version <= 3 && inIndex(bytes, rel)) return true;
	// Version 4 compresses paths; a split index keeps entries in a shared file: git tells.
	if (version > 3 || bytes.includes("link", 12, "latin1")) return askGit(repo.root, rel);
	return false;
}

/** An entry's path follows its 16-bit flags, whose low 12 bits are the path's length (0xfff past that). */
function inIndex(bytes: Buffer, rel: string): boolean {
	const name = Buffer.from(rel, "utf8");
	const needle = Buffer.concat([name, Buffer.from([0])]);
	for (let at = bytes.indexOf(needle, 12); at >= 2; at = bytes.indexOf(needle, at + 1)) {
		if ((bytes.readUInt16BE(at - 2) & 0xfff) === Math.min(name.length, 0xfff)) return true;
	}
	return false;
}

function askGit(root: string, rel: string): boolean {
	// Loaded here only: `child_process` (with `net` and `dgram`) cost a sync with nothing to do 6 ms.
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (a `require`: the bundles run as scripts, see `node/code-cache`)
	const { spawnSync } = require("node:child_process") as typeof import("node:child_process");
	// The repository's own `.git/config` is not the user's (see `untrusted-git`).
	const run = spawnSync("git", [...UNTRUSTED_GIT_ARGS, "-C", root, "ls-files", "--error-unmatch", "--", rel], { stdio: "ignore", timeout: 10_000, env: untrustedGitEnv() });
	return run.error !== undefined || run.status !== 1;
}

/** The nearest work tree at or above `dir` and its index file: `.git/index`, or where a `.git` file (`gitdir: …`) leads. */
function repositoryOf(dir: string): { root: string; index: string } | undefined {
	for (let at = resolve(dir), depth = 0; depth < 128; depth++) {
		const dotGit = join(at, ".git");
		const found = lstatSync(dotGit, { throwIfNoEntry: false });
		if (found?.isDirectory()) return { root: at, index: join(dotGit, "index") };
		if (found?.isFile()) {
			try {
				const text = readPlainHeadSync(dotGit, 4096).trim();
				if (text.startsWith("gitdir:")) return { root: at, index: join(resolve(at, text.slice("gitdir:".length).trim()), "index") };
			} catch {
				// An unreadable `.git` file: no repository known here.
			}
			return undefined;
		}
		const up = dirname(at);
		if (up === at) return undefined;
		at = up;
	}
	return undefined;
}
