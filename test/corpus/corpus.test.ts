import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseTranscript } from "../fixtures/parse-transcript";
import { assistantTextsOf, isEmptySession, isWarmupAgent, promptsOf, subagentCallsOf } from "../../src/core/transcript/session-queries";
import { openTranscriptIndex } from "../../src/node/transcript-index";

/** The real transcripts in ../shared (never copied into this repo). */
const ROOT = join(__dirname, "..", "..", "..", "shared", "corpus", "claude-transcripts");
const present = existsSync(ROOT);

/**
 * Per file: prompts (typed and `!` shell), slash commands, tool calls, failed tool calls, Task/Agent
 * calls, malformed lines. Checked by hand against the files and against an independent count
 * (the prompt filter of transcript-format.md §8, tool_use ids, is_error results).
 */
const EXPECTED: [file: string, prompts: number, commands: number, tools: number, toolErrors: number, subagentCalls: number, malformed: number][] = [
	["d-kimuson__claude-code-viewer/sample-project/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", 0, 1, 12, 1, 0, 0],
	["d-kimuson__claude-code-viewer/sample-project/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl", 0, 1, 21, 3, 3, 0],
	["d-kimuson__claude-code-viewer/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", 1, 1, 167, 23, 5, 0],
	["daaain__claude-code-log/-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl", 5, 1, 71, 6, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-JSSoundRecorder/agent-3430b97e.jsonl", 0, 0, 0, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/07f2e15c-a38b-454b-9148-60edc06de401.jsonl", 1, 0, 20, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl", 4, 3, 14, 3, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/12a546d1-83a7-49a6-abba-5400db340b43.jsonl", 2, 1, 35, 1, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/326189cf-5676-4237-8cde-1ce80aae4a9f.jsonl", 2, 0, 14, 2, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl", 0, 0, 0, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/agent-3be551df.jsonl", 1, 0, 0, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/b8b48015-0e89-4b2a-8438-bd16c8c50338.jsonl", 0, 0, 0, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl", 2, 1, 32, 6, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-coderabbit-review-helper/agent-659acfed.jsonl", 0, 0, 0, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-coderabbit-review-helper/agent-668b5ac2.jsonl", 1, 0, 7, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl", 5, 0, 76, 7, 1, 0],
	["daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/3680252d-d4e3-4416-bddd-8f5b5b4fdb7f.jsonl", 0, 1, 0, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/4379d1bf-ccb1-414e-a856-9791b73f3af2.jsonl", 1, 2, 2, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/5ed31c36-bca8-40fd-8d24-f1a1f0af7901.jsonl", 1, 0, 4, 0, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/9e953218-585f-4692-89df-9e0747a31c68.jsonl", 11, 0, 92, 10, 0, 0],
	["daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/b25638d7-b104-4f06-a797-70ac33d069ed.jsonl", 1, 0, 17, 1, 0, 0],
	// Seven typed, but the fifth edits the second (a rewind): the three it leaves are not the session's.
	["daaain__claude-code-log/-experiments-ideas/03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl", 4, 1, 2, 0, 0, 0],
	["daaain__claude-code-log/-experiments-ideas/a95fea4a-b88a-4e49-ac07-4cc323d8700c.jsonl", 0, 0, 0, 0, 0, 0],
	["daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl", 2, 1, 40, 0, 6, 0],
	["daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a36efb2a1231c41e2.jsonl", 1, 0, 7, 0, 0, 0],
	["daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a4ca7529859c158c2.jsonl", 1, 0, 24, 1, 0, 0],
	["daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a52886dc180afb356.jsonl", 1, 0, 17, 0, 0, 0],
	["daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-a6aa8ad077d9ea083.jsonl", 1, 0, 6, 0, 0, 0],
	["daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-ab1e6e141221a29ab.jsonl", 1, 0, 17, 2, 0, 0],
	["daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1/subagents/agent-aef063ba534d73153.jsonl", 1, 0, 6, 0, 0, 0],
	["daaain__claude-code-log/-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl", 7, 2, 108, 4, 1, 0],
	["daaain__claude-code-log/-src-deep-manifest/agent-c8d9b115.jsonl", 0, 0, 15, 1, 0, 0],
	["daaain__claude-code-log/-src-experiments-claude_p/256ba646-2c15-437a-98e9-4171aafd030e.jsonl", 1, 0, 3, 0, 0, 0],
	["daaain__claude-code-log/-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl", 1, 0, 1, 0, 1, 0],
	["daaain__claude-code-log/-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20/subagents/agent-a2271d1.jsonl", 1, 0, 24, 0, 0, 0],
	["daaain__claude-code-log/-src-experiments-claude_p/2b4ed4c0-b905-41de-9238-273db3ec737a.jsonl", 1, 0, 9, 6, 0, 0],
	["daaain__claude-code-log/-src-experiments-claude_p/94604a7b-062f-4369-bdf0-da948381c3e5.jsonl", 1, 0, 0, 0, 0, 0],
	["entireio__cli/05/a188c59540/0/full.jsonl", 2, 0, 14, 0, 0, 0],
	["entireio__cli/10/a740e118e0/0/full.jsonl", 1, 2, 4, 0, 1, 0],
	["entireio__cli/1e/868c83dbb7/0/full.jsonl", 8, 0, 13, 0, 0, 0],
	["entireio__cli/37/995ebed6e4/2/full.jsonl", 5, 0, 41, 2, 1, 0],
	["entireio__cli/4c/02af2759b6/0/full.jsonl", 1, 0, 1, 0, 1, 0],
	["entireio__cli/76/62d755ef9f/2/full.jsonl", 9, 0, 60, 0, 0, 0],
	["entireio__cli/8c/fa910f8ef9/5/full.jsonl", 3, 0, 58, 2, 0, 0],
	["entireio__cli/8e/0a64736bc7/0/full.jsonl", 4, 2, 31, 2, 0, 0],
	["entireio__cli/91/b42542f24f/1/full.jsonl", 2, 0, 59, 3, 0, 0],
	["entireio__cli/a6/e4c2a0fbd1/0/full.jsonl", 2, 1, 10, 0, 0, 0],
	["entireio__cli/c9/883595c929/0/full.jsonl", 1, 0, 1, 0, 0, 0],
	["entireio__cli/ec/38b74f08e3/0/full.jsonl", 3, 1, 5, 1, 0, 0],
];

describe.skipIf(!present)(`the real transcripts of ../shared/corpus${present ? "" : " (skipped: ../shared/corpus is not beside this clone)"}`, () => {
	it("lists every transcript of the corpus in the table", () => {
		const files = (readdirSync(ROOT, { recursive: true }) as string[]).filter((f) => f.endsWith(".jsonl")).map((f) => f.split("\\").join("/")).sort();
		expect(files).toEqual(EXPECTED.map((row) => row[0]).sort());
	});

	it.each(EXPECTED)("%s parses to the counts checked by hand", (file, prompts, commands, tools, toolErrors, subagentCalls, malformed) => {
		const name = file.split("/").pop() ?? "";
		const agentId = name.startsWith("agent-") ? name.slice(6, -6) : undefined;
		const model = parseTranscript(readFileSync(join(ROOT, file)), name.slice(0, -6), agentId);
		expect([model.counts.prompts, model.counts.slashCommands, model.counts.toolCalls, model.counts.toolErrors, subagentCallsOf(model).length, model.counts.malformed]).toEqual([
			prompts,
			commands,
			tools,
			toolErrors,
			subagentCalls,
			malformed,
		]);
		expect(model.counts.unknownRecords).toBe(0);
		expect(model.counts.unknownBlocks).toBe(0);
	});

	it("reads both records of the glued line of entireio 37/995ebed6e4: the session's last reply and its summary", () => {
		const model = parseTranscript(readFileSync(join(ROOT, "entireio__cli/37/995ebed6e4/2/full.jsonl")), "s");
		expect(model.malformedLines).toEqual([]);
		expect(assistantTextsOf(model).some((t) => t.text.startsWith("Done. I updated `TestLogging_IncludesContextValues`"))).toBe(true);
		expect(model.summaries.map((s) => s.text)).toContain("Add agent name to logging context automatically");
	});

	it("reads the 1 MB image line and keeps no image data", () => {
		const model = parseTranscript(readFileSync(join(ROOT, "daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl")), "s");
		expect(model.counts.images).toBe(1);
		expect(JSON.stringify(model.events).length).toBeLessThan(200_000);
	});

	it("follows a cwd change but keeps the first cwd as the project", () => {
		const model = parseTranscript(readFileSync(join(ROOT, "daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/9e953218-585f-4692-89df-9e0747a31c68.jsonl")), "s");
		expect(model.cwd).toBe("/Users/dain/workspace/danieldemmel.me-next");
		expect(model.cwds).toContain("/Users/dain/workspace/online-llm-tokenizer");
	});

	it("shows slash commands as typed, oldest form included", () => {
		const prompts = (file: string) => promptsOf(parseTranscript(readFileSync(join(ROOT, file)), "s")).map((p) => `${p.kind}:${p.text.slice(0, 40)}`);
		expect(prompts("d-kimuson__claude-code-viewer/sample-project/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")).toEqual(["command:/orchestrator @CLAUDE.md を最新の状態にアップデートして"]);
		expect(prompts("daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/fe869ecb-c176-478f-9734-7e4b8ef12cff.jsonl")).toContain("command:/clear");
		expect(prompts("daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/12a546d1-83a7-49a6-abba-5400db340b43.jsonl")).toContain("shell:!uv run pytest -m browser -v");
	});

	it("counts tokens once per message id", () => {
		const model = parseTranscript(readFileSync(join(ROOT, "daaain__claude-code-log/-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl")), "s");
		expect(model.counts.assistantMessages).toBe(17);
		expect(model.tokens.output).toBeGreaterThan(0);
		expect(model.models).toEqual(["claude-opus-4-7"]);
		expect(model.versions).toEqual(["2.1.114"]);
	});

	it("knows empty and metadata-only files for what they are", () => {
		for (const file of [
			"daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/b8b48015-0e89-4b2a-8438-bd16c8c50338.jsonl",
			"daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/4e27c414-a885-46a0-b5c8-d58e1417377d.jsonl",
			"daaain__claude-code-log/-experiments-ideas/a95fea4a-b88a-4e49-ac07-4cc323d8700c.jsonl",
			// Leftover summaries and a bare `/model`: nothing typed, nothing said.
			"daaain__claude-code-log/-Users-dain-workspace-danieldemmel-me-next/3680252d-d4e3-4416-bddd-8f5b5b4fdb7f.jsonl",
		]) expect(isEmptySession(parseTranscript(readFileSync(join(ROOT, file)), "s"))).toBe(true);
		const warmup = parseTranscript(readFileSync(join(ROOT, "daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/agent-3be551df.jsonl")), "agent-3be551df", "3be551df");
		expect(isWarmupAgent(warmup)).toBe(true);
	});

	it("links every sub-agent transcript to its parent's call, in both layouts", async () => {
		const index = openTranscriptIndex(join(ROOT, "daaain__claude-code-log"));
		const result = await index.refresh();
		expect(result.failed).toEqual([]);
		const links = Object.fromEntries((await index.sessions()).filter((s) => s.subagents.length > 0).map((s) => [s.file.fileId, s.subagents.map((a) => [a.file.agentId, a.toolUseId !== undefined, a.meta?.agentType ?? null]).sort()]));
		expect(links).toEqual({
			"7acd37a8-2745-4b58-a8a9-46164b22ad9e": [["3430b97e", false, null]],
			"a7da6a22-facc-4fcd-8bab-f83c87862004": [["c8d9b115", true, null]],
			"29ccd257-68b1-427f-ae5f-6524b7cb6f20": [["a2271d1", true, null]],
			"ef958aa1-0e93-49f0-bb71-150f63befcd1": ["a36efb2a1231c41e2", "a4ca7529859c158c2", "a52886dc180afb356", "a6aa8ad077d9ea083", "ab1e6e141221a29ab", "aef063ba534d73153"].map((id) => [id, true, "general-purpose"]),
		});
	});

	it("reads every newline-terminated file through the tail reader exactly as in one piece", async () => {
		const index = openTranscriptIndex(join(ROOT, "daaain__claude-code-log"));
		await index.refresh();
		for (const entry of index.loaded()) {
			const whole = parseTranscript(readFileSync(entry.file.path), entry.file.fileId, entry.file.agentId);
			expect(entry.model.counts).toEqual(whole.counts);
		}
	});
});
