import { describe, expect, it } from "vitest";
import { projectOrder } from "../../../src/core/plan/plan-scope";
import type { SyncState } from "../../../src/core/sync/sync-state";

const record = (sessionId: string, startedAt: string) => ({ projectKey: "p", digest: { sessionId, startedAt } });

describe("the order of a project's sessions (their notes' Previous and Next)", () => {
	it("puts two sessions started at once by session id, so a transcript moved to another folder keeps its place", () => {
		const at = "2026-11-29T10:00:00.000Z";
		const sessions = (moved: string) => ({ sessions: { "/c/projects/-proj/1111.jsonl": record("1111", at), [moved]: record("3333", at) } }) as unknown as SyncState;
		// Moved from `-proj/` to `-proj-old/`, a path that sorts before the other's.
		expect(projectOrder(sessions("/c/projects/-proj/3333.jsonl")).get("p")).toEqual(["/c/projects/-proj/1111.jsonl", "/c/projects/-proj/3333.jsonl"]);
		expect(projectOrder(sessions("/c/projects/-proj-old/3333.jsonl")).get("p")).toEqual(["/c/projects/-proj/1111.jsonl", "/c/projects/-proj-old/3333.jsonl"]);
	});
});
