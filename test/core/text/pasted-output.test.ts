import { describe, expect, it } from "vitest";
import { withoutOutput } from "../../../src/core/text/pasted-output";

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
