import { join } from "node:path";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { foldOpencodeLines } from "../../../src/core/transcript/opencode-fold";
import { createSession, serializeSession, type SessionModel } from "../../../src/core/transcript/session-model";
import { promptsOf, toolCallsOf } from "../../../src/core/transcript/session-queries";
import type { RawLine } from "../../../src/core/transcript/jsonl-lines";
import { OpencodeSessions } from "../../../src/node/opencode-sessions";

/**
 * The opencode fold, on rows made here (one per record and part type opencode writes, and bad
 * ones) and on the sessions recorded from the real client (1.18.33's database, 1.1.65's files),
 * read through the reader the sync uses.
 */
const T = 1_796_142_553_000;
const session = (extra: Record<string, unknown> = {}) => JSON.stringify(["session", { id: "ses_1", directory: "/home/me/app", title: "Fix the cart total", version: "1.18.33", time_created: T, time_updated: T + 9_000, ...extra }]);
const json = (data: unknown) => (typeof data === "string" ? data : JSON.stringify(data));
const message = (id: string, data: unknown, t = T) => `["message",${JSON.stringify(id)},${t},${t},${json(data)}]`;
const part = (id: string, msg: string, data: unknown) => `["part",${JSON.stringify(id)},${JSON.stringify(msg)},${T},${T},${json(data)}]`;
const user = (id: string, t = T) => message(id, { role: "user", time: { created: t }, agent: "build", model: { providerID: "stub", modelID: "m" } }, t);
const assistant = (id: string, extra: Record<string, unknown> = {}, t = T + 100) =>
	message(id, { role: "assistant", parentID: "msg_u1", modelID: "m", providerID: "stub", mode: "build", time: { created: t, completed: t + 50 }, cost: 0.0025, tokens: { total: 2575, input: 2459, output: 32, reasoning: 20, cache: { read: 64, write: 8 } }, finish: "stop", ...extra }, t);

function linesOf(texts: readonly string[]): RawLine[] {
	return texts.map((text, i) => ({ no: i + 1, text }));
}

function fold(texts: readonly string[], cuts: readonly number[] = []): SessionModel {
	const model = createSession("ses_1", undefined, true, "opencode");
	const lines = linesOf(texts);
	let from = 0;
	for (const cut of [...cuts, lines.length]) {
		foldOpencodeLines(model, lines.slice(from, cut));
		from = cut;
	}
	return model;
}

const turn = (...parts: string[]) => [session(), user("msg_u1"), part("prt_u1", "msg_u1", { type: "text", text: "Fix the cart total" }), assistant("msg_a1"), ...parts];

describe("the opencode fold, row by row", () => {
	it("a session: its id, folder, version, title and times", () => {
		const model = fold([session()]);
		expect(model.sessionIds).toEqual(["ses_1"]);
		expect(model.cwd).toBe("/home/me/app");
		expect(model.versions).toEqual(["1.18.33"]);
		expect(model.aiTitle).toBe("Fix the cart total");
		expect(model.startedAt).toBe(new Date(T).toISOString());
		expect(model.endedAt).toBe(new Date(T + 9_000).toISOString());
		// The title opencode shows until its title agent answers is no title.
		expect(fold([session({ title: "New session - 2026-12-01T16:29:13.287Z" })]).aiTitle).toBeUndefined();
	});

	it("text: the user's parts are one prompt (the quotes `opencode run` adds taken off), the assistant's are replies", () => {
		const model = fold([session(), user("msg_u1"), part("prt_1", "msg_u1", { type: "text", text: '"Say hello in one sentence."' }), part("prt_2", "msg_u1", { type: "text", text: "And be brief." }), assistant("msg_a1"), part("prt_3", "msg_a1", { type: "text", text: "Hello!", time: { start: T + 120, end: T + 130 } }), part("prt_4", "msg_a1", { type: "text", text: "" })]);
		expect(promptsOf(model).map((p) => p.text)).toEqual(["Say hello in one sentence.\n\nAnd be brief."]);
		expect(model.lastPrompt).toBe("Say hello in one sentence.\n\nAnd be brief.");
		expect(model.events.filter((e) => e.kind === "text").map((e) => e.kind === "text" && e.text)).toEqual(["Hello!"]);
		// A quoted word inside stays as typed.
		expect(promptsOf(fold([session(), user("msg_u1"), part("prt_1", "msg_u1", { type: "text", text: 'Rename "cart" to "basket"' })]))[0]?.text).toBe('Rename "cart" to "basket"');
	});

	it("a text part opencode made itself (synthetic, after a compaction) is not the person's prompt", () => {
		const model = fold([session(), user("msg_u1"), part("prt_1", "msg_u1", { type: "text", synthetic: true, text: "The previous request exceeded the provider's size limit…" })]);
		expect(promptsOf(model)).toEqual([]);
	});

	it("reasoning: a thinking event, counted; an empty one is nothing", () => {
		const model = fold(turn(part("prt_r", "msg_a1", { type: "reasoning", text: "I should read README.md first.", time: { start: T + 101, end: T + 102 } }), part("prt_r2", "msg_a1", { type: "reasoning", text: " " })));
		expect(model.counts.thinking).toBe(1);
		expect(model.events.find((e) => e.kind === "thinking")).toMatchObject({ text: "I should read README.md first.", messageId: "msg_a1" });
	});

	it("tools: each state (pending and running wait, completed and error give a result), the names the digest knows, and the files", () => {
		const tool = (id: string, name: string, state: Record<string, unknown>) => part(id, "msg_a1", { type: "tool", tool: name, callID: `call_${id}`, state });
		const model = fold(
			turn(
				tool("t1", "read", { status: "completed", input: { filePath: "/home/me/app/README.md" }, output: "# App", title: "README.md", metadata: {}, time: { start: T + 200, end: T + 210 } }),
				tool("t2", "read", { status: "error", input: { filePath: "/home/me/app/missing.txt" }, error: "File not found: /home/me/app/missing.txt", time: { start: T + 200, end: T + 201 } }),
				tool("t3", "bash", { status: "completed", input: { command: "npm test", description: "Run the tests" }, output: "1 failed", metadata: { exit: 1, output: "1 failed" } }),
				tool("t4", "write", { status: "completed", input: { filePath: "/home/me/app/notes.txt", content: "hi" }, output: "Wrote file successfully." }),
				tool("t5", "edit", { status: "completed", input: { filePath: "/home/me/app/src/cart.ts", oldString: "a", newString: "b" }, output: "Edit applied successfully." }),
				tool("t6", "bash", { status: "running", input: { command: "sleep 5" }, time: { start: T + 300 } }),
				tool("t7", "glob", { status: "pending", input: {}, raw: "" }),
				tool("t8", "todowrite", { status: "completed", input: { todos: [{ content: "Fix the total", status: "in_progress", priority: "high" }] }, output: "[]" }),
			),
		);
		const calls = toolCallsOf(model);
		expect(calls.map((c) => c.name)).toEqual(["Read", "Read", "Bash", "Write", "Edit", "Bash", "Glob", "TodoWrite"]);
		expect(calls.map((c) => c.result?.isError)).toEqual([false, true, true, false, false, undefined, undefined, false]);
		expect(calls[1]?.result?.text).toBe("File not found: /home/me/app/missing.txt");
		expect(calls[0]?.input.file_path).toBe("/home/me/app/README.md");
		expect(calls[2]?.input.command).toBe("npm test");
		expect(calls[0]?.id).toBe("call_t1");
		expect(model.counts).toMatchObject({ toolCalls: 8, toolErrors: 2 });
		expect(model.files).toEqual({ read: ["/home/me/app/README.md"], written: ["/home/me/app/notes.txt"], edited: ["/home/me/app/src/cart.ts"] });
	});

	it("a tool part whose tool is not text or whose input is no object is a row not read: it was shown as a call named \"tool\", or with no input", () => {
		const tool = (id: string, name: unknown, input: unknown) => part(id, "msg_a1", { type: "tool", tool: name, callID: `call_${id}`, state: { status: "completed", input, output: "ok" } });
		// Our own parts: the tool as an object, the input as a list and as text, and a sound one.
		const model = fold(turn(tool("t1", { name: "bash" }, { command: "ls" }), tool("t2", "bash", ["ls"]), tool("t3", "read", "/a"), tool("t4", "bash", { command: "make" })));
		expect(model.malformedLines).toEqual([
			{ line: 5, reason: "part t1: the tool part's tool is not text" },
			{ line: 6, reason: "part t2: the tool part's state's input is not an object" },
			{ line: 7, reason: "part t3: the tool part's state's input is not an object" },
		]);
		expect(toolCallsOf(model).map((c) => [c.name, c.input.command])).toEqual([["Bash", "make"]]);
	});

	it("a tool part seen again (its row read anew) is one call", () => {
		const t = part("t1", "msg_a1", { type: "tool", tool: "read", callID: "call_1", state: { status: "completed", input: { filePath: "/a" }, output: "x" } });
		expect(fold(turn(t, t)).counts.toolCalls).toBe(1);
	});

	it("a task: the sub-agent's session it started, by the id in its metadata", () => {
		const model = fold(turn(part("t1", "msg_a1", { type: "tool", tool: "task", callID: "call_task", state: { status: "completed", input: { description: "List files", prompt: "SUBTASK: list them", subagent_type: "explore" }, output: '<task id="ses_child" state="completed">…', metadata: { sessionId: "ses_child", parentSessionId: "ses_1" } } })));
		const call = toolCallsOf(model)[0]!;
		expect(call).toMatchObject({ name: "Task", agentId: "ses_child", input: { description: "List files", subagent_type: "explore" } });
	});

	it("patch: the files a step changed are edited (a file written in the session stays written)", () => {
		const model = fold(turn(part("t1", "msg_a1", { type: "tool", tool: "write", callID: "c1", state: { status: "completed", input: { filePath: "/home/me/app/new.txt" }, output: "ok" } }), part("p1", "msg_a1", { type: "patch", hash: "9cff", files: ["/home/me/app/new.txt", "/home/me/app/src/cart.ts"] })));
		expect(model.files.written).toEqual(["/home/me/app/new.txt"]);
		expect(model.files.edited).toEqual(["/home/me/app/src/cart.ts"]);
	});

	it("step-start and step-finish: bounds only, the tokens and cost come once, from the assistant message", () => {
		const step = { reason: "stop", snapshot: "9cff", type: "step-finish", tokens: { total: 2575, input: 2459, output: 32, reasoning: 20, cache: { write: 8, read: 64 } }, cost: 0.0025 };
		const model = fold(turn(part("s1", "msg_a1", { type: "step-start", snapshot: "9cff" }), part("s2", "msg_a1", step)));
		expect(model.tokens).toEqual({ input: 2459, output: 52, cacheRead: 64, cacheCreation: 8, costUsd: 0.0025 });
		expect(model.counts.assistantMessages).toBe(1);
		expect(model.models).toEqual(["m"]);
		expect(model.unknownTypes).toEqual({});
	});

	it("before 1.2, `output` held the reasoning tokens already: not added twice", () => {
		const model = fold([session({ version: "1.1.65" }), user("msg_u1"), assistant("msg_a1", { tokens: { input: 100, output: 52, reasoning: 20, cache: { read: 0, write: 0 } } })]);
		expect(model.tokens.output).toBe(52);
	});

	it("file: an image the person attached counts as one; another file is nothing", () => {
		const model = fold([session(), user("msg_u1"), part("f1", "msg_u1", { type: "file", mime: "image/png", filename: "shot.png", url: "data:…" }), part("f2", "msg_u1", { type: "file", mime: "text/plain", filename: "a.txt", url: "file://a.txt" }), part("t1", "msg_u1", { type: "text", text: "What is on this screenshot?" })]);
		expect(promptsOf(model)[0]).toMatchObject({ text: "What is on this screenshot?", images: 1 });
		expect(model.counts.images).toBe(1);
	});

	it("compaction: counted, with the summary the compaction agent wrote (not a reply)", () => {
		const model = fold([
			...turn(),
			user("msg_u2", T + 1_000),
			part("c1", "msg_u2", { type: "compaction", auto: true, overflow: true }),
			message("msg_a2", { role: "assistant", parentID: "msg_u2", mode: "compaction", agent: "compaction", summary: true, modelID: "m", time: { created: T + 1_100 }, tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 }, T + 1_100),
			part("c2", "msg_a2", { type: "text", text: "## Summary\n\nThe user asked to fix the cart total." }),
		]);
		expect(model.counts.compactions).toBe(1);
		expect(model.events.find((e) => e.kind === "compaction")).toMatchObject({ trigger: "auto", summary: "## Summary\n\nThe user asked to fix the cart total." });
		expect(model.events.some((e) => e.kind === "text" && e.text.startsWith("## Summary"))).toBe(false);
	});

	it("a fork: the messages copied in (made before the session was) are one forked event, their tokens not counted", () => {
		// opencode 1.18.33's `run --session X --fork`: X's messages under new ids, with their old times.
		const copied = [user("msg_c1", T - 5_000), part("prt_c1", "msg_c1", { type: "text", text: "X's prompt" }), assistant("msg_c2", {}, T - 4_000), part("prt_c2", "msg_c2", { type: "text", text: "X's reply" })];
		const model = fold([session(), ...copied, user("msg_u1", T + 10), part("prt_u1", "msg_u1", { type: "text", text: "the fork's own" }), assistant("msg_a1"), part("prt_a1", "msg_a1", { type: "text", text: "Done." })], [3]);
		expect(model.events.map((e) => e.kind)).toEqual(["forked", "prompt", "text"]);
		expect(model.events[0]).toEqual({ kind: "forked", prompts: 1 });
		expect(promptsOf(model).map((p) => p.text)).toEqual(["the fork's own"]);
		expect(model.counts).toMatchObject({ prompts: 1, assistantMessages: 1 });
		expect(model.tokens.input).toBe(2459);
	});

	it("subtask and agent parts: a sub-agent's task (like a Task call) and an @agent mention (nothing)", () => {
		const model = fold([session(), user("msg_u1"), part("s1", "msg_u1", { type: "subtask", prompt: "Review the diff", description: "Review", agent: "review" }), part("a1", "msg_u1", { type: "agent", name: "review" }), part("t1", "msg_u1", { type: "text", text: "/review" })]);
		expect(toolCallsOf(model)).toMatchObject([{ name: "Task", input: { description: "Review", prompt: "Review the diff", subagent_type: "review" } }]);
		expect(promptsOf(model)[0]).toMatchObject({ text: "/review", kind: "command" });
		expect(model.unknownTypes).toEqual({});
	});

	it("errors: an API error is an error event, an abort an interruption, a retry an error that was tried again", () => {
		const model = fold([
			session(),
			user("msg_u1"),
			message("msg_a1", { role: "assistant", modelID: "m", time: { created: T }, error: { name: "APIError", data: { message: "stub: invalid request", statusCode: 400, isRetryable: false } } }),
			message("msg_a2", { role: "assistant", modelID: "m", time: { created: T + 1 }, error: { name: "MessageAbortedError", data: { message: "Aborted" } } }),
			part("r1", "msg_a2", { type: "retry", attempt: 1, error: { name: "APIError", data: { message: "overloaded" } } }),
		]);
		expect(model.counts).toMatchObject({ apiErrors: 2, interruptions: 1 });
		// Where it happened: the retry's error came after it.
		expect(model.interruptedAt).toBe(1 + model.events.findIndex((e) => e.kind === "error" && e.text === "stub: invalid request"));
		expect(model.events.filter((e) => e.kind === "error").map((e) => e.kind === "error" && e.text)).toEqual(["stub: invalid request", "retried: overloaded"]);
	});

	it("unknown types are counted by type, never fatal", () => {
		const model = fold([session(), user("msg_u1"), part("x1", "msg_u1", { type: "hologram" }), ...["msg_s"].map((id) => message(id, { role: "system" })), '["todo",{"content":"x"}]', part("x2", "msg_u1", { text: "no type" })]);
		expect(model.unknownTypes).toEqual({ "opencode:part:hologram": 1, "opencode:message:system": 1, "opencode:todo": 1, "opencode:part:untyped": 1 });
		expect(model.counts.unknownRecords).toBe(4);
		expect(model.counts.malformed).toBe(0);
	});

	it("bad rows are skipped with their line number and a reason naming the row; the rest is read", () => {
		const model = createSession("ses_1", undefined, true, "opencode");
		foldOpencodeLines(model, [
			{ no: 1, text: session() },
			{ no: 2, text: user("msg_u1") },
			{ no: 3, text: '["part","prt_bad","msg_u1",1,1,{"type":"text","text":"cut off' },
			{ no: 4, text: '["part","prt_two","msg_u1",1,1,{"type":"text"},"injected"]' },
			{ no: 5, text: '["message","msg_x",1,1,[1,2]]' },
			{ no: 6, text: null },
			{ no: 7, text: "{}" },
			{ no: 8, text: '["session"]' },
			{ no: 9, text: "" },
			{ no: 10, text: part("prt_ok", "msg_u1", { type: "text", text: "Fix the cart total" }) },
			// As the reader gives rows: the columns apart, the row's JSON as the text.
			{ no: 11, text: '{"type":"text","text":"cut', value: ["part", "prt_cut", "msg_u1", 0, 0] },
			{ no: 12, text: '{"type":"text","text":"And the tax."}', value: ["part", "prt_tax", "msg_u1", 0, 0] },
		]);
		expect(model.malformedLines).toEqual([
			{ line: 3, reason: "part prt_bad: its data is not valid JSON" },
			{ line: 4, reason: "part prt_two: not one JSON value in its data" },
			{ line: 5, reason: "message msg_x: its data is not a JSON object" },
			{ line: 6, reason: "invalid UTF-8" },
			{ line: 7, reason: "not an opencode row" },
			{ line: 8, reason: "a session row without its columns" },
			{ line: 11, reason: "part prt_cut: its data is not valid JSON" },
		]);
		expect(model.counts).toMatchObject({ malformed: 7, lines: 11 });
		expect(promptsOf(model).map((p) => p.text)).toEqual(["Fix the cart total\n\nAnd the tax."]);
	});

	it("the parts of a message whose row could not be read keep their speaker: the person's unstamped text is a prompt, the model's stamped one a reply", () => {
		const model = createSession("ses_1", undefined, true, "opencode");
		foldOpencodeLines(model, [
			{ no: 1, text: session() },
			{ no: 2, text: "{not json", value: ["message", "msg_u1", T, 0] },
			{ no: 3, text: '{"type":"text","text":"Fix the cart total"}', value: ["part", "p1", "msg_u1", 0, 0] },
			{ no: 4, text: "[1]", value: ["message", "msg_a1", T + 100, 0] },
			{ no: 5, text: `{"type":"text","text":"Fixed.","time":{"start":${T + 150}}}`, value: ["part", "p2", "msg_a1", 0, 0] },
			{ no: 6, text: '["message","msg_u2",1,1,{"role":"us' },
			{ no: 7, text: part("p3", "msg_u2", { type: "text", text: "Now the tax" }) },
		]);
		expect(model.counts.malformed).toBe(3);
		expect(promptsOf(model).map((p) => p.text)).toEqual(["Fix the cart total", "Now the tax"]);
		expect(model.events.filter((e) => e.kind === "text").map((e) => e.kind === "text" && e.text)).toEqual(["Fixed."]);
	});

	it("read in batches (at any cut), the same model as read at once", () => {
		const texts = [
			...turn(part("r", "msg_a1", { type: "reasoning", text: "think" }), part("t", "msg_a1", { type: "tool", tool: "bash", callID: "c", state: { status: "completed", input: { command: "ls" }, output: "a" } }), part("x", "msg_a1", { type: "text", text: "Done." })),
			user("msg_u2", T + 2_000),
			part("u2", "msg_u2", { type: "text", text: "Now the tax" }),
			assistant("msg_a2", {}, T + 2_100),
			part("y", "msg_a2", { type: "text", text: "Tax added." }),
		];
		const whole = JSON.stringify(serializeSession(fold(texts)));
		fc.assert(
			fc.property(fc.uniqueArray(fc.integer({ min: 1, max: texts.length - 1 }), { maxLength: 4 }), (cuts) => {
				expect(JSON.stringify(serializeSession(fold(texts, [...cuts].sort((a, b) => a - b))))).toBe(whole);
			}),
		);
	});
});

const FIXTURES = join(__dirname, "..", "..", "fixtures", "agents", "opencode");

async function recorded(version: string): Promise<Map<string, { model: SessionModel; kind: string; parent?: string; lines: RawLine[] }>> {
	const sessions = new OpencodeSessions(join(FIXTURES, version, "data"));
	const out = new Map<string, { model: SessionModel; kind: string; parent?: string; lines: RawLine[] }>();
	for (const file of await sessions.scan([])) {
		const model = createSession(file.fileId, file.agentId, true, "opencode");
		const lines: RawLine[] = [];
		await sessions.read(file.path, (batch) => {
			lines.push(...batch);
			foldOpencodeLines(model, batch);
		});
		// By the first prompt (a fork's marked so).
		const prompt = `${promptsOf(model)[0]?.text ?? file.fileId}${model.aiTitle?.includes("(fork #") ? " (fork)" : ""}`;
		out.set(prompt, { model, kind: file.kind, parent: file.parentSessionId, lines });
	}
	return out;
}

describe("the opencode fold, on sessions recorded from the real client", () => {
	it("1.18.33 (the database): every session without a bad or unknown row, its prompts, replies, tools, tokens and cost", async () => {
		const all = await recorded("1.18.33");
		expect(all.size).toBe(10);
		for (const [, { model }] of all) {
			expect(model.counts.malformed).toBe(0);
			expect(model.unknownTypes).toEqual({});
			expect(model.versions).toEqual(["1.18.33"]);
		}
		const tools = all.get("Read README.md, list the files, then summarize.")!.model;
		expect(toolCallsOf(tools).map((c) => [c.name, c.result?.isError])).toEqual([["Read", false], ["Bash", false], ["Read", true]]);
		expect(tools.counts.thinking).toBe(1);
		expect(tools.counts.assistantMessages).toBe(3);
		expect(tools.tokens.costUsd).toBeGreaterThan(0);
		expect(tools.tokens.input).toBeGreaterThan(7000);
		expect(tools.cwd).toBe("/tmp/opencode-record/work/demo-project");

		const resumed = all.get("Remember the word PINEAPPLE.");
		expect(promptsOf(resumed!.model).map((p) => p.text)).toEqual(["Remember the word PINEAPPLE.", "Which word did I ask you to remember?"]);
		// A fork starts where it forked: the messages it copied are its source's, one forked event here.
		const fork = all.get("In the forked session, repeat it. (fork)")!.model;
		expect(promptsOf(fork).map((p) => p.text)).toEqual(["In the forked session, repeat it."]);
		expect(fork.events[0]).toEqual({ kind: "forked", prompts: 2 });

		const edit = all.get("Create notes.txt with a greeting, then fix the typo in it.")!.model;
		expect(toolCallsOf(edit).map((c) => c.name)).toEqual(["TodoWrite", "Write", "Edit"]);
		expect(edit.files.written).toEqual(["/tmp/opencode-record/work/demo-project/notes.txt"]);

		const parent = all.get("Use a subagent to list the top-level files.")!;
		const child = all.get("SUBTASK: list the top-level files of the project.")!;
		expect(child.kind).toBe("subagent");
		expect(toolCallsOf(parent.model)[0]?.agentId).toBe(child.model.fileId);
		expect(child.parent).toBe(parent.model.fileId);

		const failed = all.get("Please fail now.")!.model;
		expect(failed.counts.apiErrors).toBe(1);
		const error = failed.events.find((e) => e.kind === "error");
		expect(error?.kind === "error" && error.text).toContain("scripted failure");

		const overflow = all.get("Please overflow now.")!.model;
		expect(overflow.counts.compactions).toBe(1);
		const compaction = overflow.events.find((e) => e.kind === "compaction");
		expect(compaction).toMatchObject({ trigger: "auto" });
		expect(compaction?.kind === "compaction" && compaction.summary).toContain("## Summary");
		// The "continue" opencode sent after it is not a prompt of the person's.
		expect(promptsOf(overflow).map((p) => p.text)).toEqual(["Please overflow now."]);

		// The last session is in the WAL alone (see the fixture's README): read all the same.
		expect(all.get("Where am I?")!.model.cwd).toBe("/tmp/opencode-record/work/demo-project/src");
	});

	it("names a prompt, a reasoning, a tool's output or an error whose text is of another kind as a row not read: each was read as no text, without a word", async () => {
		const { lines } = (await recorded("1.18.33")).get("Read README.md, list the files, then summarize.")!;
		const at = (kind: string) => lines.findIndex((l) => l.text?.startsWith(kind) === true);
		const damage = (i: number, change: (data: Record<string, unknown>) => void) => {
			const data = JSON.parse(lines[i]!.text!) as Record<string, unknown>;
			change(data);
			lines[i] = { ...lines[i]!, text: JSON.stringify(data) };
		};
		// Our own damage: the prompt as a list of lists, a reasoning as an object, a tool's output as a number, an error's text as a list.
		const [prompt, reasoning, tool, reply] = [at('{"type":"text"'), at('{"type":"reasoning"'), at('{"type":"tool"'), at('{"parentID"')];
		damage(prompt, (d) => (d.text = [["Read the README"]]));
		damage(reasoning, (d) => (d.text = { thought: "read first" }));
		damage(tool, (d) => ((d.state as Record<string, unknown>).output = 12));
		damage(reply, (d) => (d.error = { name: "APIError", data: { message: ["rate limited"] } }));
		const model = createSession("ses_1", undefined, true, "opencode");
		foldOpencodeLines(model, lines);
		const id = (i: number) => String((lines[i]!.value as unknown[])[1]);
		expect(model.malformedLines).toEqual(
			[
				{ line: prompt + 1, reason: `part ${id(prompt)}: the text part's text is not text` },
				{ line: reasoning + 1, reason: `part ${id(reasoning)}: the reasoning part's text is not text` },
				{ line: tool + 1, reason: `part ${id(tool)}: the tool part's state's output is not text` },
				{ line: reply + 1, reason: `message ${id(reply)}: its error's message is not text` },
			].sort((a, b) => a.line - b.line),
		);
		expect(promptsOf(model)).toEqual([]);
	});

	it("1.1.65 (JSON files): the same scenarios give the same shape of session", async () => {
		const all = await recorded("1.1.65");
		expect(all.size).toBe(4);
		for (const [, { model }] of all) {
			expect(model.counts.malformed).toBe(0);
			expect(model.unknownTypes).toEqual({});
		}
		expect(toolCallsOf(all.get("Read README.md, list the files, then summarize.")!.model).map((c) => [c.name, c.result?.isError])).toEqual([["Read", false], ["Bash", false], ["Read", true]]);
		expect(all.get("SUBTASK: list the top-level files of the project.")!.kind).toBe("subagent");
	});

	it("a recorded session read in pieces, the same model as read at once", async () => {
		for (const [, { lines }] of await recorded("1.18.33")) {
			const whole = createSession("s", undefined, true, "opencode");
			foldOpencodeLines(whole, lines);
			const pieces = createSession("s", undefined, true, "opencode");
			const cut = Math.floor(lines.length / 2);
			foldOpencodeLines(pieces, lines.slice(0, cut));
			foldOpencodeLines(pieces, lines.slice(cut));
			expect(JSON.stringify(serializeSession(pieces))).toBe(JSON.stringify(serializeSession(whole)));
		}
	});
});
