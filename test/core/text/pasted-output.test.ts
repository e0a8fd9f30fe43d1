import { describe, expect, it } from "vitest";
import { outputMessage, pastedLines, shellCommand, typedBefore, withoutOutput } from "../../../src/core/text/pasted-output";

describe("withoutOutput", () => {
	it("empties a program's lines in place, keeps the person's, and cuts a message they quote again with the marker given", () => {
		const lines = [
			"The upload page fails for me",
			"uploader.js:41:9 Rejected the upload request because the quota was exceeded",
			"It says Rejected the upload request because the quota was exceeded, every time",
			"$ npm run serve",
			"listening on 3000",
			"",
			"Make the quota configurable",
		];
		expect(withoutOutput(lines, " | ")).toEqual(["The upload page fails for me", "", "It says  | , every time", "", "", "", "Make the quota configurable"]);
	});
});

describe("pastedLines", () => {
	it("tells each line's kind: the person's, a program's output, a terminal's, a help text's option, a form's field", () => {
		const lines = ["Here is what I see", "Last login: Fri Jan  9 22:01:05 on ttys000", "ana@hut:~$ ls", "notes.txt", "", "  -v, --verbose", "port:", "8080"];
		expect(pastedLines(lines)).toEqual(["typed", "output", "terminal", "terminal", "typed", "option", "field", "field"]);
	});
});

describe("shellCommand", () => {
	it("takes the command after a shell prompt, and nothing from a prompt without one or another line", () => {
		expect(shellCommand("ana@hut:~/box$ make all")).toBe("make all");
		expect(shellCommand("~ ✗ rm -r build")).toBe("rm -r build");
		expect(shellCommand("~ ✗")).toBeUndefined();
		expect(shellCommand("make all")).toBeUndefined();
	});
});

describe("outputMessage", () => {
	it("takes the source location off an output line's start or end, and keeps a line that is only one", () => {
		expect(outputMessage("index.js:12:7 Uncaught RangeError: too deep")).toBe("Uncaught RangeError: too deep");
		expect(outputMessage("  RangeError: too deep   worker.ts:3  ")).toBe("RangeError: too deep");
		expect(outputMessage("lib/main.dart:40")).toBe("lib/main.dart:40");
		expect(outputMessage("Retrying in 5s")).toBe("Retrying in 5s");
	});

	it("reads a line of 200,000 blanks or one long word in one pass (a pattern unanchored at its end went over the blanks once from each of its places)", () => {
		expect(outputMessage(`a${" ".repeat(200_000)}b`)).toBe(`a${" ".repeat(200_000)}b`);
		expect(outputMessage(`${"w".repeat(200_000)} x.js:1`)).toBe("w".repeat(200_000));
	});
});

describe("typedBefore", () => {
	it("gives the person's words before a banner or a time stamp on their line, none for a line a program's from its start", () => {
		expect(typedBefore("Deploy keeps failing Last login: Mon Mar  2 10:04:11 on ttys001")).toBe("Deploy keeps failing");
		expect(typedBefore("Is the cache the cause? 07:45:10 cache miss ratio 0.93")).toBe("Is the cache the cause?");
		expect(typedBefore("2026-03-02 10:04:11 INFO started")).toBe("");
		expect(typedBefore("ERROR 07:45:10 cache gone")).toBe("");
		expect(typedBefore("07:45:10 cache gone")).toBe("");
	});
});
