import { describe, expect, it } from "vitest";
import { addUnique, pushEvent } from "../../../src/core/transcript/model-building";
import { compactLists, createSession, restoreSession, serializeSession, type SerializedSession } from "../../../src/core/transcript/session-model";

describe("createSession and restoreSession", () => {
	it("give another agent's model one shared uuid and usage index that refuses to be written; Claude Code's model its own", () => {
		const codex = createSession("a", undefined, true, "codex");
		const gemini = createSession("b", undefined, true, "gemini-cli");
		expect(codex.index.seenUuids).toBe(gemini.index.seenUuids);
		expect(codex.index.seenUuids.size).toBe(0);
		expect(() => codex.index.seenUuids.add(1)).toThrow(/only Claude Code/);
		expect(codex.index.agentUsageByMessage).toBe(gemini.index.agentUsageByMessage);
		expect(() => codex.index.agentUsageByMessage.set(1, { inputTokens: 1, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 })).toThrow(/only Claude Code/);
		expect(() => codex.index.usageByMessage.set(1, { inputTokens: 1, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 })).toThrow(/only Claude Code/);
		const claude = createSession("c");
		const other = createSession("d", undefined, true, "claude-code");
		expect(claude.index.seenUuids).not.toBe(other.index.seenUuids);
		claude.index.seenUuids.add(1);
		claude.index.usageByMessage.set(2, { inputTokens: 0, outputTokens: 3, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
		// Through storage and back, the same.
		const again = restoreSession(JSON.parse(JSON.stringify(serializeSession(claude))) as SerializedSession);
		expect([...again.index.seenUuids]).toEqual([1]);
		expect([...again.index.usageByMessage.keys()]).toEqual([2]);
		const restored = restoreSession(JSON.parse(JSON.stringify(serializeSession(codex))) as SerializedSession);
		expect(restored.index.seenUuids).toBe(codex.index.seenUuids);
		expect(serializeSession(restored)).toEqual(serializeSession(codex));
	});
});

describe("compactLists", () => {
	it("keeps every list's items and order, and the model folds on as before", () => {
		const model = createSession("a", undefined, true, "aider");
		for (const name of ["m1", "m2"]) addUnique(model, "models", name);
		pushEvent(model, { kind: "error", source: "api", text: "one" });
		model.files.edited.push("/a.py");
		const before = serializeSession(model);
		const events = model.events;
		compactLists(model);
		expect(serializeSession(model)).toEqual(before);
		expect(model.events).not.toBe(events);
		addUnique(model, "models", "m1");
		addUnique(model, "models", "m3");
		pushEvent(model, { kind: "error", source: "api", text: "two" });
		expect(model.models).toEqual(["m1", "m2", "m3"]);
		expect(model.events.map((e) => (e.kind === "error" ? e.text : ""))).toEqual(["one", "two"]);
	});
});
