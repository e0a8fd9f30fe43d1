import { agentOf, type AgentId } from "../transcript/agents";
import { stripClientBoilerplate } from "../transcript/client-boilerplate";
import type { SessionEvent, SessionModel, ToolCall } from "../transcript/session-model";
import { errorsOf, promptsOf, shellCommandsOf, subagentCallsOf, toolCallsOf } from "../transcript/session-queries";
import { activeMinutes } from "./active-time";
import { cutAtBoundary } from "./clause-cut";
import { agreedProposals } from "./agreed-proposals";
import { asChoice, byMeansOnly, decisionsOf, heldReplies, proposalsIn } from "./decisions";
import { asResult } from "./as-result";
import { isHollow } from "./hollow-claims";
import { isNotResult, LINE_MARKUP, OPTION_LABEL } from "./not-results";
import { codeSpan } from "../text/code-spans";
import { oneLine } from "./one-line";
import { pickedOptions } from "./picked-options";
import { decisionRecords, recordBodies } from "./recorded-decisions";
import { claimsByReference, namesFile, refusedCalls } from "./refused-calls";
import { removedLater, stillHolding, touchedAtEnd } from "./removed-files";
import { joinedChoices, sameWords, saidOnce, toldOnce, withoutRestated } from "./restated";
import { uncommittedFiles } from "./uncommitted";
import { isQuestion, proseUnits, statementsOf, type ProseUnit } from "./prose";
import { planHeading } from "./request-text";
import { leftOpen, leftToUser, ON_CONDITION, withItsRequest } from "./left-open";
import { sessionTitle, shorten } from "./session-title";
import { sessionTasks, type SessionTask } from "./session-tasks";
import { usageDays, type UsageDay } from "./usage-days";
import { checksOf, commitsOf, finalTodos, lastingCommits, planTitle, pullRequestsOf, pushesOf, refusalWords, replacedTodos, userAnswers, type Check, type Commit } from "./work-signals";

/**
 * Bumped when what a digest holds changes, or when every note made from one must be rendered again:
 * stored digests of an older version are made again, and their notes rendered. 8: transcript text
 * in notes made inert (inert-markdown.ts), so a note an older release wrote runs nothing either.
 * 9: inline JavaScript after any blank or across lines, fences on a list item's next line, and
 * headings named as the note's own made inert too. 10: no `@` after a blank in a context block, in
 * code or not (see `unimportable`): every project's block is written again. 11: writes and
 * commands the client refused for want of a permission are open, and no result claims them.
 * 12: files changed after a session's last commit are open (see `uncommittedFiles`). 13: the
 * choices a session wrote down (decision records, commit and pull request bodies) and those a
 * reply leads with their reason are decisions (see `decisionsOf`). 14: what a reply leaves under
 * a bold intro ("**Next steps:**"), a "## Next steps" heading or a "Next steps:" label, and "you'll
 * need to …", is open, not done; a choice narrated with its reason ("I'll go with X since Y") is a
 * decision; a user's choice is read to its paragraph's end; "Creating task 11: …", "You're right -
 * let me …" and "I’ll …" (a typographic apostrophe) are narration. 15: a commit of the paths `git
 * add` named leaves the session's other changes open (see `uncommittedFiles`). 16: the agent's
 * own need or limit ("I need permission to…", "I don't have…") and "Go ahead and run…" are no
 * results (see `isNotResult`). 17: no result claims a file whose write or edit failed and was not
 * done after (see `refusedCalls`); a note named with an `@` after a blank moves to its quotable
 * name (see `quotable`). 18: a reply line that is only an HTML comment is no result. 19: an
 * amended commit is told once (see `lastingCommits`); a task the user stopped keeps only the
 * changes it reported; a step "when you need to …" is not open; a file `git status` no longer
 * lists is not left uncommitted; a guess and "you're absolutely right" are no results; what a
 * reply says of the options it lays out is no result; a closing "Or …?" comes with the
 * alternatives before it; a last reply in blocks alone answers; a request's question tag
 * (", or?") goes with its "?". 20: a listing's field ("Status: Not planned yet") is not left open
 * on its own. 21: an option a reply lays out for someone to pick is no decision (see `decisionsOf`).
 * 22: a choice a reply leaves to the user ("You could also…", "Optionally, …") is no decision, and
 * a suggestion ("I'd suggest…", "我建議…") is one only once it holds. 23: nor is what a section
 * leaves for later or to taste ("Next steps", "Nits (optional)"), or proposes in a reply that does
 * not hold, a list's intro below the heading aside. 24: a user's correction ("no, use X instead",
 * "instead of X, use Y", "let's not …") is their choice. 25: so is a change a reply tells after
 * the way it passed over ("Instead of forking it, I pinned it"). 26: a choice a later one passes
 * over ("switch the log from MySQL to files" after "let's use MySQL") is replaced by it. 27: advice
 * for a case that may come ("If it keeps failing, switch to X instead") is no decision, nor is a
 * step in a list of steps handed to the reader ("No redirect URI needed — click Register").
 * 29: a plan said ahead of the work ("We'll use X instead of Y", "Here is my plan: …") is a
 * decision only once its reply holds. 30: a user's question typed without its mark, a choice
 * they only weigh or suppose, and what they say the agent did are not their choices. 31: a
 * diagnosis of what something else did instead ("The hook called the API instead of the cache")
 * is no decision, in a reply, a prompt or a commit message. 32: a reply whose first step the user
 * rejected does not hold (see `heldReplies`). 33: a list told as done ("Fixed it in two ways:")
 * is not taken for one of options, nor one of the user's proposals carried out ("Applied your
 * suggestions:") for the agent's own. 35: what the session's last reply proposes, nobody answering
 * it, is open ("proposed, not answered: I'd recommend Option 2 (its title)…"; see `proposalsIn`).
 * 36: so is what it holds under a section that says it recommends ("## Caching — recommendation",
 * "Option C (my recommendation)"). 37: what comes next, labeled so ("Next task: 012"), is no result.
 * 38: a last task the transcript ends inside keeps only what reports a change, as a stopped one.
 * 39: a session that never committed, whose agent offered to ("Shall I commit this?"), leaves its
 * changes uncommitted (see `uncommittedFiles`). 40: "We should see…" (what is expected) is no
 * proposal left open, only "We should use…" and the like. 41: nor is what a section of proposals
 * carried out holds ("Applied the reviewer's suggestions:"). 42: a title holds no character that
 * shows nothing (U+200B, U+2060, U+FEFF, a soft hyphen) and no more than ten combining marks in a row.
 * 43: a short line wholly bold and without a stop ("**Project: Flux**") is a heading, no result.
 * 44: nor is being ready for any next step ("Ready to build."), or for the user's go ("…whenever you say the word").
 * 45: nor is the agent's need said as what would help it ("A few details … would help me").
 * 46: nor is another way offered to what came before ("Or paste the log here…", "Alternatively, …").
 * 47: nor is what "we need to" or "have to" do (the need is the agent's, as "I need…" was).
 * 48: nor is a setting and the reader's own value for it ("`API_TOKEN`: your token"), a blank to fill.
 * 49: a git command the person ran themselves (`!git commit -am …` in Claude Code's shell mode) counts
 * for what is left uncommitted, as the agent's do. 50: an option laid out under any of the labels the
 * Decided list knows ("Approach 2:", "Option 3. …") is no result either, as "Option A:" was.
 * 51: an item's own "; " reads ", " in an entry's lists, whose items "; " parts (one commit read as two items).
 * 52: an answer's second statement is not told when it leans on the first ("It also…", "That's a gap…"; see `answerOf`).
 * 53: nor is what we or the reader would or will see ("We'd keep…", "You'll see…"), or anyone after an "If …,".
 * 54: what the reader "may" or "might need to" do is not left open: a case that may not come, as "when you need to" is.
 * 55: a passing check is told once: not when a result says the same kind of check passed ("All 31 tests passed"; see `tellsCheck`).
 * 56: nor is a todo that ran something to check ("Run the suite to confirm nothing broke") done: a step, as "Verify …" was.
 * 57: a way out a reply chooses against the limit its sentence before states ("…can't reach the
 * pool. I need to use a shared connection.") is a decision, told with that limit as its reason.
 * 58: a default is such a limit too, and a way out may be told by how it is done ("…by removing X").
 * 59: a way the user only weighed or asked about ("maybe we should use X?") is their choice once the
 * agent's next reply agrees with it ("You're right — …"; see `agreedProposals`).
 * 60: a request keeps the sentence its "that" points back to whole ("The footer got lost. can you get that back"; see `requestSentence`).
 * 61: no result claims a file not written as "the file" either (see `claimsByReference`); a reply of such claims alone gives way to the one before.
 * 62: a commit the transcript ends inside, git not yet answering, may have gone through: what it takes is not left uncommitted.
 * 63: steps under an intro that waits on the reader ("If you agree, the follow-up I'd run:") are not left open: an offer, not work left.
 * 64: an item cut to length ends no sentence at a dot that starts a name ("…the same way as the .zip files" cut after "the .").
 * 65: an item of a list laid out as the agent's plan ("Here's the plan:", "First, let's set it up:") is a step ahead, no result.
 * 66: nor is a todo that ran checks alone ("Run fmt, lint, and tests").
 * 67: a step an earlier task's reply left on the user's side ("One thing left on your side: …") is open, unless a later request takes it up.
 * 68: so is one handed to the reader to do by hand ("You may want to delete the old page manually"), last task or earlier.
 * 69: an intro to what follows ("Here's the summary of what I changed"), the agent's grasp ("I now understand the issue") and "The plan is ready" are hollow.
 * 70: a check left failing earlier, no later run of its kind passing, is open, as a failing last check was.
 * 71: an item under a plan's intro that reports a change ("I carried out the plan: - Added …") is a result after all.
 * 72: a step "you want to" do manually only "in case", "if" or "when" you do is not left open (a case that may not come).
 * 73: nor is "Nothing left on your side": nothing is.
 * 74: a list's intro lays out a plan only when it looks ahead ("Here's the plan:", "I'm going to:"), not back ("Let's recap:").
 * 75: steps wait on the reader's yes under an intro whose last sentence is "If you …", after any other; not under "Once you …".
 * 76: the topic tags' rules of the same release (pasted output, later mentions, selectors, error codes, folders give no
 * tags: docs/topic-tags.md), which a session gets only when digested again.
 * 77: a custom slash command run without arguments asks what its prompt's first sentence or heading says ("/pr: Generate …").
 * 78: a sentence starting with a lower-case name ("Done. npm test passes.") is a sentence of its own; "There's the bug." is hollow.
 * 79: an item cut inside a long code span keeps the span's start up to a break of its own (`…/auth/confirm…`), not the words before it alone.
 * 80: an entry tells an address in a request or a result by its host and last part (`github.com/…/pull/12`; see `shortUrls`).
 * 81: a user's choice is told without the words they wish with ("user chose: move the docs", not "user chose: i would like to move the docs").
 * 82: a choice that opens on its reason is told choice first ("Skip the check, since the IDs are fixed"; see `reasonLast`).
 * 83: an entry's Decided line cuts a decision past its fair share of the room (`fairCap`) rather than leave the next ones out, in 270 characters.
 * 84: so does its Asked line, in 280 characters: short requests leave their room to long ones, each cut to no less than 60.
 * 85: a title made of a request told as a story is what the story is about ("We've just refactored X and the tests fail" → "The tests fail"; see `substance`).
 * 86: a command run without arguments asks no heading, list item or sentence about its template ("# Review checklist", "Do the steps
 * below"): one whose prompt holds nothing else is told by its name, and the request that follows titles the session (see `commandRequest`).
 * 87: the other tasks' results are told the most work first, as the Asked line ranks their requests, not in the order asked.
 * 88: a done item that says again what one before it said (a todo after its result, in other words) is told once (see `withoutRestated`).
 * 89: a claim of an end that names only what the task's request named ("PAY-311 is complete") is hollow (see `isHollow`).
 * 90: the results of earlier tasks that changed files come before the answers of those that changed none (each group the most work first, as 87).
 * 91: no result of a task tells of a file a later task removed (`rm`, `git rm`) for good, nor, when it names no file of the task still
 * there, anything else its reply said: the work was undone (see `removedLater`, `stillHolding`).
 * 92: the files touched leave out those the session removed for good (`rm`, `git rm` its last word on them; a bare name two written files share removes neither; see `touchedAtEnd`).
 * 93: topic tags: short forms of generic words (req, msg), severities (critical, minor), the console and the Chinese for
 *   generic words (窗口, 配置) are no tags alone; Chinese see/end/know verbs (看到, 結束) are stop words; an acronym's plural is the acronym (PRs);
 *   an activity (testing, docs) named only by files read needs two of them.
 * 94: an ask is the person's words around pasted program output (a terminal with its banner and prompt, a log, a trace; words before a time stamp on their line kept), a short one naming the paste's first error after them; a prompt of output alone is named by its first error line, else its last command (see `pastedSubject`).
 * 95: a way the user put forward counts as agreed when the reply's agreement follows a short interjection ("Ah yes, you're right"), and its parenthesized asides are left out of it (a question inside one no longer cuts it short, nor does their length rule it out).
 * 96: a fix told as the cleaner, simpler, safer or easier way ("the safer path is to…") is a decision as the best one is, and a plan said ahead of the work until its reply holds.
 * 97: the files touched tell a file moved by a shell command (`mv`, `git mv` of one file) by its new name, a file moved out of the project
 *   not at all, and leave out the files under a folder removed (`rm -r`); a line is read a word at a time, quotes kept (see `touchedAtEnd`).
 * 98: a done item that says no more than an open or decided one is told there alone; a decided one that says no more than a done
 *   item is left out, unless the person's own choice or a decision record (see `toldOnce`).
 * 99: a prompt word said as a verb at least as often as not (`we reset it`, `the user reset`) is no topic tag, nor a function's name after `calling`/`invoke` (`calling shuffle`), unless the catalog or a branch names it.
 * 100: a file's place in a framework's own layout names the framework: `lib/<app>_web/` and `.heex` → phoenix (its `live/` → liveview), Rails' `app/controllers`… and `config/initializers` → rails, `src-tauri/` → tauri.
 * 101: a branch the session pushed is done ("pushed `fix/login` to origin", by git's own output; see `pushesOf`), after the results, unless a reply says it was pushed or a pull request was opened.
 * 102: the steps a todo list had completed before a new plan's list replaced it (or it was cleared) are done, after the results, unless a commit was made under it (see `replacedTodos`).
 * 103: the person's choices and the session's own take turns in the decisions, the person's first, rather than the person's all first (see `takingTurns`).
 * 104: in a session that committed, the todo list's completed steps are told after the replies' results, not before them.
 * 105: what is left of a hyphenated word cut apart (`5-field`, `field-by-field`) makes no phrase with the word it qualified (`5-field accumulation`).
 * 106: a pasted object literal's entry (`serverUrl: env.SERVER_URL,`: a name, a colon, a value, a comma) is a line of code: its names are no prompt keywords.
 * 107: a colour (`blue`, `dark blue`, `light-grey`) is a value, no topic tag; a shade alone and two colours (`blue-green`) stay.
 * 108: chat shorthand (idk, btw, imo, fyi…) is a stop word, no topic tag.
 * 109: what is left of a hyphenated word cut apart makes no phrase with the word before it either (`render column-by-column output` is no render-column).
 * 110: a done item that names bare what another names qualified (`getUserMedia`, `navigator.getUserMedia`), or differs from it by an acronym, "instead", "modern" or a check's "run"/"verify", is told once; a word capitalized mid-sentence is a name; an agent's choice told twice is told once (see `saidOnce`), and its wording of a choice the user made is joined to the user's line (see `joinedChoices`).
 * 111: a reply's line that starts like a pull request or commit ("PR created: <link>") is no record: one that says again what a record says is left out.
 * 112: a done item is read with an acronym as the words it stands for ("PAT", "Personal Access Tokens"): one that says no more than a choice is told once.
 * 113: a pushed branch is one code span whatever its name holds (a backtick in it ended the span: the rest was the note's markdown).
 * 114: a shell call's folder not given in full (a relative `workdir`) leaves its relative paths not known, as a `cd` to one does; they were taken from the session's folder.
 * 115: at most 40 stated choices are read for the decisions (all of them, compared pair by pair, took half a minute for a reply of 20,000).
 * 116: the steps of replaced todo lists told done are the latest forty (ten thousand lists replaced one by one gave half a million).
 * 117: an item that spells out an acronym a later one gives ("Personal Access Token", "PAT") is found by the index that tells each item once, as compared one by one.
 * 118: nothing asked of the reader ("No action needed on your end") is hollow; the items under the person's own proposal said back ("Your proposal:") and the parts of a document a reply lists ("…a doc that covers:") are no results (see `notOwnWork`).
 * 119: so is a thing's being ready for the reader's next step ("The draft is ready for you to review when you have time").
 * 120: a step left to do that only goes to a place ("Go to https://…/settings") is not told: the next one says what to do there.
 * 121: nor is where the repository stands at the end ("On `main`, up to date"; see `isNotResult`).
 * 122: nor is an expectation said of nothing named ("It should work now", "They should be off now"; see `isHollow`).
 * 123: the sections of a document a reply lists are told as the writing its intro reports ("Created a guide at `x.md`").
 * 124: the items of the person's proposal told as carried out ("Your plan, implemented:") are results, as they were before 118.
 * 125: shell lines are read as the shell reads them (see `commandsOf`) for the branches pushed too (`git -C dir push`, `env X=1 git push`; a push only named in quotes, a comment or a here-document is none); the files
 *   touched follow a folder moved (`mv`, `git mv`) to its new place, and keep what `git rm --cached` only stopped tracking.
 * 126: a commit amends by its `--amend` option, read by the shell reader, not by a message that speaks of one (it took the commit before it off the list).
 * 127: a check (tests, a build) is a command of the line that runs one, read by the shell reader: one only named (`echo npm test`, a here-document's text, a comment) ran nothing, and is no check that failed.
 * 128: a commit body's means told with its purpose ("Jobs use a lease row so …") is a choice, told after the rest; so is one its maker says was made on purpose ("I deliberately left …").
 * 129: a choice in traditional Chinese characters (決定, 選擇了, 採用了) is read as its simplified spelling was.
 * 130: topic tags read a slash command's arguments of three words or more as a typed prompt (`/scaffold a booking calendar with Svelte`).
 * 131: topic tags: a technical term of the catalog beyond the prompt keywords' quota takes a slot the other sources left free.
 * 132: a Justfile or a `just` command names just (a command runner, as a Makefile names make).
 * 133: topic tags: more well-known tools, services, platforms and ciphers in the catalog's technical terms (credo, drizzle, sqs, amplitude, aes, macos…).
 * 134: a phrase of two technical terms said once (`macOS SMB`) does not replace one of them said more on its own (`smb`).
 * 160: a request sentence that reads alone as a reply ("Let's start there first") leaves the story before it as what was asked, and praise of the work ("Excellent work, thank you!") asks for nothing.
 * 161: a form's fields alone given in reply ("host:" / "db.example.com", "user:" / "admin") start no task: the work after them is the task's that asked for them.
 * 162: a pick left to the user among the options laid out that names nothing of the request they answer ("Which direction do you prefer?") is told with that request.
 * 163: a technical term said more on its own is no longer replaced by a phrase of it and a plain word said less (`fuse`, not `fuse-rename`).
 * 164: the test runner a session ran (pytest, jest, vitest, mocha, rspec, cypress) is a topic, after the activity testing.
 * 165: a hyphenated name around a technical term (`AES-CTR`) is a topic said once, as the term is.
 * 166: a `<name>.controller.ts` or `.dto.ts` file names NestJS.
 * 167: `git worktree` and `git stash` are work with git, as `git commit` is.
 * 168: the plain word of a phrase that gave way to its technical term goes with the phrase (`welcome` of `welcome email`).
 * 169: a piece of an activity's work named in the prompts (docstring, changelog; unit-test, e2e, tdd, mocking) names the activity (docs; testing) too.
 * 170: `logging in` / `logging out` in a prompt is login / logout, not logging.
 * 171: `document` is a generic word, as note and report are: no tag alone.
 * 172: a `[branch hash] subject` line is a commit only in the output of a git command that commits (not `git show`'s file, not `cat … && git status`).
 */
export const DIGEST_VERSION = 172;

/** One task of the session as the note shows it. */
export interface TaskSummary {
	ask?: string;
	/** Tool calls made for it: how much work the task was. */
	calls: number;
	/** Result statements of the task's final reply (no narration), Markdown items kept apart. */
	result: string[];
	files: string[];
	commits: Commit[];
	/** The last check (test, build, lint) of the task. */
	check?: Check;
}

/** What a reader wants to know about a session before reading it. Plain data, deterministic. */
export interface SessionDigest {
	version: number;
	sessionId: string;
	/** The agent the session ran in. */
	agent: AgentId;
	title: string;
	projectPath?: string;
	branch?: string;
	startedAt?: string;
	endedAt?: string;
	/** Minutes of activity, long idle gaps left out. */
	activeMinutes?: number;
	models: string[];
	tasks: TaskSummary[];
	/** What was asked: the tasks' requests. */
	asked: string[];
	/** What was done: commits, pull requests, completed todos, result statements. */
	done: string[];
	/** What is left: pending todos, a failing last check, a question left to the user, an unfinished request. */
	open: string[];
	/** Choices stated as choices, with their reason when given. */
	decisions: string[];
	/** Tasks (typed requests), not slash commands. */
	prompts: number;
	toolCalls: number;
	filesTouched: string[];
	filesRead: string[];
	commands: string[];
	errors: string[];
	/** Names of the tools used, first use first. */
	tools: string[];
	subagents: { description: string; type?: string; agentId?: string }[];
	/** `costUsd` when the agent says what the session cost (Aider). */
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; costUsd?: number };
	/** Tokens by local day and model, its sub-agents' included (the charts and the cost estimate read these). */
	usage: UsageDay[];
}

/**
 * What the sync state keeps of a digest: what the context, the packet and the index notes read.
 * A note is rendered from the whole digest, made again from the session's model when needed; the
 * parts only a note shows (each task's results, files and checks, the commands, errors and files
 * read) were two thirds of the state's bytes, read and written by every sync.
 */
export type StoredDigest = Omit<SessionDigest, "tasks" | "commands" | "errors" | "filesRead"> & { tasks: Pick<TaskSummary, "ask" | "calls" | "result">[] };

/**
 * The stored form of a digest: each task keeps its request, its size and its first result. Made
 * when the state is saved: during a sync a record shares the whole digest its note is made from.
 */
export function storedDigest(d: StoredDigest | SessionDigest): StoredDigest {
	const { tasks, commands: _commands, errors: _errors, filesRead: _filesRead, ...rest } = d as SessionDigest;
	return { ...rest, tasks: tasks.map((t) => ({ ...(t.ask === undefined ? {} : { ask: t.ask }), calls: t.calls, result: t.result.slice(0, 1) })) };
}

const ITEM_MAX = 160;

/** A done item that tells a commit or a pull request: the record itself, never left out as said before. */
const COMMIT_OR_PR = /^(?:commit|PR)\b/;

/**
 * The digest of a session, structure first: tasks from the typed requests; done from commits,
 * pull requests and the todo list's completed items, then the result statements of replies;
 * open from the todo list's pending items, a failing last check and a closing question. Prose
 * is used only where structure says nothing, and never narration.
 * @param agents the session's sub-agent models: their written and edited files count as its work.
 */
export function digestSession(model: SessionModel, summaryTitle?: string, agents: readonly SessionModel[] = []): SessionDigest {
	const statements = new Statements();
	const tasks = sessionTasks(model);
	const calls = toolCallsOf(model, true);
	// The todo lists are the session's own: a sub-agent's list is not one the session replaced.
	const ownCalls = toolCallsOf(model);
	const todos = finalTodos(ownCalls);
	// Every call belongs to a task: the session's commits and last check are its tasks'.
	// A last task the transcript ends inside (on a tool call) was stopped there too, as one another task followed.
	const cutOff = cutOffStep(model) !== undefined;
	const refused = refusedCalls(calls, model.cwd);
	const summaries = tasks.map((t, i) => summarizeTask(t, statements, i < tasks.length - 1 || cutOff, refused.files));
	const commits = lastingCommits(summaries.flatMap((s) => s.commits));
	const lastCheck = summaries.filter((s) => s.check !== undefined).at(-1)?.check;
	const typed = promptsOf(model).filter((p) => p.kind === "prompt").map((p) => p.text);
	const plan = planTitle(calls) ?? (typed[0] === undefined ? undefined : planHeading(typed[0]));

	// Done, best evidence first: commits (newest first, as `git log` tells them: a short entry shows
	// where the work got to) and pull requests, the last check when it passed, what the last task's
	// reply established, the todo list's completed outcomes, the other tasks' results (changes before answers, each the most
	// work first, as the Asked line ranks their requests: where room runs out, a quick answer gives way, not the task the entry names).
	const done: string[] = [];
	for (const c of [...commits].reverse()) done.push(`commit${c.hash ? ` ${c.hash.slice(0, 7)}` : ""}: ${cutAtBoundary(c.subject, ITEM_MAX)}`);
	const prs = pullRequestsOf(calls, model.prLinks);
	for (const pr of prs) {
		// A pull request named after the commit it holds is told by its link: the title is already in the list.
		const title = pr.title && !commits.some((c) => c.subject === pr.title) ? pr.title : undefined;
		done.push(`PR ${title ? `"${cutAtBoundary(title, ITEM_MAX)}"` : ""}${pr.url ? `${title ? " " : ""}${pr.url}` : ""}`.trim());
	}
	const checkAt = done.length;
	// What a task said of a file a later task removed no longer holds: the work was undone (the task that removed it tells so).
	const removed = removedLater(tasks.map((t) => t.calls));
	const holding = summaries.map((s, i) => stillHolding(s.result, s.files, removed[i] ?? []));
	const said = summaries.map((s, i) => (s.commits.length > 0 ? [] : s.files.length > 0 ? resultsOf(holding[i] ?? []) : answerOf(holding[i] ?? [])));
	// The last task that said or committed something: a last request cut off before any reply leaves the one before as the latest word.
	let latest = said.length - 1;
	while (latest > 0 && (said[latest]?.length ?? 0) === 0 && (summaries[latest]?.commits.length ?? 0) === 0) latest--;
	for (const r of said[latest] ?? []) done.push(cutAtBoundary(r, ITEM_MAX));
	// The todo list's steps: in a session that committed, the commits tell the same work (and `git show` its steps), so
	// the steps come last, after what the replies established that git does not keep ("All 40 tests pass with full coverage").
	const steps = alike(todos.filter((t) => t.status === "completed" && !INVESTIGATION.test(t.content)).map((t) => t.content)).map((t) => cutAtBoundary(t, ITEM_MAX));
	if (commits.length === 0) done.push(...steps);
	// The other tasks' results, those that changed files first: what the session changed is what the next one builds on, and
	// an answer given on the way ("Looks like the command got split across two lines") is told where room is left.
	const others = [...said.keys()].filter((i) => i !== latest).sort((a, b) => summaries[b]!.calls - summaries[a]!.calls || a - b);
	const changed = (i: number) => (summaries[i]?.files.length ?? 0) > 0;
	for (const i of [...others.filter(changed), ...others.filter((i) => !changed(i))]) for (const r of (said[i] ?? []).slice(0, 1)) done.push(cutAtBoundary(r, ITEM_MAX));
	// A task that committed is told by its commits; what its reply adds comes last, where room is left.
	for (const [i, s] of summaries.entries()) if (s.commits.length > 0) for (const r of resultsOf(holding[i] ?? []).slice(0, 1)) done.push(cutAtBoundary(r, ITEM_MAX));
	if (commits.length > 0) done.push(...steps);
	// A branch pushed is where the next session finds the work, told where room is left (the commits tell the work) and
	// once: not after a reply that says so in its own words, nor with a pull request, which says it was pushed.
	if (prs.length === 0 && !done.some((d) => !COMMIT_OR_PR.test(d) && /\bpush(?:ed|es)?\b/i.test(d))) for (const p of pushesOf(calls)) done.push(`pushed ${codeSpan(p.branch)}${p.remote ? ` to ${p.remote}` : ""}`);
	// The steps a todo list that a new one replaced had completed: the final list no longer holds them, and often no reply tells that work.
	for (const t of alike(replacedTodos(ownCalls).filter((t) => !INVESTIGATION.test(t)))) done.push(cutAtBoundary(t, ITEM_MAX));
	// The last check that passed, in its place, unless a result tells the same check passing in the reply's own words
	// ("All 31 tests passed" after `mix test`): those say more, and the check told twice takes a result's room.
	if (lastCheck?.passed && !done.slice(checkAt).some((d) => tellsCheck(d, lastCheck.command))) done.splice(checkAt, 0, `\`${oneLine(lastCheck.command, 60)}\` passes`);

	const open: string[] = [];
	for (const t of alike(todos.filter((t) => t.status !== "completed").map((t) => t.content))) open.push(cutAtBoundary(t, ITEM_MAX));
	if (lastCheck && !lastCheck.passed) open.push(`\`${oneLine(lastCheck.command, 60)}\` failed on its last run`);
	// A check of another kind left failing earlier, while other work went on, is as open as a last one.
	for (const c of failingEarlier(checksOf(tasks.flatMap((t) => t.calls)), lastCheck)) open.push(`\`${oneLine(c.command, 60)}\` failed on its last run`);
	const last = tasks[tasks.length - 1];
	const question = last ? closingQuestion(last, statements) : undefined;
	if (question) open.push(`asked: ${withItsRequest(question, last?.ask)}`);
	// What the last word proposes, nobody answering it, was neither done nor decided (a proposal holds only once answered).
	const unanswered = lastWord(model);
	if (unanswered) for (const p of proposalsIn(unanswered, statements.unitsOf(unanswered))) open.push(`proposed, not answered: ${cutAtBoundary(p, ITEM_MAX)}`);
	// A last request with no reply, or whose replies say nothing but narration, was cut off; by the user, when they stopped the agent last.
	const stopped = stoppedByUser(model);
	if (last?.ask && last.texts.length === 0 && last.calls.length === 0) open.push(`${stopped ? "interrupted by the user" : "unanswered"}: ${last.ask}`);
	else if (last?.ask && !question && finalReply(last, statements) === undefined && !answeredInBlocks(last)) open.push(`${stopped ? "interrupted by the user" : "unfinished"}: ${last.ask}`);
	// A transcript that ends on a tool call ended in the middle of the work: the step it was on (when the request is not already told unfinished).
	const step = cutOffStep(model);
	const told = open.some((o) => /^(?:unfinished|unanswered|interrupted by the user): /.test(o));
	if (step && !told) open.push(`${stopped ? "interrupted by the user" : "cut off"} during: ${step}`);
	else if (stopped && !told && last?.ask) open.push(`interrupted by the user: ${last.ask}`);
	if (last) open.push(...deferred(last, statements));
	// A step an earlier reply left on the user's side is theirs: the agent's later work does not do it. It stays open unless a later request takes it up.
	const stillTheirs = leftToUser(tasks.map((n) => n.ask));
	for (const [i, t] of tasks.slice(0, -1).entries()) for (const step of deferred(t, statements)) if (stillTheirs(step, i)) open.push(step);
	open.push(...refused.open);
	const uncommitted = uncommittedFiles(withOwnGit(model), model.cwd, offeredCommit(tasks, statements));
	if (uncommitted) open.push(uncommitted);

	const agentFiles = agents.flatMap((a) => [...a.files.written, ...a.files.edited]);
	const written = unique([...model.files.written, ...model.files.edited, ...agentFiles]);
	// A file the session removed for good is not what it leaves touched, nor a moved one by its old name: the next session would look for it in vain.
	const touched = touchedAtEnd(calls, written, model.cwd);
	// What is told left open is not also done (a "next steps" item that reads like a result).
	// Nor is a result that names a file the client refused to write ("Created CLAUDE.md").
	// Nor is what an item before it already says (the todo "Update the parser" after "The parser now …").
	// The commits and pull requests themselves stay, not a reply's line that starts like one ("PR created: <the same link>").
	const records = new Set(done.slice(0, checkAt));
	const record = (d: string) => records.has(d);
	const openItems = new Set(open);
	const words = sameWords();
	const results = withoutRestated(unique(done).filter((d) => !openItems.has(d) && (COMMIT_OR_PR.test(d) || !refused.files.some((f) => namesFile(d, f)))), record, words);
	// Nor is what Open or Decided tells in other words, nor a choice a result tells (see `toldOnce`): the capped packet has room for it once.
	const notOpen = toldOnce(results, unique(open), record, () => true, words).done;
	const decisions = decisionsIn(model, calls, typed, tasks, statements, recordBodies(commits, prs));
	const once = toldOnce(notOpen, decisions.told, record, (d) => decisions.firm.has(d), words);
	return {
		version: DIGEST_VERSION,
		sessionId: model.fileId,
		agent: agentOf(model),
		// A bare command (`/init`) titles a session only when nothing was typed besides.
		title: sessionTitle(model, summaryTitle, plan, (tasks.find((t) => t.ask && !/^\/\S+$/.test(t.ask)) ?? tasks.find((t) => t.ask))?.ask),
		projectPath: model.cwd,
		branch: model.gitBranch,
		startedAt: model.startedAt,
		endedAt: model.endedAt,
		activeMinutes: activeMinutes(model),
		models: model.models,
		// A task's result is the facade's last checkpoint and the note's outcome: the same claims are left out.
		tasks: refused.files.length === 0 ? summaries : summaries.map((s) => ({ ...s, result: s.result.filter((r) => !refused.files.some((f) => namesFile(r, f))) })),
		asked: unique(tasks.flatMap((t) => (t.ask ? [t.ask] : []))),
		done: once.done,
		open: unique(open),
		decisions: once.other.slice(0, 5),
		prompts: tasks.filter((t) => t.ask !== undefined).length,
		toolCalls: model.counts.toolCalls,
		filesTouched: touched,
		filesRead: model.files.read,
		commands: unique(shellCommandsOf(model).map((c) => oneLine(String(c.input.command)))),
		errors: errorsOf(model).map((e) => shorten(e.tool ? `${e.tool}: ${stripClientBoilerplate(e.text)}` : e.text, 160)),
		tools: unique(calls.map((c) => c.name)),
		subagents: subagentCallsOf(model).map(describeSubagent),
		tokens: { input: model.tokens.input, output: model.tokens.output, cacheRead: model.tokens.cacheRead, cacheWrite: model.tokens.cacheCreation, ...(model.tokens.costUsd === undefined ? {} : { costUsd: model.tokens.costUsd }) },
		usage: usageDays(model, agents),
	};
}

/**
 * The session's choices: the user's own (answers to the agent's questions, what they said when
 * refusing a step, options they picked by name or place, ways they put forward that the agent
 * agreed with, choices typed in prompts) and the agent's (the decision records it wrote, then
 * choices stated in commit and pull request bodies and replies), taking turns, the user's first
 * (see `takingTurns`). `firm`, the user's answers and picks and the records, stay even when a result tells them too.
 */
/** Choices stated in prompts, records and replies read for the decisions (five are told). */
const STATED_CHOICES_MAX = 40;

function decisionsIn(model: SessionModel, calls: readonly ToolCall[], typed: readonly string[], tasks: readonly SessionTask[], statements: Statements, records: readonly string[]): { told: string[]; firm: Set<string> } {
	const picked = pickedOptions(model.events);
	const pickers = new Set(picked.map((p) => p.prompt));
	const theirs = [...userAnswers(calls), ...refusalWords(calls).map(asChoice), ...[...picked, ...agreedProposals(model.events)].map((p) => p.choice)].map((a) => cutAtBoundary(a, ITEM_MAX));
	const sources = { prompts: typed.filter((p) => !pickers.has(p)), records, replies: tasks.flatMap((t) => t.texts) };
	// Many stated, not the first few: the user's, told first, would leave the agent's out before their turn. Not all: a
	// reply of thousands of choices (a generated list, a hostile transcript) is compared pair by pair below.
	const stated = decisionsOf(sources, STATED_CHOICES_MAX, heldReplies(model.events), (text) => statements.unitsOf(text));
	const written = decisionRecords(calls);
	// A prompt's choice is told marked as the user's (`asChoice`).
	const typedChoice = (d: string) => d.startsWith("user chose: ");
	const firm = new Set([...theirs, ...written]);
	// A choice told only by its means ("Messages use an upsert for idempotent re-sync") takes no turn: it comes after the rest.
	const agents = stated.filter((d) => !typedChoice(d));
	const told = unique([...takingTurns([...theirs, ...stated.filter(typedChoice)], [...written, ...agents.filter((d) => !byMeansOnly(d))]), ...agents.filter(byMeansOnly)]);
	// The agent's wording of a choice the user made is told on the user's line (see `joinedChoices`), which stays firm.
	// Nor is a choice of the agent's told twice, in two replies (see `saidOnce`); the user's own words stay.
	const joined = joinedChoices(saidOnce(told, (d) => firm.has(d) || typedChoice(d)), typedChoice, (d) => firm.has(d));
	const toldBefore = new Set(told);
	for (const d of joined) if (!toldBefore.has(d)) firm.add(d);
	return { told: joined, firm };
}

/**
 * Two lists merged an item of each at a time, the first's first. The digest tells five choices and
 * the entry fewer: a session of many picks from the agent's menus ("Scope: all four") filled them
 * all, and the agent's own choice with its reason ("Kept the cache, since …"), the one a next
 * session would undo unaware, went untold; each kind gets its turn instead.
 */
function takingTurns<T>(first: readonly T[], second: readonly T[]): T[] {
	const out: T[] = [];
	for (let i = 0; i < Math.max(first.length, second.length); i++) out.push(...first.slice(i, i + 1), ...second.slice(i, i + 1));
	return out;
}

/**
 * Runs of three or more todo items that differ in their middle only ("Port string_utils module",
 * "Port math_utils module", …) as one item naming each: one step repeated per part would fill
 * the list and leave the steps after it out.
 */
export function alike(items: readonly string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < items.length; ) {
		const words = (items[i] ?? "").split(" ");
		const middles = [words.slice(1, -1).join(" ")];
		let j = i + 1;
		if (words.length >= 3 && words.length <= 6) {
			for (; j < items.length; j++) {
				const other = (items[j] ?? "").split(" ");
				if (other.length !== words.length || other[0] !== words[0] || other[other.length - 1] !== words[words.length - 1]) break;
				middles.push(other.slice(1, -1).join(" "));
			}
		}
		if (j - i >= 3) out.push(`${words[0]} ${middles.slice(0, -1).join(", ")} and ${middles[middles.length - 1]} ${words[words.length - 1]}`);
		else out.push(...items.slice(i, j));
		i = j;
	}
	return out;
}

/** Kinds of check: the words of a command that runs one, and those a sentence names it by. */
const CHECK_KINDS: readonly (readonly [command: RegExp, named: RegExp])[] = [
	[/test|spec|jest|mocha/i, /\b(?:tests?|specs?)\b/i],
	[/lint|ruff|clippy|flake8|credo/i, /\b(?:lint\w*|ruff|clippy)\b/i],
	[/build|compile/i, /\b(?:build|compil\w*)\b/i],
	[/\b(?:tsc|mypy|pyright|type-?check|ty)\b/i, /\b(?:types?|type ?check\w*|tsc)\b/i],
];
/** Words that say a check came out clean: "pass", "succeeded", "green", "no type errors". */
const CLEAN = /\b(?:pass|passes|passed|passing|succeeds|succeeded|green|clean)\b|\bno\b[^.;]{0,20}\b(?:errors|issues|warnings|failures)\b/i;

/** The kind of check a command runs (see `CHECK_KINDS`); the command itself when of none of them. */
function checkKind(command: string): string {
	const kind = CHECK_KINDS.findIndex(([ran]) => ran.test(command));
	return kind >= 0 ? `kind ${kind}` : command;
}

/**
 * The checks whose kind last ran failing ("`npm test` failed", then only the linter ran, and passed), the kind of
 * the session's last check aside (told already): a run of the same kind that passed later ("npx vitest run") closes one.
 */
function failingEarlier(checks: readonly Check[], last: Check | undefined): Check[] {
	const latest = new Map<string, Check>();
	for (const c of checks) latest.set(checkKind(c.command), c);
	if (last) latest.delete(checkKind(last.command));
	return [...latest.values()].filter((c) => !c.passed);
}

/** Whether a result tells that a check of the same kind as the command came out clean ("No type errors in the changed files" of `tsc`). */
function tellsCheck(result: string, command: string): boolean {
	return CLEAN.test(result) && CHECK_KINDS.some(([ran, named]) => ran.test(command) && named.test(result));
}

/** What a check runs: tests, lint, the formatter, a type check, the build. */
const CHECK_RUN = String.raw`(?:(?:the|all|full|unit|integration|e2e|browser)\s+)*(?:tests?|test suite|suite|specs?|lint|linters?|fmt|format|formatter|type-?checks?|checks?|build|clippy|coverage)`;
/**
 * Todo items that only look (examine, check, read…), or run something to check ("Run browser tests to verify fixes",
 * "Run fmt, lint, and tests"): steps, not outcomes. "Run tests and ensure full coverage" done says the coverage is full.
 */
const INVESTIGATION = new RegExp(
	String.raw`^(?:examine|explore|check|analy[sz]e|investigate|discover|look|read|review|understand|research|identify|find|search|inspect|study|survey|scan|locate|gather|determine|assess|audit|evaluate|map|trace|debug|diagnose|verify|confirm|test)\b|^(?:re-?)?run\b[^.;]{0,60}\bto (?:verify|check|confirm|validate|make sure)\b|^(?:re-?)?run\s+${CHECK_RUN}(?:(?:\s*,\s*|\s+)(?:(?:and|&)\s+)?${CHECK_RUN})*\s*$`,
	"i",
);

/** Words that report a change or a result ("added", "now", "passes", "추가했", "追加しました", "已添加"). */
const RESULT = /\b(?:added|adds|created|creates|fixed|fixes|implemented|updated|removed|renamed|moved|refactored|rewrote|rewritten|replaced|converted|configured|installed|committed|pushed|merged|changed|switched|extracted|introduced|wrote|written|built|migrated|deleted|cleaned|resolved|enabled|disabled|now|passes|pass|passing|succeeds|works|working|complete|completed|done|ready|supports)\b|했습니다|했어요|되었습니다|됐습니다|완료|しました|されました|完了|已|完成/i;

/** The statements of a task's reply that say what its changes came to: those that report a result (two at most), else the first. An answer (no file changed) is said by its first statements. */
function resultsOf(statements: readonly string[]): string[] {
	const results = statements.filter((s) => RESULT.test(s)).slice(0, 2);
	return results.length > 0 ? results : statements.slice(0, 1);
}

/**
 * What an answer (a task that changed no file) says, by its first two statements; the second not
 * when it leans on the first ("It enables …", "That's a gap in the server", "In that context, …"):
 * without the sentence before, it tells nothing, and with it, only more of the same point.
 */
function answerOf(statements: readonly string[]): string[] {
	const [lead, next] = statements;
	if (lead === undefined) return [];
	return next === undefined || LEANS_BACK.test(next) ? [lead] : [lead, next];
}

/** A statement whose subject is the one before it: a bare pronoun ("It…", "They…", "That's…", "This means…"), or "In that case". */
const LEANS_BACK = /^(?:it|they)\b|^(?:this|that|these|those)(?:['’]s\b|\s+(?:is|was|are|were|means|meant|makes|made|has|had|does|did|shows|gives|lets|keeps|happens|explains|leaves)\b)|^in (?:that|this) (?:case|context|sense|way)\b/i;

/** Prose units and statements of each reply, worked out once per digest (several readers ask for the same reply). */
class Statements {
	private readonly units = new Map<string, ProseUnit[]>();
	private readonly statements = new Map<string, ProseUnit[]>();
	unitsOf(text: string): ProseUnit[] {
		let found = this.units.get(text);
		if (!found) {
			found = proseUnits(text);
			this.units.set(text, found);
		}
		return found;
	}
	of(text: string): ProseUnit[] {
		let found = this.statements.get(text);
		if (!found) {
			found = statementsOf(text, this.unitsOf(text));
			this.statements.set(text, found);
		}
		return found;
	}
	/** Each unit as judged, once: `first` is asked for the same replies again, with other counts. */
	private readonly judged = new Map<ProseUnit, ProseUnit[]>();
	/** The first `n` statements only: most readers need no more, and judging a unit costs. */
	first(text: string, n: number): ProseUnit[] {
		const all = this.statements.get(text);
		if (all) return all.slice(0, n);
		const found: ProseUnit[] = [];
		for (const unit of this.unitsOf(text)) {
			if (found.length >= n) break;
			let statements = this.judged.get(unit);
			if (!statements) {
				statements = statementsOf(text, [unit]);
				this.judged.set(unit, statements);
			}
			found.push(...statements);
		}
		return found;
	}
}

/** The last reply of a task that states something (a reply that is only a pasted block or narration is passed over). */
function finalReply(task: SessionTask, statements: Statements): string | undefined {
	for (let i = task.texts.length - 1; i >= 0; i--) {
		const text = task.texts[i] ?? "";
		if (statements.first(text, 1).length > 0) return text;
	}
	return undefined;
}

/**
 * Whether a task's last word, after all its steps, answers in blocks alone: a fenced block or a
 * table under bold labels ("**2. Session file:**" and the path in a block) says no sentence, and
 * is still an answer, not work cut off.
 */
function answeredInBlocks(task: SessionTask): boolean {
	const text = task.texts.at(-1);
	return text !== undefined && (task.textAt.at(-1) ?? 0) >= task.calls.length && /^[ \t]*(?:```|~~~|\|.*\|[ \t]*$)/m.test(text);
}

/**
 * The reply that tells a task's result: its final one, or, when that is a short note after the
 * summary (a background job reporting in, a last look at the output), the long reply written
 * after the task's last change, then the note.
 */
function resultReplies(task: SessionTask, statements: Statements): string[] {
	const final = finalReply(task, statements) ?? "";
	if (final.length >= 300) return [final];
	let lastChange = -1;
	task.calls.forEach((c, i) => {
		if (/^(?:Write|Edit|MultiEdit|NotebookEdit|Bash)$/.test(c.name)) lastChange = i;
	});
	for (let i = task.texts.length - 1; i >= 0; i--) {
		const text = task.texts[i] ?? "";
		if ((task.textAt[i] ?? 0) <= lastChange) break;
		if (text !== final && text.length >= 600 && text.length >= 3 * final.length && statements.first(text, 1).length > 0) return [text, final];
	}
	return [final];
}

/** Calls that only keep the todo list: one after the last reply is no work left unsaid. */
const BOOKKEEPING = new Set(["TodoWrite", "TaskCreate", "TaskUpdate"]);

/**
 * @param followed whether another task came after: one whose work went on past its last reply was
 * stopped there (the user stepped in), and what it said was said between steps ("The script isn't
 * in that folder"): only what reports a change stands as its result. A last task cut off is told
 * open, and its latest words are where the work got to.
 * @param unwritten names of the session's files whose write the client refused or that failed: no result claims them, by name or as "the file".
 */
function summarizeTask(task: SessionTask, statements: Statements, followed: boolean, unwritten: readonly string[]): TaskSummary {
	const stopped = followed && task.calls.slice(task.textAt.at(-1) ?? 0).some((c) => !BOOKKEEPING.has(c.name));
	const files: string[] = [];
	for (const call of task.calls) {
		const path = call.input.file_path ?? call.input.notebook_path;
		if (typeof path === "string" && /^(?:Write|Edit|MultiEdit|NotebookEdit)$/.test(call.name) && call.result?.isError !== true && !files.includes(path)) files.push(path);
	}
	// Claims by name are left out where the digest is put together, with those of the todo list.
	const said = (replies: readonly string[]) => replies.flatMap((reply) => statements.first(beforeOptions(reply, statements), 8).filter((u) => !claimsByReference(u.text, reply, unwritten, files)));
	const told = said(resultReplies(task, statements));
	// A final reply that only claims files never written tells nothing true: the reply before it, what the task found, does.
	const result = (told.some((u) => !unwritten.some((f) => namesFile(u.text, f))) || unwritten.length === 0 ? told : said(task.texts.slice(-2, -1)))
		.map(asDocumentWritten)
		.filter(onceEach())
		// A result slot is for results: not a hollow claim, a step left to the user, an option laid out, or what is still to do (open tells that).
		.filter((u) => !isHollow(u.text, task.ask) && !isNotResult(u.text) && !aheadOfWork(u) && !notOwnWork(u) && leftOpen(u) === undefined && (!stopped || RESULT.test(u.text)))
		.slice(0, 6)
		.map((u) => cutAtBoundary(asResult(u.text), 240));
	const checks = checksOf(task.calls);
	return { ask: task.ask, calls: task.calls.length, result, files, commits: commitsOf(task.calls), check: checks[checks.length - 1] };
}

/**
 * A list's intro, its last sentence, that lays out what is to come ("Here's the plan:", "What I'll do:", "First, let's
 * set it up:", "I'm going to:"); not one that looks back ("Let's recap what changed:", "To sum up the plan we followed:").
 */
const PLAN_INTRO =
	/(?:^|[.!?]\s+)(?:(?:so|ok|okay|first|next|then|now),?\s+)?(?:here(?:['’]s| is) (?:the|my|our) plan|(?:the |my |our )?plan(?: is)?|what (?:i|we)(?:['’]ll| will) do|(?:i|we)(?:['’]ll| will|['’]m going to| am going to|['’]re going to| are going to)\b(?! (?:note|summari[sz]e|recap|list what))[^.!?]*|let['’]s (?!recap|review|summari[sz]e|sum up|go over|look back)[^.!?]*)\s*[:：]\s*$/i;

/**
 * An item of a list laid out as a plan: a step ahead of the work, not a result of it (the reply may come before any
 * of it). One that reports a change ("Added the poller") tells a plan carried out ("I've implemented the plan:").
 */
function aheadOfWork(unit: ProseUnit): boolean {
	return unit.kind === "item" && PLAN_INTRO.test(unit.section) && !RESULT.test(unit.text);
}

/**
 * A list's intro that names the reader's own proposal or plan ("**Your proposal:**", "What you suggested:"): its items say
 * back what the person put forward, for the reply to weigh, not what the agent did.
 */
const READERS_OWN =
	/^(?:(?:your|the user['’]s)(?: (?:current|original|proposed|new))? (?:proposal|plan|idea|suggestion|approach|design|request|question|requirements)\b[^.!?]{0,40}|what you (?:proposed|suggested|asked for|described|want)|you (?:proposed|suggested|asked for))\s*[:：]?\s*$/i;

/** The person's proposal told as carried out ("Your plan, implemented:"): its items are the work. */
const CARRIED = /\b(?:implemented|applied|carried out|done|in place|built|added|made|finished|completed)\b/i;

/** A list's intro that says what a document holds ("…a markdown document at `x.md` that documents:", "The guide covers:"). */
const HOLDS = /\b(?:documents|covers|describes|contains|includes|outlines|explains|lists|has sections? (?:on|for))\s*[:：]\s*$/i;
const DOCUMENT = /\b(?:document|doc|docs|guide|readme|report|spec|specification|write-?up|runbook|notes)\b|\.(?:md|txt|rst|adoc)\b/i;

/** The clause of a list's intro that hands over to the document's sections ("…, which covers:", "that documents:"). */
// Blanks bounded: the clause is tried at every place of the intro, and an unbounded run from each place is quadratic.
const HOLDS_CLAUSE = /,?\s{1,8}(?:that|which|it)\s{1,8}(?:now\s{1,8})?(?:documents|covers|describes|contains|includes|outlines|explains|lists)\s{0,8}[:：]\s*$/i;

/**
 * An item of the list a document's sections are told in, as the writing of the document its intro reports ("I've created a
 * guide at `docs/fan.md` that covers:" → "I've created a guide at `docs/fan.md`"): the result the sections stood for. Any
 * other unit as it is.
 */
function asDocumentWritten(unit: ProseUnit): ProseUnit {
	if (unit.kind !== "item" || !HOLDS.test(unit.section) || !DOCUMENT.test(unit.section)) return unit;
	const intro = (unit.sectionAsWritten ?? "").split(/(?<=[.!?])\s+/).at(-1) ?? "";
	const written = intro.replace(HOLDS_CLAUSE, "");
	return written !== intro && RESULT.test(written) ? { text: written, kind: "sentence", section: "" } : unit;
}

/** A filter that keeps the first unit of each text: a list told by its intro once, not once per item. */
function onceEach(): (unit: ProseUnit) => boolean {
	const seen = new Set<string>();
	return (unit) => {
		if (seen.has(unit.text)) return false;
		seen.add(unit.text);
		return true;
	};
}

/**
 * An item that is not the agent's own work, for all it may read as a result: one that says back the person's proposal, or
 * names a part of a document the reply lists as written ("Root Cause: why the files stay" under "…a document that
 * documents:"): writing the document is the result, and its sections are what it holds, not more work done.
 */
function notOwnWork(unit: ProseUnit): boolean {
	if (unit.kind !== "item") return false;
	return (READERS_OWN.test(unit.section) && !CARRIED.test(unit.section)) || (HOLDS.test(unit.section) && DOCUMENT.test(unit.section));
}

/** A line that lays out an option: "**Option A: Minimal**", "### Approach 2 —", "- Alternative (b):". */
const LAID_OUT = new RegExp(`^${LINE_MARKUP}${OPTION_LABEL}`, "gim");

/**
 * A reply that lays out options and asks the user to pick one, up to its first option: what it
 * says from there describes the options ("Removed the alarming words" of a proposed message),
 * not what was done. Any other reply whole.
 */
function beforeOptions(reply: string, statements: Statements): string {
	const options = [...reply.matchAll(LAID_OUT)];
	if (options.length < 2) return reply;
	const last = statements.unitsOf(reply).at(-1)?.text ?? "";
	return isQuestion(last) && ADDRESSED.test(last) ? reply.slice(0, options[0]?.index ?? 0) : reply;
}

/** Not a step of the session's own conversation: thinking, a compaction, a sub-agent's part. */
function inBackground(event: SessionEvent): boolean {
	return event.kind === "thinking" || event.kind === "compaction" || ("sidechain" in event && event.sidechain !== undefined);
}

/** The user stopped the agent, and nothing of the session came after (no prompt, reply or step). */
function stoppedByUser(model: SessionModel): boolean {
	if (model.interruptedAt === undefined) return false;
	for (let i = model.interruptedAt; i < model.events.length; i++) {
		const event = model.events[i];
		if (!event || inBackground(event)) continue;
		return false;
	}
	return true;
}

/** The session's last word when it is a reply: nothing came after it, no step, no answer. */
function lastWord(model: SessionModel): string | undefined {
	for (let i = model.events.length - 1; i >= 0; i--) {
		const event = model.events[i];
		if (!event || inBackground(event)) continue;
		return event.kind === "text" ? event.text : undefined;
	}
	return undefined;
}

/**
 * The step a transcript stopped on when its last event is a tool call (no reply after it): the
 * client was closed, or the copy was taken, in the middle of the work. Said by the call's own
 * description when it has one ("Push changes to remote"), else by its command or file.
 */
function cutOffStep(model: SessionModel): string | undefined {
	for (let i = model.events.length - 1; i >= 0; i--) {
		const event = model.events[i];
		if (!event || inBackground(event)) continue;
		if (event.kind !== "tool") return undefined;
		const input = event.call.input;
		const described = typeof input.description === "string" ? input.description : undefined;
		const command = typeof input.command === "string" ? `\`${oneLine(input.command, 60)}\`` : undefined;
		const path = typeof input.file_path === "string" ? `${event.call.name} \`${input.file_path.split("/").pop() ?? ""}\`` : undefined;
		return cutAtBoundary(oneLine(described ?? command ?? path ?? event.call.name, 100), 100);
	}
	return undefined;
}

/** A question the assistant leaves to the user at the very end ("Should I proceed with …?"). */
function closingQuestion(task: SessionTask, statements: Statements): string | undefined {
	const reply = task.texts[task.texts.length - 1];
	if (!reply) return undefined;
	const units = statements.unitsOf(reply);
	const lastUnit = units[units.length - 1];
	if (!lastUnit || !isQuestion(lastUnit.text)) return undefined;
	// "Or leave it as-is?" is the last of the alternatives asked: they come with it, from the first,
	// and are put to the user by any of them or by their intro ("Should I:").
	let first = units.length - 1;
	while (first > 0 && /^or\b/i.test(units[first]?.text ?? "") && isQuestion(units[first - 1]?.text ?? "")) first--;
	const asked = units.slice(first).map((u) => u.text).join(" ");
	if (!ADDRESSED.test(asked) && !(first < units.length - 1 && ADDRESSED.test(units[first]?.section ?? ""))) return undefined;
	return cutAtBoundary(asked, ITEM_MAX);
}

/**
 * The session's calls with the git commands the person ran themselves (Claude Code's `!git commit
 * -am …`), in their order: a change they committed, stashed or reset is not left uncommitted (an
 * agent that offered to commit was often answered so). Their output is not kept: such a command
 * counts as run, with no words of git's.
 */
function withOwnGit(model: SessionModel): ToolCall[] {
	const calls: ToolCall[] = [];
	for (const event of model.events) {
		if (event.kind === "tool") calls.push(event.call);
		else if (event.kind === "prompt" && event.promptKind === "shell" && /\bgit\b/.test(event.text)) calls.push({ id: "", name: "Bash", input: { command: event.text.replace(/^!\s*/, "") }, result: { text: "", isError: false } });
	}
	return calls;
}

/** Whether a reply asks the user whether to commit ("Would you like me to commit these changes?"). */
function offeredCommit(tasks: readonly SessionTask[], statements: Statements): boolean {
	return tasks.some((t) => t.texts.some((text) => /\bcommit\b/i.test(text) && statements.unitsOf(text).some((u) => isQuestion(u.text) && ADDRESSED.test(u.text) && /\bcommit\b/i.test(u.text))));
}

/** A question put to the user: about what they want, or whether to go on. */
const ADDRESSED = /\b(?:you|your|should i|shall i|do you|would you|want me|can i|may i)\b|(?:할까요|하시겠어요|원하시나요|드릴까요|까요)\s*[?？]|(?:ますか|ましょうか|でしょうか)\s*[?？]|(?:吗|呢|要不要|是否)\s*[?？]/i;

/** Items the final reply lists as left to do ("Next steps:", "Remaining:", "Not yet …"). */
function deferred(task: SessionTask, statements: Statements): string[] {
	const reply = finalReply(task, statements);
	if (!reply) return [];
	const out: string[] = [];
	for (const unit of statements.of(reply)) {
		if (out.length >= 2) break;
		// Steps under "If you agree, the follow-up I'd run:" wait on a yes that may not come: the offer, not work left.
		if (ON_CONDITION.test(unit.section)) continue;
		const left = leftOpen(unit);
		if (left !== undefined) out.push(cutAtBoundary(left, ITEM_MAX));
	}
	return out;
}

function describeSubagent(call: ToolCall): { description: string; type?: string; agentId?: string } {
	const description = typeof call.input.description === "string" ? call.input.description : call.name;
	const type = typeof call.input.subagent_type === "string" ? call.input.subagent_type : undefined;
	return { description, type, agentId: call.agentId };
}

function unique(values: string[]): string[] {
	return [...new Set(values)];
}
