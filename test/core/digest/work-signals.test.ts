import { describe, expect, it } from "vitest";
import { checkCommand, checksOf, commitsOf, commitSubject, finalTodos, planTitle, pullRequestBody, pullRequestsOf, pushesOf, refusalWords, replacedTodos, userAnswers } from "../../../src/core/digest/work-signals";
import type { ToolCall } from "../../../src/core/transcript/session-model";

let n = 0;
function call(name: string, input: Record<string, unknown>, result?: { text?: string; isError?: boolean }): ToolCall {
	return { id: `t${++n}`, name, input, result: result ? { isError: result.isError ?? false, text: result.text ?? "" } : undefined };
}

describe("finalTodos", () => {
	it("is the last TodoWrite's list", () => {
		const todos = finalTodos([
			call("TodoWrite", { todos: [{ content: "Add formatter", status: "pending" }] }, {}),
			call("TodoWrite", { todos: [{ content: "Add formatter", status: "completed" }, { content: "Document rounding", status: "in_progress" }] }, {}),
		]);
		expect(todos).toEqual([
			{ content: "Add formatter", status: "completed" },
			{ content: "Document rounding", status: "in_progress" },
		]);
	});

	it("follows TaskCreate and TaskUpdate by the ids the client gives", () => {
		const todos = finalTodos([
			call("TaskCreate", { subject: "Set up project", description: "…", activeForm: "Setting up" }, { text: "Task #1 created successfully: Set up project" }),
			call("TaskCreate", { subject: "Fetch data" }, { text: "Task #2 created successfully: Fetch data" }),
			call("TaskCreate", { subject: "Drop me" }, { text: "Task #3 created successfully: Drop me" }),
			call("TaskUpdate", { taskId: "1", status: "completed" }, { text: "Updated task #1 status" }),
			call("TaskUpdate", { taskId: "3", status: "deleted" }, { text: "Updated task #3 deleted" }),
		]);
		expect(todos).toEqual([
			{ content: "Set up project", status: "completed" },
			{ content: "Fetch data", status: "pending" },
		]);
	});

	it("ignores calls that failed", () => {
		expect(finalTodos([call("TodoWrite", { todos: [{ content: "x", status: "pending" }] }, { isError: true, text: "No such tool" })])).toEqual([]);
	});
});

describe("commits", () => {
	it.each([
		['git commit -m "Add price formatter"', "Add price formatter"],
		["git add -A && git commit -am 'Fix rounding'", "Fix rounding"],
		['git commit --message="Bump version"', "Bump version"],
		['git commit -m "Quote \\"this\\" word"', 'Quote "this" word'],
		["git commit -m \"$(cat <<'EOF'\nConsolidate logging\n\nLonger body.\n\nCo-Authored-By: Claude\nEOF\n)\"", "Consolidate logging"],
		["git -C repo commit -m wip", "wip"],
	])("%s gives %s", (command, subject) => {
		expect(commitSubject(command)).toBe(subject);
	});

	it("counts only commits that succeeded, with their short hash", () => {
		const commits = commitsOf([
			call("Bash", { command: 'git commit -m "Add price formatter"' }, { text: "[main 1a2b3c4] Add price formatter\n 1 file changed" }),
			call("Bash", { command: 'git commit -m "Nothing"' }, { text: "nothing to commit, working tree clean", isError: true }),
			call("Bash", { command: "git status" }, { text: "" }),
		]);
		expect(commits).toEqual([{ subject: "Add price formatter", hash: "1a2b3c4" }]);
	});

	it("takes a commit whose command was clipped before its `git commit`, or names no message, from the line git printed", () => {
		const long = `git add ${Array.from({ length: 40 }, (_, i) => `lib/module_${i}.ex`).join(" ")} && git commit -m "…`.slice(0, 500);
		const commits = commitsOf([
			call("Bash", { command: `${long}…` }, { text: "[feature-x a230dbf] feat: launch the review\n 12 files changed" }),
			call("Bash", { command: "git commit --amend --no-edit" }, { text: "[main (root-commit) 9f8e7d6] Start\n Date: today" }),
			// Not git: a file that holds such a line is not a commit.
			call("Bash", { command: "cat notes.txt" }, { text: "[main 1234567] copied from a log" }),
		]);
		expect(commits).toEqual([
			{ subject: "feat: launch the review", hash: "a230dbf" },
			{ subject: "Start", hash: "9f8e7d6", amends: true },
		]);
	});

	it("takes no commit from a line like git's in the output of a command that makes none, though it runs git", () => {
		const commits = commitsOf([
			call("Bash", { command: "git show HEAD:build/ci.txt" }, { text: "run 7\n[main 7c8d9e0] a line of a log kept in the repository" }),
			call("Bash", { command: "cat CHANGES && git status --short" }, { text: "[dev 1f2e3d4] a line of the changes file\n M a.txt" }),
			call("Bash", { command: "git cherry-pick 0a0b0c0d" }, { text: "[main 5a6b7c8] Port the fix\n 1 file changed" }),
		]);
		expect(commits).toEqual([{ subject: "Port the fix", hash: "5a6b7c8" }]);
	});

	it("tells an amend by its option, not by a message that speaks of one", () => {
		const made = (command: string) => commitsOf([call("Bash", { command }, { text: "[main 5e6f7a8] Note it" })])[0]?.amends;
		expect(made('git commit -m "Explain why the hook skips --amend runs"')).toBeUndefined();
		expect(made('git commit -m --amend -m "Note it"')).toBeUndefined();
		expect(made('git -C site commit -q --amend -m "Note it"')).toBe(true);
		// Clipped inside its message: the amend is read from the words as typed.
		expect(made('git commit --amend -m "Note it, and a long body that was cut…')).toBe(true);
	});

	it("keeps a commit message's body, and a pull request's description, for the choices they tell", () => {
		const heredoc = "git add -A && git commit -m \"$(cat <<'EOF'\nUse one log file\n\nWrite every log to run.log instead of one per job.\n\nCo-Authored-By: Claude\nEOF\n)\"";
		const [commit] = commitsOf([call("Bash", { command: heredoc }, { text: "[main 1a2b3c4] Use one log file" })]);
		expect(commit).toEqual({ subject: "Use one log file", hash: "1a2b3c4", body: "Write every log to run.log instead of one per job.\n\nCo-Authored-By: Claude" });
		// A one-line message has no body.
		expect(commitsOf([call("Bash", { command: 'git commit -m "Fix rounding"' }, { text: "[main 2b3c4d5] Fix rounding" })])[0]).toEqual({ subject: "Fix rounding", hash: "2b3c4d5" });
		const pr = "gh pr create --title \"Use one log file\" --body \"$(cat <<'EOF'\n## Summary\n- Use a PAT instead of the default token\nEOF\n)\"";
		expect(pullRequestBody(pr)).toBe("## Summary\n- Use a PAT instead of the default token");
		expect(pullRequestBody("gh pr create --fill --base main")).toBeUndefined();
		expect(pullRequestsOf([call("Bash", { command: pr }, { text: "https://github.com/o/r/pull/9" })], [])).toEqual([{ title: "Use one log file", url: "https://github.com/o/r/pull/9", body: "## Summary\n- Use a PAT instead of the default token" }]);
	});

	it("finds pull requests from gh and from the client's pr-link records", () => {
		const prs = pullRequestsOf([call("Bash", { command: 'gh pr create --draft --title "Consolidate logging" --body "…"' }, { text: "https://github.com/o/r/pull/185" })], ["https://github.com/o/r/pull/185", "https://github.com/o/r/pull/7"]);
		expect(prs).toEqual([{ title: "Consolidate logging", url: "https://github.com/o/r/pull/185" }, { url: "https://github.com/o/r/pull/7" }]);
	});
});

describe("checks", () => {
	it.each([
		["npm test", "npm test"],
		["cd app && npx vitest run src", "npx vitest"],
		["uv run pytest -q", "uv run pytest"],
		["go test ./...", "go test"],
		["cargo clippy --all-targets", "cargo clippy"],
		["make", "make"],
		["pnpm run build:prod", "pnpm run build:prod"],
	])("%s is the check %s", (command, check) => {
		expect(checkCommand(command)).toBe(check);
	});

	it.each(["git status", "ls -la", 'git commit -m "make tests pass"', "cat Makefile", "echo npm test", "cat > ci.sh <<'EOF'\nnpm test\nEOF", "ls # then cargo test", "grep -n 'go test' Makefile"])("%s is no check", (command) => {
		expect(checkCommand(command)).toBeUndefined();
	});

	it("finds a check after the wrappers that run it, in any command of a line", () => {
		expect(checkCommand("cd web && CI=1 timeout 300 npx vitest run 2>&1 | tail -20")).toBe("npx vitest");
		expect(checkCommand("ls; \\\n  cargo test --workspace")).toBe("cargo test");
	});

	it("records whether each check passed", () => {
		expect(checksOf([call("Bash", { command: "npm test" }, { text: "1 failed", isError: true }), call("Bash", { command: "npm test" }, { text: "ok" })])).toEqual([
			{ command: "npm test", passed: false },
			{ command: "npm test", passed: true },
		]);
	});
});

describe("planTitle", () => {
	it("is the heading of the last plan presented", () => {
		expect(planTitle([call("ExitPlanMode", { plan: "# Plan: Fix ruby elements\n\n1. …" }, {}), call("ExitPlanMode", { plan: "## Make it **installable** as a uv tool\n…" }, {})])).toBe("Make it installable as a uv tool");
	});
});

describe("userAnswers", () => {
	const ask = (answers: string) =>
		call(
			"AskUserQuestion",
			{
				questions: [
					{ question: "Which tools should we set up?", header: "Tools", options: [{ label: "All four" }, { label: "Credo" }, { label: "Dialyxir" }, { label: "Yes, all of them" }] },
					{ question: "The pre-commit hook blocks on old lint errors in files we did not touch. How should we proceed?", header: "Commit", options: [{ label: "Skip the hook" }, { label: "Fix them first" }] },
				],
			},
			{ text: `User has answered your questions: ${answers}. You can now continue.` },
		);

	it("reads a picked option under the question's header", () => {
		expect(userAnswers([ask('"Which tools should we set up?"="Yes, all of them"')])).toEqual(["Tools: Yes, all of them"]);
		expect(userAnswers([ask('"Which tools should we set up?"="Credo, Dialyxir", "The pre-commit hook blocks on old lint errors in files we did not touch. How should we proceed?"="Fix them first"')])).toEqual([
			"Tools: Credo, Dialyxir",
			"Commit: Fix them first",
		]);
	});

	it("reads an answer the user typed with the question it answers", () => {
		expect(userAnswers([ask('"The pre-commit hook blocks on old lint errors in files we did not touch. How should we proceed?"="main was clean; fix the issues"')])).toEqual([
			"The pre-commit hook blocks on old lint errors in files we did not touch → main was clean; fix the issues",
		]);
	});
});

describe("refusalWords", () => {
	const refused = (words: string) => call("Bash", { command: "npm install" }, { isError: true, text: `The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). ${words}` });

	it("reads what the user said when refusing a step, in both of the client's wordings", () => {
		expect(
			refusalWords([
				refused("The user provided the following reason for the rejection:  use yarn, not npm"),
				refused("To tell you how to proceed, the user said:\nkeep the old port\nand restart"),
			]),
		).toEqual(["use yarn, not npm", "keep the old port and restart"]);
	});

	it("counts a refusal without words, a failed call and a call that went through for nothing", () => {
		expect(
			refusalWords([
				refused("STOP what you are doing and wait for the user to tell you how to proceed."),
				call("Bash", { command: "make" }, { isError: true, text: "make: *** No rule to make target. the user said: nothing" }),
				call("Bash", { command: "ls" }, { text: "To tell you how to proceed, the user said: use pnpm" }),
			]),
		).toEqual([]);
	});
});

describe("pushesOf", () => {
	it("reads the refs git updated on the remote, each branch once, with the remote the command named", () => {
		const pushes = pushesOf([
			call("Bash", { command: "git push -u upstream feature/tabs 2>&1" }, { text: "To git.example.org:me/app.git\n * [new branch]      feature/tabs -> feature/tabs" }),
			call("Bash", { command: "git pull --rebase && git push" }, { text: "From git.example.org:me/app\n   aaaa111..bbbb222  trunk      -> upstream/trunk\nTo git.example.org:me/app.git\n + cccc333...dddd444 trunk -> trunk (forced update)" }),
			call("Bash", { command: "git push upstream feature/tabs" }, { text: "To git.example.org:me/app.git\n   eeee555..ffff666  feature/tabs -> feature/tabs" }),
		]);
		expect(pushes).toEqual([{ branch: "trunk" }, { branch: "feature/tabs", remote: "upstream" }]);
	});

	it("finds nothing pushed when git had nothing to send or refused the push", () => {
		const pushes = pushesOf([
			call("Bash", { command: "git push origin trunk" }, { text: "Everything up-to-date" }),
			call("Bash", { command: "git push" }, { isError: true, text: "To git.example.org:me/app.git\n ! [rejected]        trunk -> trunk (fetch first)\nerror: failed to push some refs" }),
			call("Bash", { command: "git fetch" }, { text: "From git.example.org:me/app\n   aaaa111..bbbb222  trunk -> origin/trunk" }),
		]);
		expect(pushes).toEqual([]);
	});

	it("reads the push as the shell does: git's own options, wrappers, push options, redirections, several pushes", () => {
		const pushed = (command: string) => pushesOf([call("Bash", { command }, { text: "To git.example.org:me/app.git\n * [new branch]      feat -> feat" })]);
		expect(pushed("git -C services/api push -u upstream feat")).toEqual([{ branch: "feat", remote: "upstream" }]);
		expect(pushed('env GIT_SSH_COMMAND="ssh -i ~/.ssh/deploy key" git push -o ci.skip upstream feat')).toEqual([{ branch: "feat", remote: "upstream" }]);
		expect(pushed("cd app && git push 2>&1 | tail -n 3")).toEqual([{ branch: "feat" }]);
		expect(pushed("git push >push.log 2>&1 upstream feat; cat push.log")).toEqual([{ branch: "feat", remote: "upstream" }]);
		// Two pushes to two remotes: which ref went where is not told.
		expect(pushed("git push upstream feat && git push mirror feat")).toEqual([{ branch: "feat" }]);
		expect(pushed('git push "$REMOTE" feat')).toEqual([{ branch: "feat" }]);
	});

	it("counts no push a command only names, in quotes, a comment or a here-document", () => {
		const shown = (command: string) => pushesOf([call("Bash", { command }, { text: "To git.example.org:me/app.git\n * [new branch]      feat -> feat" })]);
		expect(shown("cat saved-output.txt # what git push printed")).toEqual([]);
		expect(shown('echo "next: git push upstream feat" && cat saved-output.txt')).toEqual([]);
		expect(shown("cat <<'EOF' > steps.md\ngit push upstream feat\nEOF\ncat saved-output.txt")).toEqual([]);
	});

	it("reads thousands of pushes in linear time", () => {
		const calls = Array.from({ length: 20_000 }, (_, i) => call("Bash", { command: `cd app && git -C web push -o x origin b${i} 2>&1 | tail # ${"push ".repeat(20)}` }, { text: `To x\n * [new branch]      b${i} -> b${i}` }));
		const started = performance.now();
		expect(pushesOf(calls)).toHaveLength(20_000);
		expect(performance.now() - started).toBeLessThan(15_000);
	});

	it("reads a long line of output in linear time", () => {
		const started = performance.now();
		pushesOf([call("Bash", { command: "git push" }, { text: `To x\n${" ".repeat(100_000)}+${" ".repeat(100_000)}` }), call("Bash", { command: "git push" }, { text: `To x\n ${"a".repeat(100_000)}..` })]);
		expect(performance.now() - started).toBeLessThan(1000);
	});
});

describe("replacedTodos", () => {
	const list = (...items: [string, string][]) => call("TodoWrite", { todos: items.map(([content, status]) => ({ content, status })) }, {});

	it("keeps the steps a list had completed when a new plan's list takes its place, or the list is cleared", () => {
		const calls = [
			list(["Parse the header row", "completed"], ["Skip blank lines", "in_progress"], ["Run the tests", "pending"]),
			list(["Parse the header row", "completed"], ["Skip blank lines", "completed"], ["Run the tests", "pending"]),
			// A new plan: nothing of the old one stays completed ("Run the tests" starts again).
			list(["Add a --strict flag", "in_progress"], ["Run the tests", "pending"]),
			list(["Add a --strict flag", "completed"], ["Run the tests", "completed"]),
			list(),
		];
		expect(replacedTodos(calls)).toEqual(["Parse the header row", "Skip blank lines", "Add a --strict flag", "Run the tests"]);
		// The final list (or an update of the same list) loses nothing.
		expect(replacedTodos(calls.slice(0, 2))).toEqual([]);
	});

	it("leaves a replaced list to the commit made under it", () => {
		const calls = [
			list(["Port the cache to Redis", "completed"]),
			call("Bash", { command: 'git commit -am "Port the cache to Redis"' }, { text: "[main 9d9d9d9] Port the cache to Redis" }),
			list(["Write the migration guide", "completed"]),
			list(["Tag the release", "pending"]),
		];
		expect(replacedTodos(calls)).toEqual(["Write the migration guide"]);
	});

	it("tells the latest plans' steps, forty at most, when thousands of lists replaced one another (a note of half a million done items)", () => {
		const calls = Array.from({ length: 2_000 }, (_, k) => list([`Step ${k} a`, "completed"], [`Step ${k} b`, "completed"]));
		const steps = replacedTodos([...calls, list()]);
		expect(steps).toHaveLength(40);
		expect(steps.at(-1)).toBe("Step 1999 b");
	});
});
