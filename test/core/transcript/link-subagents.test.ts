import { describe, expect, it } from "vitest";
import { linkSubagents } from "../../../src/core/transcript/link-subagents";
import { createSession } from "../../../src/core/transcript/session-model";
import type { TranscriptFile } from "../../../src/core/transcript/transcript-files";

const SESSION = "4f1c2a9e-0000-4000-8000-000000000001";

function file(kind: "session" | "subagent", fileId: string, agentId?: string): TranscriptFile {
	const path = kind === "session" ? `/p/-home-dev-app/${fileId}.jsonl` : `/p/-home-dev-app/${SESSION}/subagents/${fileId}.jsonl`;
	return { path, projectDir: "-home-dev-app", kind, fileId, size: 1, mtimeMs: 0, ino: 1, ...(kind === "subagent" ? { parentSessionId: SESSION, agentId } : {}) };
}

function agent(id: string, startedAt: string | undefined) {
	const model = createSession(`agent-${id}`, id);
	if (startedAt) model.startedAt = startedAt;
	return { file: file("subagent", `agent-${id}`, id), model };
}

describe("linkSubagents", () => {
	const session = { file: file("session", SESSION), model: createSession(SESSION) };

	it("orders a session's sub-agents by when they started, whatever order their files were read in", () => {
		const first = agent("c3", "2026-11-30T10:00:01.000Z");
		const second = agent("a1", "2026-11-30T10:00:05.000Z");
		const third = agent("b2", "2026-11-30T10:02:00.000Z");
		for (const read of [
			[third, first, second],
			[second, third, first],
		]) {
			const [linked] = linkSubagents([session], read).sessions;
			expect(linked!.subagents.map((s) => s.file.agentId)).toEqual(["c3", "a1", "b2"]);
		}
	});

	it("orders sub-agents that started together, or whose start is not known, by their file's path", () => {
		const unknownA = agent("d4", undefined);
		const unknownB = agent("a1", undefined);
		const sameA = agent("f6", "2026-11-30T10:00:00.000Z");
		const sameB = agent("e5", "2026-11-30T10:00:00.000Z");
		const [linked] = linkSubagents([session], [sameA, unknownA, sameB, unknownB]).sessions;
		expect(linked!.subagents.map((s) => s.file.agentId)).toEqual(["a1", "d4", "e5", "f6"]);
	});
});
