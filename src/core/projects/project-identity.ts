import { baseName, capBytes, MAX_NAME, safeFileName } from "../notes/note-name";
import { codeUnitOrder } from "../text/code-unit-order";
import { sameFileKey } from "../text/same-file-key";

/**
 * A project is a repository: its git root (a linked worktree's is its main checkout's), else the
 * folder itself. The adapter that can look at the disk resolves a folder that exists here; this
 * module decides the rest from what is recorded, so that a transcript whose folder is gone, or
 * that was recorded on another system (`C:\…`, `\\server\share\…`), keeps one stable identity.
 */

/**
 * A folder recorded as a path from the root: POSIX `/…`, Windows `C:\…` or `C:/…`, UNC `\\server\…`.
 * A relative one (`.`, `src`) names no folder: resolved, it was wherever the sync ran.
 */
export function isRootedPath(path: string): boolean {
	return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * A path in the form identities are compared in: `/` separators, no trailing one; Windows paths
 * lower-cased, and macOS ones (`/Users/…`, `/Volumes/…`) compared as `sameFileKey` compares names:
 * a Mac's disk ignores case and normalization, so `/Users/A/Code/app` and `/Users/a/code/app` are
 * one folder there (Claude Code's two project folders for them are one too), and were two projects.
 */
export function comparablePath(path: string): string {
	const windows = /^[A-Za-z]:[\\/]/.test(path) || /^[\\/]{2}[^\\/]/.test(path);
	let out = windows ? path.replace(/\\/g, "/") : path;
	if (out.length > 1) out = out.replace(/\/+$/, "") || "/";
	if (windows) return out.toLowerCase();
	return /^\/(?:Users|Volumes)\//.test(out) ? sameFileKey(out) : out;
}

/** Whether `path` is `root` or lies inside it, compared as {@link comparablePath}. */
export function isWithin(path: string, root: string): boolean {
	const p = comparablePath(path);
	const r = comparablePath(root);
	return p === r || p.startsWith(r.endsWith("/") ? r : `${r}/`);
}

/** A folder's repository as the adapter found it on this machine. */
export interface ResolvedFolder {
	/** The git root (a linked worktree's main checkout), else the folder itself. */
	root: string;
	/** Whether `root` is a git repository. */
	repository: boolean;
	/** The repository's root commits, when it has any and they could be read (see `replaced-repository`, and its `NEW_REPOSITORY`). */
	fingerprint?: string;
}

/**
 * The identity of a session's project.
 * @param cwd where the session ran, as the transcript records it.
 * @param resolved what the adapter found for it here, when the folder exists.
 * @param repositories repository roots recorded before: a folder gone from this machine (or
 * recorded on another) belongs to the deepest one holding it, else it is its own project.
 * @param configured the identities of the projects in the settings: a configured folder holds the
 * sessions started below it, except those of a repository of its own below it (a project added at
 * `~/code` took every repository's new sessions there, its old ones staying theirs: one
 * repository's history in two projects).
 */
export function projectKeyOf(cwd: string, resolved: ResolvedFolder | undefined, repositories: readonly string[], configured: readonly string[]): string {
	const key = resolved?.root ?? deepestHolder(cwd, repositories) ?? cwd;
	const holder = deepestHolder(key, configured);
	if (holder === undefined || comparablePath(holder) === comparablePath(key)) return holder ?? key;
	const ownRepository = resolved ? resolved.repository : repositories.some((r) => comparablePath(r) === comparablePath(key));
	return ownRepository ? key : holder;
}

function deepestHolder(path: string, known: readonly string[]): string | undefined {
	let best: string | undefined;
	for (const k of known) if (isWithin(path, k) && (best === undefined || comparablePath(k).length > comparablePath(best).length)) best = k;
	return best;
}

/**
 * A vault folder name for each new identity, unique among those taken (compared as `sameFileKey`:
 * macOS and Windows folders ignore case, macOS normalization too): the repository's base name, else with its parent folder's
 * (`cli (devenv)`), else numbered. Names once chosen never change; new ones are chosen in sorted
 * order, so the same input gives the same names: the projects in `first` (the enabled ones) before
 * the others, and a folder recorded from the root before a relative one. Sorted as paths alone, a
 * session's `../proj` (a hostile or broken `cwd`) or another checkout's `/a/proj` took the name
 * `proj` from the enabled `/b/proj` when they were new in one sync, and its notes went to `proj (b)`.
 */
export function chooseFolders(taken: Iterable<string>, keys: Iterable<string>, first: ReadonlySet<string> = new Set()): Map<string, string> {
	const used = new Set([...taken].map(sameFileKey));
	const chosen = new Map<string, string>();
	const rank = (key: string) => (first.has(key) ? 0 : isRootedPath(key) ? 1 : 2);
	for (const key of [...new Set(keys)].sort((a, b) => rank(a) - rank(b) || codeUnitOrder(a, b))) {
		const parts = key.split(/[\\/]/).filter((p) => p !== "" && !/^[A-Za-z]:$/.test(p));
		const base = safeFileName(baseName(key), "Unknown project");
		const parent = parts.length >= 2 ? safeFileName(parts[parts.length - 2]!, "") : "";
		// Base and parent together stay within a name's length and bytes, as each one does alone
		// (see `MAX_NAME_BYTES`): the index note's path holds the name twice (181 characters made it 381).
		const withParent = `${base} (${parent})`;
		const candidates = [base, ...(parent && withParent.length <= MAX_NAME && capBytes(withParent) === withParent ? [withParent] : [])];
		let name = candidates.find((c) => !used.has(sameFileKey(c)));
		for (let n = 2; name === undefined; n++) if (!used.has(sameFileKey(`${candidates[candidates.length - 1]} ${n}`))) name = `${candidates[candidates.length - 1]} ${n}`;
		used.add(sameFileKey(name));
		chosen.set(key, name);
	}
	return chosen;
}
