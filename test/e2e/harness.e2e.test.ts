/**
 * Proves the e2e harness: the real Claude Code CLI runs a scripted multi-prompt
 * session against the local stub, really executes Write/Edit/Bash and a
 * sub-agent, and leaves transcripts in the current on-disk format.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	CLAUDE_CODE_VERSION,
	ensureClaudeCode,
	listTranscripts,
	makeTempDir,
	runClaude,
	startStub,
	text,
	toolUse,
	type Stub,
} from "./harness/index.js";

interface Rec {
	type: string;
	subtype?: string;
	isSidechain?: boolean;
	agentId?: string;
	sessionId?: string;
	message?: { role: string; content: unknown };
	toolUseResult?: Record<string, unknown>;
	attachment?: { type: string; [k: string]: unknown };
}

function readJsonl(path: string): Rec[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l) as Rec);
}

describe("e2e harness: real Claude Code against the stub API", () => {
	let stub: Stub;
	let root: string;

	beforeAll(async () => {
		ensureClaudeCode(); // install on first use (cached in .cache/claude-code/<version>)
		stub = await startStub();
		root = makeTempDir("cc-harness-");
	});
	afterAll(async () => {
		await stub?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	it("runs a scripted multi-prompt session with Write, Edit, Bash and a sub-agent", async () => {
		const home = join(root, "home");
		const cwd = join(root, "work", "demo-app");
		mkdirSync(cwd, { recursive: true });
		writeFileSync(join(cwd, "CLAUDE.md"), "# demo-app\nCLAUDE-MD-MARKER: prefer small functions.\n");
		// A hook in the fake HOME's settings must run (later features install hooks there).
		mkdirSync(join(home, ".claude"), { recursive: true });
		writeFileSync(
			join(home, ".claude", "settings.json"),
			JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo HOOK-MARKER" }] }] } }),
		);
		const file = join(cwd, "greet.js");

		stub.setScript({
			rules: [
				{
					name: "sub-agent",
					match: "SUBAGENT-TASK",
					steps: [
						[text("Counting lines."), toolUse("Bash", { command: "wc -l < greet.js > lines.txt", description: "Count lines of greet.js" })],
						"greet.js has 1 line.",
					],
				},
				{
					name: "first prompt",
					match: "Create greet.js",
					steps: [
						[text("I'll create the file."), toolUse("Write", { file_path: file, content: 'console.log("hello world");\n' })],
						[toolUse("Edit", { file_path: file, old_string: "hello world", new_string: "hello there" })],
						[toolUse("Bash", { command: "echo hi", description: "Print hi" })],
						"Created greet.js and checked the shell works.",
					],
				},
				{
					name: "second prompt",
					match: "Count the lines",
					steps: [
						[
							text("Delegating to a sub-agent."),
							toolUse("Agent", {
								description: "Count lines",
								prompt: "SUBAGENT-TASK: count the lines of greet.js into lines.txt",
								subagent_type: "general-purpose",
								run_in_background: false,
							}),
						],
						"The sub-agent counted the lines.",
					],
				},
			],
		});

		const r = await runClaude({ home, cwd, stub, prompt: ["Create greet.js that prints a greeting", "Count the lines of greet.js"] });
		const diag = `exit ${r.exitCode}\nstderr: ${r.stderr.slice(0, 2000)}\nstdout: ${r.stdout.slice(-2000)}`;
		expect(r.exitCode, diag).toBe(0);
		expect(r.results.map((x) => x.result)).toEqual(["Created greet.js and checked the shell works.", "The sub-agent counted the lines."]);

		// Tools really ran.
		expect(readFileSync(file, "utf8")).toBe('console.log("hello there");\n');
		expect(readFileSync(join(cwd, "lines.txt"), "utf8").trim()).toBe("1");

		// Transcripts: one main session + one sub-agent.
		expect(r.sessionId).toMatch(/^[0-9a-f-]{36}$/);
		expect(r.transcriptPath).toBeDefined();
		expect(existsSync(r.transcriptPath!)).toBe(true);
		const all = listTranscripts(home);
		const subs = all.filter((t) => t.agentId !== undefined);
		expect(all.filter((t) => t.agentId === undefined).map((t) => t.sessionId)).toEqual([r.sessionId]);
		expect(subs).toHaveLength(1);
		expect(subs[0]!.relPath).toMatch(new RegExp(`^-[^/]*demo-app/${r.sessionId}/subagents/agent-[0-9a-f]+\\.jsonl$`));

		const main = readJsonl(r.transcriptPath!);
		const prompts = main.filter((x) => x.type === "user" && typeof x.message?.content === "string").map((x) => x.message?.content);
		expect(prompts).toEqual(["Create greet.js that prints a greeting", "Count the lines of greet.js"]);
		const toolNames = main
			.filter((x) => x.type === "assistant")
			.flatMap((x) => (x.message?.content as Array<{ type: string; name?: string }>) ?? [])
			.filter((b) => b.type === "tool_use")
			.map((b) => b.name);
		expect(toolNames).toEqual(["Write", "Edit", "Bash", "Agent"]);
		// The sub-agent is linked from the parent's Agent tool_result.
		const agentResult = main.find((x) => x.toolUseResult && typeof x.toolUseResult.agentId === "string");
		expect(agentResult?.toolUseResult?.agentId).toBe(subs[0]!.agentId);
		const sub = readJsonl(subs[0]!.path);
		expect(sub.some((x) => x.type === "user" && x.isSidechain === true && x.agentId === subs[0]!.agentId)).toBe(true);
		expect(sub.every((x) => x.sessionId === undefined || x.sessionId === r.sessionId)).toBe(true);

		// The stub saw every request; the main thread and the sub-agent both talked to it.
		const mains = stub.mainRequests();
		expect(mains.filter((q) => !q.subagent).length).toBe(6); // 4 steps + 2 steps
		expect(mains.filter((q) => q.subagent).length).toBe(2);
		expect(mains.filter((q) => q.subagent).map((q) => q.agentId)).toEqual([subs[0]!.agentId, subs[0]!.agentId]);
		expect(mains.every((q) => q.rule !== undefined)).toBe(true);
		const firstBody = JSON.stringify(mains[0]!.body);
		expect(firstBody).toContain("CLAUDE-MD-MARKER");
		expect(firstBody).toContain("HOOK-MARKER");
		const tools = ((mains[0]!.body as { tools: Array<{ name: string }> }).tools ?? []).map((t) => t.name);
		expect(tools).toEqual(expect.arrayContaining(["Agent", "Bash", "Edit", "Read", "Write"]));
	});

	it("continues a session with --resume", async () => {
		const home = join(root, "home2");
		const cwd = join(root, "work", "resume-app");
		stub.setScript({ rules: [{ match: "one", steps: ["First answer."] }, { match: "two", steps: ["Second answer."] }] });
		const a = await runClaude({ home, cwd, stub, prompt: "prompt one" });
		expect(a.exitCode, a.stderr).toBe(0);
		const b = await runClaude({ home, cwd, stub, prompt: "prompt two", resume: a.sessionId });
		expect(b.exitCode, b.stderr).toBe(0);
		expect(b.sessionId).toBe(a.sessionId);
		expect(b.transcriptPath).toBe(a.transcriptPath);
		const prompts = readJsonl(b.transcriptPath!)
			.filter((x) => x.type === "user" && typeof x.message?.content === "string")
			.map((x) => x.message?.content);
		expect(prompts).toEqual(["prompt one", "prompt two"]);
		expect(b.results.map((x) => x.result)).toEqual(["Second answer."]);
	});

	it("pins one Claude Code version", () => {
		expect(CLAUDE_CODE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
	});
});
