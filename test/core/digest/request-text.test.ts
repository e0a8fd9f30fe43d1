import { describe, expect, it } from "vitest";
import { commandRequest, isAcknowledgement, requestOf } from "../../../src/core/digest/request-text";

describe("requestOf", () => {
	it.each(["thanks", "ok", "OK!", "yes", "go on", "continue", "lgtm", "네", "계속해줘", "はい", "続けてください", "好的", "继续", "要", "開始"])("%s asks for nothing", (prompt) => {
		expect(isAcknowledgement(prompt)).toBe(true);
		expect(requestOf(prompt)).toBeUndefined();
	});

	it("drops greetings and politeness", () => {
		expect(requestOf("Hey Claude, can you please add pagination to the products endpoint?")).toBe("Add pagination to the products endpoint");
		expect(requestOf("Let's add a retry to the fetch helper")).toBe("Add a retry to the fetch helper");
		expect(requestOf("Hi! I'd like you to rename the config file")).toBe("Rename the config file");
	});

	it("drops a question's tag with its question mark: nothing hangs at the end", () => {
		expect(requestOf("I think we should bail out and return an error, or?")).toBe("I think we should bail out and return an error");
		expect(requestOf("The cache is per user, right?")).toBe("The cache is per user");
		expect(requestOf("Is the cache per user or per team?")).toBe("Is the cache per user or per team");
	});

	it("leaves out pasted code, logs and the intro to them", () => {
		const prompt = "The build fails with this error:\n```\nTypeError: generate is not a function\n    at build (/app/next.js:12:3)\n```\nCan you fix it?";
		expect(requestOf(prompt)).toBe("The build fails with this error: Can you fix it");
		const log = "Fix these\n\nerror[E0308]: mismatched types\n  --> src/main.rs:4:5\n2026-11-20T10:00:00Z ERROR failed";
		// "these" points at the paste: its first error comes along.
		expect(requestOf(log)).toBe("Fix these (error[E0308]: mismatched types)");
		expect(requestOf("```\nconst a = 1;\n```")).toBeUndefined();
	});

	it("starts at the request when a long context comes first, and keeps a short one", () => {
		expect(requestOf("We've just done a big refactoring (phase 2 of the architecture review), moved the renderer into its own package, and many browser tests fail since. Can you fix them one by one?")).toBe("Fix them one by one");
		expect(requestOf("We are reviewing PR 102 - invoke the reviewer. Also fix the lint along the way.")).toBe("We are reviewing PR 102 - invoke the reviewer. Also fix the lint along the way.");
	});

	it("takes the story as the request when the request sentence after it reads alone as a reply", () => {
		const prompt = "Two of the workers were stopped with `kill -9` before the deploy, and I suspect their locks were never released. Let's start there first";
		expect(requestOf(prompt)).toBe(prompt);
	});

	it.each(["Excellent work, thank you!", "Well done, thanks a lot.", "Really nice job"])("praise of the work (%s) asks for nothing", (prompt) => {
		expect(isAcknowledgement(prompt)).toBe(true);
	});

	it("keeps a request that follows praise", () => {
		expect(requestOf("Good work, now add the tests")).toBe("Good work, now add the tests");
	});

	it("finds no request in a form's fields given in reply, but keeps one typed with them, and fields opening a session", () => {
		const form = "server:\nmq.internal.example\n\nport:\n5671\n\nvhost:\nbilling\n\nlogin:\nworker";
		expect(requestOf(form)).toBeUndefined();
		expect(requestOf(`${form}\n\nconnect the consumer with these`)).toBeDefined();
		expect(requestOf(form, 160, false)).toBeDefined();
	});

	it("keeps a short question a question", () => {
		expect(requestOf("did you push?")).toBe("Did you push");
		expect(requestOf("why?")).toBeUndefined();
		expect(requestOf("ok 開始")).toBeUndefined();
	});

	it("does not take a quoted message for the user's request, and keeps what 'this' points back to", () => {
		const prompt = 'It deploys now. Clicking Connect says "Client ID is not configured. Please check your .env file." on the page. The .env file is not checked in. How do I handle this on GitHub Pages?';
		expect(requestOf(prompt)).toBe("The .env file is not checked in. How do I handle this on GitHub Pages");
	});

	it("keeps whole the sentence a request's 'that' points back to, however long it runs before the request word", () => {
		const prompt = "the settings dialog stopped remembering the chosen theme during the big refactor. could you bring that back. the toggle should also sit in the header.";
		expect(requestOf(prompt, 400)).toBe(
			"The settings dialog stopped remembering the chosen theme during the big refactor. could you bring that back. the toggle should also sit in the header.",
		);
	});

	it("titles a plan hand-over by the plan's heading", () => {
		expect(requestOf("Implement the following plan:\n\n# Plan: Consolidate logging to one file\n\n## Steps\n1. …")).toBe("Consolidate logging to one file");
	});

	it("keeps Korean, Japanese and Chinese requests", () => {
		expect(requestOf("목록 API에 페이지네이션을 추가해줘")).toBe("목록 API에 페이지네이션을 추가해줘");
		expect(requestOf("[Image #1] ボタンの色を変えてください")).toBe("ボタンの色を変えてください");
		expect(requestOf("请给列表接口加上分页")).toBe("请给列表接口加上分页");
	});
});

describe("requestOf keeps colons that introduce nothing", () => {
	it("keeps a signature with colons whole", () => {
		expect(requestOf("Create a function `multiply(a: int, b: int) -> int` that multiplies two numbers together. Add a test for it.")).toBe("Create a function `multiply(a: int, b: int) -> int` that multiplies two numbers together. Add a test for it.");
	});
});

describe("commandRequest", () => {
	it("takes the first sentence of a command's prose", () => {
		expect(commandRequest("Bump the version in package.json and write the changelog entry. Then open a draft PR.\n\nRules:\n- never force-push")).toBe(
			"Bump the version in package.json and write the changelog entry.",
		);
	});

	it("takes the prose past headings, tags, front matter and a skill's base directory", () => {
		expect(commandRequest("---\ndescription: release helper\n---\n# Release Checklist Runner\n\nCut the release branch from main.")).toBe("Cut the release branch from main.");
		expect(commandRequest("Base directory for this skill: /home/me/.claude/skills/lint\n\n## Overview\n\nRun the linters over the changed files only.")).toBe(
			"Run the linters over the changed files only.",
		);
		expect(commandRequest("<goal>\nMigrate one table per run, with a rollback script.\n</goal>")).toBe("Migrate one table per run, with a rollback script.");
	});

	it("passes over a role given to the agent, labels ending in a colon and code", () => {
		expect(commandRequest("You are a careful reviewer. Review the diff against main for missing tests.")).toBe("Review the diff against main for missing tests.");
		expect(commandRequest("Usage:\n\n```sh\nmake audit\n```\n\nList the dependencies with known advisories.")).toBe("List the dependencies with known advisories.");
	});

	it("finds nothing in a prompt that is only code or labels", () => {
		expect(commandRequest("```bash\ngit status\n```")).toBeUndefined();
		expect(commandRequest("## Steps\n\nContext:")).toBeUndefined();
	});

	it("finds nothing in a template's name, its steps or checks, nor what points at them", () => {
		// The heading names the template; the items are what to go through, not what was asked.
		expect(commandRequest("# Pull request audit checklist\n\n- Every new function has a test\n- No secrets in the diff")).toBeUndefined();
		expect(commandRequest("# Nightly triage routine\n\nWork through the steps below in order.\n\n1. Close stale issues\n   Label them first.")).toBeUndefined();
		expect(commandRequest("Base directory for this skill: /opt/skills/deps\n\n# Dependency Doctor\n\nUse this skill when a lockfile drifts.")).toBeUndefined();
		// Prose after the list is the template's own again.
		expect(commandRequest("## Checks\n\n- types\n- lint\n\nReport what failed to the channel.")).toBe("Report what failed to the channel.");
	});
});

describe("requestOf around pasted program output", () => {
	it("takes the person's words, not a terminal's banner or prompt line, and names the error their short question points at", () => {
		const paste = ["Last login: Tue Feb  3 17:04:51 on ttys002", "rowan@mill:~/garden$ node seed.js", "TypeError: beds.map is not a function", "    at plant (/home/rowan/garden/seed.js:9:12)"];
		expect(requestOf(["why does this break?", ...paste].join("\n"))).toBe("Why does this break (TypeError: beds.map is not a function)");
		expect(requestOf([...paste, "", "Add a check that beds is an array before seeding"].join("\n"))).toBe("Add a check that beds is an array before seeding");
	});

	it("keeps words typed before a banner on the same line, naming the paste after them", () => {
		const prompt = "Seeder crash Last login: Tue Feb  3 17:04:51 on ttys002\nrowan@mill:~/garden$ node seed.js\nRangeError: Invalid array length";
		expect(requestOf(prompt)).toBe("Seeder crash (RangeError: Invalid array length)");
	});

	it("names a prompt of output alone by its first error line, else by its last command, never by its banner", () => {
		expect(requestOf("[2026-02-03 17:04:51] ERROR could not open the queue file\n[2026-02-03 17:04:52] INFO retrying")).toBe("ERROR could not open the queue file");
		const twoLinePrompt = "Last login: Tue Feb  3 17:04:51 on ttys002\n\n~/garden main\n❯ make lint\n\n~/garden main\n❯ make seed\nseeded 0 rows";
		expect(requestOf(twoLinePrompt)).toBe("Output of make seed");
	});

	it("leaves a program's indented lines under its output out of the person's words", () => {
		const prompt = "Error: EACCES: permission denied, open 'beds.db'\n    at open (node:fs:12:3) {\n  errno: -13,\n  code: 'EACCES'\n}\n\nwhat is wrong here?";
		expect(requestOf(prompt)).toBe("What is wrong here (Error: EACCES: permission denied, open 'beds.db')");
	});
});
