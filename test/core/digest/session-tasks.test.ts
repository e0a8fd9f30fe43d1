import { beforeEach, describe, expect, it } from "vitest";
import { sessionTasks } from "../../../src/core/digest/session-tasks";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, text, userBlocks, userText } from "../../fixtures/lines";

const asksOf = (records: unknown[]) => sessionTasks(parseTranscript(Buffer.from(jsonl(records)), SESSION)).map((t) => t.ask);

describe("sessionTasks", () => {
	beforeEach(() => resetIds());

	it("tells a custom command run without arguments by what its prompt asks, as the command's", () => {
		const asks = asksOf([
			userText("<command-message>ship</command-message>\n<command-name>/ship</command-name>", { uuid: "c1" }),
			userBlocks([text("  Tag a release for the work on this branch and push the tag. \n\n  Steps:\n  1. Read the changelog")], { isMeta: true, parentUuid: "c1" }),
			assistant(text("Tagged v2.3.0 and pushed it.")),
		]);
		expect(asks).toEqual(["/ship: Tag a release for the work on this branch and push the tag."]);
	});

	it("tells a command whose prompt is a template with nothing asked of its own by its name", () => {
		const asks = asksOf([
			userText("<command-message>audit</command-message>\n<command-name>/audit</command-name>", { uuid: "c1" }),
			userBlocks([text("# Security audit checklist\n\n- Inputs are validated\n- Tokens never logged")], { isMeta: true, parentUuid: "c1" }),
			assistant(text("Went through the checklist: two endpoints skip validation.")),
			userText("fix the two endpoints that skip validation"),
			assistant(text("Both endpoints validate their input now.")),
		]);
		expect(asks).toEqual(["/audit", "Fix the two endpoints that skip validation"]);
	});

	it("keeps the arguments as the ask when a command has them, and a built-in command's own prompt asks nothing", () => {
		const asks = asksOf([
			userText("<command-name>/ship</command-name>\n<command-args>only the api package</command-args>", { uuid: "c1" }),
			userBlocks([text("Tag a release and push the tag.")], { isMeta: true, parentUuid: "c1" }),
			assistant(text("Tagged.")),
			userText("<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>", { uuid: "c2" }),
			userBlocks([text("Please analyze this codebase and create a CLAUDE.md file.")], { isMeta: true, parentUuid: "c2" }),
			assistant(text("Wrote CLAUDE.md.")),
		]);
		expect(asks).toEqual(["/ship Only the api package", "/init"]);
	});

	it("leaves the work after a form's fields given in reply to the task that asked for them", () => {
		const asks = asksOf([
			userText("apply the schema migration to the staging database"),
			assistant(text("Paste the connection details and I will apply it.")),
			userText("host:\npg.staging.example\n\nport:\n6432\n\nuser:\nmigrator"),
			assistant(text("Applied the migration to staging.")),
		]);
		expect(asks).toEqual(["Apply the schema migration to the staging database"]);
	});
});
