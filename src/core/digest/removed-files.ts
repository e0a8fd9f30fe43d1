import { baseName } from "../notes/note-name";
import type { ToolCall } from "../transcript/session-model";
import { namesFile } from "./refused-calls";

/** A write or an edit of a file, by the tool's own name. */
const WRITES = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** A word of a shell command, quotes taken off; not `plain` when the shell would expand it (`$HOME`, `*.md`, `~/x`) or redirect (`2>/dev/null`). */
interface Word {
	text: string;
	plain: boolean;
}

/** Characters that make an unquoted word something the shell expands or redirects: its text is not the path. */
const SPECIAL = "$`*?[]{}~<>()!";

/**
 * The simple commands of a shell line, each as its words: split at `&&`, `||`, `;`, `|` and line
 * breaks outside quotes, comments left out. One pass over the line, whatever its length (it is
 * untrusted text). What follows a here-document (`<<`) is its text, not commands: the line ends
 * there; a command whose quote never closes is left out.
 */
function commandsOf(line: string): Word[][] {
	const commands: Word[][] = [];
	let words: Word[] = [];
	let text = "";
	let plain = true;
	let inWord = false;
	let quote: string | undefined;
	const endWord = () => {
		if (inWord) words.push({ text, plain });
		text = "";
		plain = true;
		inWord = false;
	};
	const endCommand = () => {
		endWord();
		if (words.length > 0) commands.push(words);
		words = [];
	};
	for (let i = 0; i < line.length; i++) {
		const c = line[i] ?? "";
		if (quote !== undefined) {
			if (c === quote) quote = undefined;
			else {
				if (quote === '"' && (c === "$" || c === "`")) plain = false;
				text += c;
			}
		} else if (c === "'" || c === '"') {
			quote = c;
			inWord = true;
		} else if (c === "\\") {
			// An escaped line break continues the command; any other escaped character is itself.
			const next = line[++i] ?? "";
			if (next !== "\n") {
				text += next;
				inWord = true;
			}
		} else if (c === " " || c === "\t") endWord();
		else if (c === "\n" || c === ";" || c === "&" || c === "|") endCommand();
		else if (c === "#" && !inWord) while (i + 1 < line.length && line[i + 1] !== "\n") i++;
		else if (c === "<" && line[i + 1] === "<") {
			endCommand();
			return commands;
		} else {
			if (SPECIAL.includes(c)) plain = false;
			text += c;
			inWord = true;
		}
	}
	if (quote === undefined) endCommand();
	return commands;
}

/** A redirection (`2>/dev/null`, `>`, `2>&1`): no argument of the command; one that ends on its operator takes the next word as its target. */
const REDIRECT = /^\d*[<>]/;

/**
 * The arguments of a command after its name, redirections left out; a word the shell expands (its
 * path is not known) left out too, or, when `strict`, the whole: undefined.
 */
function argumentsOf(words: readonly Word[], strict: boolean): string[] | undefined {
	const args: string[] = [];
	for (let i = 0; i < words.length; i++) {
		const w = words[i];
		if (w === undefined) continue;
		if (!w.plain && REDIRECT.test(w.text)) {
			if (/[<>&]$/.test(w.text)) i++;
		} else if (w.plain) args.push(w.text);
		else if (strict) return undefined;
	}
	return args;
}

/** What one command does to files: removes paths (a folder with all it holds when `recursive`), or moves one. */
type Change = { removes: string; recursive: boolean } | { moves: string; to: string };

/** The operands of a command after its flags (`-rf`, `--force`; none after `--`), and whether a flag asks for recursion. */
function operands(args: readonly string[]): { paths: string[]; recursive: boolean } {
	const paths: string[] = [];
	let recursive = false;
	let flags = true;
	for (const arg of args) {
		if (flags && arg === "--") flags = false;
		else if (flags && arg.startsWith("--")) recursive ||= arg === "--recursive";
		else if (flags && arg.startsWith("-") && arg.length > 1) recursive ||= /[rR]/.test(arg);
		else paths.push(arg);
	}
	return { paths, recursive };
}

/**
 * What a shell line does to files, in order: each `rm` and `git rm` (with `sudo`) of it removes
 * its operands (a word the shell expands left out); each `mv` and `git mv` of one file to another
 * moves it. A move of several, or with a word the shell expands, says nothing sure: left out.
 * A relative path is taken from where an earlier absolute `cd` of the line went, else from the folder
 * the call ran the line in (`workdir`, Codex's) when given; after a `cd` to anywhere else, relative paths
 * are not known and left out.
 */
function changesOf(line: string, workdir?: string): Change[] {
	const changes: Change[] = [];
	// The folder the line is in: undefined where it started (not known here), null when not known at all.
	let folder: string | null | undefined = workdir?.startsWith("/") ? workdir.replace(/(?<=.)\/$/, "") : undefined;
	const at = (path: string) => (path.startsWith("/") || folder === undefined ? path : folder === null ? undefined : `${folder}/${path.replace(/^\.\//, "")}`);
	for (const command of commandsOf(line)) {
		const words = command[0]?.text === "sudo" ? command.slice(1) : command;
		const name = words[0]?.text === "git" ? `git ${words[1]?.text ?? ""}` : (words[0]?.text ?? "");
		const rest = words.slice(name.startsWith("git ") ? 2 : 1);
		if (name === "cd") {
			const to = argumentsOf(rest, true);
			folder = to?.length === 1 && to[0]?.startsWith("/") ? to[0].replace(/(?<=.)\/$/, "") : null;
		} else if (name === "rm" || name === "git rm") {
			const { paths, recursive } = operands(argumentsOf(rest, false) ?? []);
			for (const path of paths) {
				const removes = at(path);
				if (removes !== undefined) changes.push({ removes, recursive });
			}
		} else if (name === "mv" || name === "git mv") {
			const args = argumentsOf(rest, true);
			const { paths } = operands(args ?? []);
			const [from, to] = [paths[0] === undefined ? undefined : at(paths[0]), paths[1] === undefined ? undefined : at(paths[1])];
			// Only flags that leave the operands' roles as they are (`-t dir`, `-T` change them).
			const plainFlags = args?.every((a) => !a.startsWith("-") || a === "--" || /^-[fiknv]+$/.test(a)) ?? false;
			if (plainFlags && paths.length === 2 && from !== undefined && to !== undefined) changes.push({ moves: from, to });
		} else if (words.some((w) => w.text === "cd" || w.text === "pushd" || w.text === "popd")) folder = null; // a change of folder inside another command (`if …; then cd x`)
	}
	return changes;
}

/** The names of the files a shell line removes (its `rm` and `git rm` arguments, flags left out, quotes taken off). */
export function removedBy(command: string): string[] {
	return changesOf(command).flatMap((c) => ("removes" in c ? [baseName(c.removes)] : []));
}

/** A path with its `.` and `..` steps taken, and doubled or trailing slashes: `/a/b/../c/` is `/a/c`. */
function normal(path: string): string {
	const parts: string[] = [];
	for (const part of path.split("/")) {
		if (part === "..") parts.pop();
		else if (part !== "." && (part !== "" || parts.length === 0)) parts.push(part);
	}
	return parts.join("/");
}

/**
 * Where a path a command gave stands among `files`: the folder it names the files under (`prefix` +
 * the path), when absolute or when one folder alone fits it; of two (`rm index.ts`, a `src/index.ts`
 * and a `test/index.ts` written), which is meant is not known, and it stands for none.
 * @param folder whether the path may name a folder holding the files too.
 */
function placeOf(path: string, files: readonly string[], folder: boolean): string | undefined {
	const bare = normal(path.replace(/^\.\//, ""));
	if (bare.startsWith("/")) return "";
	const prefixes = new Set<string>();
	for (const file of files) {
		if (file === bare || file.endsWith(`/${bare}`)) prefixes.add(file.slice(0, file.length - bare.length));
		const inside = folder ? file.indexOf(`/${bare}/`) : -1;
		if (inside >= 0) prefixes.add(file.slice(0, inside + 1));
	}
	return prefixes.size === 1 ? [...prefixes][0] : undefined;
}

/** Whether a path ends with a file name with an extension (`notes.md`, `.env.local`): a move to such a name is a rename, not into a folder. */
function hasExtension(path: string): boolean {
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return dot > 0 && /^[\p{L}\p{N}]+$/u.test(name.slice(dot + 1));
}

/**
 * The files the session leaves touched: `files` as its shell commands left them. A file removed for
 * good (an `rm` or `git rm` that succeeded its last word: a scratch script run then deleted, a draft
 * the user had removed) is no work of the session's any more, nor is one under a folder removed
 * (`rm -r`). A file moved (`mv`, `git mv`) is told by its new name: the next session would look for
 * the old one in vain; one moved out of the project (`cwd`) is gone from it. A move of a file not
 * written is the session's work too, when it stays in the project. A move says its target is a file when it ends with an extension as the source
 * does, a folder when it ends with `/` or is `.`; any other target could be either, and changes nothing.
 * A write of a removed file, or a command naming it after (which may have made it again), keeps it.
 * @param files the files the session wrote or edited, as their tools named them.
 */
export function touchedAtEnd(calls: readonly ToolCall[], files: readonly string[], cwd?: string): string[] {
	const entries = files.map((path) => ({ path, gone: false }));
	const here = cwd === undefined ? undefined : `${cwd}/`;
	const inProject = (path: string) => here !== undefined && path.startsWith(here);
	const present = () => entries.filter((e) => !e.gone).map((e) => e.path);
	for (const call of calls) {
		if (call.result === undefined || call.result.isError) continue;
		const path = call.input.file_path ?? call.input.notebook_path;
		if (WRITES.has(call.name) && typeof path === "string") {
			const written = entries.filter((e) => e.path === path);
			for (const e of written) e.gone = false;
			if (written.length === 0) entries.push({ path, gone: false });
		} else if (call.name === "Bash" && typeof call.input.command === "string") {
			const changed = new Set<{ path: string; gone: boolean }>();
			for (const change of changesOf(call.input.command, typeof call.input.workdir === "string" ? call.input.workdir : undefined)) {
				if ("removes" in change) {
					const prefix = placeOf(change.removes, entries.map((e) => e.path), change.recursive);
					if (prefix === undefined) continue;
					const removed = normal(prefix + change.removes.replace(/^\.\//, ""));
					for (const e of entries) {
						if (e.path === removed || (change.recursive && e.path.startsWith(`${removed}/`))) {
							e.gone = true;
							changed.add(e);
						}
					}
				} else {
					const { moves, to } = change;
					const into = to.endsWith("/") || to === "." || to === "..";
					if (!into && !(hasExtension(to) && hasExtension(moves))) continue;
					// A relative source is taken from where a written file of its path is, else from where the session ran; a relative target from the same folder.
					const base = placeOf(moves, present(), false) ?? here;
					const targetBase = to.startsWith("/") ? "" : moves.startsWith("/") ? here : base;
					if (base === undefined || targetBase === undefined) continue;
					const from = normal(base + moves);
					const moved = normal(into ? `${targetBase}${to}/${baseName(from)}` : targetBase + to);
					const entry = entries.find((e) => !e.gone && e.path === from);
					// Moved out of the project (to a scratch folder), a file is gone from it, as removed.
					if (entry !== undefined) Object.assign(entry, { path: moved, gone: inProject(from) && !inProject(moved) });
					else if (inProject(from) && inProject(moved)) entries.push({ path: moved, gone: false });
					for (const e of entries) if (e.path === moved) changed.add(e);
				}
			}
			// A command that names a removed file otherwise may have made it again (`git restore src/app.ts`).
			for (const e of entries) if (e.gone && !changed.has(e) && namesFile(call.input.command, baseName(e.path))) e.gone = false;
		}
	}
	return [...new Set(present())];
}

/**
 * For each task (its calls, in order), the names of the files a later task removed, not written
 * again after: what a task's reply said of such a file ("Saved the guide to guide.md") no longer
 * holds, the work undone, whatever made the file. The task that removed one tells that itself. A
 * later command that names the file again may have made it again: it is no longer counted removed.
 */
export function removedLater(tasks: readonly (readonly ToolCall[])[]): string[][] {
	// Each file's fate: the task that last removed it, or undefined once written again.
	const removedIn = new Map<string, number | undefined>();
	tasks.forEach((calls, task) => {
		for (const call of calls) {
			if (call.result === undefined || call.result.isError) continue;
			const path = call.input.file_path ?? call.input.notebook_path;
			if (WRITES.has(call.name) && typeof path === "string") removedIn.set(baseName(path), undefined);
			else if (call.name === "Bash" && typeof call.input.command === "string") {
				const gone = removedBy(call.input.command);
				// A command that names a removed file otherwise may have made it again (`git submodule add … vendor/lib`).
				for (const [name, at] of removedIn) if (at !== undefined && !gone.includes(name) && namesFile(call.input.command, name)) removedIn.set(name, undefined);
				for (const name of gone) removedIn.set(name, task);
			}
		}
	});
	return tasks.map((_, task) => [...removedIn].flatMap(([name, at]) => (at !== undefined && at > task ? [name] : [])));
}

/**
 * What still holds of a task's results once `gone` (files removed later) are: none when they
 * speak of a removed file and of no file the task wrote that is still there (the whole account
 * is of undone work: "A quick comparison table" told of a guide deleted since), else those that
 * name no removed file.
 * @param written the files the task wrote or edited.
 */
export function stillHolding(results: readonly string[], written: readonly string[], gone: readonly string[]): string[] {
	const removes = (r: string) => gone.some((f) => namesFile(r, f));
	if (!results.some(removes)) return [...results];
	const kept = written.map(baseName).filter((f) => !gone.includes(f));
	return results.some((r) => kept.some((f) => namesFile(r, f))) ? results.filter((r) => !removes(r)) : [];
}
