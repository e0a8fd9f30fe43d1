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
	const names: string[] = [];
	for (const part of command.split(SEPARATOR)) {
		const args = REMOVE.exec(part.trim())?.[1];
		if (args === undefined) continue;
		for (const arg of args.split(/\s+/)) {
			const bare = arg.replace(/^["']|["']$/g, "");
			if (bare !== "" && !bare.startsWith("-") && !/[*?]/.test(bare)) names.push(baseName(bare));
		}
	}
	return names;
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
