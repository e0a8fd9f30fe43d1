import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isoOfMs, isoTime, parseLine } from "../../../src/core/transcript/parse-line";
import type { TranscriptRecord } from "../../../src/core/transcript/records";
import { assistant, system, text, thinking, toolResult, toolUse, userBlocks, userText } from "../../fixtures/lines";

function record(value: unknown): TranscriptRecord {
	const parsed = parseLine(typeof value === "string" ? value : JSON.stringify(value));
	if (!parsed.ok) throw new Error(parsed.reason);
	return parsed.record;
}

describe("parseLine: known record types", () => {
	it("reads a typed prompt with its envelope", () => {
		const r = record(userText("add a health endpoint", { cwd: "/p", gitBranch: "feat", version: "2.1.114" }));
		expect(r).toMatchObject({ type: "user", content: "add a health endpoint", cwd: "/p", gitBranch: "feat", version: "2.1.114", isMeta: false });
	});

	it("reads assistant blocks, model, message id and usage", () => {
		const r = record(assistant(toolUse("toolu_1", "Bash", { command: "ls" }), { messageId: "msg_9", usage: { input_tokens: 3, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 } }));
		expect(r).toMatchObject({
			type: "assistant",
			messageId: "msg_9",
			model: "claude-opus-4-7",
			content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }],
			usage: { inputTokens: 3, outputTokens: 7, cacheReadInputTokens: 100, cacheCreationInputTokens: 20 },
		});
	});

	it("reads thinking, redacted thinking and empty thinking with a signature", () => {
		expect(record(assistant(thinking("")))).toMatchObject({ content: [{ type: "thinking", thinking: "" }] });
		expect(record(assistant({ type: "redacted_thinking", data: "xyz" }))).toMatchObject({ content: [{ type: "redacted_thinking" }] });
	});

	it("reads tool results as string, as block array with images and tool references, and errors", () => {
		expect(record(toolResult("toolu_1", "ok"))).toMatchObject({ content: [{ type: "tool_result", toolUseId: "toolu_1", isError: false, text: "ok" }] });
		const arr = record(
			userBlocks([
				{
					type: "tool_result",
					tool_use_id: "toolu_2",
					is_error: true,
					content: [{ type: "text", text: "boom" }, { type: "image", source: { type: "base64", data: "AAAA" } }, { type: "tool_reference", tool_name: "WebFetch" }],
				},
			]),
		);
		expect(arr).toMatchObject({ content: [{ type: "tool_result", isError: true, text: "boom\n[image]\n[tool: WebFetch]" }] });
	});

	it("drops base64 image data", () => {
		const data = "A".repeat(1_000_000);
		const r = record(userBlocks([{ type: "image", source: { type: "base64", media_type: "image/png", data } }, { type: "text", text: "look" }]));
		expect(r).toMatchObject({ content: [{ type: "image", mediaType: "image/png" }, { type: "text", text: "look" }] });
		expect(JSON.stringify(r).length).toBeLessThan(2000);
	});

	it("reads system subtypes with their payloads", () => {
		expect(record(system("compact_boundary", { compactMetadata: { trigger: "auto", preTokens: 155068 }, parentUuid: null }))).toMatchObject({
			type: "system",
			subtype: "compact_boundary",
			compact: { trigger: "auto", preTokens: 155068 },
		});
		expect(record(system("api_error", { error: { status: 529 }, retryInMs: 500 }))).toMatchObject({ subtype: "api_error", error: { status: 529 } });
		expect(record(system("turn_duration", { durationMs: 1200 }))).toMatchObject({ subtype: "turn_duration", durationMs: 1200 });
		expect(record(system(undefined, { content: "\u001b[1mhook\u001b[22m" }))).toMatchObject({ type: "system", subtype: undefined });
	});

	it("reads metadata records", () => {
		expect(record({ type: "summary", summary: "Fix login", leafUuid: "u1" })).toEqual({ type: "summary", summary: "Fix login", leafUuid: "u1" });
		expect(record({ type: "ai-title", aiTitle: "Add health check", sessionId: "s" })).toEqual({ type: "ai-title", title: "Add health check", sessionId: "s" });
		expect(record({ type: "custom-title", customTitle: "Mine", sessionId: "s" })).toMatchObject({ type: "custom-title", title: "Mine" });
		expect(record({ type: "permission-mode", permissionMode: "plan", sessionId: "s" })).toEqual({ type: "permission-mode", permissionMode: "plan", sessionId: "s" });
		expect(record({ type: "last-prompt", lastPrompt: "go on", sessionId: "s" })).toMatchObject({ type: "last-prompt", lastPrompt: "go on" });
		expect(record({ type: "pr-link", prNumber: 7, prUrl: "https://example.test/pr/7", prRepository: "o/r", sessionId: "s", timestamp: "t" })).toMatchObject({ type: "pr-link", prNumber: 7 });
		expect(record({ type: "queue-operation", operation: "enqueue", content: [{ type: "text", text: "/model" }], sessionId: "s", timestamp: "t" })).toMatchObject({ type: "queue-operation", operation: "enqueue", content: "/model" });
		expect(record({ type: "file-history-snapshot", messageId: "m", snapshot: { trackedFileBackups: { "src/a.ts": {} } }, isSnapshotUpdate: false })).toEqual({
			type: "file-history-snapshot",
			messageId: "m",
			isSnapshotUpdate: false,
			files: ["src/a.ts"],
		});
	});

	it("counts a token count that is not a whole number at or above zero as 0", () => {
		const line = (usage: Record<string, unknown>) => record({ type: "assistant", message: { id: "m", content: [], usage } });
		expect(line({ input_tokens: -5, output_tokens: 1e308, cache_read_input_tokens: 2.5, cache_creation_input_tokens: "7" })).toMatchObject({ usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } });
		expect(line({ input_tokens: 3, output_tokens: 2 ** 40 })).toMatchObject({ usage: { inputTokens: 3, outputTokens: 2 ** 40 } });
	});

	it("reads the usage of a sub-agent's message copied into a progress line, and nothing from other progress", () => {
		const copied = { type: "assistant", timestamp: "2026-02-12T16:02:51.467Z", message: { model: "claude-sonnet-4-5", id: "msg_A", usage: { input_tokens: 3, output_tokens: 7, cache_read_input_tokens: 11, cache_creation_input_tokens: 13 } }, requestId: "req_A" };
		expect(record({ type: "progress", data: { type: "agent_progress", agentId: "a1", message: copied } })).toMatchObject({
			agentMessage: { messageId: "msg_A", model: "claude-sonnet-4-5", timestamp: "2026-02-12T16:02:51.467Z", usage: { inputTokens: 3, outputTokens: 7, cacheReadInputTokens: 11, cacheCreationInputTokens: 13 } },
		});
		for (const message of [{ ...copied, type: "user" }, { ...copied, message: { ...copied.message, id: undefined } }, { ...copied, message: { ...copied.message, usage: "x" } }, "text", null]) {
			expect(record({ type: "progress", data: { type: "agent_progress", message } })).toMatchObject({ agentMessage: undefined });
		}
		// A time that is not one is dropped (the message counts on no day), as everywhere.
		expect(record({ type: "progress", data: { message: { ...copied, timestamp: "../x" } } })).toMatchObject({ agentMessage: { timestamp: undefined } });
	});

	it("reads progress and attachment lines", () => {
		expect(record({ type: "progress", uuid: "p", data: { type: "agent_progress", agentId: "a1" }, toolUseID: "agent_msg_1", parentToolUseID: "toolu_9" })).toMatchObject({
			type: "progress",
			dataType: "agent_progress",
			progressAgentId: "a1",
			parentToolUseId: "toolu_9",
		});
		expect(record({ type: "attachment", uuid: "a", attachment: { type: "hook_success", hookEvent: "SessionStart", hookName: "SessionStart:startup" } })).toMatchObject({
			type: "attachment",
			attachmentType: "hook_success",
			hookEvent: "SessionStart",
		});
	});

	it("recognises bookkeeping types of current clients", () => {
		for (const type of ["cost-state", "api-request", "api-request-shape", "api-request-blob", "atis-latch", "tools-used", "mode", "tag", "agent-name", "saved_hook_context"]) {
			expect(record({ type, sessionId: "s" })).toMatchObject({ type: "bookkeeping", originalType: type });
		}
	});
});

describe("parseLine: what it never throws on", () => {
	it("keeps unknown types and unknown blocks as unknown", () => {
		expect(record({ type: "hologram", sessionId: "s" })).toEqual({ type: "unknown", originalType: "hologram", sessionId: "s", timestamp: undefined });
		expect(record({ foo: 1 })).toMatchObject({ type: "unknown", originalType: "(no type)" });
		expect(record(assistant({ type: "mystery_block", x: 1 }))).toMatchObject({ content: [{ type: "unknown", originalType: "mystery_block" }] });
	});

	it("tolerates wrong field types", () => {
		expect(record({ type: "user", message: "nope", uuid: 5 })).toMatchObject({ type: "user", content: [], uuid: undefined });
		expect(record({ type: "assistant", message: { content: "plain", usage: "x" } })).toMatchObject({ content: [{ type: "text", text: "plain" }], usage: undefined });
		expect(record({ type: "user", message: { content: [null, 3, { type: "text" }] } })).toMatchObject({ content: [{ type: "text", text: "" }] });
	});

	it.each([
		["{not json", "invalid JSON"],
		['{"type":"user"}{"type":"summary"}', "two JSON objects on one line"],
		['{"type":"user","x":"\u0000"}', "NUL bytes in line"],
		["\u0000\u0000\u0000", "NUL bytes in line"],
		["[1,2]", "not a JSON object"],
		["42", "not a JSON object"],
		["null", "not a JSON object"],
		['{"type":"user","message":{"content":"cut off', "invalid JSON"],
	])("rejects %j with a reason", (line, reason) => {
		expect(parseLine(line)).toEqual({ ok: false, reason });
	});

	it.each([
		[' \t{"a":1} \n {"b":2}\r\n', "two JSON objects on one line"],
		["{}{", "invalid JSON"],
		["}{}", "invalid JSON"],
		["{}", "not two"],
	])("tells two objects on one line only between outer braces: %j", (line, reason) => {
		if (reason === "not two") expect(parseLine(line).ok).toBe(true);
		else expect(parseLine(line)).toEqual({ ok: false, reason });
	});

	it("names a bad line of 400,000 `}{` in linear time (one regex over the line backtracked each `}` against each other)", () => {
		const start = performance.now();
		expect(parseLine(`{${"}{".repeat(200_000)}{`)).toEqual({ ok: false, reason: "invalid JSON" });
		expect(parseLine(`{${"}{".repeat(200_000)}}`)).toEqual({ ok: false, reason: "two JSON objects on one line" });
		expect(performance.now() - start).toBeLessThan(5_000);
	});

	it("names a message whose content is neither text nor a list, which no turn can be made of", () => {
		// Our own shape: a prompt nested as an object, as a damaged or hostile line may hold it.
		for (const content of [{ nested: { deeper: "a prompt" } }, 7, true]) {
			expect(parseLine(JSON.stringify({ type: "user", message: { role: "user", content } }))).toEqual({ ok: false, reason: "unexpected shape: Error: message content is neither text nor a list of blocks" });
			expect(parseLine(JSON.stringify({ type: "assistant", message: { content } })).ok).toBe(false);
		}
		expect(record({ type: "user", message: { content: null } })).toMatchObject({ type: "user", content: [] });
	});

	it("names a tool_use block whose name is not text or whose input is no object: it was shown as a call with no name or no input", () => {
		const line = (block: Record<string, unknown>) => JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Running it." }, block] } });
		expect(parseLine(line({ type: "tool_use", id: "t1", name: { run: "Bash" }, input: {} }))).toEqual({ ok: false, reason: "unexpected shape: Error: a tool_use block's name is not text" });
		expect(parseLine(line({ type: "server_tool_use", id: "t2", name: "web_search", input: ["query"] }))).toEqual({ ok: false, reason: "unexpected shape: Error: a server_tool_use block's input is not an object" });
		expect(parseLine(line({ type: "tool_use", id: "t3", name: "Bash", input: "ls" })).ok).toBe(false);
		// Absent is what an older or streamed block may be: read as before.
		expect(record({ type: "assistant", message: { content: [{ type: "tool_use", id: "t4" }] } })).toMatchObject({ content: [{ type: "tool_use", id: "t4", name: "", input: {} }] });
	});

	it("names a line whose sub-agent marks are of another kind: read as the main thread's, a sub-agent's task was a turn of the person's", () => {
		const prompt = (extra: Record<string, unknown>) => JSON.stringify({ type: "user", ...extra, message: { role: "user", content: "Find the flaky tests" } });
		expect(parseLine(prompt({ isSidechain: "true" }))).toEqual({ ok: false, reason: "unexpected shape: Error: its isSidechain is neither true nor false" });
		expect(parseLine(prompt({ isSidechain: true, agentId: 42 }))).toEqual({ ok: false, reason: "unexpected shape: Error: its agentId is not text" });
		expect(record(JSON.parse(prompt({ isSidechain: true, agentId: "a1b2" })) as Record<string, unknown>)).toMatchObject({ isSidechain: true, agentId: "a1b2" });
	});

	it("keeps user text with a quoted text block", () => {
		expect(record(userBlocks([text("hello")]))).toMatchObject({ content: [{ type: "text", text: "hello" }] });
	});
});

describe("isoTime", () => {
	// What it was before the digits were read for the common form: a pattern and `Date.parse`.
	const PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
	// ...and a day and time that are real (no roll-over: Date.parse reads `2024-02-30` as March 1st), since 1970.
	const real = (value: string) => {
		const [y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0] = [0, 5, 8, 11, 14, 17].map((at) => Number(value.slice(at, at + (at === 0 ? 4 : 2))));
		const t = new Date(Date.UTC(y, mo - 1, d, h, mi, value[16] === ":" ? sec : 0));
		return y >= 1970 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && t.getUTCHours() === h && t.getUTCMinutes() === mi && (value[16] !== ":" || t.getUTCSeconds() === sec);
	};
	// ...given as toISOString writes it, its instant since 1970 and before 10000.
	const byPattern = (value: string) => {
		if (!PATTERN.test(value) || Number.isNaN(Date.parse(value)) || !real(value)) return undefined;
		const utc = new Date(value).toISOString();
		return /^\d{4}-/.test(utc) && utc >= "1970" ? utc : undefined;
	};

	it("takes a real time since 1970 of the pattern that Date.parse takes, the form toISOString writes most of all", () => {
		const edges = ["2024-02-29T23:59:59.999Z", "2023-02-29T00:00:00.000Z", "2100-02-29T00:00:00.000Z", "2000-02-29T00:00:00.000Z", "2024-04-31T00:00:00.000Z", "2024-13-01T00:00:00.000Z", "2024-00-10T00:00:00.000Z", "2024-01-00T00:00:00.000Z", "2024-01-32T00:00:00.000Z", "2024-01-01T24:00:00.000Z", "2024-01-01T24:00:01.000Z", "2024-01-01T23:60:00.000Z", "2024-01-01T23:59:60.000Z", "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "2024-01-01T00:00:00.00aZ", "2024-01-01T00:00:00.000z", "2024-01-01 00:00:00.000Z", "2024-1-01T00:00:00.000ZZ", "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.123456Z", "2024-01-01T00:00:00.000+02:00", "2024-01-01T00:00", "+02024-01-01T00:00:00.000Z", "2024-02-30T10:00:00Z", "2023-02-29T00:00:00+02:00", "2024-04-31T10:00", "2024-01-01T23:59:60Z", "1969-12-31T23:59:59Z", "1970-01-01T00:00:00Z"];
		for (const value of edges) expect(isoTime(value), value).toBe(byPattern(value));
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }), (y, mo, d, h, mi, s, ms) => {
				const pad = (n: number, w: number) => String(n).padStart(w, "0");
				const value = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`;
				expect(isoTime(value)).toBe(byPattern(value));
				// Without the milliseconds, and with an offset: the long way.
				for (const other of [value.replace(/\.\d{3}Z$/, "Z"), value.replace(/Z$/, "+05:30")]) expect(isoTime(other), other).toBe(byPattern(other));
			}),
			{ numRuns: 20_000 },
		);
		expect([isoTime(20240101), isoTime(undefined), isoTime("../../x")]).toEqual([undefined, undefined, undefined]);
		expect([isoTime("2024-02-30T10:00:00Z"), isoTime("0000-01-01T00:00:00.000Z"), isoTime("2024-02-29T10:00:00+01:00")]).toEqual([undefined, undefined, "2024-02-29T09:00:00.000Z"]);
	});

	it("gives every time in UTC's one form, so that times order as text", () => {
		// 10:00 at +05:30 is 04:30 UTC: as it was written it sorted after 05:00Z.
		const [offset, utc] = [isoTime("2026-11-02T10:00:00.000+05:30"), isoTime("2026-11-02T05:00:00.000Z")];
		expect(offset).toBe("2026-11-02T04:30:00.000Z");
		expect(offset! < utc!).toBe(true);
		expect([isoTime("2026-11-02T05:00:00Z"), isoTime("2026-11-02T05:00:00.5Z"), isoTime("2026-11-02T05:00-0100")]).toEqual(["2026-11-02T05:00:00.000Z", "2026-11-02T05:00:00.500Z", "2026-11-02T06:00:00.000Z"]);
		// No zone is the local time, as Date reads it; an instant before 1970 is none.
		expect(isoTime("2026-11-02T05:00:00")).toBe(new Date(2026, 10, 2, 5).toISOString());
		expect(isoTime("1970-01-01T01:00:00+05:30")).toBeUndefined();
	});
});

describe("isoOfMs", () => {
	it("writes what toISOString writes, for every instant from 1970 to 9999", () => {
		const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
		// The days a calendar gets wrong first: leap days, centuries (2100 is not a leap year, 2000 is), the ends of each range.
		for (const ms of [0, 1, 999, 1000, 86_399_999, 86_400_000, Date.UTC(1972, 1, 29), Date.UTC(2000, 1, 29, 12), Date.UTC(2000, 2, 1), Date.UTC(2100, 1, 28, 23, 59, 59, 999), Date.UTC(2100, 2, 1), Date.UTC(2400, 1, 29), last]) {
			expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
		}
		fc.assert(fc.property(fc.integer({ min: 0, max: last }), (ms) => isoOfMs(ms) === new Date(ms).toISOString()), { numRuns: 20_000 });
		// Fractions of a millisecond are dropped, as Date drops them.
		fc.assert(fc.property(fc.double({ min: 0, max: last, noNaN: true }), (ms) => isoOfMs(ms) === new Date(ms).toISOString()), { numRuns: 5_000 });
	});

	it("leaves an instant before 1970 or past 9999 to toISOString, and throws as it does for no instant", () => {
		for (const ms of [-1, -86_400_001, Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(10000, 0, 1), 8.64e15]) expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
		expect(() => isoOfMs(Number.NaN)).toThrow(RangeError);
		expect(() => isoOfMs(9e15)).toThrow(RangeError);
	});
});
