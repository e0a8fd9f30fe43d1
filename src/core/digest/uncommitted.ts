import { pathInside } from "../text/path-inside";
import type { ToolCall } from "../transcript/session-model";
import { commitOf } from "./work-signals";
import { codeSpan } from "../text/code-spans";

/** Tools that change a file in place, by any agent's fold (their names are Claude Code's). */
const CHANGES_FILE = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** A commit in any form (`-m`, `-F`, the editor, `--amend`), here or in another folder (`git -C`), when its command is not clipped before it. */
const COMMIT = /\bgit\s+(?:-C\s+\S+\s+)?commit\b/;

/** Commands after which the tree's changes may be gone or put away: what was written is no longer known to be left. */
const PUT_AWAY = /\bgit\s+(?:-C\s+\S+\s+)?(?:stash|checkout|restore|reset|switch|clean)\b/;

/** What `git status` says of a tree with nothing to commit. */
const CLEAN = /\bnothing to commit\b|\bworking tree clean\b/;

/** Files no repository commits: local secrets and what tools make. */
const NEVER_COMMITTED = /(?:^|\/)(?:\.env(?:\.[^/]*)?|node_modules\/.*|\.git\/.*)$/;

const SHOWN = 3;

/**
 * Files written or edited after the session's last commit, in a session that committed: left
 * uncommitted at its end, which the next session finds in the tree. Only a session that commits
 * is told so (one whose person commits by hand is not), only files inside the session's folder,
 * and only what succeeded. Any later commit, a stash, checkout, restore, reset, switch or clean,
 * and git saying there is nothing to commit, close them all: a claim made only where nothing
 * says otherwise.
 * @returns the open item, or undefined.
 */
export function uncommittedFiles(calls: readonly ToolCall[], cwd: string | undefined): string | undefined {
	if (cwd === undefined) return undefined;
	let committed = false;
	const left = new Set<string>();
	for (const call of calls) {
		if (call.result === undefined || call.result.isError) continue;
		if (call.name === "Bash") {
			const command = typeof call.input.command === "string" ? call.input.command : "";
			const commit = COMMIT.test(command) || commitOf(call) !== undefined;
			if (commit) committed = true;
			// git's word that the tree is clean (something else committed) counts most.
			if (commit || PUT_AWAY.test(command) || (/\bgit\b/.test(command) && CLEAN.test(call.result.text))) left.clear();
			continue;
		}
		if (!CHANGES_FILE.has(call.name)) continue;
		const path = call.input.file_path ?? call.input.notebook_path;
		const inside = typeof path === "string" ? pathInside(path, cwd) : undefined;
		if (inside !== undefined && inside !== "" && !NEVER_COMMITTED.test(inside)) left.add(inside);
	}
	if (!committed || left.size === 0) return undefined;
	const names = [...left];
	const more = names.length > SHOWN ? ` (+${names.length - SHOWN} more)` : "";
	return `left uncommitted: ${names
		.slice(0, SHOWN)
		// One span on one line each: a path a tool call gave may hold a backtick or a line break (see `codeSpan`).
		.map((n) => codeSpan(n))
		.join(", ")}${more}`;
}
