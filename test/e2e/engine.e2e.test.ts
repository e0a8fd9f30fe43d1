/**
 * The transcript engine on transcripts the real Claude Code writes today: a scripted session with
 * two prompts, thinking, Write, Edit, Bash (one failing), a foreground sub-agent, then a resume
 * with /compact. The engine must fold it with nothing unknown and nothing malformed.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTranscript } from "../fixtures/parse-transcript";
import { promptsOf, shellCommandsOf, subagentCallsOf, toolCallsOf } from "../../src/core/transcript/session-queries";
import { serializeSession } from "../../src/core/transcript/session-model";
import { openTranscriptIndex } from "../../src/node/transcript-index";
import { CLAUDE_CODE_VERSION, ensureClaudeCode, makeTempDir, runClaude, startStub, text, thinking, toolUse, type Stub } from "./harness/index.js";

describe("transcript engine on real Claude Code transcripts", () => {
	let stub: Stub;
	let root: string;
	beforeAll(async () => {
		ensureClaudeCode();
		stub = await startStub();
		root = makeTempDir("cc-engine-");
	});
	afterAll(async () => {
		await stub?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	it("folds prompts, files, commands, errors and the linked sub-agent, incrementally as in one piece", async () => {
		const home = join(root, "home");
		const cwd = join(root, "work", "shop-api");
		mkdirSync(cwd, { recursive: true });
		const file = join(cwd, "health.js");
		stub.setScript({
			rules: [
				{ match: "SUBAGENT: list", steps: [[toolUse("Bash", { command: "ls -1", description: "List files" })], "Found health.js."] },
				{
					match: "Add a health check",
					steps: [
						[thinking("A tiny module will do."), text("Adding the module."), toolUse("Write", { file_path: file, content: "export const health = () => 'ok';\n" })],
						[toolUse("Edit", { file_path: file, old_string: "'ok'", new_string: "({ status: 'ok' })" })],
						[toolUse("Bash", { command: "node --check health.js", description: "Check syntax" })],
						[toolUse("Bash", { command: "exit 3", description: "Fail on purpose" })],
						"Added health.js; it returns a status object.",
					],
				},
				{
					match: "What files are there",
					steps: [
						[toolUse("Agent", { description: "List files", prompt: "SUBAGENT: list the files in the project", subagent_type: "general-purpose", run_in_background: false })],
						"There is health.js.",
					],
				},
			],
			compactReply: "<summary>Added a health check module.</summary>",
		});

		const first = await runClaude({ home, cwd, stub, prompt: ["Add a health check module", "What files are there now?"] });
		expect(first.exitCode, first.stderr).toBe(0);
		const projects = join(home, ".claude", "projects");
		const index = openTranscriptIndex(projects);
		const r1 = await index.refresh();
		expect(r1.failed).toEqual([]);
		expect(r1.updated).toHaveLength(2); // the session and its sub-agent

		const second = await runClaude({ home, cwd, stub, prompt: "/compact", resume: first.sessionId });
		expect(second.exitCode, second.stderr).toBe(0);
		const r2 = await index.refresh();
		expect(r2.updated.map((u) => u.file.fileId)).toEqual([first.sessionId]);

		const [session] = (await index.sessions());
		expect(session?.file.fileId).toBe(first.sessionId);
		const model = session!.model;
		expect(model.cwd).toBe(cwd);
		expect(model.sessionIds).toEqual([first.sessionId]);
		expect(model.versions).toEqual([CLAUDE_CODE_VERSION]);
		expect(promptsOf(model).map((p) => `${p.kind}:${p.text}`)).toEqual(["prompt:Add a health check module", "prompt:What files are there now?", "command:/compact"]);
		expect(toolCallsOf(model).map((c) => c.name)).toEqual(["Write", "Edit", "Bash", "Bash", "Agent"]);
		expect(model.files).toEqual({ read: [], written: [file], edited: [file] });
		expect(shellCommandsOf(model).map((c) => [c.input.command, c.result?.isError])).toEqual([
			["node --check health.js", false],
			["exit 3", true],
		]);
		expect(model.counts).toMatchObject({ toolErrors: 1, thinking: 1, compactions: 1, malformed: 0, unknownRecords: 0, unknownBlocks: 0, duplicates: 0 });
		expect(model.tokens.output).toBeGreaterThan(0);
		expect(model.events.find((e) => e.kind === "compaction")).toMatchObject({ trigger: "manual" });

		// The sub-agent: its own transcript, linked to the parent's Agent call.
		const agentCall = subagentCallsOf(model)[0]!;
		expect(session!.subagents).toHaveLength(1);
		const agent = session!.subagents[0]!;
		expect(agent.toolUseId).toBe(agentCall.id);
		expect(agent.file.agentId).toBe(agentCall.agentId);
		expect(agent.meta?.agentType).toBe("general-purpose");
		expect(promptsOf(agent.model).map((p) => p.text)).toEqual(["SUBAGENT: list the files in the project"]);
		expect(shellCommandsOf(agent.model).map((c) => c.input.command)).toEqual(["ls -1"]);
		expect(agent.model.counts).toMatchObject({ malformed: 0, unknownRecords: 0, unknownBlocks: 0 });

		// Read in two steps (before and after the resume) = read in one piece.
		const whole = parseTranscript(readFileSync(session!.file.path), session!.file.fileId);
		expect(JSON.stringify(serializeSession(model))).toBe(JSON.stringify(serializeSession(whole)));
	});
});
