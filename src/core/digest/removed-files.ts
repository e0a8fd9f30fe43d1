import { baseName } from "../notes/note-name";
import type { ToolCall } from "../transcript/session-model";
import { NAME_CHAR, namesFile } from "./refused-calls";
import { commandsOf, gitCommand, programAt, withoutRedirects, type ShellWord } from "../text/shell-parts";

/** A write or an edit of a file, by the tool's own name. */
const WRITES = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/**
 * The arguments of a command after its name, redirections left out; a word the shell expands (its
 * path is not known) left out too, or, when `strict`, the whole: undefined.
 */
function argumentsOf(words: readonly ShellWord[], strict: boolean): string[] | undefined {
	const args: string[] = [];
	for (const w of withoutRedirects(words)) {
		if (w.plain) args.push(w.text);
		else if (strict) return undefined;
	}
	return args;
}

/** What one command does to files: removes paths (a folder with all it holds when `recursive`), moves one, or makes a folder. */
type Change = { removes: string; recursive: boolean } | { moves: string; to: string } | { makes: string };

/** The operands of a command after its options (`-rf`, `--force`; none after `--`), and the options. */
function operands(args: readonly string[]): { paths: string[]; options: string[] } {
	const paths: string[] = [];
	const options: string[] = [];
	let flags = true;
	for (const arg of args) {
		if (flags && arg === "--") flags = false;
		else if (flags && arg.startsWith("-") && arg.length > 1) options.push(arg);
		else paths.push(arg);
	}
	return { paths, options };
}

/** Whether options of `rm` ask for recursion (`-rf`, `--recursive`). */
function isRecursive(options: readonly string[]): boolean {
	return options.some((o) => o === "--recursive" || (!o.startsWith("--") && /[rR]/.test(o)));
}

/**
 * What a shell line does to files, in order: each `rm` and `git rm` (with `sudo`, `env`…) of it removes
 * its operands (a word the shell expands left out), but `git rm --cached`, which only stops tracking them:
 * they stay; each `mv` and `git mv` of one path to another moves it; each `mkdir` makes its folders.
 * A move of several, or with a word the shell expands, says nothing sure: left out.
 * A relative path is taken from where an earlier absolute `cd` of the line went, else from the folder
 * the call ran the line in (`workdir`, Codex's) when given in full; after a `cd` to anywhere else, or under
 * a workdir not given in full, relative paths are not known and left out. A `git -C dir` takes them from `dir` there.
 */
function changesOf(line: string, workdir?: string): Change[] {
	const changes: Change[] = [];
	// The folder the line is in: undefined where it started (not known here), null when not known at all.
	let folder: string | null | undefined = !workdir ? undefined : workdir.startsWith("/") ? workdir.replace(/(?<=.)\/$/, "") : null;
	for (const command of commandsOf(line)) {
		const texts = command.map((w) => w.text);
		const git = gitCommand(texts);
		const start = git?.sub ?? programAt(texts);
		const name = git === undefined ? (texts[start] ?? "") : `git ${texts[start] ?? ""}`;
		const rest = command.slice(start + 1);
		// `git -C dir`: its paths are taken from there; from a folder the shell expands, not known.
		const within = git === undefined || command.slice(0, start).every((w) => w.plain) ? (git?.folders ?? []) : undefined;
		const at = (path: string): string | undefined => {
			if (within === undefined) return undefined;
			const joined = [...within, path].reduce((from, step) => (step.startsWith("/") || from === "" ? step : `${from}/${step}`), "");
			return joined.startsWith("/") || folder === undefined ? joined : folder === null ? undefined : `${folder}/${joined.replace(/^\.\//, "")}`;
		};
		if (name === "cd") {
			const to = argumentsOf(rest, true);
			folder = to?.length === 1 && to[0]?.startsWith("/") ? to[0].replace(/(?<=.)\/$/, "") : null;
		} else if (name === "rm" || name === "git rm") {
			const { paths, options } = operands(argumentsOf(rest, false) ?? []);
			if (name === "git rm" && options.includes("--cached")) continue;
			for (const path of paths) {
				const removes = at(path);
				if (removes !== undefined) changes.push({ removes, recursive: isRecursive(options) });
			}
		} else if (name === "mv" || name === "git mv") {
			const args = argumentsOf(rest, true);
			const { paths } = operands(args ?? []);
			const [from, to] = [paths[0] === undefined ? undefined : at(paths[0]), paths[1] === undefined ? undefined : at(paths[1])];
			// Only flags that leave the operands' roles as they are (`-t dir`, `-T` change them).
			const plainFlags = args?.every((a) => !a.startsWith("-") || a === "--" || /^-[fiknv]+$/.test(a)) ?? false;
			if (plainFlags && paths.length === 2 && from !== undefined && to !== undefined) changes.push({ moves: from, to });
		} else if (name === "mkdir") {
			const args = argumentsOf(rest, false) ?? [];
			// `-m 755`: a mode, no folder.
			const made = operands(args.filter((a, i) => a !== "-m" && args[i - 1] !== "-m")).paths;
			for (const path of made) {
				const makes = at(path);
				if (makes !== undefined) changes.push({ makes });
			}
		} else if (texts.some((w) => w === "cd" || w === "pushd" || w === "popd")) folder = null; // a change of folder inside another command (`if …; then cd x`)
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
	const entries = new Entries(files);
	const here = cwd === undefined ? undefined : `${cwd}/`;
	const inProject = (path: string) => here !== undefined && path.startsWith(here);
	// The folders `mkdir` made, by their paths in full: a folder moved to one goes inside it.
	const madeFolders = new Set<string>();
	for (const call of calls) {
		if (call.result === undefined || call.result.isError) continue;
		const path = call.input.file_path ?? call.input.notebook_path;
		if (WRITES.has(call.name) && typeof path === "string") {
			const written = entries.at(path);
			for (const e of written) entries.mark(e, false);
			if (written.length === 0) entries.add(path);
		} else if (call.name === "Bash" && typeof call.input.command === "string") {
			const changed = new Set<Entry>();
			for (const change of changesOf(call.input.command, typeof call.input.workdir === "string" ? call.input.workdir : undefined)) {
				if ("removes" in change) {
					const key = lastPart(normal(change.removes.replace(/^\.\//, "")));
					const near = change.recursive ? [...entries.named(key), ...entries.inFolder(key)] : entries.named(key);
					const prefix = placeOf(change.removes, near.map((e) => e.path), change.recursive);
					if (prefix === undefined) continue;
					const removed = normal(prefix + change.removes.replace(/^\.\//, ""));
					const hit = change.recursive ? [...entries.at(removed), ...entries.inFolder(lastPart(removed))] : entries.at(removed);
					for (const e of hit) {
						if (e.path === removed || (change.recursive && e.path.startsWith(`${removed}/`))) {
							entries.mark(e, true);
							changed.add(e);
						}
					}
				} else if ("makes" in change) {
					const made = change.makes.startsWith("/") ? change.makes : here === undefined ? undefined : here + change.makes;
					if (made !== undefined) madeFolders.add(normal(made));
				} else {
					const { moves, to } = change;
					const folder = movedFolder(entries, moves, to, here, madeFolders);
					if (folder !== undefined) {
						for (const [e, path] of folder) {
							const was = e.path;
							entries.move(e, path);
							entries.mark(e, inProject(was) && !inProject(path));
							changed.add(e);
						}
						continue;
					}
					const into = to.endsWith("/") || to === "." || to === "..";
					if (!into && !(hasExtension(to) && hasExtension(moves))) continue;
					// A relative source is taken from where a written file of its path is, else from where the session ran; a relative target from the same folder.
					const present = entries.named(lastPart(normal(moves.replace(/^\.\//, "")))).filter((e) => !e.gone);
					const base = placeOf(moves, present.map((e) => e.path), false) ?? here;
					const targetBase = to.startsWith("/") ? "" : moves.startsWith("/") ? here : base;
					if (base === undefined || targetBase === undefined) continue;
					const from = normal(base + moves);
					const moved = normal(into ? `${targetBase}${to}/${baseName(from)}` : targetBase + to);
					const entry = entries.first(entries.at(from).filter((e) => !e.gone));
					// Moved out of the project (to a scratch folder), a file is gone from it, as removed.
					if (entry !== undefined) {
						entries.move(entry, moved);
						entries.mark(entry, inProject(from) && !inProject(moved));
					} else if (inProject(from) && inProject(moved)) {
						const there = entries.first(entries.at(moved));
						if (there === undefined) entries.add(moved);
						else entries.mark(there, false);
					}
					for (const e of entries.at(moved)) changed.add(e);
				}
			}
			// A command that names a removed file otherwise may have made it again (`git restore src/app.ts`).
			for (const name of entries.goneNames.namedIn(call.input.command)) for (const e of entries.goneNamed(name)) if (!changed.has(e)) entries.mark(e, false);
		}
	}
	return [...new Set(entries.all.filter((e) => !e.gone && e.replaced === undefined).map((e) => e.path))];
}

/**
 * The files under a folder a move (`mv`, `git mv`) took, each with its new path: undefined when its source is no
 * folder the session is known to hold files in (a file, or not known), none when where they went is not known.
 * A relative source is taken from where a folder of its path holds the session's files, else from where the
 * session ran. A target that is a folder (`.`, one the session made or holds files in) takes the folder
 * inside it; any other target is its new name, unless it ends with `/` (a folder there or not, it could be either).
 */
function movedFolder(entries: Entries, moves: string, to: string, here: string | undefined, made: ReadonlySet<string>): [Entry, string][] | undefined {
	const bare = normal(moves.replace(/^\.\//, ""));
	const near = entries.inFolder(lastPart(bare)).filter((e) => !e.gone);
	if (near.length === 0) return undefined;
	const base = placeOf(moves, near.map((e) => e.path), true) ?? here;
	if (base === undefined) return undefined;
	const from = normal(base + moves);
	const under = near.filter((e) => e.path.startsWith(`${from}/`));
	if (under.length === 0) return undefined;
	const targetBase = to.startsWith("/") ? "" : moves.startsWith("/") ? here : base;
	if (targetBase === undefined) return [];
	const target = normal(targetBase + to);
	if (target === from || target.startsWith(`${from}/`) || entries.at(target).some((e) => !e.gone)) return [];
	const holds = (folder: string) => made.has(folder) || entries.inFolder(lastPart(folder)).some((e) => !e.gone && e.path.startsWith(`${folder}/`));
	const into = to === "." || to === ".." || holds(target);
	if (!into && to.endsWith("/")) return [];
	const now = into ? `${target}/${lastPart(from)}` : target;
	return under.map((e) => [e, now + e.path.slice(from.length)]);
}

/**
 * How many of the session's files its commands look at in all, when looking for those a path may name: a hostile
 * transcript removing or moving a folder of thousands, or one of thousands of files of one name, thousands of times
 * took minutes. Past that, a command finds none of them (it changes nothing).
 */
const LOOKS_MAX = 200_000;

interface Entry {
	path: string;
	gone: boolean;
	/** Its place among the files, first written first. */
	order: number;
	/** Another was moved to its path, in its place. */
	replaced?: true;
}

/** The part of a path after its last slash. */
function lastPart(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * The session's files, found by their name and by each folder they are in: a command is compared with
 * the files it may name, not all (a session of thousands of moves compared each with every file:
 * quadratic, minutes of a sync). What each finds holds all those a path or a folder of that name could
 * name, and more: the caller checks.
 */
class Entries {
	readonly all: Entry[] = [];
	/** The names (see `baseName`) of those removed, and those removed by each. */
	readonly goneNames = new NameSet();
	private readonly gone = new Map<string, Set<Entry>>();
	private readonly byPath = new Map<string, Set<Entry>>();
	private readonly byName = new Map<string, Set<Entry>>();
	private readonly byFolder = new Map<string, Set<Entry>>();
	private looksLeft = LOOKS_MAX;

	constructor(paths: readonly string[]) {
		for (const path of paths) this.add(path);
	}

	add(path: string): Entry {
		const entry = { path, gone: false, order: this.all.length };
		this.all.push(entry);
		this.index(entry, true);
		return entry;
	}

	/** Takes `entry` to `path`: what was there is replaced, and is no entry any more (a path has one). */
	move(entry: Entry, path: string): void {
		for (const other of this.at(path)) {
			if (other === entry) continue;
			this.mark(other, false);
			this.index(other, false);
			other.replaced = true;
		}
		const gone = entry.gone;
		this.mark(entry, false);
		this.index(entry, false);
		entry.path = path;
		this.index(entry, true);
		this.mark(entry, gone);
	}

	mark(entry: Entry, gone: boolean): void {
		if (entry.gone === gone) return;
		entry.gone = gone;
		const name = baseName(entry.path);
		const named = this.gone.get(name) ?? new Set<Entry>();
		if (gone) {
			named.add(entry);
			this.goneNames.add(name);
		} else {
			named.delete(entry);
			this.goneNames.delete(name);
		}
		this.gone.set(name, named);
	}

	/** Those removed whose name is `name`. */
	goneNamed(name: string): Entry[] {
		return [...(this.gone.get(name) ?? [])];
	}

	/** Those whose name (after the last slash) is `name` (see `looked`). */
	named(name: string): Entry[] {
		return this.looked(this.byName.get(name));
	}

	/** Those in a folder of that name, at any depth (see `looked`). */
	inFolder(name: string): Entry[] {
		return this.looked(this.byFolder.get(name));
	}

	/** The entries of a set, while the session's commands have not looked at more than `LOOKS_MAX` in all; none after. */
	private looked(found: ReadonlySet<Entry> | undefined): Entry[] {
		if (found === undefined || found.size > this.looksLeft) return [];
		this.looksLeft -= found.size;
		return [...found];
	}

	/** Those at exactly `path`. */
	at(path: string): Entry[] {
		return [...(this.byPath.get(path) ?? [])];
	}

	/** The one written first. */
	first(entries: readonly Entry[]): Entry | undefined {
		return entries.reduce<Entry | undefined>((best, e) => (best === undefined || e.order < best.order ? e : best), undefined);
	}

	private index(entry: Entry, on: boolean): void {
		const parts = entry.path.split("/");
		const folders = new Set(parts.slice(0, -1));
		const keyed: [Map<string, Set<Entry>>, string][] = [[this.byPath, entry.path], [this.byName, parts[parts.length - 1] ?? ""], ...[...folders].map((f): [Map<string, Set<Entry>>, string] => [this.byFolder, f])];
		for (const [map, key] of keyed) {
			const set = map.get(key) ?? new Set<Entry>();
			if (on) set.add(entry);
			else set.delete(entry);
			map.set(key, set);
		}
	}
}

/**
 * Names, each counted as often as it is added, found in a text as `namesFile` finds one: by reading the
 * text once for each length of name, when that is less work than looking for each name (a session that
 * removed thousands of files looked for each in every command after: quadratic).
 */
class NameSet {
	private readonly counts = new Map<string, number>();
	private readonly lengths = new Map<number, number>();

	add(name: string): void {
		this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
		this.lengths.set(name.length, (this.lengths.get(name.length) ?? 0) + 1);
	}

	delete(name: string): void {
		const n = this.counts.get(name);
		if (n === undefined) return;
		if (n === 1) this.counts.delete(name);
		else this.counts.set(name, n - 1);
		const l = this.lengths.get(name.length) ?? 1;
		if (l === 1) this.lengths.delete(name.length);
		else this.lengths.set(name.length, l - 1);
	}

	/** The names `text` names (see `namesFile`). */
	namedIn(text: string): string[] {
		// Where a name may begin: not after a character a name holds.
		const starts: number[] = [];
		for (let i = 0; i <= text.length; i++) if (i === 0 || !NAME_CHAR.test(text[i - 1] ?? "")) starts.push(i);
		if (this.counts.size <= starts.length * this.lengths.size) return [...this.counts.keys()].filter((name) => namesFile(text, name));
		const found = new Set<string>();
		for (const at of starts) {
			for (const length of this.lengths.keys()) {
				const name = text.slice(at, at + length);
				if (at + length <= text.length && this.counts.has(name) && !/[\p{L}\p{N}_]/u.test(text[at + length] ?? " ")) found.add(name);
			}
		}
		return [...found];
	}
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
	const removed = new NameSet();
	const fate = (name: string, task: number | undefined) => {
		if (removedIn.get(name) !== undefined) removed.delete(name);
		if (task !== undefined) removed.add(name);
		removedIn.set(name, task);
	};
	tasks.forEach((calls, task) => {
		for (const call of calls) {
			if (call.result === undefined || call.result.isError) continue;
			const path = call.input.file_path ?? call.input.notebook_path;
			if (WRITES.has(call.name) && typeof path === "string") fate(baseName(path), undefined);
			else if (call.name === "Bash" && typeof call.input.command === "string") {
				const gone = removedBy(call.input.command);
				// A command that names a removed file otherwise may have made it again (`git submodule add … vendor/lib`).
				for (const name of removed.namedIn(call.input.command)) if (!gone.includes(name)) fate(name, undefined);
				for (const name of gone) fate(name, task);
			}
		}
	});
	// Latest removal first: a task's names are a prefix, cut once per task (a session of thousands of tasks and removals
	// went over every name for every task, seconds of a sync).
	const byLast = [...removedIn].flatMap(([name, at]) => (at === undefined ? [] : [{ name, at }])).sort((a, b) => b.at - a.at);
	const names = byLast.map((r) => r.name);
	let later = byLast.length;
	return tasks.map((_, task) => {
		while (later > 0 && byLast[later - 1]!.at <= task) later--;
		return names.slice(0, later);
	});
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
