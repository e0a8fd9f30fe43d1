/**
 * Where Claude Code keeps a project's auto memory (`MEMORY.md` + one file per fact), worked out the
 * way Claude Code 2.1.332 does it. Observed with the real client (test/e2e/memory-location.e2e.test.ts,
 * test/e2e/FINDINGS.md "Auto memory") and checked against the client's own code:
 *
 * 1. `autoMemoryEnabled: false` in the settings turns it off, and so does a truthy
 *    `CLAUDE_CODE_DISABLE_AUTO_MEMORY` ("1", "true", "yes", "on"); a falsy one ("0", "false", "no",
 *    "off") turns it on whatever the settings say.
 * 2. `autoMemoryDirectory` (settings), when usable, is the folder itself: absolute, or `~/…` under
 *    the home folder. Anything else (relative, `~/`, `~/..`, shorter than 3 characters) is ignored and
 *    the default applies.
 * 3. Default: `<claude dir>/projects/<encoded key>/memory`, where the key is
 *    - the git repository root, found by walking up from the project folder to the first folder with a
 *      `.git` entry (a folder or a file, even an empty one);
 *    - for a linked worktree (a `.git` FILE `gitdir: <repo>/.git/worktrees/<name>` whose `commondir` and
 *      `gitdir` files point back at it): the main checkout's root (or the bare repository's folder), so
 *      all worktrees and subfolders share one memory; a submodule or a moved worktree keeps its own root;
 *    - outside a git repository: the project folder itself.
 *    The key is encoded like the transcript folders: every UTF-16 unit outside [A-Za-z0-9] becomes `-`;
 *    names over 200 characters are cut to 200 plus `-<hash>` (see {@link encodeClaudeProjectDir}).
 *
 * Not modelled: project/local/policy settings (they can also set both keys), `CLAUDE_CODE_SIMPLE`
 * (`--bare`), the remote/cowork overrides and `CLAUDE_CODE_PROJECT_DIR_NAME`.
 */
import { existsSync, lstatSync, realpathSync, statSync } from "node:fs";
import { readPlainBytesSync, readPlainFileIfThere } from "./confined-path";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from "node:path";

/** Longest encoded project folder name before Claude Code cuts it and appends a hash. */
const CLAUDE_PROJECT_DIR_MAX = 200;

export interface ClaudeMemoryDirOptions {
	/** Claude Code's config folder (`~/.claude`, or `$CLAUDE_CONFIG_DIR`). */
	claudeDir: string;
	/** The home folder `~/` means in `autoMemoryDirectory`. Default: `os.homedir()`. */
	home?: string;
	/** The user's parsed `settings.json` (`<claudeDir>/settings.json`), if any. */
	settings?: unknown;
	/**
	 * Environment to honour `CLAUDE_CODE_DISABLE_AUTO_MEMORY` from. Only looked at when given (the
	 * environment Claude Code runs in is not necessarily ours).
	 */
	env?: Record<string, string | undefined>;
}

/**
 * The folder holding the project's `MEMORY.md` (no trailing separator), or undefined when auto memory
 * is turned off. The folder need not exist yet: Claude Code creates it at session start.
 */
export function claudeMemoryDir(projectPath: string, options: ClaudeMemoryDirOptions): string | undefined {
	const settings = isRecord(options.settings) ? options.settings : {};
	if (!autoMemoryEnabled(settings, options.env)) return undefined;
	const custom = resolveAutoMemoryDirectory(settings.autoMemoryDirectory, options.home ?? homedir());
	if (custom !== undefined) return custom;
	return join(options.claudeDir, "projects", encodeClaudeProjectDir(claudeMemoryKey(projectPath)), "memory").normalize("NFC");
}

/**
 * Claude Code's folder name for a path (transcripts: the cwd; memory: {@link claudeMemoryKey}). Every
 * UTF-16 code unit outside [A-Za-z0-9] becomes `-` (so an emoji gives `--`, a decomposed `é` gives `e-`);
 * a result over 200 characters is cut to 200 and gets `-` + the base-36 absolute value of the path's
 * 32-bit Java-style string hash. Lossy: never decode a path from it.
 */
export function encodeClaudeProjectDir(path: string): string {
	const name = path.replace(/[^a-zA-Z0-9]/g, "-");
	if (name.length <= CLAUDE_PROJECT_DIR_MAX) return name;
	return `${name.slice(0, CLAUDE_PROJECT_DIR_MAX)}-${Math.abs(javaStringHash(path)).toString(36)}`;
}

/**
 * The path Claude Code derives a project's memory folder name from: the canonical git root of the
 * project folder (symlinks resolved, like the client's cwd), or the folder itself outside git.
 */
export function claudeMemoryKey(projectPath: string): string {
	const folder = realpathOr(resolve(projectPath));
	const root = findGitRoot(folder);
	return root === undefined ? folder : canonicalGitRoot(root);
}

/** The nearest folder, `start` included, with a `.git` folder or file (or a link to one). */
export function findGitRoot(start: string): string | undefined {
	let dir = resolve(start);
	for (;;) {
		if (hasGitEntry(dir)) return dir;
		const up = dirname(dir);
		if (up === dir) return undefined;
		dir = up;
	}
}

/**
 * For a linked worktree, the root of the repository it belongs to: the main checkout's folder, or the
 * bare repository's folder. Any other root (a normal checkout, a submodule, a worktree whose
 * `gitdir`/`commondir` files don't point back at it) is its own canonical root.
 */
export function canonicalGitRoot(root: string): string {
	try {
		const dotGit = readPlainBytesSync(join(root, ".git")).toString("utf8").trim(); // EISDIR for a normal checkout
		if (!dotGit.startsWith("gitdir:")) return root;
		const gitDir = resolve(root, dotGit.slice("gitdir:".length).trim());
		const commonDirText = readSmall(join(gitDir, "commondir"));
		if (commonDirText === undefined) return root;
		const commonDir = resolve(gitDir, commonDirText);
		if (resolve(dirname(gitDir)) !== join(commonDir, "worktrees")) return root;
		const backPointer = readSmall(join(gitDir, "gitdir"));
		if (backPointer === undefined) return root;
		if (realpathSync(resolve(gitDir, backPointer)) !== join(realpathSync(root), ".git")) return root;
		if (basename(commonDir) !== ".git") return hasGitEntry(commonDir) ? root : commonDir;
		return dirname(commonDir);
	} catch {
		return root;
	}
}

/**
 * `autoMemoryDirectory` as Claude Code uses it (no trailing separator), or undefined when it is unset or
 * unusable — then the default folder applies.
 */
export function resolveAutoMemoryDirectory(value: unknown, home: string): string | undefined {
	if (typeof value !== "string" || value === "") return undefined;
	let path = value;
	if (path.startsWith("~/") || path.startsWith("~\\")) {
		const rest = path.slice(2);
		const inside = normalize(rest || ".");
		if (inside === "." || inside === ".." || inside.startsWith(`..${sep}`) || inside.startsWith("../") || inside.startsWith("..\\")) return undefined;
		path = join(home, rest);
	}
	const cleaned = normalize(path).replace(/[/\\]+$/, "");
	if (!isAbsolute(cleaned) || cleaned.length < 3 || /^[A-Za-z]:$/.test(cleaned) || /^[\\/]{2}/.test(cleaned) || cleaned.includes("\0")) return undefined;
	return cleaned.normalize("NFC");
}

function autoMemoryEnabled(settings: Record<string, unknown>, env: Record<string, string | undefined> | undefined): boolean {
	const flag = env?.CLAUDE_CODE_DISABLE_AUTO_MEMORY?.toLowerCase().trim();
	if (flag !== undefined && ["1", "true", "yes", "on"].includes(flag)) return false;
	if (flag !== undefined && ["0", "false", "no", "off"].includes(flag)) return true;
	return settings.autoMemoryEnabled !== false;
}

function hasGitEntry(dir: string): boolean {
	const entry = join(dir, ".git");
	try {
		// No error made for nothing there: the walk up from each enabled project asks at every level.
		const link = lstatSync(entry, { throwIfNoEntry: false });
		if (link === undefined) return false;
		if (link.isDirectory() || link.isFile()) return true;
		if (!link.isSymbolicLink()) return false;
		const target = statSync(entry);
		return target.isDirectory() || target.isFile();
	} catch {
		return false;
	}
}

/** A small git control file's trimmed text; undefined when missing, not a file or oversized. */
function readSmall(path: string): string | undefined {
	try {
		const info = statSync(path);
		if (!info.isFile() || info.size > 64 * 1024) return undefined;
		return readPlainBytesSync(path).toString("utf8").trim();
	} catch {
		return undefined;
	}
}

function realpathOr(path: string): string {
	// A folder not there (a project on a drive not mounted) costs no error.
	if (!existsSync(path)) return path;
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

function javaStringHash(text: string): number {
	let hash = 0;
	for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
	return hash;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Claude Code's `settings.json` parsed, undefined when there is none, or why it cannot be read.
 * Unreadable is not missing: read as none (a save under way, a trailing comma), the defaults sent
 * the sync to another memory folder, where every shared fact looked deleted.
 */
export async function readClaudeSettings(path: string): Promise<unknown> {
	let text: string | null;
	try {
		text = await readPlainFileIfThere(path);
	} catch (error) {
		return new Error(`${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}`);
	}
	if (text === null) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return new Error(text.trim() === "" ? "it is empty" : "it is not JSON");
	}
}
