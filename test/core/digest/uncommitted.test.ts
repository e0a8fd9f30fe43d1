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

	it("quotes each file as one code span on one line, whatever its name holds", () => {
		const calls = [commit(), edit("/repo/a\n```dataviewjs\n# Hijacked"), edit("/repo/tick`s.ts")];
		expect(uncommittedFiles(calls, cwd)).toBe("left uncommitted: `a␤```dataviewjs␤# Hijacked`, ``tick`s.ts``");
	});
});
