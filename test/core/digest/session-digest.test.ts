import { beforeEach, describe, expect, it } from "vitest";
import { alike, digestSession } from "../../../src/core/digest/session-digest";
import { namesFile } from "../../../src/core/digest/refused-calls";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, text, toolResult, toolUse, userText } from "../../fixtures/lines";

const at = (minute: number) => ({ timestamp: new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString() });

function digestOf(records: unknown[]) {
	return digestSession(parseTranscript(Buffer.from(jsonl(records)), SESSION));
}

describe("digestSession", () => {
	beforeEach(() => resetIds());

	it("makes tasks of typed requests, not of acknowledgements or control commands", () => {
		const d = digestOf([
			userText("Hey Claude, can you please add pagination to GET /products?", at(0)),
			assistant(text("Let me look at the handler first."), { ...at(1), messageId: "m1" }),
			assistant(text("Added `page` and `limit` to GET /products; the response has a total count."), { ...at(2), messageId: "m2" }),
			userText("thanks", at(3)),
			userText("<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>", at(4)),
			userText("Now also add a test for page two", at(5)),
			assistant(text("Perfect! I've added a test for page two, and it passes."), { ...at(6), messageId: "m3" }),
		]);
		expect(d.asked).toEqual(["Add pagination to GET /products", "Also add a test for page two"]);
		expect(d.prompts).toBe(2);
		// Said as the result, without its speaker.
		expect(d.done).toContain("Added a test for page two, and it passes.");
		expect(d.done).toContain("Added `page` and `limit` to GET /products; the response has a total count.");
		expect([...d.done, ...d.open, ...d.decisions].some((s) => /let me|perfect/i.test(s))).toBe(false);
	});

	it("tells the other tasks' results by the work they took, as the Asked line ranks their requests: a long task's before a quick answer's", () => {
		const edits = (from: number) =>
			[0, 1, 2].flatMap((k) => [
				assistant(toolUse(`e${from + k}`, "Edit", { file_path: `/work/app/src/queue${k}.ts`, old_string: "a", new_string: "b" }), { ...at(from + k), messageId: `me${from + k}` }),
				toolResult(`e${from + k}`, "The file has been updated.", at(from + k)),
			]);
		const d = digestOf([
			userText("what port does the admin panel listen on?", at(0)),
			assistant(text("The admin panel listens on port 8081."), { ...at(1), messageId: "m1" }),
			userText("move the email sending onto the job queue", at(2)),
			...edits(3),
			assistant(text("Moved email sending onto the job queue; retries back off exponentially."), { ...at(7), messageId: "m2" }),
			userText("rename the queue to mailer", at(8)),
			assistant(toolUse("e9", "Edit", { file_path: "/work/app/src/queue0.ts", old_string: "q", new_string: "mailer" }), { ...at(9), messageId: "m3" }),
			toolResult("e9", "The file has been updated.", at(9)),
			assistant(text("Renamed the queue to mailer."), { ...at(10), messageId: "m4" }),
		]);
		expect(d.done).toEqual(["Renamed the queue to mailer.", "Moved email sending onto the job queue; retries back off exponentially.", "The admin panel listens on port 8081."]);
	});

	it("claims no file the client refused to write, not even as 'the file' in the reply that names it, and tells what was found before instead; a file written keeps its claims", () => {
		const cwd = "/work/demo";
		const refusedWrite = (name: string) => [
			assistant(toolUse("w1", "Write", { file_path: `${cwd}/${name}`, content: "# Guide" }), { ...at(1), messageId: "m1", cwd }),
			toolResult("w1", `Claude requested permissions to write to ${cwd}/${name}, but you haven't granted it yet.`, { ...at(1), isError: true, cwd }),
		];
		const refused = digestOf([
			userText("Write a contributor guide for the repository", { ...at(0), cwd }),
			assistant(text("The repository has no branches besides main and no release tags yet."), { ...at(1), messageId: "m0", cwd }),
			...refusedWrite("GUIDE.md"),
			assistant(text("I've written GUIDE.md for the repository. The file now covers the branch naming and how releases are tagged."), { ...at(2), messageId: "m2", cwd }),
		]);
		// What the task found before the refused write is what it has to show.
		expect(refused.done).toEqual(["The repository has no branches besides main and no release tags yet."]);
		expect(refused.open).toContain("`GUIDE.md` not written: permission not granted");
		const written = digestOf([
			userText("Write a contributor guide for the repository", { ...at(0), cwd }),
			...refusedWrite("GUIDE.md"),
			assistant(toolUse("w2", "Write", { file_path: `${cwd}/CONTRIBUTING.md`, content: "# Guide" }), { ...at(2), messageId: "m2", cwd }),
			toolResult("w2", "File created successfully", { ...at(2), cwd }),
			assistant(text("GUIDE.md was refused, so I wrote CONTRIBUTING.md instead. The file now covers the branch naming and how releases are tagged."), { ...at(3), messageId: "m3", cwd }),
		]);
		expect(written.done).toContain("The file now covers the branch naming and how releases are tagged.");
	});

	it("leaves no step open that waits on the reader's yes ('If you agree, …:'), nor tells it done; a next-steps list stays open", () => {
		const reply = (intro: string) =>
			`Renamed the \`--fast\` flag to \`--quick\` in the CLI and its tests.\n\n${intro}\n\n1. Rename the flag in the user guide as well.\n2. Drop the hidden \`--fast\` alias after a release.`;
		const offered = digestOf([
			userText("Rename the fast flag of the CLI", at(0)),
			assistant(toolUse("e1", "Edit", { file_path: "/p/cli.ts", old_string: "fast", new_string: "quick" }), { ...at(1), messageId: "m1" }),
			toolResult("e1", "The file has been updated.", at(1)),
			assistant(text(reply("If you agree, the follow-up I'd run:")), { ...at(2), messageId: "m2" }),
		]);
		expect([...offered.open, ...offered.done].join("\n")).not.toMatch(/user guide|alias/);
		const left = digestOf([
			userText("Rename the fast flag of the CLI", at(0)),
			assistant(toolUse("e1", "Edit", { file_path: "/p/cli.ts", old_string: "fast", new_string: "quick" }), { ...at(1), messageId: "m1" }),
			toolResult("e1", "The file has been updated.", at(1)),
			assistant(text(reply("Next steps:")), { ...at(2), messageId: "m2" }),
		]);
		expect(left.open).toContain("Rename the flag in the user guide as well.");
		// The condition may end a paragraph that says something first; "once you …" only orders the steps.
		const inline = (intro: string) =>
			digestOf([userText("Open a pull request for the fix", at(0)), assistant(text(`Opened the pull request. ${intro}\n\n- Tag the release\n- Announce it`), { ...at(1), messageId: "m1" })]).open;
		expect(inline("If you'd like, the follow-ups I'd take next:")).toEqual([]);
		expect(inline("Once you merge it, the follow-ups:")).toEqual(["Tag the release", "Announce it"]);
	});

	it("tells no step of a list laid out as a plan as done; a list of what changed still is", () => {
		const answer = (reply: string) =>
			digestOf([userText("Could the desk lamp blink when the nightly build breaks?", at(0)), assistant(text(reply), { ...at(1), messageId: "m1" })]).done;
		const planned = answer("Nice idea, that is doable. Here's the plan:\n\n1. Poll the CI server for the nightly result\n2. Blink the lamp twice when it is red\n\nFirst, let's pair the lamp:\n\n1. Hold its button for five seconds\n2. Name it anything you like\n\nIs the lamp on the same network?");
		expect(planned.join("\n")).not.toMatch(/Poll the CI|Blink the lamp|Name it/);
		expect(answer("The lamp can blink already. What changed:\n\n- Added a poller for the nightly result\n- The lamp blinks twice when it is red")).toContain("Added a poller for the nightly result");
		expect(answer("The lamp can blink already. I carried out the plan:\n\n- Added a poller for the nightly result\n- Wired the blink to a red build")).toContain("Added a poller for the nightly result");
		// An intro that looks back lays out no plan.
		expect(answer("The lamp can blink already. Let's recap what is in place:\n\n- The poller lives in its own module")).toContain("The poller lives in its own module");
	});

	it("tells neither the person's own proposal said back nor the sections a written document holds as done", () => {
		const answer = (reply: string) =>
			digestOf([userText("What if the greenhouse fan ran on a timer instead of the thermostat?", at(0)), assistant(text(reply), { ...at(1), messageId: "m1" })]).done;
		const weighed = answer("Let me weigh it.\n\n**Your proposal:**\n- The fan runs every two hours for ten minutes\n- The thermostat is taken out\n\nThe seedlings would overheat on sunny afternoons between runs.");
		expect(weighed.join("\n")).not.toMatch(/every two hours|taken out/);
		expect(weighed).toContain("The seedlings would overheat on sunny afternoons between runs.");
		const written = answer("I wrote a short guide at `docs/fan.md` that covers:\n\n1. **Wiring**: Why the relay sits after the fuse\n2. **Schedule**: What the timer does at night\n\nIt is ready for you to read.");
		expect(written.join("\n")).not.toMatch(/relay sits|timer does/);
		// Told once, as the writing its intro reports.
		expect(written.filter((d) => d.includes("docs/fan.md"))).toEqual(["Wrote a short guide at `docs/fan.md`"]);
		// The person's proposal carried out is the work done.
		expect(answer("**Your proposal, implemented:**\n- The fan runs every two hours for ten minutes\n- Removed the thermostat")).toContain("The fan runs every two hours for ten minutes");
		// A list of what changed, under an intro that names no document, stays.
		expect(answer("The fan now has a timer. The controller includes:\n\n- Added a ten-minute run every two hours")).toContain("Added a ten-minute run every two hours");
	});

	it("leaves open a step an earlier reply left on the user's side, until a later request takes it up", () => {
		const session = (followUp: string) =>
			digestOf([
				userText("Deploy the image worker", at(0)),
				assistant(toolUse("b1", "Bash", { command: "wrangler deploy" }), { ...at(1), messageId: "m1" }),
				toolResult("b1", "Deployed image-worker", at(1)),
				assistant(text("Deployed the image worker. One thing left on your side: point the images subdomain at the worker in the DNS settings."), { ...at(2), messageId: "m2" }),
				userText(followUp, at(3)),
				assistant(text("Bumped the worker's timeout to thirty seconds."), { ...at(4), messageId: "m3" }),
			]).open;
		expect(session("Raise the worker timeout to thirty seconds")).toContain("One thing left on your side: point the images subdomain at the worker in the DNS settings.");
		resetIds();
		expect(session("The subdomain points at it now, raise the worker timeout to thirty seconds")).toEqual([]);
		// Nothing left there is no step.
		resetIds();
		const none = digestOf([userText("Deploy the image worker", at(0)), assistant(text("Deployed the image worker. Nothing is left on your side."), { ...at(1), messageId: "m1" })]);
		expect(none.open).toEqual([]);
	});

	it("leaves open a check that failed earlier while only other kinds of check ran after it; a later passing run of its kind closes it", () => {
		const session = (rerun: string) =>
			digestOf([
				userText("Add a price formatter", at(0)),
				assistant(toolUse("b1", "Bash", { command: "npm test" }), { ...at(1), messageId: "m1" }),
				toolResult("b1", "1 failing: formats negative prices", { ...at(1), isError: true }),
				assistant(toolUse("b2", "Bash", { command: rerun }), { ...at(2), messageId: "m2" }),
				toolResult("b2", "ok", at(2)),
				assistant(toolUse("b3", "Bash", { command: "npm run lint" }), { ...at(3), messageId: "m3" }),
				toolResult("b3", "no problems", at(3)),
				assistant(text("Added `formatPrice` with two decimals and a currency sign."), { ...at(4), messageId: "m4" }),
			]).open;
		expect(session("git status")).toEqual(["`npm test` failed on its last run"]);
		resetIds();
		expect(session("npx vitest run src/price.test.ts")).toEqual([]);
	});

	it("tells an answer by its lead, not by a next sentence that only leans on it; one that stands alone is told too", () => {
		const leaning = digestOf([
			userText("What does the sync command do?", at(0)),
			assistant(text("The sync command copies new transcripts into the vault. It also rewrites each project's context block."), { ...at(1), messageId: "m1" }),
		]);
		expect(leaning.done).toEqual(["The sync command copies new transcripts into the vault."]);
		const own = digestOf([
			userText("Why is the upload slow?", at(0)),
			assistant(text("The uploader sends one file per request. The server waits two seconds between requests."), { ...at(1), messageId: "m1" }),
		]);
		expect(own.done).toEqual(["The uploader sends one file per request.", "The server waits two seconds between requests."]);
	});

	it("tells what earlier tasks changed before what earlier tasks only answered, each in its order", () => {
		const d = digestOf([
			userText("Why does the importer skip empty rows?", at(0)),
			assistant(text("The importer treats a row with no cells as the end of the sheet."), { ...at(1), messageId: "m1" }),
			userText("Make it read past empty rows", at(2)),
			assistant(toolUse("e1", "Edit", { file_path: "/repo/importer.py", old_string: "a", new_string: "b" }), { ...at(3), messageId: "m2" }),
			toolResult("e1", "The file has been updated.", at(3)),
			assistant(text("The importer now reads to the last row with data."), { ...at(4), messageId: "m3" }),
			userText("Is the exporter affected too?", at(5)),
			assistant(text("The exporter writes every row it is given, empty or not."), { ...at(6), messageId: "m4" }),
		]);
		expect(d.done).toEqual(["The exporter writes every row it is given, empty or not.", "The importer now reads to the last row with data.", "The importer treats a row with no cells as the end of the sheet."]);
	});

	it("tells no earlier result about a file a later task removed, nor what else that reply said of it; the removal's own reply stays", () => {
		const d = digestOf([
			userText("Write a short onboarding guide", at(0)),
			assistant(toolUse("w1", "Write", { file_path: "/repo/ONBOARDING.md", content: "# Onboarding" }), { ...at(1), messageId: "m1" }),
			toolResult("w1", "File created successfully.", at(1)),
			assistant(text("Saved the guide to `ONBOARDING.md`. Added a section on cutting a release."), { ...at(2), messageId: "m2" }),
			userText("Actually we don't need it, delete it", at(3)),
			assistant(toolUse("b1", "Bash", { command: "rm /repo/ONBOARDING.md" }), { ...at(4), messageId: "m3" }),
			toolResult("b1", "", at(4)),
			assistant(text("Deleted the onboarding guide."), { ...at(5), messageId: "m4" }),
		]);
		expect(d.done).toEqual(["Deleted the onboarding guide."]);
	});

	it("lists as touched no file the session removed for good: a helper script run then deleted is gone; one written again stays", () => {
		const cwd = "/srv/shop";
		const d = digestOf([
			userText("Seed the staging database and fix the price column", { ...at(0), cwd }),
			assistant(toolUse("w1", "Write", { file_path: `${cwd}/seed_once.py`, content: "print(1)" }), { ...at(1), messageId: "m1", cwd }),
			toolResult("w1", "File created successfully.", { ...at(1), cwd }),
			assistant(toolUse("w2", "Write", { file_path: `${cwd}/db/prices.sql`, content: "x" }), { ...at(2), messageId: "m2", cwd }),
			toolResult("w2", "File created successfully.", { ...at(2), cwd }),
			assistant(toolUse("w3", "Write", { file_path: `${cwd}/notes.txt`, content: "x" }), { ...at(3), messageId: "m3", cwd }),
			toolResult("w3", "File created successfully.", { ...at(3), cwd }),
			assistant(toolUse("b1", "Bash", { command: `cd ${cwd} && python3 seed_once.py && rm seed_once.py notes.txt` }), { ...at(4), messageId: "m4", cwd }),
			toolResult("b1", "1", { ...at(4), cwd }),
			assistant(toolUse("w4", "Write", { file_path: `${cwd}/notes.txt`, content: "y" }), { ...at(5), messageId: "m5", cwd }),
			toolResult("w4", "File created successfully.", { ...at(5), cwd }),
			assistant(text("Seeded staging and widened the price column in `db/prices.sql`."), { ...at(6), messageId: "m6", cwd }),
		]);
		expect(d.filesTouched).toEqual([`${cwd}/db/prices.sql`, `${cwd}/notes.txt`]);
	});

	it("takes a session's first words as its request, however few: they answer nothing; the same words after a reply do", () => {
		const d = digestOf([
			userText("Dark mode toggle", at(0)),
			assistant(text("Added a dark mode toggle to the settings page."), { ...at(1), messageId: "m1" }),
			userText("that works fine", at(2)),
		]);
		expect(d.asked).toEqual(["Dark mode toggle"]);
		expect(d.prompts).toBe(1);
		expect(digestOf([userText("thanks", at(0))]).prompts).toBe(0);
	});

	it("leaves open a write and a command the client refused for want of a permission, and claims neither; one done later is closed", () => {
		const cwd = "/work/demo";
		const d = digestOf([
			userText("Set up the project notes and publish", { ...at(0), cwd }),
			assistant(toolUse("w1", "Write", { file_path: `${cwd}/CLAUDE.md`, content: "# Demo" }), { ...at(1), messageId: "m1", cwd }),
			toolResult("w1", `Claude requested permissions to write to ${cwd}/CLAUDE.md, but you haven't granted it yet.`, { ...at(1), isError: true, cwd }),
			assistant(toolUse("w2", "Write", { file_path: `${cwd}/NOTES.md`, content: "x" }), { ...at(2), messageId: "m2", cwd }),
			toolResult("w2", `Claude requested permissions to write to ${cwd}/NOTES.md, but you haven't granted it yet.`, { ...at(2), isError: true, cwd }),
			assistant(toolUse("w3", "Edit", { file_path: `${cwd}/NOTES.md`, old_string: "a", new_string: "b" }), { ...at(3), messageId: "m3", cwd }),
			toolResult("w3", "The file has been updated.", { ...at(3), cwd }),
			assistant(toolUse("b1", "Bash", { command: "npm publish" }), { ...at(4), messageId: "m4", cwd }),
			toolResult("b1", "This command requires approval", { ...at(4), isError: true, cwd }),
			assistant(toolUse("b2", "Bash", { command: "rm -rf build" }), { ...at(5), messageId: "m5", cwd }),
			toolResult("b2", "rm: cannot remove 'build': Permission denied", { ...at(5), isError: true, cwd }),
			assistant(text("Created CLAUDE.md with the project overview, and updated NOTES.md."), { ...at(6), messageId: "m6", cwd }),
		]);
		expect(d.open).toContain("`CLAUDE.md` not written: permission not granted");
		expect(d.open).toContain("`npm publish` not run: permission not granted");
		// One code span on one line, whatever the path holds.
		const odd = digestOf([
			userText("Write it", { ...at(0), cwd }),
			assistant(toolUse("w9", "Write", { file_path: `${cwd}/a\n# Hijacked \`x\``, content: "x" }), { ...at(1), messageId: "m9", cwd }),
			toolResult("w9", "Claude requested permissions to write to it, but you haven't granted it yet.", { ...at(1), isError: true, cwd }),
		]);
		expect(odd.open).toContain("`` a␤# Hijacked `x` `` not written: permission not granted");
		// Written after all; and a failure of the command itself is no missing permission.
		expect(d.open.join("\n")).not.toMatch(/NOTES\.md|rm -rf/);
		expect(d.done.join("\n")).not.toContain("CLAUDE.md");
		// A name inside a longer one is not it.
		expect(namesFile("Updated MY-CLAUDE.md and CLAUDE.mdx", "CLAUDE.md")).toBe(false);
		expect(namesFile("Created CLAUDE.md, then stopped", "CLAUDE.md")).toBe(true);
	});

	it("claims no file whose only write failed (a reply said \"Created CHANGELOG.md\" after EACCES); one written after, or by a command, is claimed", () => {
		const cwd = "/work/demo";
		const d = digestOf([
			userText("Create the CHANGELOG and the NOTICE for 2.0", { ...at(0), cwd }),
			assistant(toolUse("w1", "Write", { file_path: `${cwd}/CHANGELOG.md`, content: "# 2.0" }), { ...at(1), messageId: "m1", cwd }),
			toolResult("w1", "EACCES: permission denied, open 'CHANGELOG.md'", { ...at(1), isError: true, cwd }),
			assistant(toolUse("w2", "Write", { file_path: `${cwd}/NOTICE.md`, content: "x" }), { ...at(2), messageId: "m2", cwd }),
			toolResult("w2", "File has not been read yet. Read it first before writing to it.", { ...at(2), isError: true, cwd }),
			assistant(toolUse("b1", "Bash", { command: "printf x > NOTICE.md" }), { ...at(3), messageId: "m3", cwd }),
			toolResult("b1", "", { ...at(3), cwd }),
			assistant(text("Created CHANGELOG.md with the 2.0 release notes. Created NOTICE.md with the licence."), { ...at(4), messageId: "m4", cwd }),
		]);
		expect(d.done.join("\n")).not.toContain("CHANGELOG.md");
		expect(d.done.join("\n")).toContain("NOTICE.md");
		// Nor the task's result, which the lazy facade gives as the last checkpoint.
		expect(d.tasks.flatMap((t) => t.result).join("\n")).not.toContain("CHANGELOG.md");
		// Not told open: the agent may have found it done already.
		expect(d.open.join("\n")).not.toContain("CHANGELOG.md");
	});

	it("claims no file whose only write failed on Windows either (a path with backslashes)", () => {
		const cwd = "C:\\work\\demo";
		const d = digestOf([
			userText("Create the CHANGELOG for 2.0", { ...at(0), cwd }),
			assistant(toolUse("w1", "Write", { file_path: `${cwd}\\CHANGELOG.md`, content: "# 2.0" }), { ...at(1), messageId: "m1", cwd }),
			toolResult("w1", "EPERM: operation not permitted, open 'C:\\work\\demo\\CHANGELOG.md'", { ...at(1), isError: true, cwd }),
			assistant(text("Created CHANGELOG.md with the 2.0 release notes."), { ...at(2), messageId: "m2", cwd }),
		]);
		expect(d.done.join("\n")).not.toContain("CHANGELOG.md");
	});

	it("tells the latest commits first, and leaves steps for the user, options and what is left out of done", () => {
		const d = digestOf([
			userText("Split the importer into a parser and a writer, commit each step", at(0)),
			assistant(toolUse("t1", "Bash", { command: 'git commit -am "Extract the CSV parser"' }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "[main 1111111] Extract the CSV parser", at(1)),
			assistant(toolUse("t2", "Bash", { command: 'git commit -am "Move the writer to its own module"' }), { ...at(2), messageId: "m2" }),
			toolResult("t2", "[main 2222222] Move the writer to its own module", at(2)),
			assistant(
				text("The importer is now two modules, `parser.ts` and `writer.ts`.\n\nRun `npm run import -- --dry` to try it.\n\nOption A: keep the old entry point as a shim.\n\nThe bulk mode is still missing."),
				{ ...at(3), messageId: "m3" },
			),
		]);
		expect(d.done).toEqual(["commit 2222222: Move the writer to its own module", "commit 1111111: Extract the CSV parser", "The importer is now two modules, `parser.ts` and `writer.ts`."]);
		expect(d.open).toEqual(["The bulk mode is still missing."]);
	});

	it("tells a branch the session pushed, after the results, unless a reply already says it was pushed", () => {
		const work = (reply: string) => [
			userText("Bump the retry limit to five and ship it", at(0)),
			assistant(toolUse("t1", "Bash", { command: 'git commit -am "Raise the retry limit to 5" && git push -u origin retry-limit' }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "[retry-limit 3c3c3c3] Raise the retry limit to 5\n 1 file changed\nremote: Create a pull request on the forge\nTo example.org:team/queue.git\n * [new branch]      retry-limit -> retry-limit\nbranch 'retry-limit' set up to track 'origin/retry-limit'.", at(1)),
			assistant(text(reply), { ...at(2), messageId: "m2" }),
		];
		expect(digestOf(work("The retry limit is now 5 in `queue.ts`.")).done).toEqual(["commit 3c3c3c3: Raise the retry limit to 5", "The retry limit is now 5 in `queue.ts`.", "pushed `retry-limit` to origin"]);
		resetIds();
		expect(digestOf(work("The queue now gives up after five tries; the branch is pushed for review.")).done).toEqual(["commit 3c3c3c3: Raise the retry limit to 5", "The queue now gives up after five tries; the branch is pushed for review."]);
	});

	it("tells a pushed branch whose name holds a backtick as one code span: the rest of its name is no markdown of the note", () => {
		const d = digestOf([
			userText("Ship it", at(0)),
			assistant(toolUse("t1", "Bash", { command: "git push origin HEAD" }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "To example.org:team/app.git\n   4e4e4e4..5f5f5f5  odd`[[Home]]`name -> odd`[[Home]]`name", at(1)),
			assistant(text("Pushed."), { ...at(2), messageId: "m2" }),
		]);
		expect(d.done).toContain("pushed ``odd`[[Home]]`name`` to origin");
	});

	it("tells the steps a replaced todo list completed, after the results, its checks left out; a sub-agent's list is not the session's", () => {
		const todos = (id: string, minute: number, items: [string, string][], isSidechain = false) => [
			assistant(toolUse(id, "TodoWrite", { todos: items.map(([content, status]) => ({ content, status, activeForm: content })) }), { ...at(minute), messageId: `m${id}`, isSidechain }),
			toolResult(id, "Todos have been modified successfully.", { ...at(minute), isSidechain }),
		];
		const d = digestOf([
			userText("Give the invoice export a CSV option", at(0)),
			...todos("a", 1, [["Add a CSV writer for invoices", "completed"], ["Run the tests to confirm nothing broke", "completed"]]),
			userText("Also let people pick the delimiter", at(2)),
			...todos("s", 2, [["Sketch the delimiter picker", "completed"]], true),
			...todos("b", 3, [["Add a delimiter setting", "completed"]]),
			assistant(text("The export dialog now offers comma, semicolon and tab."), { ...at(4), messageId: "m9" }),
		]);
		expect(d.done).toEqual(["The export dialog now offers comma, semicolon and tab.", "Add a delimiter setting", "Add a CSV writer for invoices"]);
	});

	it("takes the user's own choices first: answers, words given with a refusal, an option picked by its letter", () => {
		const d = digestOf([
			userText("Set up a dev server for the demo page", at(0)),
			assistant(toolUse("t1", "Bash", { command: "npm install --save-dev vite" }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user provided the following reason for the rejection:  use pnpm", { ...at(1), isError: true }),
			assistant(text("Two ways to serve it:\n\n**Option A: Vite** — hot reload, one dependency.\n\n**Option B: a static server** — nothing to build.\n\nWhich one?"), { ...at(2), messageId: "m2" }),
			userText("a please", at(3)),
			assistant(text("Added Vite with pnpm; `pnpm dev` serves the page on port 5173."), { ...at(4), messageId: "m3" }),
		]);
		expect(d.decisions).toEqual(["user chose: use pnpm", "user chose: Option A: Vite — hot reload, one dependency."]);
	});

	it("takes done and open from the todo list's final state, commits and a failing last check", () => {
		const d = digestOf([
			userText("Add a price formatter and commit it", at(0)),
			assistant(text("Let me first create a todo list to track this task."), { ...at(1), messageId: "m1" }),
			assistant(toolUse("t1", "TodoWrite", { todos: [{ content: "Write formatPrice", status: "pending" }, { content: "Document the rounding rules", status: "pending" }] }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "Todos have been modified successfully.", at(1)),
			assistant(toolUse("t2", "Bash", { command: 'git add -A && git commit -m "Add price formatter"' }), { ...at(2), messageId: "m2" }),
			toolResult("t2", "[main 1a2b3c4] Add price formatter\n 1 file changed", at(2)),
			assistant(toolUse("t3", "TodoWrite", { todos: [{ content: "Write formatPrice", status: "completed" }, { content: "Document the rounding rules", status: "pending" }] }), { ...at(3), messageId: "m3" }),
			toolResult("t3", "Todos have been modified successfully.", at(3)),
			assistant(toolUse("t4", "Bash", { command: "npm test" }), { ...at(4), messageId: "m4" }),
			toolResult("t4", "1 failed", { ...at(4), isError: true }),
			assistant(text("Let me update the todo list:"), { ...at(5), messageId: "m5" }),
		]);
		expect(d.done.slice(0, 2)).toEqual(["commit 1a2b3c4: Add price formatter", "Write formatPrice"]);
		// The last reply is narration only: the request itself was left unfinished.
		expect(d.open).toEqual(["Document the rounding rules", "`npm test` failed on its last run", "unfinished: Add a price formatter and commit it"]);
	});

	it("tells a committed session's todo steps after what its reply established: the commit already names the work", () => {
		const d = digestOf([
			userText("Move the mailer to a queue and commit", at(0)),
			assistant(toolUse("t1", "TodoWrite", { todos: [{ content: "Create the queue worker", status: "completed" }, { content: "Route outgoing mail through the queue", status: "completed" }] }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "Todos have been modified successfully.", at(1)),
			assistant(toolUse("e1", "Edit", { file_path: "/repo/mailer.rb", old_string: "a", new_string: "b" }), { ...at(2), messageId: "m2" }),
			toolResult("e1", "The file has been updated.", at(2)),
			assistant(toolUse("c1", "Bash", { command: 'git commit -am "Send mail from a background queue"' }), { ...at(3), messageId: "m3" }),
			toolResult("c1", "[main 5d6e7f8] Send mail from a background queue", at(3)),
			assistant(text("Retries now survive a restart: a failed send stays in the queue for five attempts."), { ...at(4), messageId: "m4" }),
		]);
		expect(d.done).toEqual([
			"commit 5d6e7f8: Send mail from a background queue",
			"Retries now survive a restart: a failed send stays in the queue for five attempts.",
			"Create the queue worker",
			"Route outgoing mail through the queue",
		]);
	});

	it("tells a completed todo once: not after a result that says the same in other words; one for other work stays", () => {
		const d = digestOf([
			userText("Make both exporters stream their rows", at(0)),
			assistant(toolUse("t1", "TodoWrite", { todos: [{ content: "Update csv_export.py to stream rows instead of buffering them", status: "completed" }, { content: "Update json_export.py to stream rows instead of buffering them", status: "completed" }] }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "Todos have been modified successfully.", at(1)),
			assistant(toolUse("e1", "Edit", { file_path: "/repo/csv_export.py", old_string: "a", new_string: "b" }), { ...at(2), messageId: "m2" }),
			toolResult("e1", "The file has been updated.", at(2)),
			assistant(text("`csv_export.py` now streams its rows instead of buffering them all."), { ...at(3), messageId: "m3" }),
		]);
		expect(d.done).toEqual(["`csv_export.py` now streams its rows instead of buffering them all.", "Update json_export.py to stream rows instead of buffering them"]);
	});

	it("tells a passing check once: not when the reply says the same check passed in its own words", () => {
		const session = (command: string, reply: string) =>
			digestOf([
				userText("Make the parser accept trailing commas", at(0)),
				assistant(toolUse("e1", "Edit", { file_path: "/repo/src/parse.ts", old_string: "a", new_string: "b" }), { ...at(1), messageId: "m1" }),
				toolResult("e1", "The file has been updated.", at(1)),
				assistant(toolUse("t1", "TodoWrite", { todos: [{ content: "Allow a trailing comma in lists", status: "completed" }] }), { ...at(2), messageId: "m2" }),
				toolResult("t1", "Todos have been modified successfully.", at(2)),
				assistant(toolUse("b1", "Bash", { command }), { ...at(3), messageId: "m3" }),
				toolResult("b1", "ok", at(3)),
				assistant(text(reply), { ...at(4), messageId: "m4" }),
			]);
		const same = session("npm test", "The parser now accepts a trailing comma in lists and objects. All 24 tests pass.");
		expect(same.done).toEqual(["The parser now accepts a trailing comma in lists and objects.", "All 24 tests pass."]);
		// A build that passed is another check than the tests the reply names: it is told.
		const other = session("npm run build", "The parser now accepts a trailing comma in lists and objects. All 24 tests pass.");
		expect(other.done[0]).toBe("`npm run build` passes");
	});

	it("tells no todo that only ran something to check as done; one that ran a change is", () => {
		const d = digestOf([
			userText("Rename the config loader", at(0)),
			assistant(toolUse("t1", "TodoWrite", { todos: [{ content: "Rename loadConfig to readSettings", status: "completed" }, { content: "Run the linter to make sure nothing else broke", status: "completed" }, { content: "Run the codemod over the plugins folder", status: "completed" }] }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "Todos have been modified successfully.", at(1)),
			assistant(text("Renamed `loadConfig` to `readSettings` across the project."), { ...at(2), messageId: "m2" }),
		]);
		expect(d.done).toEqual(["Renamed `loadConfig` to `readSettings` across the project.", "Run the codemod over the plugins folder"]);
	});

	it("tells no todo that ran nothing but checks as done; one that says what the check came to still is", () => {
		const d = digestOf([
			userText("Split the parser into a lexer and a parser", at(0)),
			assistant(toolUse("t1", "TodoWrite", { todos: [{ content: "Move tokenizing into lexer.rs", status: "completed" }, { content: "Run the formatter, clippy and the unit tests", status: "completed" }, { content: "Run tests and ensure every branch is covered", status: "completed" }] }), { ...at(1), messageId: "m1" }),
			toolResult("t1", "Todos have been modified successfully.", at(1)),
			assistant(text("Tokenizing now lives in `lexer.rs`."), { ...at(2), messageId: "m2" }),
		]);
		expect(d.done).toEqual(["Tokenizing now lives in `lexer.rs`.", "Run tests and ensure every branch is covered"]);
	});

	it("leaves a closing question to the user open, and an unanswered request", () => {
		const asked = digestOf([
			userText("Refactor the cache layer", at(0)),
			assistant(text("The cache now lives in one module.\n\nShould I also migrate the old callers?"), { ...at(1), messageId: "m1" }),
		]);
		expect(asked.open).toEqual(["asked: Should I also migrate the old callers?"]);
		const cut = digestOf([userText("Refactor the cache layer", at(0)), assistant(text("Done: one module."), { ...at(1), messageId: "m1" }), userText("Now rename it to store", at(2))]);
		expect(cut.open).toEqual(["unanswered: Rename it to store"]);
	});

	it("passes over replies that only claim an end, and gives the latest word to the last task that said something", () => {
		const d = digestOf([
			userText("Make the importer skip blank rows", at(0)),
			assistant(toolUse("e1", "Edit", { file_path: "/p/src/importer.ts", old_string: "a", new_string: "b" }), { ...at(1), messageId: "m1" }),
			toolResult("e1", "ok", at(1)),
			assistant(text("All changes are complete. The importer now drops rows whose cells are all empty."), { ...at(2), messageId: "m2" }),
			userText("Also trim the header names", at(3)),
			assistant(text("Yep — classic issue. Header names are trimmed before they are matched, so ' id' finds the id column."), { ...at(4), messageId: "m3" }),
			// A last request the transcript holds no reply to: the task before is the latest word.
			userText("Push the branch to origin", at(5)),
			assistant(toolUse("b1", "Bash", { command: "git push", description: "Push the branch" }), { ...at(6), messageId: "m4" }),
		]);
		expect(d.done).toEqual([
			"Header names are trimmed before they are matched, so ' id' finds the id column.",
			"The importer now drops rows whose cells are all empty.",
		]);
		// It ended on a call with no reply after it: the request is unfinished.
		expect(d.open).toEqual(["unfinished: Push the branch to origin"]);
		// A reply that says something, then a last call: the step it stopped on is open.
		const cut = digestOf([
			userText("Tag the release", at(0)),
			assistant(text("The changelog lists the three fixes since 1.2.0."), { ...at(1), messageId: "m1" }),
			assistant(toolUse("b2", "Bash", { command: "git tag v1.3.0 && git push --tags", description: "Tag and push the release" }), { ...at(2), messageId: "m2" }),
		]);
		expect(cut.open).toEqual(["cut off during: Tag and push the release"]);
	});

	it("leaves a session's changes uncommitted when its agent offered to commit and nobody took the offer up", () => {
		const steps = (offer: string) => [
			userText("Rename the config loader", { ...at(0), cwd: "/repo" }),
			assistant(toolUse("e1", "Edit", { file_path: "/repo/src/config.ts", old_string: "load", new_string: "readConfig" }), { ...at(1), messageId: "m1", cwd: "/repo" }),
			toolResult("e1", "The file has been updated.", { ...at(1), cwd: "/repo" }),
			assistant(text(`Renamed \`load\` to \`readConfig\`. ${offer}`), { ...at(2), messageId: "m2", cwd: "/repo" }),
			userText("What else reads the config at startup?", { ...at(3), cwd: "/repo" }),
			assistant(text("Only the CLI entry point reads it, through `readConfig`."), { ...at(4), messageId: "m3", cwd: "/repo" }),
		];
		expect(digestOf(steps("Shall I commit this?")).open).toEqual(["left uncommitted: `src/config.ts`"]);
		resetIds();
		expect(digestOf(steps("Shall I also rename the tests?")).open).toEqual([]);
		// The person answered by committing it themselves, in Claude Code's shell mode: nothing is left.
		resetIds();
		const own = [...steps("Shall I commit this?"), userText('<bash-input>git commit -am "Rename the config loader"</bash-input>', { ...at(5), cwd: "/repo" }), userText("<bash-stdout>[main 4f2a9c1] Rename the config loader</bash-stdout><bash-stderr></bash-stderr>", { ...at(5), cwd: "/repo" })];
		expect(digestOf(own).open).toEqual([]);
		// Their own `git status` commits nothing.
		resetIds();
		const looked = [...steps("Shall I commit this?"), userText("<bash-input>git status</bash-input>", { ...at(5), cwd: "/repo" })];
		expect(digestOf(looked).open).toEqual(["left uncommitted: `src/config.ts`"]);
	});

	it("tells of a last task the transcript ends inside only what reports a change: the rest was said between steps", () => {
		const steps = (said: string) => [
			userText("Bring back the status dot in the login footer", at(0)),
			assistant(toolUse("r1", "Read", { file_path: "/app/src/LoginFooter.tsx" }), { ...at(1), messageId: "m1" }),
			toolResult("r1", "export function LoginFooter() {}", at(1)),
			assistant(text(said), { ...at(2), messageId: "m2" }),
			assistant(toolUse("b1", "Bash", { command: "npm test -- footer", description: "Run the footer tests" }), { ...at(3), messageId: "m3" }),
		];
		const d = digestOf(steps("Preflight is clean. The dot comes from `StatusDot` in the shared kit."));
		expect(d.done).toEqual([]);
		expect(d.open).toEqual(["cut off during: Run the footer tests"]);
		resetIds();
		expect(digestOf(steps("Removed the stale `hidden` prop, so the dot renders again.")).done).toEqual(["Removed the stale `hidden` prop, so the dot renders again."]);
	});

	it("says a session the user stopped last was interrupted by them, at the request or the step; not one they went on after", () => {
		const stopped = digestOf([
			userText("Research why scrolling back fails in the terminal", at(0)),
			assistant(toolUse("w1", "WebSearch", { query: "terminal scrollback tmux" }), { ...at(1), messageId: "m1" }),
			toolResult("w1", "The user doesn't want to proceed with this tool use.", { ...at(2), isError: true }),
			userText("[Request interrupted by user for tool use]", at(2)),
		]);
		expect(stopped.open).toEqual(["interrupted by the user: Research why scrolling back fails in the terminal"]);
		const atStep = digestOf([
			userText("Tag the release", at(0)),
			assistant(text("The changelog lists the three fixes since 1.2.0."), { ...at(1), messageId: "m1" }),
			assistant(toolUse("b2", "Bash", { command: "git tag v1.3.0 && git push --tags", description: "Tag and push the release" }), { ...at(2), messageId: "m2" }),
			userText("[Request interrupted by user]", at(3)),
		]);
		expect(atStep.open).toEqual(["interrupted by the user during: Tag and push the release"]);
		const wentOn = digestOf([
			userText("Tag the release", at(0)),
			assistant(toolUse("b3", "Bash", { command: "git tag v1.3.0", description: "Tag the release" }), { ...at(1), messageId: "m1" }),
			userText("[Request interrupted by user]", at(2)),
			userText("Call it v2.0.0 instead", at(3)),
			assistant(text("Tagged the release as v2.0.0 and pushed the tag."), { ...at(4), messageId: "m2" }),
		]);
		expect(wentOn.open).toEqual([]);
	});

	it("lists what a committed task's reply adds after the other evidence", () => {
		const d = digestOf([
			userText("Rename the config key and commit", at(0)),
			assistant(toolUse("c1", "Bash", { command: 'git commit -am "Rename timeout to timeoutMs"' }), { ...at(1), messageId: "m1" }),
			toolResult("c1", "[main 9f8e7d6] Rename timeout to timeoutMs", at(1)),
			assistant(text("Renamed `timeout` to `timeoutMs` in all three loaders; old configs still load."), { ...at(2), messageId: "m2" }),
		]);
		expect(d.done).toEqual(["commit 9f8e7d6: Rename timeout to timeoutMs", "Renamed `timeout` to `timeoutMs` in all three loaders; old configs still load."]);
		expect(d.open).toEqual([]);
	});

	it("tells an amended commit once, by the hash that stands, in the same task or a later one", () => {
		const d = digestOf([
			userText("Add the retry helper and commit it", at(0)),
			assistant(toolUse("c1", "Bash", { command: 'git commit -am "Add a retry helper"' }), { ...at(1), messageId: "m1" }),
			toolResult("c1", "[main aaaa111] Add a retry helper\n 2 files changed", at(1)),
			assistant(toolUse("c2", "Bash", { command: "git add src/backoff.ts && git commit --amend --no-edit" }), { ...at(2), messageId: "m2" }),
			toolResult("c2", "[main bbbb222] Add a retry helper\n Date: Mon Nov 20 10:01:00 2026\n 3 files changed", at(2)),
			assistant(text("Committed the retry helper with its backoff module."), { ...at(3), messageId: "m3" }),
			userText("Also log each retry, in the same commit", at(4)),
			assistant(toolUse("c3", "Bash", { command: 'git commit -a --amend -m "Add a retry helper that logs"' }), { ...at(5), messageId: "m4" }),
			toolResult("c3", "[main cccc333] Add a retry helper that logs", at(5)),
			assistant(text("Amended the commit: each retry is logged now."), { ...at(6), messageId: "m5" }),
		]);
		expect(d.done.filter((x) => x.startsWith("commit"))).toEqual(["commit cccc333: Add a retry helper that logs"]);
	});

	it("takes no finding said between steps as the result of a task the user stopped; a change it reports stands", () => {
		const d = digestOf([
			userText("Why does the nightly export skip the archive folder?", at(0)),
			assistant(text("The skip list isn't in the exporter's config. Added a log line to the exporter's walk. Let me search the whole repository."), { ...at(1), messageId: "m1" }),
			assistant(toolUse("g1", "Grep", { pattern: "skip" }), { ...at(2), messageId: "m2" }),
			toolResult("g1", "src/walk.ts:12: const skip = ['archive']", at(2)),
			userText("[Request interrupted by user]", at(3)),
			userText("Never mind that, make the export include the archive folder", at(4)),
			assistant(text("The export now includes the archive folder: removed it from the walk's skip list."), { ...at(5), messageId: "m3" }),
		]);
		expect(d.done.join("\n")).not.toContain("skip list isn't");
		expect(d.done).toContain("Added a log line to the exporter's walk.");
	});

	it("leaves nothing open for a step that applies only when the user needs it; a step still needed is open", () => {
		const reply = "Updated the README with both commands:\n\n1. **Regular update**: `pipx upgrade notes-cli` - for normal updates\n2. **Force reinstall**: `pipx reinstall notes-cli` - when you need to force a complete rebuild";
		const d = digestOf([userText("Document how to update the tool", at(0)), assistant(text(reply), { ...at(1), messageId: "m1" })]);
		expect(d.open).toEqual([]);
		const left = digestOf([userText("Document how to update the tool", at(0)), assistant(text("Updated the README. You still need to publish the docs site."), { ...at(1), messageId: "m1" })]);
		expect(left.open).toEqual(["You still need to publish the docs site."]);
	});

	it("takes no result from what a reply says of the options it lays out for the user to pick", () => {
		const reply = "Fixed the typo in the banner.\n\nTwo ways to word the notice:\n\n**Option A: Short**\n```\nAnother run is active.\n```\n\n**Option B: Detailed**\n```\nRun 42 is active since 10:02.\n```\n\nThe key changes from the current notice:\n- Removed the word \"Error\" (sounds alarming)\n- Dropped the run's internal id\n\nWhich one do you prefer?";
		const d = digestOf([
			userText("Reword the notice shown when another run is active", at(0)),
			assistant(toolUse("r1", "Read", { file_path: "/repo/src/notice.ts" }), { ...at(1), messageId: "m1" }),
			toolResult("r1", "export const notice = 'Error: conflict'", at(1)),
			assistant(text(reply), { ...at(2), messageId: "m2" }),
		]);
		expect(d.done).toEqual(["Fixed the typo in the banner."]);
		expect(d.open).toEqual(["asked: Which one do you prefer? (about: Reword the notice shown when another run is active)"]);
	});

	it("leaves open a closing question with its alternatives, not only its last \"Or …?\"", () => {
		const d = digestOf([
			userText("Check whether the flaky test still fails", at(0)),
			assistant(text("It passed 50 runs in a row, so the flake is gone.\n\nShould I:\n\n1. Delete the quarantine list?\n2. Or keep it in case it comes back?"), { ...at(1), messageId: "m1" }),
		]);
		expect(d.open).toEqual(["asked: Delete the quarantine list? Or keep it in case it comes back?"]);
	});

	it("leaves open what the last reply recommends when nobody answered it, naming the option it points at; an answered one is not open", () => {
		const reply =
			"The upload stalls because the retry queue lives in the worker that restarts.\n\n**Option 1: Persist the queue in Redis**\n\nSurvives restarts, adds a service.\n\n**Option 2: Keep the queue in the parent process**\n\nNo new service.\n\nI'd recommend Option 2 since you run a single host.";
		const asked = () => [userText("Why do uploads stall after a deploy?", at(0)), assistant(text(reply), { ...at(1), messageId: "m1" })];
		const d = digestOf(asked());
		expect(d.open).toEqual(["proposed, not answered: I'd recommend Option 2 (Keep the queue in the parent process) since you run a single host."]);
		expect(d.decisions).toEqual([]);
		expect(d.done.some((s) => /recommend/i.test(s))).toBe(false);
		resetIds();
		const answered = digestOf([...asked(), userText("ok, go with that", at(2)), assistant(text("Moved the retry queue into the parent process."), { ...at(3), messageId: "m2" })]);
		expect(answered.open).toEqual([]);
		// A step handed to the reader is not the agent's proposal.
		resetIds();
		expect(digestOf([userText("Fix the banner colour", at(0)), assistant(text("Changed the banner to the theme colour. You should see it after a reload."), { ...at(1), messageId: "m1" })]).open).toEqual([]);
		// Nor is what is expected to happen.
		resetIds();
		expect(digestOf([userText("Turn on the access log", at(0)), assistant(text("Enabled the access log. We should see the first lines within a minute."), { ...at(1), messageId: "m1" })]).open).toEqual([]);
	});

	it("leaves open the recommendation a last reply's section holds, nobody answering it, named by its heading", () => {
		const reply = "Profiled the cache misses.\n\n## Session cache — recommendation\n\n**Evict by LRU with a ten-minute TTL.** It bounds memory without a sweeper.\n\nNothing is changed yet.";
		const d = digestOf([userText("How should the session cache evict entries?", at(0)), assistant(text(reply), { ...at(1), messageId: "m1" })]);
		expect(d.open).toEqual(["proposed, not answered: Session cache — recommendation: Evict by LRU with a ten-minute TTL."]);
		expect(d.decisions).toEqual([]);
		// A section that tells proposals carried out holds none left open.
		resetIds();
		const applied = "Applied the reviewer's suggestions:\n\n- Renamed `fetchAll` to `loadAll`\n- Dropped the unused `--fast` flag";
		expect(digestOf([userText("Go through the review comments", at(0)), assistant(text(applied), { ...at(1), messageId: "m1" })]).open).toEqual([]);
		// An option's heading that says it is the recommended one is the proposal, not the first line under it.
		resetIds();
		const options = "**Option A: Keep the banner**\n\nShown on every page.\n\n**Option B: Toast only (my recommendation)**\n\nThe changes from today:\n- Shorter text\n\nWhich one do you prefer?";
		const o = digestOf([userText("Reword the sign-in notice", at(0)), assistant(text(options), { ...at(1), messageId: "m1" })]);
		expect(o.open).toEqual(["asked: Which one do you prefer? (about: Reword the sign-in notice)", "proposed, not answered: Option B: Toast only (my recommendation)"]);
	});

	it("takes a last reply that answers in blocks alone as an answer, not as work cut off", () => {
		const d = digestOf([
			userText("Where is the config file of this tool?", at(0)),
			assistant(text("**Config file:**\n\n```\n/home/dev/.config/tool/config.toml\n```"), { ...at(1), messageId: "m1" }),
		]);
		expect(d.open).toEqual([]);
		// Narration alone is still no answer.
		const cut = digestOf([userText("Where is the config file of this tool?", at(0)), assistant(text("Let me look for it."), { ...at(1), messageId: "m1" })]);
		expect(cut.open).toEqual(["unfinished: Where is the config file of this tool"]);
	});

	it("tells a pull request named after its commit by its link alone", () => {
		const d = digestOf([
			userText("Commit, push and open a PR", at(0)),
			assistant(toolUse("c1", "Bash", { command: 'git commit -m "Use a PAT for release-please"' }), { ...at(1), messageId: "m1" }),
			toolResult("c1", "[fix/ci 5769572] Use a PAT for release-please", at(1)),
			assistant(toolUse("p1", "Bash", { command: 'gh pr create --title "Use a PAT for release-please" --body "x"' }), { ...at(2), messageId: "m2" }),
			toolResult("p1", "https://github.com/acme/app/pull/106", at(2)),
			assistant(toolUse("p2", "Bash", { command: 'gh pr create --title "Docs: explain the token" --body "y"' }), { ...at(3), messageId: "m3" }),
			toolResult("p2", "https://github.com/acme/app/pull/107", at(3)),
		]);
		expect(d.done.slice(0, 3)).toEqual(["commit 5769572: Use a PAT for release-please", "PR https://github.com/acme/app/pull/106", 'PR "Docs: explain the token" https://github.com/acme/app/pull/107']);
	});

	it("tells a pull request once: not again as the reply's line that starts like one and gives the same link", () => {
		const d = digestOf([
			userText("Open a pull request for the retry fix", at(0)),
			assistant(toolUse("p1", "Bash", { command: 'gh pr create --title "Retry the upload on 503" --body "x"' }), { ...at(1), messageId: "m1" }),
			toolResult("p1", "https://github.com/acme/uploader/pull/42", at(1)),
			assistant(text("PR opened: https://github.com/acme/uploader/pull/42\n\nThe upload now retries three times on a 503."), { ...at(2), messageId: "m2" }),
		]);
		expect(d.done.filter((r) => r.includes("pull/42"))).toEqual(['PR "Retry the upload on 503" https://github.com/acme/uploader/pull/42']);
	});

	it("leaves open what the final reply leaves to the user or says is not there yet", () => {
		const d = digestOf([
			userText("Wire up the OAuth login", at(0)),
			assistant(
				text("The login button now redirects to the provider. The docs and the staging config are still uncommitted.\n\nTo get started:\n1. Register an OAuth app with redirect URI `http://localhost:5173`\n2. Put its client ID in `.env`"),
				{ ...at(1), messageId: "m1" },
			),
		]);
		expect(d.open).toEqual(["The docs and the staging config are still uncommitted.", "Register an OAuth app with redirect URI `http://localhost:5173`"]);
	});

	it("leaves open the list under a bold intro or a heading that says what is left, and tells none of it done", () => {
		const bold = digestOf([
			userText("Add the export endpoint", at(0)),
			assistant(text("Added `GET /export` with CSV and JSON output.\n\n**Next steps:**\n- Add pagination to the export\n- Document the CSV columns\n- Add a size limit"), { ...at(1), messageId: "m1" }),
		]);
		expect(bold.open).toEqual(["Add pagination to the export", "Document the CSV columns"]);
		expect(bold.done).toEqual(["Added `GET /export` with CSV and JSON output."]);
		const heading = digestOf([
			userText("Add the export endpoint", at(0)),
			assistant(text("Added `GET /export` with CSV and JSON output.\n\n## Remaining\n\n1. Rate-limit the export\n2. Add an audit log entry"), { ...at(1), messageId: "m1" }),
		]);
		expect(heading.open).toEqual(["Rate-limit the export", "Add an audit log entry"]);
		expect(heading.done).toEqual(["Added `GET /export` with CSV and JSON output."]);
	});

	it("leaves open the prose under a 'Next steps' heading, after a 'Next steps:' label, and what 'you'll need to' do", () => {
		const reply = (r: string) => digestOf([userText("Add the export endpoint", at(0)), assistant(text(r), { ...at(1), messageId: "m1" })]);
		const heading = reply("Added `GET /export` with CSV output.\n\n## Next steps\n\nRun the migration on staging before deploying.");
		expect(heading.open).toEqual(["Run the migration on staging before deploying."]);
		const labeled = reply("Added `GET /export` with CSV output.\n\n**Next steps**: deploy the worker and rotate the key.");
		expect(labeled.open).toEqual(["Deploy the worker and rotate the key."]);
		expect(labeled.done).toEqual(["Added `GET /export` with CSV output."]);
		const yours = reply("Added `GET /export` with CSV output. You'll need to run the migration on staging before deploying.");
		expect(yours.open).toEqual(["You'll need to run the migration on staging before deploying."]);
		expect(yours.done).toEqual(["Added `GET /export` with CSV output."]);
		// What the reader may need, in a case that may not come, is neither left to do nor done.
		const maybe = reply("Added `GET /export` with CSV output. You might need to restart the editor before the new route shows in its outline.");
		expect(maybe.open).toEqual([]);
		expect(maybe.done).toEqual(["Added `GET /export` with CSV output."]);
		// Unless it is a step the agent could not take and hands over, to be done by hand.
		const byHand = reply("Added `GET /export` with CSV output. There is no tool to remove pages, so you may want to delete the old export page manually.");
		expect(byHand.open).toEqual(["There is no tool to remove pages, so you may want to delete the old export page manually."]);
		expect(byHand.done).toEqual(["Added `GET /export` with CSV output."]);
		// One for a case that may not come is not.
		expect(reply("Added `GET /export` with CSV output. The script is in `bin/` in case you want to rebuild the index manually.").open).toEqual([]);
		// A label that only holds the words tells a result; prose after a list is no longer under its intro.
		const saved = reply("Todo saved: `.planning/todos/pending/export-limits.md`\n\nNext steps:\n- Add a size limit\n\nAll 12 export tests pass.");
		expect(saved.open).toEqual(["Add a size limit"]);
		expect(saved.done).toContain("All 12 export tests pass.");
	});

	it("leaves no listing's field open on its own: 'Status: Not planned yet' is named by its list's intro, or left out", () => {
		const listed = digestOf([
			userText("Insert a phase for the streaming encryption", at(0)),
			assistant(text("Phase 4.1 inserted after Phase 4:\n\n- **Description:** streaming encryption for media files\n- **Status:** Not planned yet\n- **Priority:** high"), { ...at(1), messageId: "m1" }),
		]);
		expect(listed.open).toEqual(["Phase 4.1 inserted after Phase 4 — status: Not planned yet"]);
		const alone = digestOf([
			userText("Insert a phase for the streaming encryption", at(0)),
			assistant(text("Inserted the phase.\n\nStatus: not planned yet."), { ...at(1), messageId: "m1" }),
		]);
		expect(alone.open).toEqual([]);
	});

	it("reads the choice a commit message tells after a long `git add` and its subject", () => {
		const files = Array.from({ length: 30 }, (_, i) => `lib/app/module_${i}.ex`).join(" ");
		const command = `git add ${files} && git commit -m "$(cat <<'EOF'\nfeat: message references\n\nKey changes:\n- TranscriptRenderer prefers the DB message id over the JSONL uuid\nEOF\n)"`;
		const d = digestOf([
			userText("Commit it", at(0)),
			assistant(toolUse("c1", "Bash", { command }), { ...at(1), messageId: "m1" }),
			toolResult("c1", "[main 3333333] feat: message references", at(1)),
		]);
		expect(d.decisions).toContain("TranscriptRenderer prefers the DB message id over the JSONL uuid");
	});

	it("names a step repeated per part once, so the steps after it still show", () => {
		expect(alike(["Set up the crate", "Port strings module", "Port math module", "Port lists module", "Update the Justfile"])).toEqual([
			"Set up the crate",
			"Port strings, math and lists module",
			"Update the Justfile",
		]);
		// Two alike, or alike only in their first word, stay as they are.
		expect(alike(["Port strings module", "Port math module"])).toEqual(["Port strings module", "Port math module"]);
		expect(alike(["Update README", "Update tests", "Update docs"])).toEqual(["Update README", "Update tests", "Update docs"]);
	});

	it("lets the user's choices and the agent's take turns, so many of the user's leave room for the agent's", () => {
		const d = digestOf([
			userText("Add a search box to the admin page. Let's use pnpm for it.", at(0)),
			assistant(text("Added the search box; results load as you type."), { ...at(1), messageId: "m1" }),
			userText("Let's keep the old listing API.", at(2)),
			assistant(text("Used a debounce on the input, since every keystroke hit the server."), { ...at(3), messageId: "m2" }),
			userText("Let's go with a dark theme for the results.", at(4)),
			assistant(text("The results now use the dark theme."), { ...at(5), messageId: "m3" }),
		]);
		expect(d.decisions[1]).toMatch(/^Used a debounce on the input/i);
		expect(d.decisions.filter((c) => c.startsWith("user chose: "))).toHaveLength(3);
	});

	it("tells a choice told only by its means after the user's choices, taking no turn of theirs", () => {
		const commit = "git commit -am \"$(cat <<'EOF'\nAdd the job queue\n\nWorkers use a lease column so a crashed worker's job is handed out again.\nEOF\n)\"";
		const d = digestOf([
			userText("Add a job queue. Let's use SQLite for it.", at(0)),
			assistant(toolUse("b1", "Bash", { command: commit }), { ...at(1), messageId: "m1" }),
			toolResult("b1", "[main 9a8b7c6] Add the job queue\n 3 files changed", at(1)),
			userText("Let's keep the jobs table separate from the users table.", at(2)),
			assistant(text("Moved the jobs into their own table."), { ...at(3), messageId: "m2" }),
		]);
		expect(d.decisions).toEqual(["user chose: let's use SQLite for it.", "user chose: let's keep the jobs table separate from the users table.", "Workers use a lease column so a crashed worker's job is handed out again."]);
	});

	it("keeps decisions stated as choices, with their reason, and no diagnosis", () => {
		const d = digestOf([
			userText("ok, fine, let's do vite", at(0)),
			assistant(text("The entry has a `content` field instead of a `message` field.\n\nI went with Vite over http-server because it is cross-platform."), { ...at(1), messageId: "m1" }),
		]);
		// The agent's wording of the user's choice is told on the user's line.
		expect(d.decisions).toEqual(["user chose: let's do vite — I went with Vite over http-server because it is cross-platform."]);
	});

	it("tells a choice its reply also gives as a result once, under Decided", () => {
		const d = digestOf([
			userText("The dashboard takes ages to draw its charts, please speed it up", at(0)),
			assistant(toolUse("e1", "Edit", { file_path: "/app/src/charts.ts", old_string: "d3", new_string: "uplot" }), { ...at(1), messageId: "m1" }),
			toolResult("e1", "The file /app/src/charts.ts has been updated.", at(1)),
			assistant(text("Switched the charts from D3 to uPlot instead, since it draws large series far faster.\n\nThe legend keeps its colors."), { ...at(2), messageId: "m2" }),
		]);
		expect(d.decisions).toEqual(["Switched the charts from D3 to uPlot instead, since it draws large series far faster."]);
		expect(d.done.filter((x) => x.includes("uPlot"))).toEqual([]);
	});

	it("takes the choices the session wrote down: its decision records, then what its commit bodies say, then its replies", () => {
		const commit = "git add -A && git commit -m \"$(cat <<'EOF'\nKeep one log file\n\nWrite every log to run.log instead of one file per job.\nEOF\n)\"";
		const d = digestOf([
			userText("Make the logs easier to follow", at(0)),
			assistant(text("Since every job already tags its lines, I'll drop the job name from each file name."), { ...at(1), messageId: "m1" }),
			assistant(toolUse("w1", "Write", { file_path: "/repo/docs/adr/0004-one-log-file.md", content: "# ADR-004: One log file for all jobs\n\nStatus: accepted" }), { ...at(2), messageId: "m2" }),
			toolResult("w1", "File created successfully at: /repo/docs/adr/0004-one-log-file.md", at(2)),
			assistant(toolUse("b1", "Bash", { command: commit }), { ...at(3), messageId: "m3" }),
			toolResult("b1", "[main 1a2b3c4] Keep one log file\n 2 files changed", at(3)),
			assistant(text("Committed: every job now logs to run.log."), { ...at(4), messageId: "m4" }),
		]);
		expect(d.decisions).toEqual(["One log file for all jobs", "Write every log to run.log instead of one file per job.", "Drop the job name from each file name, since every job already tags its lines."]);
		expect(d.done[0]).toBe("commit 1a2b3c4: Keep one log file");
	});

	it("titles by the plan, and counts active minutes without idle gaps", () => {
		const d = digestOf([
			userText("Fix ruby elements in Chrome", at(0)),
			assistant(toolUse("p1", "ExitPlanMode", { plan: "# Plan to fix ruby element support\n\n1. Use <ruby>" }), { ...at(5), messageId: "m1" }),
			toolResult("p1", "User has approved your plan.", at(6)),
			assistant(text("Ruby elements render in Chrome now."), { ...at(59), messageId: "m2" }),
		]);
		expect(d.title).toBe("Plan to fix ruby element support");
		expect(d.activeMinutes).toBe(5);
	});

	it("splits tokens into input, output, cache read and cache write", () => {
		const d = digestOf([
			userText("Explain the parser", at(0)),
			assistant(text("It reads one line at a time."), { ...at(1), messageId: "m1", usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 300, cache_creation_input_tokens: 40 } }),
		]);
		expect(d.tokens).toEqual({ input: 10, output: 20, cacheRead: 300, cacheWrite: 40 });
	});
});

describe("digestSession on hostile text", () => {
	// Bounded patterns and one pass over lines: a backtracking pattern would run into the test's timeout here.
	it("gets through replies built to make pattern matching backtrack, and keeps narration out", () => {
		resetIds();
		const reply = `${"prefer ".repeat(3_000)}\n${"```\n".repeat(5_000)}${"Let me ".repeat(2_000)}${"a, ".repeat(5_000)}?`;
		const d = digestOf([userText(`Fix it ${"x ".repeat(5_000)}`, at(0)), assistant(text(reply), { ...at(1), messageId: "m1" })]);
		expect([...d.done, ...d.open].join(" ")).not.toMatch(/let me/i);
	});
});

describe("digestSession on a session of thousands of choices", () => {
	beforeEach(() => resetIds());

	it("reads a reply of 20,000 stated choices in a moment, and tells the first ones (compared pair by pair, all of them took half a minute)", () => {
		const replies = Array.from({ length: 40 }, (_, k) =>
			assistant(text(Array.from({ length: 500 }, (_, i) => `We decided to use Store${k * 500 + i} for service${k * 500 + i} since it scales.`).join(" ")), { ...at(1), messageId: `m${k}` }),
		);
		const started = Date.now();
		const d = digestOf([userText("Pick the stores for the services", at(0)), ...replies]);
		// Far under the pairwise time, far over a linear one on a loaded machine (two cores, the other test files running).
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(d.decisions[0]).toBe("We decided to use Store0 for service0 since it scales.");
		expect(d.decisions.length).toBeLessThanOrEqual(5);
	});
});

describe("digestSession on a session of thousands of tasks", () => {
	beforeEach(() => resetIds());

	it("reads 8,000 tasks that write files and remove them, each leaving a step to the user, in a moment (every task went over every later one: 55 s)", () => {
		const records = Array.from({ length: 8_000 }, (_, k) => {
			const file = `/work/app/src/m${k % 4_000}.ts`;
			const call = k < 4_000 ? toolUse(`t${k}`, "Write", { file_path: file, content: "x" }) : toolUse(`t${k}`, "Bash", { command: `rm src/m${k % 4_000}.ts` });
			return [
				userText(`Task number ${k}: handle module ${k % 4_000}`, at(0)),
				assistant(call, { ...at(1), messageId: `c${k}` }),
				toolResult(`t${k}`, "ok", at(1)),
				assistant(text(`Done with module ${k % 4_000}. You still need to restart the server manually.`), { ...at(2), messageId: `r${k}` }),
			];
		}).flat();
		const started = Date.now();
		const d = digestOf(records);
		// Far under the pairwise time, far over a linear one on a loaded machine (two cores, the other test files running).
		expect(Date.now() - started).toBeLessThan(15_000);
		expect(d.asked.length).toBeGreaterThan(0);
	});
});
