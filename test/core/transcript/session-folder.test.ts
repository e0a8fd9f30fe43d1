import { describe, expect, it } from "vitest";
import { TranscriptIndex } from "../../../src/core/ingest/transcript-index";
import { AGENTS, type AgentId } from "../../../src/core/transcript/agents";
import { foldFor } from "../../../src/core/transcript/fold-for";
import { foldersPassedOver, MAX_FOLDER_CHARS } from "../../../src/core/transcript/session-folder";
import { createSession } from "../../../src/core/transcript/session-model";
import { MemoryTranscripts } from "../../fakes/memory-transcripts";

/** A first line of each agent's transcript that gives the session's folder. */
const firstLine: Record<Exclude<AgentId, "aider">, (folder: string) => string> = {
	"claude-code": (cwd) => JSON.stringify({ type: "user", uuid: "u1", sessionId: "s1", cwd, timestamp: "2026-12-01T10:00:00.000Z", message: { role: "user", content: "hello" } }),
	codex: (cwd) => JSON.stringify({ timestamp: "2026-12-01T10:00:00.000Z", type: "session_meta", payload: { id: "01a23243-6605-7bf0-a729-fbdb07820fd2", cwd } }),
	"copilot-cli": (cwd) => JSON.stringify({ type: "session.start", data: { sessionId: "02e30a0b-e727-4fae-a24a-00401b71d0b4", context: { cwd } } }),
	"gemini-cli": (folder) => JSON.stringify({ sessionId: "ad6bc2cc-0000-4000-8000-000000000001", startTime: "2026-12-01T10:00:00.000Z", directories: [folder] }),
	opencode: (directory) => JSON.stringify(["session", { id: "ses_1", directory }]),
};

const modelOf = (agent: Exclude<AgentId, "aider">, folder: string) => {
	const model = createSession("s1", undefined, true, agent);
	foldFor({ agent, mtimeMs: 0 })(model, [{ no: 1, text: firstLine[agent](folder) }]);
	return model;
};

describe("a session's folder, the same rule for every agent", () => {
	it("a folder no longer than a path is the session's project", () => {
		for (const agent of AGENTS.filter((a) => a !== "aider")) {
			const folder = `/home/me/${"a".repeat(MAX_FOLDER_CHARS - 9)}`;
			expect(modelOf(agent, folder).cwd, agent).toBe(folder);
		}
	});

	it("a longer one (a 10 MB opencode `directory`) is not taken, and the read names it among what it passed over", () => {
		for (const agent of AGENTS.filter((a) => a !== "aider")) {
			const model = modelOf(agent, `/${"a".repeat(agent === "opencode" ? 10 * 2 ** 20 : MAX_FOLDER_CHARS)}`);
			expect(model.cwd, agent).toBeUndefined();
			expect(model.cwds, agent).toEqual([]);
			expect(foldersPassedOver([{ file: { path: `/x/${agent}` }, model }]), agent).toEqual([{ path: `/x/${agent}`, reason: "its folder (cwd) is longer than any path (over 4,096 characters): not taken as the session's project" }]);
		}
		expect(foldersPassedOver([{ file: { path: "/x/ok" }, model: modelOf("opencode", "/home/me/app") }])).toEqual([]);
	});

	it("a sync's read says so in what it passed over, once, when the transcript is read", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-x", "s1", `${firstLine["claude-code"](`/${"a".repeat(MAX_FOLDER_CHARS)}`)}\n`);
		const index = new TranscriptIndex(transcripts);
		expect((await index.refresh()).passedOver).toEqual([{ path, reason: expect.stringContaining("longer than any path") as unknown }]);
		expect((await index.refresh()).passedOver).toEqual([]);
	});
});
