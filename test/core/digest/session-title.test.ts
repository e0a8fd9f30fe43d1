import { beforeEach, describe, expect, it } from "vitest";
import { digestSession } from "../../../src/core/digest/session-digest";
import { titleCut } from "../../../src/core/digest/session-title";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, text, toolResult, toolUse, userBlocks, userText } from "../../fixtures/lines";

const at = (minute: number) => ({ timestamp: new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString() });

/** The title the digest gives a session made of these records. */
function titleOf(records: unknown[]): string {
	return digestSession(parseTranscript(Buffer.from(jsonl(records)), SESSION)).title;
}

function committing(subject: string, minute: number): unknown[] {
	const id = `c${minute}`;
	return [
		assistant(toolUse(id, "Bash", { command: `git commit -m "${subject}"` }), { ...at(minute), messageId: `m${minute}` }),
		toolResult(id, `[main 1a2b3c${minute}] ${subject}\n 1 file changed`, at(minute)),
	];
}

describe("sessionTitle", () => {
	beforeEach(() => resetIds());

	it("reads a title written as a slug as words; any other title as it is", () => {
		expect(titleOf([userText("add a shortcut", at(0)), { type: "custom-title", customTitle: "add-teams-keybinding", sessionId: SESSION }])).toBe("Add teams keybinding");
		expect(titleOf([userText("add a shortcut", at(0)), { type: "custom-title", customTitle: "Keys for Teams", sessionId: SESSION }])).toBe("Keys for Teams");
	});

	it("names a session opened with a pasted terminal by the error in it, never by the terminal's banner", () => {
		const paste = "Last login: Wed Mar  4 08:30:12 on ttys001\nsam@desk:~/kiln$ cargo run\nerror[E0425]: cannot find value `heat` in this scope";
		const title = titleOf([userText(paste, at(0)), assistant(text("The name is missing."), at(1))]);
		expect(title).toMatch(/^Error\[E0425\]: cannot find value/);
		expect(title).not.toMatch(/Last login|sam@desk/);
	});

	it("holds nothing that shows nothing, and no tower of combining marks, wherever the title came from", () => {
		expect(titleOf([userText("add a shortcut", at(0)), { type: "custom-title", customTitle: "Keys\u200B for\u2060 Te\u00ADams\uFEFF", sessionId: SESSION }])).toBe("Keys for Teams");
		const tower = "\u0300\u0301\u0302\u0303\u0304\u0305\u0306\u0307";
		expect(titleOf([userText(`Fix the pars${"e" + tower + tower + tower}r crash`, at(0))])).toBe(`Fix the pars${"e" + tower + tower.slice(0, 2)}r crash`);
		expect(titleOf([userText("add a shortcut", at(0)), { type: "custom-title", customTitle: "\u200B\u200B", sessionId: SESSION }])).toBe("Untitled session");
	});

	it("takes the plan the session was handed before one it presented later", () => {
		const title = titleOf([
			userText("Implement the following plan:\n\n# Cache the weather lookups\n\n## Context\nEvery request calls the API.", at(0)),
			assistant(toolUse("p1", "ExitPlanMode", { plan: "# Add a cache size option\n\n1. Read it from the config" }), { ...at(5), messageId: "m1" }),
			toolResult("p1", "User has approved your plan.", at(6)),
		]);
		expect(title).toBe("Cache the weather lookups");
	});

	it("names a session begun with a custom command run without arguments by what the command's prompt asks", () => {
		const records = [
			userText("<command-message>triage</command-message>\n<command-name>/triage</command-name>", { ...at(0), uuid: "c1" }),
			userBlocks([text("Sort the open bug reports by severity.\n\nThen post the list.")], { ...at(0), isMeta: true, parentUuid: "c1" }),
			assistant(text("Sorted the 14 open bugs; the list is posted."), { ...at(1), messageId: "m1" }),
		];
		expect(titleOf(records)).toBe("Sort the open bug reports by severity");
		// A prompt that is only a template (its name, its checks) asks nothing: the request that follows names the session.
		const template = [
			userText("<command-message>audit</command-message>\n<command-name>/audit</command-name>", { ...at(0), uuid: "c2" }),
			userBlocks([text("# Security audit checklist for services\n\n- Inputs are validated\n- Tokens never logged")], { ...at(0), isMeta: true, parentUuid: "c2" }),
			assistant(text("Two endpoints skip validation."), { ...at(1), messageId: "m2" }),
			userText("fix the two endpoints that skip validation", at(2)),
		];
		expect(titleOf(template)).toBe("Fix the two endpoints that skip validation");
	});

	it("drops the command that carried the request, the chat around it and the folders of a long path", () => {
		expect(titleOf([userText("<command-message>orchestrator</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>build a recipe box with Svelte</command-args>", at(0))])).toBe("Build a recipe box with Svelte");
		expect(titleOf([userText("I want to add dark mode to the settings page", at(0))])).toBe("Add dark mode to the settings page");
		expect(titleOf([userText("I'd like your help with splitting the invoice module", at(0))])).toBe("Splitting the invoice module");
		expect(titleOf([userText("Summarize /home/ana/work/notes/kickoff.md for the team", at(0))])).toBe("Summarize kickoff.md for the team");
		// A URL keeps its path.
		expect(titleOf([userText("Port https://github.com/acme/widgets/tree/main to Deno", at(0))])).toBe("Port https://github.com/acme/widgets/tree/main to Deno");
	});

	it("tells a session whose request is only talk by its first commit, in the prompts' script", () => {
		const question = [userText("is there an easy way to stop the nightly job from running twice?", at(0)), ...committing("fix(cron): take a lock before the nightly job", 1)];
		expect(titleOf(question)).toBe("Take a lock before the nightly job");
		// A commit in another script than the prompts does not title them.
		const chinese = [userText("我們剛剛說到哪裡了？", at(0)), ...committing("Add the export button", 1)];
		expect(titleOf(chinese)).toBe("我們剛剛說到哪裡了？");
		// A request that says what to do keeps its words.
		expect(titleOf([userText("Rename the billing tables", at(0)), ...committing("Rename tables", 1)])).toBe("Rename the billing tables");
	});

	it("without a commit, takes the sentence of the prompt that asks for work", () => {
		expect(titleOf([userText("I'm on ticket OPS-12 today. Keep the release notes in the wiki.", at(0))])).toBe("Keep the release notes in the wiki");
		// No sentence asks: the request stays as it is.
		expect(titleOf([userText("We were looking at the flaky login test yesterday", at(0))])).toBe("We were looking at the flaky login test yesterday");
	});

	it("names a request told as a story by what it is about, not by its opening", () => {
		// The clause after the story names the subject.
		expect(titleOf([userText("We've just moved the importer to a worker queue and the nightly CSV import now skips rows.", at(0))])).toBe("The nightly CSV import now skips rows");
		expect(titleOf([userText("Ok so there's not a lot here yet, mainly a sketch of how to name the backup folders.", at(0))])).toBe("A sketch of how to name the backup folders");
		// A clause that only points back names nothing: the story's deed, without its teller.
		expect(titleOf([userText("we raised the upload limit to 50 MB but it is back at 10 again", at(0))])).toBe("Raised the upload limit to 50 MB but it is back at 10 again");
		// A request whose start asks is left whole, its "and" included.
		expect(titleOf([userText("Add a retry to the mailer and log each failure?", at(0))])).toBe("Add a retry to the mailer and log each failure");
	});

	it("names what a request that only points back points at: the user's own command just before", () => {
		const title = titleOf([
			userText("<bash-input>npm run typecheck</bash-input>", at(0)),
			userText("<bash-stdout>src/a.ts(3,1): error TS2322</bash-stdout><bash-stderr></bash-stderr>", at(0)),
			userText("fix these", at(1)),
		]);
		expect(title).toBe("Fix these: npm run typecheck");
	});

	it("tells a symptom by itself, and names the pasted error a request points at", () => {
		expect(titleOf([userText("I keep getting timeouts from the staging database", at(0))])).toBe("Timeouts from the staging database");
		expect(titleOf([userText("The browser console shows:\n\n```\nStorageFullError: the bucket is over its quota\n    at save (store.js:10:3)\n```\n\nHelp me find the source of this.", at(0))])).toMatch(/^\S.{8,} \(StorageFullError\)$/);
		// Nothing pointed at: no name added.
		expect(titleOf([userText("Rename TypeError to a domain error in the parser", at(0))])).toBe("Rename TypeError to a domain error in the parser");
	});
});

describe("titleCut", () => {
	it("does not end on a connecting word, nor inside a parenthesis it opened", () => {
		expect(titleCut("Which of the parsers handle nested quotes (the fast one or the strict one) well")).toBe("Which of the parsers handle nested quotes…");
		expect(titleCut("Move the upload limits into the settings and")).toBe("Move the upload limits into the settings");
		expect(titleCut("We should return an error, or")).toBe("We should return an error");
		expect(titleCut("Add retries to the webhook sender")).toBe("Add retries to the webhook sender");
		// Cut short inside a clause: the clause's opening word goes too; a whole title keeps its last word.
		expect(titleCut("Problems when a session starts inside a folder while the tool runs in auto mode")).toBe("Problems when a session starts inside a folder…");
		expect(titleCut("Fix these")).toBe("Fix these");
	});
});
