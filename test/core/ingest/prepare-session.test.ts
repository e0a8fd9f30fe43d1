import { describe, expect, it } from "vitest";
import { onlyRead, promptText } from "../../../src/core/ingest/prepare-session";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { jsonl, SESSION, userText } from "../../fixtures/lines";

function command(name: string, args: string): string {
	return `<command-message>${name}</command-message>\n<command-name>/${name}</command-name>\n<command-args>${args}</command-args>`;
}

describe("onlyRead", () => {
	it("keeps the files read and leaves out those the session also wrote or edited", () => {
		expect(onlyRead({ filesTouched: ["a/main.go", "a/util.go"], filesRead: ["a/main.go", "a/README.md", "a/util_test.go"] })).toEqual(["a/README.md", "a/util_test.go"]);
	});
});

describe("promptText", () => {
	it("reads a slash command's arguments when they ask for something in words, not when they set a value", () => {
		const model = parseTranscript(
			jsonl([userText(command("scaffold", "a booking calendar with Svelte and SQLite")), userText(command("model", "sonnet")), userText(command("add-dir", "../api  ../web")), userText("Now the reminders by email")]),
			SESSION,
		);
		expect(promptText(model)).toEqual(["a booking calendar with Svelte and SQLite", "Now the reminders by email"]);
	});
});
