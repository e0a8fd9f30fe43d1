import { beforeEach, describe, expect, it } from "vitest";
import { LIMITS, textFieldProblem } from "../../../src/core/transcript/model-building";
import { promptsOf } from "../../../src/core/transcript/session-queries";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, text, userText } from "../../fixtures/lines";

beforeEach(() => resetIds());

describe("the event budget", () => {
	it("keeps a prompt typed after the session passed its event budget (the last request is what the next session needs), and drops the replies", () => {
		const records: unknown[] = [userText("First request")];
		for (let i = 0; i < LIMITS.events + 10; i++) records.push(assistant(text(`step ${i}`), { messageId: `msg_${i}` }));
		records.push(userText("Last request, after the budget"));
		const model = parseTranscript(jsonl(records), SESSION);
		expect(promptsOf(model).map((p) => p.text)).toEqual(["First request", "Last request, after the budget"]);
		expect(model.events.length).toBe(LIMITS.events + 1);
		expect(model.counts.elidedEvents).toBe(11);
	});

	it("bounds the prompts it keeps past the budget", () => {
		const records: unknown[] = [];
		for (let i = 0; i < LIMITS.events; i++) records.push(assistant(text(`step ${i}`), { messageId: `msg_${i}` }));
		for (let i = 0; i < LIMITS.promptsPastEvents + 5; i++) records.push(userText(`request ${i}`));
		const model = parseTranscript(jsonl(records), SESSION);
		expect(model.events.length).toBe(LIMITS.events + LIMITS.promptsPastEvents);
		expect(model.counts.elidedEvents).toBe(5);
		expect(model.counts.prompts).toBe(LIMITS.promptsPastEvents + 5);
	});
});

describe("a record's text fields", () => {
	it("names the first field there and of another kind than text; text, null and a missing field are none", () => {
		expect(textFieldProblem({ body: "ok", note: null }, ["body", "note", "gone"], "the memo")).toBeUndefined();
		expect(textFieldProblem({ body: "ok", note: [["deep"]], tail: 3 }, ["body", "note", "tail"], "the memo")).toBe("the memo's note is not text");
		expect(textFieldProblem({ body: { text: "x" } }, ["body"], "the memo")).toBe("the memo's body is not text");
	});
});

describe("a tool call's input", () => {
	it("keeps a key `__proto__` as a key: the input never seems to hold a field it has not", () => {
		const line = `{"type":"assistant","uuid":"u-proto","sessionId":"${SESSION}","timestamp":"2026-05-01T10:00:00.000Z","message":{"id":"msg_p","role":"assistant","content":[{"type":"tool_use","id":"toolu_p","name":"Read","input":{"__proto__":{"file_path":"/etc/passwd"},"limit":5}}]}}\n`;
		const model = parseTranscript(line, "s");
		const call = model.events.flatMap((e) => (e.kind === "tool" ? [e.call] : []))[0]!;
		expect(call.input.file_path).toBeUndefined();
		expect(Object.keys(call.input).sort()).toEqual(["__proto__", "limit"]);
		expect(model.files.read).not.toContain("/etc/passwd");
	});
});
