import { pathInside } from "../text/path-inside";
import type { ToolCall } from "../transcript/session-model";
import { commitOf } from "./work-signals";
import { codeSpan } from "../text/code-spans";
import { GIT_VALUE_OPTIONS, programName, shellParts } from "../text/shell-parts";
import { normalizeSlashes } from "../text/normalize-slashes";

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

/** Options of `git add` and `git commit` that take the next word as their value (git's own: `GIT_VALUE_OPTIONS`). */
const ADD_VALUE_OPTIONS = new Set(["--chmod"]);
const COMMIT_VALUE_OPTIONS = new Set(["-m", "--message", "-F", "--file", "-C", "--reuse-message", "-c", "--reedit-message", "-t", "--template", "--author", "--date", "--fixup", "--squash", "--cleanup", "--trailer"]);

/** What the next commit of a session takes, as its commands stage. */
interface Staging {
	/** Paths `git add` named since the last commit, relative to the session's folder (a folder's own covers what is in it). */
	paths: Set<string>;
	/** Something since the last commit staged what cannot be told (`-A`, `.`, a pattern, another folder or work tree). */
	unknown: boolean;
	/** `git add` named paths since the last commit (they may have been changed again since, and left `paths`). */
	added: boolean;
	/** A command moved to another folder (`cd`): where later ones run is not known, nor what their paths name. */
	wandered: boolean;
}

/**
 * Files written or edited after the session's last commit, or left out of its commits, in a
 * session that committed: left uncommitted at its end, which the next session finds in the
 * tree. Only a session that commits, or whose agent offered to, is told so (one whose person commits by hand is not), only
 * files inside the session's folder, and only what succeeded. A commit of the paths `git add`
 * named takes those only (an agent that keeps unrelated edits out of its commit leaves them
 * uncommitted); any other commit (`-a`, paths of its own, `git add -A` or `.`, a pattern, nothing
 * staged that it saw), a stash, checkout, restore, reset, switch or clean, and git saying there
 * is nothing to commit, close them all: a claim made only where nothing says otherwise.
 * @param offered whether the agent offered to commit ("Want me to commit these changes?"): a
 * session that never committed is told so too, its changes being work meant for a commit.
 * @returns the open item, or undefined.
 */
export function uncommittedFiles(calls: readonly ToolCall[], cwd: string | undefined, offered = false): string | undefined {
	if (cwd === undefined) return undefined;
	let committed = false;
	const left = new Set<string>();
	const staging: Staging = { paths: new Set(), unknown: false, added: false, wandered: false };
	for (const call of calls) {
		// A commit the transcript ends inside, before git answered, may have gone through: it counts, as nothing says otherwise.
		const pending = call.result === undefined && call.name === "Bash" && typeof call.input.command === "string" && COMMIT.test(call.input.command);
		if (!pending && (call.result === undefined || call.result.isError)) continue;
		const output = call.result?.text ?? "";
		if (call.name === "Bash") {
			const command = typeof call.input.command === "string" ? call.input.command : "";
			const commits = COMMIT.test(command) || commitOf(call) !== undefined;
			if (commits) committed = true;
			if (commits || /\bgit\b|\bcd\b/.test(command)) runCommands(command, cwd, left, staging, commits);
			// git's word that the tree is clean (something else committed) counts most.
			if (PUT_AWAY.test(command) || (/\bgit\b/.test(command) && CLEAN.test(output))) closeAll(left, staging);
			// A file git's status does not list is not changed any more (its edits were undone, or it is ignored).
			else if (!commits && !staging.wandered && listsWholeTree(command) && listedInFull(output)) for (const path of [...left]) if (!output.includes(path.split("/").pop() ?? path)) left.delete(path);
			continue;
		}
		if (!CHANGES_FILE.has(call.name)) continue;
		const path = call.input.file_path ?? call.input.notebook_path;
		const inside = typeof path === "string" ? pathInside(path, cwd) : undefined;
		if (inside !== undefined && inside !== "" && !NEVER_COMMITTED.test(inside)) {
			left.add(inside);
			// Changed again after it was staged: the commit takes the staged version only.
			staging.paths.delete(inside);
		}
	}
	if (!(committed || offered) || left.size === 0) return undefined;
	const names = [...left];
	const more = names.length > SHOWN ? ` (+${names.length - SHOWN} more)` : "";
	return `left uncommitted: ${names
		.slice(0, SHOWN)
		// One span on one line each: a path a tool call gave may hold a backtick or a line break (see `codeSpan`).
		.map((n) => codeSpan(n))
		.join(", ")}${more}`;
}

/**
 * A `git status` of the session's whole tree, its output in full: no path given, no other folder,
 * untracked files not hidden (a new file is one), and no pipe that may cut or filter its lines.
 */
function listsWholeTree(command: string): boolean {
	// A pipe, or output sent elsewhere (`2>&1` only joins the errors to it).
	const joined = command.replace(/\s*2>&1/g, "");
	if (/[|>]/.test(joined)) return false;
	return shellParts(joined).some((words) => {
		const git = words.findIndex((w) => programName(w) === "git");
		return git >= 0 && words[git + 1] === "status" && words.slice(git + 2).every((w) => w.startsWith("-") && w !== "--" && !/^(?:-uno|--untracked-files=no)$/.test(w));
	});
}

/** The last line of a long `git status`, after every file it lists. */
const STATUS_END = /^(?:nothing added to commit|no changes added to commit)\b/m;

/** Whether a status's output holds all it listed: not clipped, or clipped only after its last line began. */
function listedInFull(text: string): boolean {
	return text.trim() !== "" && (!/…\s*$/.test(text) || STATUS_END.test(text));
}

/**
 * The `cd`, `git add` and `git commit` of a command line, in order. A commit whose own words are
 * not found (clipped, or made by a script) closes all.
 */
function runCommands(command: string, cwd: string, left: Set<string>, staging: Staging, commits: boolean): void {
	const root = cwd.replace(/\/+$/, "");
	let sawCommit = false;
	// Where this line's commands run: the session's folder, unless a command moved before (then not known).
	let here: string | undefined = staging.wandered ? undefined : root;
	for (const words of shellParts(command)) {
		if (words[0] === "cd") {
			const to = words[1];
			here = here === undefined || to === undefined || /^[~$-]/.test(to) ? undefined : joinFolder(here, to);
			if (here !== root) staging.wandered = true;
			continue;
		}
		const git = words.findIndex((w) => programName(w) === "git");
		if (git < 0) continue;
		let i = git + 1;
		let folder = here;
		for (; i < words.length && (words[i] ?? "").startsWith("-"); i++) {
			const option = words[i]!;
			// Another work tree or git folder: what it stages is not known. `git -C dir …`: paths are that folder's.
			if (/^--(?:git-dir|work-tree)(?:=|$)/.test(option)) folder = undefined;
			if (!GIT_VALUE_OPTIONS.has(option)) continue;
			if (option === "-C") folder = folder === undefined ? undefined : joinFolder(folder, words[i + 1] ?? "");
			i++;
		}
		const sub = words[i];
		if (sub === "add") stage(words.slice(i + 1), folder, root, staging);
		else if (sub === "commit") {
			sawCommit = true;
			commit(words.slice(i + 1), left, staging);
		}
	}
	if (commits && !sawCommit) closeAll(left, staging);
}

function stage(args: readonly string[], folder: string | undefined, root: string, staging: Staging): void {
	const paths: string[] = [];
	for (let j = 0; j < args.length; j++) {
		const word = args[j]!;
		if (word === "--") {
			paths.push(...args.slice(j + 1));
			break;
		}
		if (word === "-n" || word === "--dry-run") return;
		if (word === "-A" || word === "--all" || word === "-u" || word === "--update" || word.startsWith("--pathspec-from-file")) staging.unknown = true;
		else if (ADD_VALUE_OPTIONS.has(word)) j++;
		else if (!word.startsWith("-")) paths.push(word);
	}
	if (paths.length > 0) staging.added = true;
	for (const path of paths) {
		const rel = folder === undefined ? undefined : relativePath(path, folder, root);
		// `.`, a pattern, or a path out of the session's folder: what it takes is not known.
		if (rel === undefined || rel === "" || /[*?[]/.test(path)) staging.unknown = true;
		else staging.paths.add(rel);
	}
}

function commit(args: readonly string[], left: Set<string>, staging: Staging): void {
	let all = false;
	for (let j = 0; j < args.length; j++) {
		const word = args[j]!;
		if (["-a", "--all", "-i", "--include", "--interactive", "-p", "--patch", "--"].includes(word) || word.startsWith("--pathspec-from-file")) all = true;
		else if (/^-[a-zA-Z]+$/.test(word)) {
			// A cluster of short options (`-am "msg"`): `a` commits all; a value option in it takes the next word.
			if (word.includes("a")) all = true;
			if (/[mFCct]/.test(word.slice(1))) j++;
		} else if (COMMIT_VALUE_OPTIONS.has(word)) j++;
		// Any other word: paths it commits as they are, or a message's words this reading split off
		// (a `$(cat <<EOF …)` message may hold quotes): what it takes is not known.
		else if (!word.startsWith("-")) all = true;
	}
	if (all || staging.unknown || !staging.added) return closeAll(left, staging);
	const taken = [...staging.paths];
	for (const path of [...left]) if (taken.some((t) => path === t || path.startsWith(`${t}/`) || path.endsWith(`/${t}`))) left.delete(path);
	clearStaging(staging);
}

function closeAll(left: Set<string>, staging: Staging): void {
	left.clear();
	clearStaging(staging);
}

function clearStaging(staging: Staging): void {
	staging.paths.clear();
	staging.unknown = false;
	staging.added = false;
}

/** A path a command gave, relative to the session's folder (`/` separators); `""` for the folder itself, undefined outside it. */
function relativePath(path: string, folder: string, root: string): string | undefined {
	const absolute = joinFolder(folder, path);
	return absolute === root ? "" : pathInside(absolute, root);
}

/** `path` from `folder` (an absolute path as it is), `.` and `..` taken, `/` separators. */
function joinFolder(folder: string, path: string): string {
	return normalizeSlashes(path.startsWith("/") ? path : `${folder}/${path}`);
}
