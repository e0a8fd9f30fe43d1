import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldCopilotLines } from "../../../src/core/transcript/copilot-fold";
import { serializeSession } from "../../../src/core/transcript/session-model";
import { foldInPieces } from "../../fixtures/fold-pieces";
import { promptsOf, toolCallsOf } from "../../../src/core/transcript/session-queries";

/** Copilot CLI 1.0.102 sessions recorded from the real client in its bring-your-own-key mode against a stub. */
const ROOT = join(__dirname, "..", "..", "fixtures", "agents", "copilot-cli", "1.0.102");
const files = readdirSync(ROOT, { recursive: true })
	.map(String)
	.filter((f) => f.endsWith("events.jsonl"))
	.sort();
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");
const scenario = (name: string) => files.find((f) => f.startsWith(`${name}/`))!;

const fold = (text: string, cut?: number) => foldInPieces(foldCopilotLines, "copilot-cli", text, cut);

describe("the Copilot CLI fold, on recorded sessions", () => {
	it.each(files)("%s: no bad line, the session's id, version and folder; read in two pieces, the same model", (f) => {
		const text = read(f);
		const whole = fold(text);
		expect(whole.counts.malformed).toBe(0);
		expect(whole.counts.unknownRecords).toBe(0);
		expect(whole.sessionIds).toHaveLength(1);
		expect(whole.versions).toEqual(["1.0.102"]);
		expect(whole.cwd).toMatch(/\/project$/);
		expect(JSON.stringify(serializeSession(fold(text, Math.floor(text.length / 2) + 3)))).toBe(JSON.stringify(serializeSession(whole)));
	});

	it("tool calls: the commands with their exit codes, a failing read, the files a patch touched", () => {
		const model = fold(read(scenario("b-tool-calls")));
		expect(promptsOf(model).map((p) => p.text)).toEqual(["Inspect the project: read the README, run two commands, and add notes."]);
		const calls = toolCallsOf(model);
		const bash = calls.filter((c) => c.name === "Bash");
		expect(bash.map((c) => c.input.command)).toEqual(["echo from-bash && ls", "echo about to fail >&2; exit 3"]);
		expect(bash[1]?.result?.isError).toBe(true);
		expect(bash[0]?.result?.isError).toBe(false);
		expect(calls.filter((c) => c.name === "Read").map((c) => c.result?.isError)).toEqual([false, true]);
		expect(model.files.written.some((f) => f.endsWith("/NOTES.md"))).toBe(true);
		expect(model.files.edited.some((f) => f.endsWith("/src/hello.js"))).toBe(true);
		expect(model.files.read.some((f) => f.endsWith("/README.md"))).toBe(true);
		expect(model.gitBranch).toBe("feature/demo");
		expect(model.tokens.input).toBeGreaterThan(7000 * 5 - 1);
	});

	it("names a prompt, a reply or a tool's output whose text is of another kind as a line not read: it was read as no text, without a word", () => {
		const lines = read(scenario("b-tool-calls")).split("\n");
		const at = (type: string) => lines.findIndex((l) => l.includes(`"type":"${type}"`));
		const damage = (i: number, change: (data: Record<string, unknown>) => void) => {
			const value = JSON.parse(lines[i]!) as { data: Record<string, unknown> };
			change(value.data);
			lines[i] = JSON.stringify(value);
		};
		// Our own damage: the prompt as a list of lists, a reply's reasoning as an object, an output as a number.
		const [prompt, reply, output] = [at("user.message"), at("assistant.message"), at("tool.execution_complete")];
		damage(prompt, (d) => (d.content = [["look around the project"]]));
		damage(reply, (d) => (d.reasoningText = { text: "thinking" }));
		damage(output, (d) => (d.result = { content: 3 }));
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual([
			{ line: prompt + 1, reason: "the user.message event's content is not text" },
			{ line: reply + 1, reason: "the assistant.message event's reasoningText is not text" },
			{ line: output + 1, reason: "the tool.execution_complete event's result's content is not text" },
		]);
		expect(promptsOf(model)).toEqual([]);
	});

	it("names a reply whose tool request has a name or arguments of another kind as a line not read, and keeps the reply's text and its sound requests", () => {
		const lines = read(scenario("a-plain-text")).split("\n");
		const reply = (messageId: string, content: string, toolRequests: unknown) => JSON.stringify({ type: "assistant.message", data: { messageId, content, toolRequests }, id: messageId, timestamp: "2026-12-01T10:00:00.000Z" });
		// Our own replies: a name as a list beside a sound request, arguments as a list, requests as text.
		lines.splice(
			1,
			0,
			reply("own-1", "Checking the build.", [
				{ toolCallId: "own-call-1", name: ["bash"], arguments: { command: "make" } },
				{ toolCallId: "own-call-2", name: "bash", arguments: { command: "make check" } },
			]),
			reply("own-2", "", [{ toolCallId: "own-call-3", name: "bash", arguments: ["make", "all"] }]),
			reply("own-3", "", "make"),
		);
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual([
			{ line: 2, reason: "the assistant.message event's tool request 1's name is not text" },
			{ line: 3, reason: "the assistant.message event's tool request 1's arguments are neither an object nor text" },
			{ line: 4, reason: "the assistant.message event's toolRequests is not a list" },
		]);
		expect(model.events.some((e) => e.kind === "text" && e.text === "Checking the build.")).toBe(true);
		expect(toolCallsOf(model).filter((c) => c.id.startsWith("own-")).map((c) => [c.id, c.input.command])).toEqual([["own-call-2", "make check"]]);
	});

	it("names an event whose agentId is not text as a line not read: a sub-agent's task was read as the person's prompt", () => {
		const lines = read(scenario("a-plain-text")).split("\n");
		const before = promptsOf(fold(lines.join("\n"))).map((p) => p.text);
		// Our own sub-agent task, its agent's id a number.
		lines.splice(1, 0, JSON.stringify({ type: "user.message", agentId: 7, data: { content: "Look through the tests for flaky ones", source: "user", messageId: "own-1" }, id: "own-e1", timestamp: "2026-12-01T10:00:00.000Z" }));
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual([{ line: 2, reason: "the user.message event's agentId is not text" }]);
		expect(promptsOf(model).map((p) => p.text)).toEqual(before);
	});

	it("a resumed session: each run's prompt, in one file", () => {
		expect(promptsOf(fold(read(scenario("c-resume")))).length).toBe(3);
	});

	it("a sub-agent's work is the session's sidechain, and its task is no prompt of the person's", () => {
		const model = fold(read(scenario("d-subagent")));
		expect(promptsOf(model).map((p) => p.text)).toEqual(["Delegate this to a sub-agent: what is the README title?"]);
		expect(model.events.some((e) => e.kind === "text" && e.sidechain !== undefined && e.text.includes("SUBAGENT RESULT"))).toBe(true);
	});

	it("counts the events of a type of no family 1.0 writes (a newer format), so a file of them alone is named; its own bookkeeping is not counted", () => {
		const line = (type: string) => JSON.stringify({ type, data: {}, id: type, timestamp: "2026-12-01T10:00:00.000Z" });
		const model = fold([line("conversation.opened"), line("turn.v2"), line("assistant.turn_start"), line("abort")].join("\n") + "\n");
		expect(model.unknownTypes).toEqual({ "copilot:conversation.opened": 1, "copilot:turn.v2": 1 });
		expect(model.counts.records).toBe(4);
	});

	it("counts a bad line with its number and goes on", () => {
		const lines = read(scenario("a-plain-text")).split("\n");
		lines.splice(1, 0, "{not json");
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual([{ line: 2, reason: "invalid JSON" }]);
		expect(promptsOf(model)).toHaveLength(1);
	});
});
