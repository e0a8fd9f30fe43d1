import { cutAtBoundary } from "./clause-cut";
import type { ToolCall } from "../transcript/session-model";
import { commandsOf, gitCommand, programAt, shellParts, withoutRedirects } from "../text/shell-parts";

/**
 * What a session's tool calls say in structure, before any prose: the todo list, the plan, the
 * commits and pull requests it made, the checks (tests, builds) it ran and how the last one
 * ended. Each reader looks only at calls that succeeded.
 */

export interface TodoItem {
	content: string;
	status: "pending" | "in_progress" | "completed";
}

/**
 * The todo list as it stands after these calls: the last `TodoWrite`, with the newer task tools
 * (`TaskCreate` numbers tasks from 1 in its result, `TaskUpdate` sets a status or deletes one)
 * applied on top in call order.
 */
export function finalTodos(calls: readonly ToolCall[]): TodoItem[] {
	let list: TodoItem[] = [];
	const tasks = new Map<string, TodoItem>();
	let created = 0;
	for (const call of calls) {
		if (call.result?.isError === true) continue;
		if (call.name === "TodoWrite" && Array.isArray(call.input.todos)) {
			list = todoItems(call.input.todos);
			tasks.clear();
		} else if (call.name === "TaskCreate" && typeof call.input.subject === "string") {
			created++;
			const id = /Task #(\d+)/.exec(call.result?.text ?? "")?.[1] ?? String(created);
			const item: TodoItem = { content: call.input.subject.trim(), status: "pending" };
			tasks.set(id, item);
			list.push(item);
		} else if (call.name === "TaskUpdate") {
			const raw = call.input.taskId;
			const id = typeof raw === "string" || typeof raw === "number" ? String(raw) : undefined;
			const item = id === undefined ? undefined : tasks.get(id);
			if (!item || id === undefined) continue;
			if (call.input.status === "deleted") {
				list = list.filter((t) => t !== item);
				tasks.delete(id);
				continue;
			}
			if (typeof call.input.status === "string") item.status = statusOf(call.input.status);
			if (typeof call.input.subject === "string" && call.input.subject.trim() !== "") item.content = call.input.subject.trim();
		}
	}
	return list;
}

/**
 * The completed items of the todo lists a later `TodoWrite` replaced (a new plan, or the list cleared): the next list
 * keeps none of them completed, and `finalTodos` no longer holds them. A list under which a commit was made is told
 * by that commit.
 */
export function replacedTodos(calls: readonly ToolCall[]): string[] {
	const out: string[] = [];
	let list: TodoItem[] = [];
	let committed = false;
	for (const call of calls) {
		if (call.result?.isError === true) continue;
		if (commitOf(call)) committed = true;
		if (call.name !== "TodoWrite" || !Array.isArray(call.input.todos)) continue;
		const next = todoItems(call.input.todos);
		const held = new Set(next.map((t) => t.content));
		const kept = new Set(next.filter((t) => t.status === "completed").map((t) => t.content));
		const completed = list.filter((t) => t.status === "completed").map((t) => t.content);
		const replaced = completed.length > 0 && !completed.some((c) => kept.has(c));
		if (replaced && !committed) out.push(...completed.filter((c) => !held.has(c)));
		// A list begins where the one before held nothing, or nothing of it is held on: commits before it are another list's.
		if (replaced || !list.some((t) => held.has(t.content))) committed = false;
		list = next;
	}
	// The latest plans' steps: ten thousand lists replaced one by one gave a note of half a million done items.
	return out.slice(-REPLACED_STEPS_MAX);
}

/** Steps of replaced todo lists told done at most (the digest tells a few; the note lists them). */
const REPLACED_STEPS_MAX = 40;

/** The items a `TodoWrite` gives, those without words left out. */
function todoItems(todos: readonly unknown[]): TodoItem[] {
	return todos.flatMap((t) => {
		const item = t as Record<string, unknown>;
		const content = typeof item.content === "string" ? item.content.trim() : "";
		return content === "" ? [] : [{ content, status: statusOf(item.status) }];
	});
}

function statusOf(value: unknown): TodoItem["status"] {
	return value === "completed" || value === "in_progress" ? value : "pending";
}

/** The title of the last plan presented with `ExitPlanMode`: its first heading, else its first line. */
export function planTitle(calls: readonly ToolCall[]): string | undefined {
	let title: string | undefined;
	for (const call of calls) {
		if (call.name !== "ExitPlanMode" || typeof call.input.plan !== "string") continue;
		const plan = call.input.plan;
		const heading = /^#{1,3}\s+(.+)$/m.exec(plan)?.[1] ?? plan.split("\n").find((l) => l.trim() !== "");
		if (heading) title = heading.replace(/^plan:\s*/i, "").replace(/[*_`]/g, "").trim();
	}
	return title;
}

export interface Commit {
	subject: string;
	hash?: string;
	/** The message's lines after its subject, when it has any: where a commit tells why. */
	body?: string;
	/** Made by `git commit --amend`: it took the place of the commit before it. */
	amends?: true;
}

/** Commits made by successful `git commit` calls (see `commitOf`). */
export function commitsOf(calls: readonly ToolCall[]): Commit[] {
	const commits: Commit[] = [];
	for (const call of calls) {
		const commit = commitOf(call);
		if (commit) commits.push(commit);
	}
	return commits;
}

/** The line git prints for a commit it made: `[main 1a2b3c4] Subject` (`[main (root-commit) 1a2b3c4]` for a first one). */
const MADE_COMMIT = /^\[[^\]\n]*?\b([0-9a-f]{7,40})\] (.+)$/m;

/**
 * The commit a successful shell call made: its subject from the command's `-m`, `--message` or
 * heredoc, else from the line git printed (a long command, a `git add` of many files first, is
 * clipped before its `git commit`; `-F` and `--amend --no-edit` name no message).
 */
export function commitOf(call: ToolCall): Commit | undefined {
	if (call.name !== "Bash" || typeof call.input.command !== "string" || !call.result || call.result.isError) return undefined;
	const made = MADE_COMMIT.exec(call.result.text);
	const message = commitMessage(call.input.command);
	const subject = subjectOf(message) ?? (made && printsCommits(call.input.command) ? made[2]!.replace(/…$/, "").trim() || undefined : undefined);
	if (!subject) return undefined;
	const hash = made?.[1] ?? /\[[^\]\n]*?([0-9a-f]{7,40})\]/.exec(call.result.text)?.[1];
	const body = message === undefined ? undefined : bodyOf(message);
	const amends = isAmend(call.input.command) ? { amends: true as const } : {};
	return body === undefined ? { subject, hash, ...amends } : { subject, hash, body, ...amends };
}

/** The git commands that make commits and print `[branch hash] subject` for each. */
const COMMITTING = new Set(["commit", "cherry-pick", "revert", "rebase", "merge", "am", "pull"]);

/**
 * Whether git's line for a commit in the command's output is one it made: the command runs a git
 * command that commits, or was clipped before one. A command that only mentions git (`git show
 * HEAD:ci.log`, `cat notes.txt && git status`) prints someone else's text: a `[main 1a2b3c4] …`
 * line there was told as the session's commit.
 */
function printsCommits(command: string): boolean {
	if (!/\bgit\b/.test(command)) return false;
	if (command.endsWith("…")) return true;
	return commandsOf(command).some((parts) => {
		const words = parts.map((w) => w.text);
		const git = gitCommand(words);
		return git !== undefined && COMMITTING.has(words[git.sub] ?? "");
	});
}

/** An amend on a line whose `git commit` the shell reader cannot read (clipped inside a quote): by its words as typed. */
const CLIPPED_AMEND = /\bgit\s+(?:-C\s+\S+\s+)?commit\b[^\n;&|]*\s--amend\b/;

/** Options of `git commit` whose value is the next word: a message that reads `--amend` is no amend. */
const MESSAGE_OPTIONS = new Set(["-m", "--message", "-F", "--file", "-C", "--reuse-message", "-c", "--reedit-message", "-t", "--template"]);

/** Whether a command line's `git commit` amends (`--amend` among its options, not inside its message). */
function isAmend(line: string): boolean {
	const commits = commandsOf(line).flatMap((command) => {
		const words = command.map((w) => w.text);
		const git = gitCommand(words);
		return git !== undefined && words[git.sub] === "commit" ? [words.slice(git.sub + 1)] : [];
	});
	if (commits.length === 0) return CLIPPED_AMEND.test(line);
	return commits.some((args) => args.some((w, i) => w === "--amend" && !MESSAGE_OPTIONS.has(args[i - 1] ?? "")));
}

/**
 * The commits that still stand: one an amend replaced is gone from the history (its hash names
 * nothing), so only the amended one is told. An amend with no commit before it in the list
 * replaced one made before the session, and stands alone.
 */
export function lastingCommits(commits: readonly Commit[]): Commit[] {
	const out: Commit[] = [];
	for (const commit of commits) {
		if (commit.amends) out.pop();
		out.push(commit);
	}
	return out;
}

/** The first line of the message a `git commit` command line gives. */
export function commitSubject(command: string): string | undefined {
	return subjectOf(commitMessage(command));
}

/** A message's first line that says something, without the mark of a clipped input. */
function subjectOf(message: string | undefined): string | undefined {
	const subject = message?.split("\n").map((l) => l.trim()).find((l) => l !== "");
	return subject && subject !== "…" ? subject.replace(/…$/, "").trim() || undefined : undefined;
}

/** A message's lines after its subject line, when any of them says something. */
function bodyOf(message: string): string | undefined {
	const body = message.replace(/^\s*[^\n]*\n?/, "").trim();
	return isBlank(body) ? undefined : body;
}

/** Nothing but blanks, or the mark of a clipped input. */
function isBlank(text: string): boolean {
	return text.replace(/…\s*$/, "").trim() === "";
}

/** The whole message a `git commit` command line gives (`-m`, `--message`, a heredoc), as typed. */
export function commitMessage(command: string): string | undefined {
	const at = command.search(/\bgit\s+(?:-C\s+\S+\s+)?commit\b/);
	return at < 0 ? undefined : argumentOf(command.slice(at), /\s(?:-[a-zA-Z]*m|--message)(?:=|\s+)/);
}

/** The text a `gh pr create` command line gives its pull request with `--body` (or `-b`). */
export function pullRequestBody(command: string): string | undefined {
	const at = command.search(/\bgh\s+pr\s+create\b/);
	return at < 0 ? undefined : argumentOf(command.slice(at), /\s(?:-b|--body)(?:=|\s+)/)?.trim();
}

/** The value of the first `flag` in a command line: a heredoc, a quoted string or a bare word. */
function argumentOf(rest: string, flag: RegExp): string | undefined {
	const found = flag.exec(rest);
	if (!found) return undefined;
	const value = rest.slice(found.index + found[0].length);
	const heredoc = /^["']?\$\(cat\s+<<-?\s*['"]?(\w+)['"]?\s*\n/.exec(value);
	if (heredoc) {
		const body = value.slice(heredoc[0].length);
		const end = body.search(new RegExp(`^\\s*${heredoc[1]}\\s*$`, "m"));
		return end < 0 ? body : body.slice(0, end);
	}
	if (value.startsWith('"') || value.startsWith("'")) return quoted(value);
	return /^\S+/.exec(value)?.[0] ?? "";
}

/** The text of a shell-quoted string that starts `value` (clipped input may end it early). */
function quoted(value: string): string {
	const q = value[0];
	let out = "";
	for (let i = 1; i < value.length; i++) {
		const c = value[i];
		if (c === q) break;
		if (c === "\\" && q === '"' && i + 1 < value.length) {
			out += value[++i];
			continue;
		}
		out += c;
	}
	return out;
}

export interface Push {
	branch: string;
	/** The remote the command named (`git push -u origin main`); a bare `git push` names none. */
	remote?: string;
}

/**
 * A line git prints for a ref it updated on the remote, after its `To <url>` line: `   1a2b..3c4d  main -> main`,
 * ` + 1a2b...3c4d  fix -> fix (forced update)`, ` * [new branch]      fix -> fix`. A rejected or deleted ref, a tag
 * or a fetch's lines (after `From <url>`) are none.
 */
const PUSHED_REF = /^ *(?:\+ *)?(?:\* +\[new branch\]|[0-9a-f]{4,40}\.\.\.?[0-9a-f]{4,40}) +(\S+) +-> +(\S+)/;

/**
 * The branches the session's shell calls pushed, by what git printed (a push inside a longer command counts; one that
 * found everything up to date pushed nothing), each once, in the order of its last push.
 */
export function pushesOf(calls: readonly ToolCall[]): Push[] {
	const pushes = new Map<string, Push>();
	for (const call of calls) {
		if (call.name !== "Bash" || typeof call.input.command !== "string" || !call.result) continue;
		const remotes = pushRemotes(call.input.command);
		if (remotes.length === 0) continue;
		// Pushes of one line to different remotes: which ref went where is not told.
		const remote = remotes.every((r) => r === remotes[0]) ? remotes[0] : undefined;
		let toRemote = false;
		for (const line of call.result.text.split("\n")) {
			if (line.startsWith("To ")) toRemote = true;
			else if (!line.startsWith(" ")) toRemote = false;
			const ref = toRemote ? PUSHED_REF.exec(line) : null;
			if (!ref?.[2]) continue;
			const branch = ref[2];
			pushes.delete(branch);
			pushes.set(branch, remote === undefined ? { branch } : { branch, remote });
		}
	}
	return [...pushes.values()];
}

/** Options of `git push` that take the next word as their value. */
const PUSH_VALUE_OPTIONS = new Set(["-o", "--push-option", "--repo", "--receive-pack", "--exec"]);

/**
 * The remote each `git push` of a command line names (`git -C app push -u origin main`), undefined for one that names
 * none by a plain name (a bare `git push`, a URL, `$REMOTE`).
 */
function pushRemotes(line: string): (string | undefined)[] {
	const remotes: (string | undefined)[] = [];
	for (const command of commandsOf(line)) {
		const git = gitCommand(command.map((w) => w.text));
		if (git === undefined || command[git.sub]?.text !== "push") continue;
		const args = withoutRedirects(command.slice(git.sub + 1));
		let next = 0;
		while (args[next]?.text.startsWith("-")) next += PUSH_VALUE_OPTIONS.has(args[next]?.text ?? "") ? 2 : 1;
		const first = args[next];
		remotes.push(first?.plain === true && /^[\w.-]+$/.test(first.text) ? first.text : undefined);
	}
	return remotes;
}

export interface PullRequest {
	title?: string;
	url?: string;
	/** Its description, as the command gave it. */
	body?: string;
}

/** Pull requests opened with `gh pr create` that succeeded, and links the client recorded. */
export function pullRequestsOf(calls: readonly ToolCall[], prLinks: readonly string[]): PullRequest[] {
	const prs: PullRequest[] = [];
	for (const call of calls) {
		if (call.name !== "Bash" || typeof call.input.command !== "string" || !call.result || call.result.isError) continue;
		if (!/\bgh\s+pr\s+create\b/.test(call.input.command)) continue;
		const title = /--title(?:=|\s+)(["'])(.*?)\1/.exec(call.input.command)?.[2];
		const url = /https?:\/\/\S+\/pull\/\d+/.exec(call.result.text)?.[0];
		const body = pullRequestBody(call.input.command);
		prs.push(body === undefined || isBlank(body) ? { title, url } : { title, url, body });
	}
	for (const url of prLinks) if (!prs.some((p) => p.url === url)) prs.push({ url });
	return prs;
}

export interface Check {
	command: string;
	passed: boolean;
}

/** Test, build, lint and type-check commands, with whether each passed. */
export function checksOf(calls: readonly ToolCall[]): Check[] {
	const checks: Check[] = [];
	for (const call of calls) {
		if (call.name !== "Bash" || typeof call.input.command !== "string" || !call.result) continue;
		const command = checkCommand(call.input.command);
		if (command) checks.push({ command, passed: !call.result.isError });
	}
	return checks;
}

const CHECK =
	/(?:^|[\s;&|(])((?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:test|build|lint|typecheck|type-check|check|tsc|ci|e2e)[\w:-]*|(?:npx|pnpx|bunx|pnpm\s+exec|yarn)\s+(?:vitest|jest|mocha|tsc|eslint|playwright|ava|tap|biome)\b|(?:vitest|jest|pytest|mocha|phpunit|rspec|tox|nox|tsc|mypy|pyright|ruff\s+check)\b|python3?\s+-m\s+(?:pytest|unittest|mypy)|uv\s+run\s+(?:pytest|mypy|ruff)|go\s+(?:test|build|vet)|cargo\s+(?:test|build|check|clippy|nextest)|make(?:\s+(?:test|check|build|all|lint))?(?=\s*(?:$|[;&|)]))|(?:mise|just|task|turbo|nx|moon)\s+(?:run\s+)?(?:test|build|lint|check|fmt|typecheck|ci|e2e)[\w:-]*|(?:mvn|gradle|\.\/gradlew|dotnet|swift|mix|dune|stack|cabal|deno)\s+(?:test|build|verify|check|package))/;

/**
 * The check a command line runs, or undefined: a simple command of it (see `commandsOf`) that starts with one, after
 * its wrappers (`CI=1`, `timeout 60`). One only named (`echo npm test`, a message, a here-document's text) is none.
 */
export function checkCommand(command: string): string | undefined {
	for (const words of shellParts(command)) {
		const found = CHECK.exec(words.slice(programAt(words)).join(" "));
		if (found?.index === 0) return found[1]?.trim();
	}
	return undefined;
}

/**
 * The user's answers to `AskUserQuestion`: choices they made among the options offered, as
 * "header: answer" (the question's short header, else the question), and answers they typed
 * instead as "question → answer". Read from the result the client writes (`"question"="answer", …`).
 */
export function userAnswers(calls: readonly ToolCall[]): string[] {
	const answers: string[] = [];
	for (const call of calls) {
		if (call.name !== "AskUserQuestion" || !call.result || call.result.isError) continue;
		const asked: { question: string; header?: string; labels: string[] }[] = [];
		if (Array.isArray(call.input.questions)) {
			for (const q of call.input.questions as Record<string, unknown>[]) {
				if (typeof q.question !== "string") continue;
				const labels = Array.isArray(q.options) ? (q.options as Record<string, unknown>[]).flatMap((o) => (typeof o.label === "string" ? [o.label] : [])) : [];
				asked.push({ question: q.question.replace(/…$/, ""), header: typeof q.header === "string" ? q.header : undefined, labels });
			}
		}
		for (const m of call.result.text.matchAll(/"((?:[^"\\\n]|\\.){1,400})"="((?:[^"\\\n]|\\.){1,400})"/g)) {
			const question = m[1] ?? "";
			const answer = (m[2] ?? "").trim();
			if (answer === "") continue;
			const q = asked.find((a) => a.question.startsWith(question) || question.startsWith(a.question));
			// A picked option reads well under the question's short header; an answer the user typed needs the question itself.
			const typed = q !== undefined && q.labels.length > 0 && !q.labels.includes(answer) && !answer.split(/,\s*/).every((a) => q.labels.includes(a));
			const label = typed || !q?.header ? cutAtBoundary(firstSentence(question), 100) : q.header;
			answers.push(`${label}${typed ? " →" : ":"} ${answer}`);
		}
	}
	return answers;
}

/** A question's first sentence, without its "?" when it ends there ("Pre-commit blocks on X. How should we proceed?" reads "Pre-commit blocks on X"). */
function firstSentence(question: string): string {
	const first = question.split(/(?<=[.!?])\s+/)[0] ?? question;
	return first.replace(/[?.]\s*$/, "");
}

/** What Claude Code writes in a refused call's result before the words the user gave with the refusal. */
const REFUSED_WITH_WORDS = /\b(?:the user provided the following reason for the rejection|to tell you how to proceed, the user said):\s*/i;

/**
 * What the user said when they refused a step (a command, an edit, a plan): "use pnpm", "keep
 * the file's name but point the script at it". The user's own correction of the agent's course,
 * so a choice; a refusal without words says nothing and counts for nothing.
 */
export function refusalWords(calls: readonly ToolCall[]): string[] {
	const words: string[] = [];
	for (const call of calls) {
		if (call.result?.isError !== true) continue;
		const text = call.result.text;
		const at = text.search(REFUSED_WITH_WORDS);
		if (at < 0) continue;
		const said = text.slice(at).replace(REFUSED_WITH_WORDS, "").replace(/\s+/g, " ").trim();
		if (said.length >= 3) words.push(said);
	}
	return words;
}
