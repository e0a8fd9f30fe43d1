import { describe, expect, it } from "vitest";
import { followMovedTranscripts, movedTranscripts } from "../../../src/core/plan/moved-transcripts";
import { emptySyncState, type SessionRecord } from "../../../src/core/sync/sync-state";
import type { TranscriptFile } from "../../../src/core/transcript/transcript-files";

const file = (path: string, fileId: string, extra: Partial<TranscriptFile> = {}): TranscriptFile => ({ path, fileId, projectDir: "-p", kind: "session", size: 1, mtimeMs: 0, ino: 0, ...extra });
const record = { project: "p", notePath: "AI Conversations/p/note.md", written: true } as unknown as SessionRecord;

describe("movedTranscripts", () => {
	it("pairs a session read anew at a path with no record with the record whose transcript of the same id went, and moves its sub-agents with it", () => {
		const state = emptySyncState();
		state.sessions["/a/projects/-p/s1.jsonl"] = record;
		state.pending = ["/a/projects/-p/s1.jsonl"];
		const before = [file("/a/projects/-p/s1.jsonl", "s1"), file("/a/projects/-p/s1/subagents/agent-x.jsonl", "agent-x", { kind: "subagent", parentSessionId: "s1" })];
		const after = [file("/b/projects/-p/s1.jsonl", "s1"), file("/b/projects/-p/s1/subagents/agent-x.jsonl", "agent-x", { kind: "subagent", parentSessionId: "s1" })];
		const known = new Map([...before, ...after].map((f) => [f.path, f]));
		const moves = movedTranscripts(state, after, before.map((f) => f.path), known);
		expect(moves).toEqual([
			{ from: "/a/projects/-p/s1.jsonl", to: "/b/projects/-p/s1.jsonl" },
			{ from: "/a/projects/-p/s1/subagents/agent-x.jsonl", to: "/b/projects/-p/s1/subagents/agent-x.jsonl", subagent: true },
		]);
		followMovedTranscripts(state, moves);
		expect(Object.keys(state.sessions)).toEqual(["/b/projects/-p/s1.jsonl"]);
		expect(state.sessions["/b/projects/-p/s1.jsonl"]).toBe(record);
		expect(state.pending).toEqual(["/b/projects/-p/s1.jsonl"]);
	});

	it("pairs a transcript with no record yet with its new place too, so that its model at the old place is forgotten; no record moves", () => {
		const state = emptySyncState();
		const known = new Map([file("/a/sessions/r1.jsonl", "r1", { agent: "codex" }), file("/a/archived_sessions/r1.jsonl", "r1", { agent: "codex" })].map((f) => [f.path, f]));
		const moves = movedTranscripts(state, [known.get("/a/archived_sessions/r1.jsonl")!], ["/a/sessions/r1.jsonl"], known);
		expect(moves).toEqual([{ from: "/a/sessions/r1.jsonl", to: "/a/archived_sessions/r1.jsonl" }]);
		followMovedTranscripts(state, moves);
		expect(state.sessions).toEqual({});
	});

	it("pairs nothing when the old transcript is still there (a copy), when either side is two, across agents, or in a file of several sessions", () => {
		const state = emptySyncState();
		state.sessions["/a/s1.jsonl"] = record;
		state.sessions["/a2/s1.jsonl"] = record;
		state.sessions["/a/h.md#0"] = record;
		const known = new Map(
			[file("/a/s1.jsonl", "s1"), file("/a2/s1.jsonl", "s1"), file("/b/s1.jsonl", "s1"), file("/c/s1.jsonl", "s1", { agent: "codex" }), file("/a/h.md#0", "0", { within: "/a/h.md" }), file("/b/h.md#0", "0", { within: "/b/h.md" })].map((f) => [f.path, f]),
		);
		// Still there: not removed.
		expect(movedTranscripts(state, [known.get("/b/s1.jsonl")!], [], known)).toEqual([]);
		// Two records of that id went: which one moved is not known.
		expect(movedTranscripts(state, [known.get("/b/s1.jsonl")!], ["/a/s1.jsonl", "/a2/s1.jsonl"], known)).toEqual([]);
		// Another agent's session of the same id is another session.
		expect(movedTranscripts(state, [known.get("/c/s1.jsonl")!], ["/a/s1.jsonl"], known)).toEqual([]);
		expect(movedTranscripts(state, [known.get("/b/h.md#0")!], ["/a/h.md#0"], known)).toEqual([]);
	});
});
