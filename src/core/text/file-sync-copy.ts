/**
 * The suffixes file-sync tools put on the copy they keep of a file changed on two machines at
 * once, before its extension: Syncthing's `.sync-conflict-<date>-<time>-<device>`, Dropbox's and
 * Nextcloud's ` (conflicted copy…)` (`(conflicted copy 2026-11-04)`, `(Ann's conflicted copy …)`,
 * `(conflicted copy 2026-11-04 101010)`), ownCloud's `_conflict-<date>-<time>`. A title never ends
 * so; iCloud Drive's ` 2` can (a note titled "Step 2"), so it is left to callers whose names hold
 * no space (see `transcript-files`).
 */
const CONFLICT_SUFFIX = [/\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}$/, / \((?:[^()]*'s )?conflicted copy(?: [^()]*)?\)$/i, /_conflict-\d{8}-\d{6}$/];

/** The name (without its extension) of the file `stem` is a file-sync tool's conflict copy of; undefined when it is none. */
export function conflictCopyOf(stem: string): string | undefined {
	for (const suffix of CONFLICT_SUFFIX) {
		const match = suffix.exec(stem);
		if (match && match.index > 0) return stem.slice(0, match.index);
	}
	return undefined;
}

/** Whether the file at `path` (`/`-separated, as the vault's) is a file-sync tool's conflict copy, by its name. */
export function isFileSyncCopy(path: string): boolean {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return conflictCopyOf(dot > 0 ? name.slice(0, dot) : name) !== undefined;
}
