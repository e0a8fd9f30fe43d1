import { dict } from "../dict";
import { pathInside } from "../text/path-inside";
import type { ToolCall } from "../transcript/session-model";
import { oneLine } from "./one-line";
import { codeSpan } from "../text/code-spans";
import { baseName } from "../notes/note-name";

/** Claude Code's words when a call waited for a permission the user never gave (not a refusal the user chose). */
const NOT_GRANTED = /\bbut you haven't granted it yet\b|\brequires approval\b|\bpermission to use \w+ has been denied\b/i;

/** The tools whose refusal leaves the project unchanged, and what is then not done. */
const UNDONE: Record<string, string> = dict({ Write: "not written", Edit: "not edited", MultiEdit: "not edited", NotebookEdit: "not edited", Bash: "not run" });

/**
 * Writes, edits and commands the client refused for want of a permission, never done after in
 * the session: left open, whatever the replies claim ("Created CLAUDE.md" after a refused Write).
 * A later call on the same file (any write or edit) or of the same command that succeeded closes it.
 * A write or edit that failed for another reason, never done after, is not claimed either.
 * @returns what is left open, and the names of the files not written (a result naming one is not true).
 * @param cwd the session's folder: paths inside it are told from there.
 */
export function refusedCalls(calls: readonly ToolCall[], cwd: string | undefined): { open: string[]; files: string[] } {
	const open = new Map<string, string>();
	// Files whose write or edit failed otherwise (`EACCES`, the user said no, the text to replace was not
	// there): not told open (the agent may have found the change made already), but no result claims them.
	const failed = new Set<string>();
	for (const call of calls) {
		const verb = UNDONE[call.name];
		const target = verb === undefined ? undefined : targetOf(call);
		if (verb === undefined || target === undefined || call.result === undefined) continue;
		if (!call.result.isError) {
			open.delete(target);
			failed.delete(target);
			// A command that names the file may have written it another way (`cat > CHANGELOG.md`).
			if (call.name === "Bash") for (const file of failed) if (namesFile(target, baseName(file))) failed.delete(file);
		} else if (NOT_GRANTED.test(call.result.text)) open.set(target, `${shown(call, target, cwd)} ${verb}: permission not granted`);
		else if (call.name !== "Bash") failed.add(target);
	}
	// The files' names, for the results that claim them ("Created CLAUDE.md") to be left out.
	const files = [...new Set([...open.keys(), ...failed])].filter((t) => !t.startsWith("$ ")).map(baseName);
	return { open: [...open.values()], files };
}

/** A file path (one key for any write or edit of it) or a command. */
function targetOf(call: ToolCall): string | undefined {
	const input = call.input;
	if (call.name === "Bash") return typeof input.command === "string" ? `$ ${input.command}` : undefined;
	const path = input.file_path ?? input.notebook_path;
	return typeof path === "string" && path !== "" ? path : undefined;
}

/** A file spoken of by reference ("the file", "this new file"): its name was said before. */
const THE_FILE = /\b(?:the|this|that)\s+(?:new\s+)?file\b/i;

/**
 * Whether a statement of a reply claims a file not written by reference ("The file lists the setup
 * steps" after "I've created NOTES.md"): the reply names one of `unwritten` and none of the files
 * the task did write, so the file it speaks of can only be the one not written.
 */
export function claimsByReference(statement: string, reply: string, unwritten: readonly string[], written: readonly string[]): boolean {
	return THE_FILE.test(statement) && unwritten.some((f) => namesFile(reply, f)) && !written.some((f) => namesFile(reply, baseName(f)));
}

/** Whether `text` names `file` as a name of its own (`app.ts` is not named by `my-app.tsx`). */
export function namesFile(text: string, file: string): boolean {
	for (let at = text.indexOf(file); at >= 0; at = text.indexOf(file, at + 1)) {
		if (!NAME_CHAR.test(text[at - 1] ?? " ") && !/[\p{L}\p{N}_]/u.test(text[at + file.length] ?? " ")) return true;
	}
	return false;
}
/** A character a file's name may hold: one before a name makes it part of a longer one. */
export const NAME_CHAR = /[\p{L}\p{N}_.-]/u;

/** The command or file as one code span on one line: a path a tool call gave may hold a backtick or a line break (see `codeSpan`). */
function shown(call: ToolCall, target: string, cwd: string | undefined): string {
	if (call.name === "Bash") return codeSpan(oneLine(target.slice(2), 60));
	return codeSpan((cwd === undefined ? undefined : pathInside(target, cwd)) ?? target);
}
