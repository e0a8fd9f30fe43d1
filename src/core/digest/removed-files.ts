import { baseName } from "../notes/note-name";
import type { ToolCall } from "../transcript/session-model";
import { namesFile } from "./refused-calls";

/** A write or an edit of a file, by the tool's own name. */
const WRITES = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** One command of a shell line: `a && b; c | d` holds four. */
const SEPARATOR = /&&|\|\||[;|\n]/;

/** A command that removes files, and its arguments: `rm -f a.md b.md`, `git rm notes.txt`, `sudo rm x`. */
const REMOVE = /^(?:sudo\s+)?(?:git\s+)?rm\s+([\s\S]*)$/;

/** The names of the files a shell line removes (its `rm` and `git rm` arguments, flags left out, quotes taken off). */
export function removedBy(command: string): string[] {
	return removedPaths(command).map(baseName);
}

/** A change of folder to an absolute path in a shell line: `cd /srv/app`, `cd "/srv/my app"`. */
const CD = /^cd\s+["']?(\/[^"'\n]*?)["']?\/?$/;

/** The paths a shell line removes, as its `rm` and `git rm` arguments give them; a relative one taken from where an earlier `cd` of the line went. */
function removedPaths(command: string): string[] {
	const paths: string[] = [];
	let folder: string | undefined;
	for (const part of command.split(SEPARATOR)) {
		const cd = CD.exec(part.trim())?.[1];
		if (cd !== undefined) folder = cd;
		const args = REMOVE.exec(part.trim())?.[1];
		if (args === undefined) continue;
		for (const arg of args.split(/\s+/)) {
			const bare = arg.replace(/^["']|["']$/g, "");
			if (bare === "" || bare.startsWith("-") || /[*?]/.test(bare)) continue;
			paths.push(folder === undefined || bare.startsWith("/") ? bare : `${folder}/${bare.replace(/^\.\//, "")}`);
		}
	}
	return paths;
}

/** Whether a removed path (absolute, or relative to where the command ran) is the written file `file`. */
function isPath(file: string, removed: string): boolean {
	const path = removed.replace(/^\.\//, "");
	return file === path || (!path.startsWith("/") && file.endsWith(`/${path}`));
}

/**
 * The files of `files` the session removed for good: an `rm` or `git rm` of it that succeeded is its
 * last word, no write of it nor command naming it after (which may have made it again). Such a file
 * is no work of the session's any more: a scratch script run then deleted, a draft the user had removed.
 * @param files the files the session wrote or edited, as their tools named them.
 */
export function removedForGood(calls: readonly ToolCall[], files: readonly string[]): string[] {
	const gone = new Set<string>();
	for (const call of calls) {
		if (call.result === undefined || call.result.isError) continue;
		const path = call.input.file_path ?? call.input.notebook_path;
		if (WRITES.has(call.name) && typeof path === "string") gone.delete(path);
		else if (call.name === "Bash" && typeof call.input.command === "string") {
			const command = call.input.command;
			// A relative path the line gives no folder for stands for the one written file it can be: of two
			// (`rm index.ts`, a `src/index.ts` and a `test/index.ts` written), which went is not known, and both stay.
			const removed = removedPaths(command).flatMap((r) => {
				const matching = files.filter((file) => isPath(file, r));
				return matching.length === 1 || r.startsWith("/") ? matching : [];
			});
			for (const file of files) {
				if (removed.includes(file)) gone.add(file);
				else if (namesFile(command, baseName(file))) gone.delete(file);
			}
		}
	}
	return files.filter((f) => gone.has(f));
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
