import { describe, expect, it } from "vitest";
import { addFile, addUnique, countUnknown, markMalformed, pushEvent } from "../../../src/core/transcript/model-building";
import { compactLists, createSession, ownCalls, restoreSession, serializeSession, type SerializedSession } from "../../../src/core/transcript/session-model";

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

describe("a new model's empties", () => {
	it("are shared by every model until an add through the helpers makes the model's own; the shared ones refuse writes", () => {
		const [a, b] = [createSession("a", undefined, true, "aider"), createSession("b")];
		expect(a.events).toBe(b.events);
		expect(a.files.read).toBe(b.cwds);
		expect(a.unknownTypes).toBe(b.unknownTypes);
		expect(a.index.calls).toBe(b.index.calls);
		expect(() => a.events.push({ kind: "error", source: "api", text: "x" })).toThrow();
		expect(() => a.index.calls.set("x", { id: "x", name: "Bash", input: {} })).toThrow(/ownCalls/);
		pushEvent(a, { kind: "error", source: "api", text: "one" });
		addFile(a, "read", "/r.py");
		addUnique(a, "models", "m1");
		countUnknown(a, "hologram");
		markMalformed(a, 3, "invalid JSON");
		ownCalls(a).set("c1", { id: "c1", name: "Bash", input: {} });
		expect([a.events.length, a.files.read, a.models, a.unknownTypes, a.malformedLines.length, a.index.calls.size]).toEqual([1, ["/r.py"], ["m1"], { hologram: 1 }, 1, 1]);
		expect([b.events.length, b.files.read.length, b.models.length, b.unknownTypes, b.malformedLines.length, b.index.calls.size]).toEqual([0, 0, 0, {}, 0, 0]);
		// Through storage and back: the empties shared again, the rest as it was.
		const restored = restoreSession(JSON.parse(JSON.stringify(serializeSession(a))) as SerializedSession);
		expect(restored.cwds).toBe(b.cwds);
		expect(restored.unknownTypes).toEqual({ hologram: 1 });
		expect(serializeSession(restored)).toEqual(serializeSession(a));
		expect(serializeSession(restoreSession(JSON.parse(JSON.stringify(serializeSession(b))) as SerializedSession)).unknownTypes).toBe(b.unknownTypes);
	});

	it("a list past the short length gets its set, and stays unique", () => {
		const model = createSession("a", undefined, true, "codex");
		for (let i = 0; i < 40; i++) addFile(model, "edited", `/f${i % 20}.py`);
		expect(model.files.edited).toHaveLength(20);
		expect(model.index.files?.edited?.size).toBe(20);
		expect(model.index.sets).toBeUndefined();
	});
});

describe("compactLists", () => {
	it("keeps every list's items and order, and the model folds on as before", () => {
		const model = createSession("a", undefined, true, "aider");
		for (const name of ["m1", "m2"]) addUnique(model, "models", name);
		pushEvent(model, { kind: "error", source: "api", text: "one" });
		addFile(model, "edited", "/a.py");
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
