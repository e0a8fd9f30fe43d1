import { describe, expect, it } from "vitest";
import { foldFor, foldRangeFor, timesUntil } from "../../../src/core/transcript/fold-for";
import { createSession } from "../../../src/core/transcript/session-model";
import { usageDays } from "../../../src/core/digest/usage-days";
import { localDay } from "../../../src/core/text/local-date";
import type { AgentId } from "../../../src/core/transcript/agents";

/** The file was last written at noon: a time past a day later was never a time of its lines. */
const NOON = Date.parse("2026-12-06T12:00:00.000Z");

const claudeLine = (timestamp: string, n: number) => JSON.stringify({ type: "user", uuid: `u${n}`, sessionId: "s1", cwd: "/home/me/app", timestamp, message: { role: "user", content: `ask number ${n}` } });
const codexLine = (timestamp: string) => JSON.stringify({ timestamp, type: "event_msg", payload: { type: "user_message", message: "look at the parser" } });

function fold(agent: AgentId, texts: readonly string[], mtimeMs = NOON) {
	const model = createSession("s1", undefined, true, agent);
	foldFor({ agent, mtimeMs })(model, texts.map((text, i) => ({ no: i + 1, text })));
	return model;
}

describe("a session's times are bounded by its file's last write", () => {
	it("a line stamped 2999 in a session of today leaves the session ending at its last real time", () => {
		const model = fold("claude-code", [claudeLine("2026-12-06T09:00:00.000Z", 1), claudeLine("2999-12-31T10:00:00.000Z", 2), claudeLine("2026-12-06T10:30:00.000Z", 3)]);
		expect(model).toMatchObject({ startedAt: "2026-12-06T09:00:00.000Z", endedAt: "2026-12-06T10:30:00.000Z" });
		const codex = fold("codex", [codexLine("2026-12-06T09:00:00.000Z"), codexLine("2999-12-31T10:00:00.000Z")]);
		expect(codex).toMatchObject({ startedAt: "2026-12-06T09:00:00.000Z", endedAt: "2026-12-06T09:00:00.000Z" });
	});

	it("a reply's tokens stamped 2999 count on the session's day, not 2999's", () => {
		const reply = JSON.stringify({ type: "assistant", uuid: "a1", sessionId: "s1", timestamp: "2999-12-31T10:00:00.000Z", message: { id: "m1", role: "assistant", model: "claude-x", content: [{ type: "text", text: "Done." }], usage: { input_tokens: 5, output_tokens: 7 } } });
		const model = fold("claude-code", [claudeLine("2026-12-06T09:00:00.000Z", 1), reply]);
		expect(usageDays(model).map((d) => d.day)).toEqual([localDay("2026-12-06T09:00:00.000Z")]);
	});

	it("a time within a day of the file's write is the session's (another machine's clock)", () => {
		const model = fold("claude-code", [claudeLine("2026-12-06T09:00:00.000Z", 1), claudeLine("2026-12-07T08:00:00.000Z", 2)]);
		expect(model.endedAt).toBe("2026-12-07T08:00:00.000Z");
	});

	it("a session whose every time is later is undated", () => {
		const model = fold("claude-code", [claudeLine("2999-01-01T10:00:00.000Z", 1), claudeLine("2999-01-01T11:00:00.000Z", 2)]);
		expect(model.startedAt).toBeUndefined();
		expect(model.endedAt).toBeUndefined();
		expect(model.counts.prompts).toBe(2);
	});

	it("an Aider history's start past its file's write is no start", () => {
		const model = createSession("h", undefined, true, "aider");
		const lines = ["# aider chat started at 2999-01-01 10:00:00", "", "#### fix the parser"].map((text, i) => ({ no: i + 1, text }));
		foldRangeFor({ agent: "aider", mtimeMs: NOON })(model, lines, 0, lines.length);
		expect(model.startedAt).toBeUndefined();
	});

	it("a time before any agent wrote one (epoch 0) is no time of the session, nor of its tokens", () => {
		const reply = JSON.stringify({ type: "assistant", uuid: "a1", sessionId: "s1", timestamp: "1970-01-01T00:00:00.000Z", message: { id: "m1", role: "assistant", model: "claude-x", content: [{ type: "text", text: "Done." }], usage: { input_tokens: 5, output_tokens: 7 } } });
		const model = fold("claude-code", [claudeLine("2026-12-06T09:00:00.000Z", 1), reply, claudeLine("2026-12-06T10:00:00.000Z", 2)]);
		expect(model).toMatchObject({ startedAt: "2026-12-06T09:00:00.000Z", endedAt: "2026-12-06T10:00:00.000Z" });
		expect(usageDays(model).map((d) => d.day)).toEqual([localDay("2026-12-06T09:00:00.000Z")]);
		expect(fold("codex", [codexLine("2000-01-01T00:00:00.000Z"), codexLine("2026-12-06T09:00:00.000Z")]).startedAt).toBe("2026-12-06T09:00:00.000Z");
		// A file of no stamp too, and a session of such times alone is undated.
		expect(fold("claude-code", [claudeLine("1970-01-01T00:00:00.000Z", 1)], -1).startedAt).toBeUndefined();
	});

	it("a file of no stamp bounds nothing", () => {
		expect(timesUntil({ mtimeMs: -1 })).toBeUndefined();
		expect(timesUntil({ mtimeMs: NOON })).toBe("2026-12-07T12:00:00.000Z");
		expect(fold("claude-code", [claudeLine("2999-01-01T10:00:00.000Z", 1)], -1).startedAt).toBe("2999-01-01T10:00:00.000Z");
	});
});
