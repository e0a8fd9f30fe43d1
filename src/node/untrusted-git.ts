/**
 * How git is run on a repository the user did not configure: a folder unpacked from an archive
 * brings its own `.git/config`, whose settings can name commands git runs. Only read-only
 * commands are run, and with:
 * - `core.fsmonitor` off: a command run on every index read (`ls-files`);
 * - no transport (`protocol.allow=never`) and no lazy fetch: in a partial clone, a missing
 *   object made even `rev-list` fetch it from the "promisor" remote, which ran the repository's
 *   `core.gitProxy` (or `core.sshCommand`, an `ext::` URL's command); `rev-list` is also given
 *   `--missing=allow-any` (see `REV_LIST_NO_FETCH`), which git before 2.44 needs;
 * - no `GIT_*` variables of ours (a sync run from a git hook has `GIT_DIR`, which would point git
 *   elsewhere), no prompt for credentials, and no optional locks taken.
 */
export const UNTRUSTED_GIT_ARGS: readonly string[] = ["-c", "core.fsmonitor=false", "-c", "protocol.allow=never", "--no-optional-locks"];

/** `rev-list`'s own switch for the same: a missing object is passed over, not fetched. */
export const REV_LIST_NO_FETCH = "--missing=allow-any";

/** The environment git runs in: this process's, without its `GIT_*` variables, lazy fetching and prompts turned off. */
export function untrustedGitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("GIT_")));
	return { ...kept, GIT_NO_LAZY_FETCH: "1", GIT_TERMINAL_PROMPT: "0" };
}
