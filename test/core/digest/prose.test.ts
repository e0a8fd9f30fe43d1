import { describe, expect, it } from "vitest";
import { proseUnits, splitSentences, statementsOf } from "../../../src/core/digest/prose";

describe("prose", () => {
	it("ends a sentence whose emphasis or quote closes after the stop", () => {
		expect(splitSentences("**It's a solid phase, but a small one.** Here's why it fits in one.")).toEqual(["It's a solid phase, but a small one.", "Here's why it fits in one."]);
		expect(splitSentences('He said "the build is green." Then the deploy failed.')).toEqual(['He said "the build is green."', "Then the deploy failed."]);
		// No break inside a version or a file name.
		expect(splitSentences("Upgraded to v2.1 and kept app.ts as is.")).toEqual(["Upgraded to v2.1 and kept app.ts as is."]);
	});

	it("ends a sentence before one that starts with a lower-case name or command", () => {
		expect(splitSentences("That explains the freeze. swayidle started before the socket was up.")).toEqual(["That explains the freeze.", "swayidle started before the socket was up."]);
		expect(splitSentences("Fixed it. pnpm lint is clean now!")).toEqual(["Fixed it.", "pnpm lint is clean now!"]);
		expect(splitSentences("Is it cached? it was not.")).toEqual(["Is it cached?", "it was not."]);
		expect(splitSentences("The import moved to `db/pool.ts`. callers are updated.")).toEqual(["The import moved to `db/pool.ts`.", "callers are updated."]);
		expect(splitSentences("Pinned the runtime to v20.11. npm stays as it was.")).toEqual(["Pinned the runtime to v20.11.", "npm stays as it was."]);
	});

	it("does not end a sentence at an abbreviation, an initial, a number, a decimal, a version, a file name or an ellipsis", () => {
		for (const sentence of [
			"Prefer small helpers, e.g. one per route, over a big one.",
			"It reads env files, i.e. the local ones only.",
			"Logs, caches etc. are removed on each run.",
			"Compare tabs vs. spaces in the diff.",
			"Written by J. smith in the first draft.",
			"Do it in two steps: 1. stop the worker 2. drain the queue.",
			"The ratio went from 0.75 to 1.5 after the change.",
			"Pinned node to v20.11 and the client to 10.2.4 for now.",
			"Renamed config.yaml to settings.yaml in the repo.",
			"It waited... then the socket came up.",
		]) {
			expect(splitSentences(sentence)).toEqual([sentence]);
		}
	});

	it("takes a label with no value for no statement", () => {
		expect(statementsOf("Epic `app-7` created.\n\n- Depends on: —\n- Blocks: none yet").map((u) => u.text)).toEqual(["Epic `app-7` created.", "Blocks: none yet"]);
	});

	it("takes the items of a list the reply asks the user to fill in for questions, not statements", () => {
		const reply = "What shortcuts would you like to add? Please tell me:\n\n1. The key combination you want\n2. The action it should trigger\n\nThe config reloads by itself.";
		expect(statementsOf(reply).map((u) => u.text)).toEqual(["The config reloads by itself."]);
		const report = "Changes made:\n\n1. The key combination SUPER+V opens the clipboard\n2. The old binding is gone";
		expect(statementsOf(report).map((u) => u.text)).toEqual(["The key combination SUPER+V opens the clipboard", "The old binding is gone"]);
	});

	it("takes a bold line ending in a colon, or a short one wholly bold, as the intro of the list after it", () => {
		const units = proseUnits("Added the export.\n\n**Next steps:**\n- Add pagination\n\n**Remaining**\n- Write the docs");
		expect(units.filter((u) => u.kind === "item").map((u) => [u.text, u.section])).toEqual([
			["Add pagination", "next steps:"],
			["Write the docs", "remaining"],
		]);
	});

	it("takes a short line wholly bold and without a stop for a heading, no statement; one that ends in a stop stays one", () => {
		const reply = "Noted in memory.\n\n**Garden planner (raised beds)**\n- Tomatoes go in the sunny bed\n\n**The seed list is sorted.**";
		expect(statementsOf(reply).map((u) => u.text)).toEqual(["Noted in memory.", "Tomatoes go in the sunny bed", "The seed list is sorted."]);
	});

	it("ends an intro's section with the list after it, a heading's at the next heading; an indented line goes on with its item", () => {
		const units = proseUnits("Next steps:\n1. Deploy\n   with the new config\n2. Rotate the key\n\nAll tests pass.\n\n## Known issues\n\nThe export is slow.\n\n- Large files time out\n\nIt needs a stream.");
		expect(units.map((u) => [u.text, u.section])).toEqual([
			["Next steps:", ""],
			["Deploy", "next steps:"],
			["with the new config", "next steps:"],
			["Rotate the key", "next steps:"],
			["All tests pass.", ""],
			["The export is slow.", "known issues"],
			["Large files time out", "known issues"],
			["It needs a stream.", "known issues"],
		]);
		// A paragraph between an intro and its list is still the intro's.
		expect(proseUnits("To get started:\n\nInstall the CLI first.\n\n1. Register an app").map((u) => u.section)).toEqual(["", "to get started:", "to get started:"]);
	});

	it("keeps the heading a unit is under when a list's intro below it names its section", () => {
		const units = proseUnits("## Ideas\n\n**For the cache:**\n- Hash the keys\n\nThat is all.");
		expect(units.map((u) => [u.text, u.section, u.heading])).toEqual([
			["For the cache:", "ideas", "ideas"],
			["Hash the keys", "for the cache:", "ideas"],
			["That is all.", "ideas", "ideas"],
		]);
	});

	it("takes thanks returned, and the client's own 'No response requested.', for no statement", () => {
		expect(statementsOf("You're welcome! Glad I could help with the parser.\n\nNo response requested.\n\nThe parser handles quoted commas.").map((u) => u.text)).toEqual(["The parser handles quoted commas."]);
	});
});
