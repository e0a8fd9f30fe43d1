import { describe, expect, it } from "vitest";
import { uncommittedFiles } from "../../../src/core/digest/uncommitted";
import type { ToolCall } from "../../../src/core/transcript/session-model";

let n = 0;
/** A call; `null` for one with no result yet (the session ended on it). */
function call(name: string, input: Record<string, unknown>, result: { text?: string; isError?: boolean } | null = {}): ToolCall {
	return { id: `t${++n}`, name, input, ...(result ? { result: { isError: result.isError ?? false, text: result.text ?? "" } } : {}) };
}
const edit = (path: string, isError = false) => call("Edit", { file_path: path }, { isError });
const commit = (subject = "Work") => call("Bash", { command: `git commit -m "${subject}"` }, { text: `[main 1a2b3c4] ${subject}` });
const cwd = "/repo";

describe("uncommittedFiles", () => {
	it("tells the files changed after the last commit, inside the session's folder, a few by name", () => {
		const calls = [edit("/repo/a.ts"), commit(), edit("/repo/src/b.ts"), call("Write", { file_path: "/repo/docs/c.md" }), edit("/repo/src/b.ts"), edit("/elsewhere/d.ts"), call("NotebookEdit", { notebook_path: "/repo/n.ipynb" }), edit("/repo/e.ts")];
		expect(uncommittedFiles(calls, cwd)).toBe("left uncommitted: `src/b.ts`, `docs/c.md`, `n.ipynb` (+1 more)");
	});

	it("says nothing for a session that never committed (its person commits by hand), or committed last", () => {
		expect(uncommittedFiles([edit("/repo/a.ts")], cwd)).toBeUndefined();
		expect(uncommittedFiles([edit("/repo/a.ts"), commit()], cwd)).toBeUndefined();
		expect(uncommittedFiles([commit(), edit("/repo/a.ts")], undefined)).toBeUndefined();
	});

	it("tells a session that never committed once its agent offered to commit, unless git then finds nothing to commit", () => {
		expect(uncommittedFiles([edit("/repo/a.ts"), call("Write", { file_path: "/repo/b.md" })], cwd, true)).toBe("left uncommitted: `a.ts`, `b.md`");
		expect(uncommittedFiles([edit("/repo/a.ts"), call("Bash", { command: "git status" }, { text: "On branch main\nnothing to commit, working tree clean" })], cwd, true)).toBeUndefined();
	});

	it("does not call uncommitted what a commit still running when the transcript stopped may have taken; what it cannot take stays", () => {
		const running = (command: string) => call("Bash", { command }, null);
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), edit("/repo/b.ts"), call("Bash", { command: "git add -A" }), running('git commit -m "Theme"')], cwd)).toBeUndefined();
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), edit("/repo/notes.md"), running('git add a.ts && git commit -m "Only a"')], cwd)).toBe("left uncommitted: `notes.md`");
		// Any other command cut off changes nothing.
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), running("git status")], cwd)).toBe("left uncommitted: `a.ts`");
	});

	it("counts only changes that succeeded, and leaves out local secrets and what tools make", () => {
		expect(uncommittedFiles([commit(), edit("/repo/a.ts", true), call("Write", { file_path: "/repo/b.ts" }, null)], cwd)).toBeUndefined();
		expect(uncommittedFiles([commit(), edit("/repo/.env.local"), edit("/repo/web/.env"), edit("/repo/node_modules/x/index.js")], cwd)).toBeUndefined();
	});

	it("is closed by any later commit (a clipped command told by git's line), a stash or checkout, and git saying the tree is clean", () => {
		const clipped = call("Bash", { command: "git add a.ts b.ts c.ts …" }, { text: "[main 9f8e7d6] Add things" });
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), clipped], cwd)).toBeUndefined();
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), call("Bash", { command: "git stash" })], cwd)).toBeUndefined();
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), call("Bash", { command: "git checkout -- a.ts" })], cwd)).toBeUndefined();
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), call("Bash", { command: "git status" }, { text: "On branch main\nnothing to commit, working tree clean" })], cwd)).toBeUndefined();
		// A commit that failed closes nothing.
		const failed = call("Bash", { command: 'git commit -m "x"' }, { text: "pre-commit failed", isError: true });
		expect(uncommittedFiles([commit(), edit("/repo/a.ts"), failed], cwd)).toBe("left uncommitted: `a.ts`");
	});

	it("closes a file git's status no longer lists (its edits undone), only when that status lists the whole tree in full", () => {
		const status = (command: string, text: string) => call("Bash", { command }, { text });
		const listing = "On branch main\nUntracked files:\n\tdocs/new-guide.md\n\nnothing added to commit but untracked files present";
		const calls = [commit(), edit("/repo/src/schema.ts"), call("Write", { file_path: "/repo/docs/new-guide.md" }), edit("/repo/src/schema.ts")];
		expect(uncommittedFiles([...calls, status("git status", listing)], cwd)).toBe("left uncommitted: `docs/new-guide.md`");
		expect(uncommittedFiles([...calls, status("git status --short 2>&1", "?? docs/new-guide.md")], cwd)).toBe("left uncommitted: `docs/new-guide.md`");
		// Clipped in its last line, after every file it lists: still whole.
		expect(uncommittedFiles([...calls, status("git status", `${listing.slice(0, -10)}…`)], cwd)).toBe("left uncommitted: `docs/new-guide.md`");
		// A status of some paths, cut by a pipe, clipped, sent to a file, or hiding new files tells nothing of the others.
		for (const [command, text] of [["git status docs", listing], ["git status | head -3", listing], ["git status -uno", "On branch main"], ["git status > /tmp/s", ""], ["git status", "On branch main\nUntracked files:…"]]) {
			expect(uncommittedFiles([...calls, status(command!, text!)], cwd)).toBe("left uncommitted: `src/schema.ts`, `docs/new-guide.md`");
		}
	});

	it("quotes each file as one code span on one line, whatever its name holds", () => {
		const calls = [commit(), edit("/repo/a\n```dataviewjs\n# Hijacked"), edit("/repo/tick`s.ts")];
		expect(uncommittedFiles(calls, cwd)).toBe("left uncommitted: `a␤```dataviewjs␤# Hijacked`, ``tick`s.ts``");
	});

	describe("a commit of the paths `git add` named", () => {
		const bash = (command: string, text = "") => call("Bash", { command }, { text });
		it("takes those only: an edit kept out of it is left uncommitted", () => {
			const calls = [edit("/repo/src/a.ts"), edit("/repo/docs/adr.md"), bash('git add src/a.ts && git commit -m "Fix a"', "[main 1a2b3c4] Fix a")];
			expect(uncommittedFiles(calls, cwd)).toBe("left uncommitted: `docs/adr.md`");
			// Staged in one call, committed in the next; a folder takes what is in it; `git -C` and `--` are read.
			expect(uncommittedFiles([edit("/repo/src/a.ts"), edit("/repo/src/b.ts"), edit("/repo/notes.md"), bash("git add src"), bash('git commit -m "x"', "[main 1a2b3c4] x")], cwd)).toBe("left uncommitted: `notes.md`");
			expect(uncommittedFiles([edit("/repo/web/a.ts"), edit("/repo/b.ts"), bash('git -C web add -- a.ts && git -C web commit -m "x"', "[main 1a2b3c4] x")], cwd)).toBe("left uncommitted: `b.ts`");
			// Edited again after it was staged: the commit took the staged version.
			expect(uncommittedFiles([edit("/repo/a.ts"), bash("git add a.ts"), edit("/repo/a.ts"), bash('git commit -m "x"', "[main 1a2b3c4] x")], cwd)).toBe("left uncommitted: `a.ts`");
		});

		it("closes all when what it takes cannot be told: -a, -A, `.`, a pattern, nothing added it saw, a `cd` before, another work tree", () => {
			const left = [edit("/repo/a.ts"), edit("/repo/b.ts")];
			for (const command of ['git add a.ts && git commit -am "x"', 'git add a.ts && git commit -m "x" b.ts', 'git add -A && git commit -m "x"', 'git add . && git commit -m "x"', 'git add "*.ts" && git commit -m "x"', 'git commit -m "x"', 'git --work-tree=/other add a.ts && git commit -m "x"', 'git add ../outside.ts && git commit -m "x"']) {
				expect(uncommittedFiles([...left, bash(command, "[main 1a2b3c4] x")], cwd), command).toBeUndefined();
			}
			// A `cd` of the same line is followed; one in an earlier call leaves where later commands run unknown.
			expect(uncommittedFiles([edit("/repo/sub/a.ts"), edit("/repo/b.ts"), bash('cd sub && git add a.ts && git commit -m "x"', "[main 1a2b3c4] x")], cwd)).toBe("left uncommitted: `b.ts`");
			expect(uncommittedFiles([...left, bash("cd web"), bash('git add a.ts && git commit -m "x"', "[main 1a2b3c4] x")], cwd)).toBeUndefined();
			// A dry run stages nothing; a `cd` back into the session's folder is no move.
			expect(uncommittedFiles([...left, bash('git add -n . && git add a.ts && git commit -m "x"', "[main 1a2b3c4] x")], cwd)).toBe("left uncommitted: `b.ts`");
			expect(uncommittedFiles([...left, bash('cd /repo && git add a.ts && git commit -m "x"', "[main 1a2b3c4] x")], cwd)).toBe("left uncommitted: `b.ts`");
		});

		it("a message that names git commands is no command; one whose quotes end it early for this reading closes all", () => {
			const message = "git commit -m \"$(cat <<'EOF'\nFix: git add now stages b.ts\nEOF\n)\"";
			expect(uncommittedFiles([edit("/repo/a.ts"), edit("/repo/b.ts"), bash(`git add a.ts && ${message}`, "[main 1a2b3c4] Fix")], cwd)).toBe("left uncommitted: `b.ts`");
			// Quotes inside `$(cat <<EOF …)` are the shell's to keep; read as ending the message, its words are no paths.
			const quoted = "git commit -m \"$(cat <<'EOF'\nDocs: say \"where it went wrong\"\nEOF\n)\"";
			expect(uncommittedFiles([edit("/repo/a.ts"), edit("/repo/b.ts"), bash(`git add a.ts && ${quoted}`, "[main 1a2b3c4] Docs")], cwd)).toBeUndefined();
		});
	});
});
