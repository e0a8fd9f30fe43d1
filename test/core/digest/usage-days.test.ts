import { beforeEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { format } from "date-fns";
import { usageDays } from "../../../src/core/digest/usage-days";
import { restoreSession, serializeSession } from "../../../src/core/transcript/session-model";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { agentProgress, assistant, jsonl, resetIds, text, toolUse, userText } from "../../fixtures/lines";

beforeEach(() => resetIds());

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite });

describe("usageDays", () => {
	it("counts each message id once, at its last value, on the day and under the model it was written", () => {
		const model = parseTranscript(
			jsonl([
				userText("hi", { timestamp: "2026-11-20T23:00:00.000Z" }),
				assistant(text("a"), { messageId: "m1", model: "claude-sonnet-4-5", usage: usage(10, 1, 100, 5), timestamp: "2026-11-20T23:00:01.000Z" }),
				assistant(text("b"), { messageId: "m1", model: "claude-sonnet-4-5", usage: usage(10, 7, 100, 5), timestamp: "2026-11-20T23:00:02.000Z" }),
				assistant(text("c"), { messageId: "m2", model: "claude-opus-4-5", usage: usage(3, 4), timestamp: "2026-11-21T00:10:00.000Z" }),
			]),
			"s1",
		);
		expect(usageDays(model)).toEqual([
			{ day: "2026-11-20", model: "claude-sonnet-4-5", input: 10, output: 7, cacheRead: 100, cacheWrite: 5 },
			{ day: "2026-11-21", model: "claude-opus-4-5", input: 3, output: 4, cacheRead: 0, cacheWrite: 0 },
		]);
		// The same totals as the note's tokens.
		expect(model.tokens).toEqual({ input: 13, output: 11, cacheRead: 100, cacheCreation: 5 });
	});

	it("adds the sub-agents' messages, a message both hold once", () => {
		const parent = parseTranscript(jsonl([userText("go"), assistant(text("a"), { messageId: "m1", usage: usage(1, 1), timestamp: "2026-11-20T10:00:00.000Z" })]), "p");
		const agent = parseTranscript(jsonl([assistant(text("a"), { messageId: "m1", usage: usage(1, 1), timestamp: "2026-11-20T10:00:00.000Z" }), assistant(text("b"), { messageId: "m9", usage: usage(5, 5), timestamp: "2026-11-20T10:01:00.000Z" })]), "agent-x", "x");
		expect(usageDays(parent, [agent])).toEqual([{ day: "2026-11-20", model: "claude-opus-4-7", input: 6, output: 6, cacheRead: 0, cacheWrite: 0 }]);
	});

	it("counts a sub-agent's messages copied into its parent once: from its own file when there, else from the copies", () => {
		const own = [
			assistant(text("partial"), { messageId: "s1", model: "claude-haiku-4-5", usage: usage(2, 3), timestamp: "2026-11-21T09:00:00.000Z" }),
			assistant(text("final"), { messageId: "s1", model: "claude-haiku-4-5", usage: usage(2, 40), timestamp: "2026-11-21T09:00:01.000Z" }),
		];
		const lines = [
			userText("go", { timestamp: "2026-11-21T08:59:00.000Z" }),
			assistant(toolUse("toolu_1", "Agent", { prompt: "look" }), { messageId: "m1", usage: usage(1, 1), timestamp: "2026-11-21T08:59:01.000Z" }),
			// Copied while the reply streamed: the first line's usage only.
			agentProgress("a1", "toolu_1", own[0]!),
		];
		const parent = parseTranscript(jsonl(lines), "p");
		const agent = parseTranscript(jsonl(own), "agent-a1", "a1");
		// The sub-agent's own file: its final value, the copy not again.
		expect(usageDays(parent, [agent])).toEqual([
			{ day: "2026-11-21", model: "claude-haiku-4-5", input: 2, output: 40, cacheRead: 0, cacheWrite: 0 },
			{ day: "2026-11-21", model: "claude-opus-4-7", input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
		]);
		// Its file gone (or never read): the copy counts, once however many lines copy it; the note's own tokens are the parent's alone.
		const twice = parseTranscript(jsonl([...lines, agentProgress("a1", "toolu_1", own[0]!)]), "p");
		expect(usageDays(twice)).toEqual([
			{ day: "2026-11-21", model: "claude-haiku-4-5", input: 2, output: 3, cacheRead: 0, cacheWrite: 0 },
			{ day: "2026-11-21", model: "claude-opus-4-7", input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
		]);
		expect(twice.tokens).toEqual({ input: 1, output: 1, cacheRead: 0, cacheCreation: 0 });
		// And the copies are kept with a stored model.
		expect(usageDays(restoreSession(serializeSession(twice)))).toEqual(usageDays(twice));
	});

	it("a model stored before messages were dated counts its totals on its first day, under its first model", () => {
		const model = parseTranscript(jsonl([userText("go"), assistant(text("a"), { messageId: "m1", usage: usage(4, 2), timestamp: "2026-11-20T10:00:00.000Z" })]), "old");
		const stored = serializeSession(model);
		const undated = restoreSession({ ...stored, usageByMessage: stored.usageByMessage.map(([k, u]) => [k, { inputTokens: u.inputTokens, outputTokens: u.outputTokens, cacheCreationInputTokens: u.cacheCreationInputTokens, cacheReadInputTokens: u.cacheReadInputTokens }]) });
		expect(usageDays(undated)).toEqual([{ day: "2026-11-20", model: "claude-opus-4-7", input: 4, output: 2, cacheRead: 0, cacheWrite: 0 }]);
	});

	it("dates each message on its local day as date-fns writes it", () => {
		fc.assert(
			// From 2023 on: an earlier time is none (see writtenBy).
			fc.property(fc.date({ min: new Date("2023-01-02T00:00:00Z"), max: new Date("9999-12-30T00:00:00Z"), noInvalidDate: true }), (date) => {
				const model = parseTranscript(jsonl([userText("go"), assistant(text("a"), { messageId: "m1", usage: usage(1, 1), timestamp: date.toISOString() })]), "d");
				expect(usageDays(model).map((d) => d.day)).toEqual([format(date, "yyyy-MM-dd")]);
			}),
		);
	});

	it("is empty for a session without tokens", () => {
		expect(usageDays(parseTranscript(jsonl([userText("hi")]), "e"))).toEqual([]);
	});
});
