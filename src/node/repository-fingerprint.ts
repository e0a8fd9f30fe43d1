import { closeSync, lstatSync, readdirSync, readSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { NEW_REPOSITORY, sameRepository } from "../core/projects/replaced-repository";
import { openPlainFileSync, readPlainBytesSync } from "./confined-path";
import { resolveProjectFolder } from "./project-resolver";
import { REV_LIST_NO_FETCH, UNTRUSTED_GIT_ARGS, untrustedGitEnv } from "./untrusted-git";

/**
 * What tells a repository from another made at the same path: its root commits (see
 * `core/projects/replaced-repository`). Finding them walks the whole history, so it is done
 * once: a repository already fingerprinted is only asked whether it holds one of the commits
 * recorded, which its object files answer without running git (a loose object's file, or a
 * lookup in each pack's index). Only a repository seen for the first time, or one that no longer
 * holds what was recorded (another repository, or one whose objects this cannot read), runs
 * `git rev-list` once.
 * @param root the repository's root (a linked worktree's main checkout), as the resolver found it.
 * @param recorded the fingerprint recorded for the project at `root`, if any.
 * @returns the fingerprint now there; `NEW_REPOSITORY` for one with no commit that does not hold the
 * recorded one; undefined when it cannot be told: no commit yet and none recorded, a shallow clone
 * (its oldest commits are not its roots), git missing or failing.
 */
export async function repositoryFingerprint(root: string, recorded: string | undefined): Promise<string | undefined> {
	const gitDir = gitDirOf(root);
	if (gitDir === undefined) return undefined;
	const common = commonDirOf(gitDir);
	if (isThere(join(common, "shallow"))) return undefined;
	const objects = join(common, "objects");
	if (recorded !== undefined && recorded.split(" ").some((id) => holdsObject(objects, id))) return recorded;
	// No commit yet: none to record; where one with commits was recorded, it was made anew here.
	if (isUnborn(gitDir, common)) return recorded === undefined ? undefined : NEW_REPOSITORY;
	return rootCommits(gitDir);
}

/**
 * Whether the repository at `folder` now is another one than that of `recorded` (one made there
 * since). Not when it cannot be told, or when the folder is gone or outside git.
 */
export async function isOtherRepository(folder: string, recorded: string): Promise<boolean> {
	const here = resolveProjectFolder(folder);
	if (!here?.repository) return false;
	const found = await repositoryFingerprint(here.root, recorded);
	return found !== undefined && (found === NEW_REPOSITORY || !sameRepository(found, recorded));
}

/** How long the one `git rev-list` of a repository may take (a very long history); past it, no fingerprint this time. */
const REV_LIST_TIMEOUT_MS = 20_000;

/** Run without waiting on it: a long history takes seconds, and the plugin's sync shares Obsidian's thread. The repository is not trusted (see `untrusted-git`). */
function rootCommits(gitDir: string): Promise<string | undefined> {
	// Loaded here only: `child_process` (with `net` and `dgram`) at load cost every sync and every hook its 6 ms (see `git-tracked`).
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (a `require`: the bundles run as scripts, see `node/code-cache`)
	const { execFile } = require("node:child_process") as typeof import("node:child_process");
	return new Promise((done) => {
		execFile("git", ["--git-dir", gitDir, ...UNTRUSTED_GIT_ARGS, "rev-list", REV_LIST_NO_FETCH, "--max-parents=0", "HEAD"], { env: untrustedGitEnv(), encoding: "utf8", timeout: REV_LIST_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (error, out) => {
			const ids = error ? [] : [...new Set(out.split("\n").map((l) => l.trim()).filter((l) => /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(l)))].sort();
			done(ids.length === 0 ? undefined : ids.join(" "));
		});
	});
}

/** The repository's git folder: `.git`, the folder a `.git` file names (a submodule), or the root itself when it is a bare repository. */
function gitDirOf(root: string): string | undefined {
	const dotGit = join(root, ".git");
	try {
		if (statSync(dotGit).isDirectory()) return dotGit;
		const text = readPlainBytesSync(dotGit, 64 * 1024).toString("utf8").trim();
		return text.startsWith("gitdir:") ? resolve(root, text.slice("gitdir:".length).trim()) : undefined;
	} catch {
		return isThere(join(root, "HEAD")) && isThere(join(root, "objects")) ? root : undefined;
	}
}

/** Where a git folder's objects and refs are: its `commondir` (a linked worktree's), else itself. */
function commonDirOf(gitDir: string): string {
	const text = smallText(join(gitDir, "commondir"));
	return text === undefined || text === "" ? gitDir : resolve(gitDir, text);
}

/** HEAD names a branch that has no commit yet (`git init`, nothing committed): no fingerprint, and no git run to find none. */
function isUnborn(gitDir: string, common: string): boolean {
	const head = smallText(join(gitDir, "HEAD"));
	const ref = head?.startsWith("ref:") ? head.slice(4).trim() : undefined;
	// A reftable repository keeps its refs elsewhere: git is asked.
	if (ref === undefined || !ref.startsWith("refs/") || isThere(join(common, "reftable"))) return false;
	if (isThere(join(common, ref))) return false;
	const packed = smallText(join(common, "packed-refs"), 64 * 1024 * 1024);
	return packed === undefined || !packed.split("\n").some((line) => line.endsWith(` ${ref}`));
}

/** Alternates followed this deep at most (a loop of them is no repository's). */
const MAX_ALTERNATES_DEPTH = 4;
/** Object folders looked in at most, alternates included (git itself keeps to a few). */
const MAX_OBJECT_FOLDERS = 16;

/**
 * Whether the object `id` is in this object folder: a loose file, an entry of a pack's index, or
 * in an alternate's. Each folder is looked in once: an `alternates` file listing its own folder
 * thousands of times, four deep, was a sync that never ended.
 */
function holdsObject(objects: string, id: string, depth = 0, seen = new Set<string>()): boolean {
	if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(id)) return false;
	if (seen.has(objects) || seen.size >= MAX_OBJECT_FOLDERS) return false;
	seen.add(objects);
	if (isThere(join(objects, id.slice(0, 2), id.slice(2)))) return true;
	const packs = join(objects, "pack");
	let names: string[] = [];
	try {
		names = readdirSync(packs).filter((n) => n.endsWith(".idx"));
	} catch {
		// No pack folder.
	}
	const hash = Buffer.from(id, "hex");
	if (names.some((n) => packIndexHolds(join(packs, n), hash))) return true;
	if (depth >= MAX_ALTERNATES_DEPTH) return false;
	const alternates = smallText(join(objects, "info", "alternates")) ?? "";
	return alternates.split("\n").some((line) => {
		const path = line.trim();
		return path !== "" && !path.startsWith("#") && holdsObject(isAbsolute(path) ? path : resolve(objects, path), id, depth + 1, seen);
	});
}

/**
 * Whether a version 2 pack index lists `hash`: its fan-out table gives the range of names that
 * start with the hash's first byte, searched by halves, a few small reads in all. An index of
 * another version, or damaged, lists nothing here: git is asked then.
 */
function packIndexHolds(path: string, hash: Buffer): boolean {
	let fd: number | undefined;
	try {
		const opened = openPlainFileSync(path);
		fd = opened.fd;
		const header = Buffer.alloc(8 + 256 * 4);
		if (readSync(fd, header, 0, header.length, 0) !== header.length) return false;
		if (header.readUInt32BE(0) !== 0xff744f63 || header.readUInt32BE(4) !== 2) return false;
		const first = hash[0]!;
		let low = first === 0 ? 0 : header.readUInt32BE(8 + (first - 1) * 4);
		let high = header.readUInt32BE(8 + first * 4);
		const names = 8 + 256 * 4;
		if (names + high * hash.length > opened.stats.size) return false;
		const name = Buffer.alloc(hash.length);
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (readSync(fd, name, 0, name.length, names + mid * hash.length) !== name.length) return false;
			const order = name.compare(hash);
			if (order === 0) return true;
			if (order < 0) low = mid + 1;
			else high = mid;
		}
		return false;
	} catch {
		return false;
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

function isThere(path: string): boolean {
	try {
		lstatSync(path);
		return true;
	} catch {
		return false;
	}
}

/** A small git control file's trimmed text; undefined when missing, not a plain file or larger than `max`. */
function smallText(path: string, max = 64 * 1024): string | undefined {
	try {
		return readPlainBytesSync(path, max).toString("utf8").trim();
	} catch {
		return undefined;
	}
}
