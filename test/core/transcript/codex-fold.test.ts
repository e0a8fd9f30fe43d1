import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldCodexLines } from "../../../src/core/transcript/codex-fold";
import { createSession, serializeSession } from "../../../src/core/transcript/session-model";
import { splitCompleteLines } from "../../../src/core/transcript/jsonl-lines";
import { foldInPieces } from "../../fixtures/fold-pieces";
import { promptsOf, toolCallsOf } from "../../../src/core/transcript/session-queries";

/** Codex CLI rollouts recorded from the real client (0.60.1, 0.140.0, 0.171.0) against a stub of the Responses API. */
const ROOT = join(__dirname, "..", "..", "fixtures", "agents", "codex");
const rollouts = readdirSync(ROOT, { recursive: true })
	.map(String)
	.filter((f) => /rollout-.*\.jsonl$/.test(f))
	.sort();
const scenario = (name: string) => rollouts.filter((f) => f.includes(`/${name}/`));

const fold = (text: string, cut?: number) => foldInPieces(foldCodexLines, "codex", text, cut);
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");

describe("the Codex fold, on hostile lines", () => {
	it("counts a line whose type is no string as an unknown type, and a type named like an object's property like any other", () => {
		const lines = [{ timestamp: "2026-12-01T15:40:15.280Z", type: { toString: 1 }, payload: {} }, { timestamp: "2026-12-01T15:40:16.280Z", type: "toString", payload: {} }, { timestamp: "2026-12-01T15:40:17.280Z", type: "toString", payload: {} }];
		const model = fold(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		expect(model.unknownTypes).toEqual({ 'codex:{"toString":1}': 1, "codex:toString": 2 });
	});
});

describe("the Codex fold, on outputs nested deep", () => {
	it("keeps a call whose output is JSON nested 100,000 deep, as text or as a value, and the session's prompt (writing it out again overflowed the stack)", () => {
		const ts = "2026-12-01T15:40:15.280Z";
		const deep = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);
		const call = (id: string) => JSON.stringify({ timestamp: ts, type: "response_item", payload: { type: "function_call", name: "mcp_tool", arguments: "{}", call_id: id } });
		const lines = [
			JSON.stringify({ timestamp: ts, type: "event_msg", payload: { type: "user_message", message: "read the deep file" } }),
			call("c1"),
			JSON.stringify({ timestamp: ts, type: "response_item", payload: { type: "function_call_output", call_id: "c1", output: deep } }),
			call("c2"),
			JSON.stringify({ timestamp: ts, type: "response_item", payload: { type: "function_call_output", call_id: "c2", output: "OUTPUT" } }).replace('"OUTPUT"', deep),
		];
		const model = fold(`${lines.join("\n")}\n`);
		expect(promptsOf(model).map((p) => p.text)).toEqual(["read the deep file"]);
		const [first, second] = toolCallsOf(model);
		expect(first!.result?.text.startsWith('{"a":{"a":')).toBe(true);
		expect(second!.result?.text).toBe("(an output nested too deep to show)");
	});
});

describe("the Codex CLI fold, on recorded rollouts", () => {
	it("has recordings of three versions", () => {
		expect(new Set(rollouts.map((f) => f.split("/")[0]))).toEqual(new Set(["0.60.1", "0.140.0", "0.171.0"]));
	});

	it.each(rollouts)("%s: the person's prompts and the replies, not what the client injected", (f) => {
		const model = fold(read(f));
		const prompts = promptsOf(model).map((p) => p.text);
		expect(prompts.length).toBeGreaterThan(0);
		for (const p of prompts) expect(p).not.toMatch(/AGENTS\.md instructions|<environment_context>|<INSTRUCTIONS>/);
		expect(model.events.some((e) => e.kind === "text")).toBe(true);
		expect(model.cwd).toMatch(/\/project$/);
		expect(model.versions[0]).toBe(f.split("/")[0]);
		expect(model.sessionIds).toHaveLength(1);
		expect(model.counts.malformed).toBe(0);
		expect(model.tokens.input + model.tokens.cacheRead).toBeGreaterThan(0);
	});

	it.each(scenario("b-tool-call").concat(scenario("b2-function-call")))("%s: the shell commands with their output and exit code", (f) => {
		const model = fold(read(f));
		const calls = toolCallsOf(model).filter((c) => c.name === "Bash");
		const commands = calls.map((c) => c.input.command);
		expect(commands).toContain("cat README.md");
		const failing = calls.find((c) => String(c.input.command).includes("exit 3"));
		expect(failing?.result?.isError).toBe(true);
		expect(calls.find((c) => c.input.command === "cat README.md")?.result?.text).toContain("Demo project");
		expect(model.gitBranch).toBe("feature/demo");
		expect(model.events.some((e) => e.kind === "thinking")).toBe(true);
	});

	it.each(scenario("c-resume"))("%s: a resumed session appends its turns to the same rollout", (f) => {
		expect(promptsOf(fold(read(f))).length).toBeGreaterThanOrEqual(2);
	});

	it.each(rollouts)("%s: read in two pieces, the same model as read whole", (f) => {
		const text = read(f);
		const whole = JSON.stringify(serializeSession(fold(text)));
		for (const cut of [1, Math.floor(text.length / 3), Math.floor(text.length / 2) + 7]) expect(JSON.stringify(serializeSession(fold(text, cut)))).toBe(whole);
	});

	it("reads every record of lines glued two by two (two writes that met) as it reads them apart", () => {
		const lines = read(scenario("a-plain-text")[0]!).split("\n").filter((l) => l.trim() !== "");
		const glued = lines.map((l, i) => (i % 2 === 0 ? l : `${l}\n`)).join("");
		expect(serializeSession(fold(glued)).events).toEqual(serializeSession(fold(lines.join("\n"))).events);
		expect(fold(glued).counts.malformed).toBe(0);
	});

	it("reads a line whose only fault is NULs (a crash's zero bytes before it, a stray one inside) as it reads it whole", () => {
		const lines = read(scenario("a-plain-text")[0]!).split("\n").filter((l) => l.trim() !== "");
		const at = lines.findIndex((l) => l.includes('"user_message"'));
		const damaged = lines.map((l, i) => (i === at ? `${"\u0000".repeat(512)}${l.replace('"user_message"', '"user_\u0000message"')}` : l));
		expect(serializeSession(fold(damaged.join("\n"))).events).toEqual(serializeSession(fold(lines.join("\n"))).events);
		expect(fold(damaged.join("\n")).counts.malformed).toBe(0);
	});

	it("reads a prompt with a Latin-1 byte in it, the byte as U+FFFD (the whole turn was lost)", () => {
		const line = (message: string) => JSON.stringify({ timestamp: "2026-12-01T15:40:06.324Z", type: "event_msg", payload: { type: "user_message", message } });
		const model = createSession("rollout.jsonl", "codex");
		foldCodexLines(model, splitCompleteLines(Buffer.concat([Buffer.from(`${line("First")}\n`), Buffer.from(`${line("Order a caf\u00e9")}\n`, "latin1")]), 1).lines);
		expect(promptsOf(model).map((p) => p.text)).toEqual(["First", "Order a caf\uFFFD"]);
		expect(model.counts.malformed).toBe(0);
	});

	it("counts a bad line with its number, and an unknown record type, and goes on", () => {
		const f = scenario("a-plain-text")[0]!;
		const lines = read(f).split("\n");
		lines.splice(2, 0, "{not json", JSON.stringify({ timestamp: "2026-12-01T15:40:06.000Z", type: "future_thing", payload: {} }));
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual([{ line: 3, reason: "invalid JSON" }]);
		expect(model.unknownTypes["codex:future_thing"]).toBe(1);
		expect(promptsOf(model).length).toBeGreaterThan(0);
	});

	it("names a prompt or reply event whose text is of another kind as a line not read: it was read as no text, its turn gone without a word", () => {
		const f = scenario("a-plain-text")[0]!;
		const lines = read(f).split("\n");
		const before = promptsOf(fold(lines.join("\n"))).map((p) => p.text);
		// Our own damaged events: a prompt as a list, a reply as an object.
		lines.splice(2, 0, JSON.stringify({ timestamp: "2026-12-01T15:40:06.000Z", type: "event_msg", payload: { type: "user_message", message: [["rename the module"]] } }), JSON.stringify({ timestamp: "2026-12-01T15:40:06.500Z", type: "event_msg", payload: { type: "agent_message", message: { text: "renamed" } } }));
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual([
			{ line: 3, reason: "the user_message event's message is not text" },
			{ line: 4, reason: "the agent_message event's message is not text" },
		]);
		expect(promptsOf(model).map((p) => p.text)).toEqual(before);
	});

	it("names a 0.171 item, a tool call or an output whose text is of another kind as a line not read: each was read as no text, without a word", () => {
		const f = rollouts.find((r) => r.startsWith("0.171.0/b2-function-call/"))!;
		const lines = read(f).split("\n");
		const at = (part: string) => lines.findIndex((l) => l.includes(part));
		const damage = (i: number, change: (payload: Record<string, unknown>) => void) => {
			const value = JSON.parse(lines[i]!) as { payload: Record<string, unknown> };
			change(value.payload);
			lines[i] = JSON.stringify(value);
		};
		// Our own damage: a prompt's part as a list, a command's output as an object, a call's arguments and output as numbers.
		const [prompt, command, call, output] = [at('"type":"UserMessage"'), at('"type":"CommandExecution"'), at('"type":"function_call"'), at('"type":"function_call_output"')];
		const nested = lines.findLastIndex((l) => l.includes('"type":"function_call_output"'));
		damage(prompt, (p) => ((p.item as Record<string, unknown>).content = [{ type: "text", text: [["what does the build do"]] }]));
		damage(command, (p) => ((p.item as Record<string, unknown>).aggregated_output = { stdout: "ok" }));
		damage(call, (p) => (p.arguments = 7));
		damage(output, (p) => (p.output = 42));
		damage(nested, (p) => (p.output = [[["a list where a part goes"]]]));
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual(
			[
				{ line: prompt + 1, reason: "the UserMessage item's content has a part whose text is not text" },
				{ line: command + 1, reason: "the CommandExecution item's aggregated_output is not text" },
				{ line: call + 1, reason: "the function_call item's arguments is not text" },
				{ line: output + 1, reason: "the function_call_output item's output is neither text nor parts" },
				{ line: nested + 1, reason: "the function_call_output item's output has a part that is not an object" },
			].sort((a, b) => a.line - b.line),
		);
		expect(promptsOf(model)).toEqual([]);
	});

	it("names a call whose tool's name is not text, or a local_shell_call whose command is neither text nor words, as a line not read: each was folded as a call named \"tool\" or a raw input, without a word", () => {
		const f = scenario("a-plain-text")[0]!;
		const lines = read(f).split("\n");
		const before = toolCallsOf(fold(lines.join("\n"))).length;
		const item = (payload: Record<string, unknown>) => JSON.stringify({ timestamp: "2026-12-01T15:40:06.000Z", type: "response_item", payload });
		// Our own calls: a name as an object and as a number, a command as an object and as words with a number among them.
		lines.splice(
			2,
			0,
			item({ type: "function_call", name: { run: "shell" }, arguments: '{"command":["ls"]}', call_id: "own-1" }),
			item({ type: "custom_tool_call", name: 7, input: "*** Begin Patch", call_id: "own-2" }),
			item({ type: "local_shell_call", call_id: "own-3", action: { type: "exec", command: { argv: "make" } } }),
			item({ type: "local_shell_call", call_id: "own-4", action: { type: "exec", command: ["make", 3] } }),
			item({ type: "local_shell_call", call_id: "own-5", action: "make" }),
			item({ type: "local_shell_call", call_id: "own-6", action: { type: "exec", command: ["bash", "-lc", "make check"] } }),
		);
		const model = fold(lines.join("\n"));
		expect(model.malformedLines).toEqual([
			{ line: 3, reason: "the function_call item's name is not text" },
			{ line: 4, reason: "the custom_tool_call item's name is not text" },
			{ line: 5, reason: "the local_shell_call item's command is neither text nor a list of words" },
			{ line: 6, reason: "the local_shell_call item's command is neither text nor a list of words" },
			{ line: 7, reason: "the local_shell_call item's action is not an object" },
		]);
		// The sound call beside them is read, as the command it ran.
		const calls = toolCallsOf(model);
		expect(calls).toHaveLength(before + 1);
		expect(calls.find((c) => c.id === "own-6")?.input).toEqual({ command: "make check" });
	});

	it("knows 0.171's world_state and token_usage_record lines: nothing of them is a note's, and neither counts as unknown", () => {
		const f = scenario("a-plain-text")[0]!;
		const lines = read(f).split("\n");
		const before = fold(lines.join("\n"));
		lines.splice(2, 0, JSON.stringify({ timestamp: "2026-12-01T15:40:06.000Z", ordinal: 4, type: "world_state", payload: { full: true, state: { environments: { environments: { local: { cwd: "/elsewhere" } } } } } }), JSON.stringify({ timestamp: "2026-12-01T15:40:06.000Z", ordinal: 11, type: "token_usage_record", payload: { response_id: "resp_1", usage: { input_tokens: 9504, output_tokens: 413 } } }));
		const model = fold(lines.join("\n"));
		expect(model.unknownTypes).toEqual(before.unknownTypes);
		expect(model.tokens).toEqual(before.tokens);
		expect(model.cwd).toBe(before.cwd);
	});
});
