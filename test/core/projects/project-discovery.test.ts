import { describe, expect, it } from "vitest";
import type { SessionDigest } from "../../../src/core/digest/session-digest";
import { discoverProjects } from "../../../src/core/projects/project-discovery";
import { emptySyncState, type SessionRecord } from "../../../src/core/sync/sync-state";

function record(project: string, projectPath: string | undefined, startedAt?: string, endedAt?: string): SessionRecord {
	const digest = { sessionId: "s", title: "t", projectPath, startedAt, endedAt } as SessionDigest;
	return { project, projectPath, notePath: `${project}/x.md`, digest, tags: [], keywords: [] };
}

describe("projects discovered from the sync state", () => {
	it("one per project path, with its session count and latest activity, latest first", () => {
		const state = emptySyncState();
		state.sessions = {
			"/t/a1.jsonl": record("shop-api", "/home/me/shop-api", "2026-11-20T10:00:00Z", "2026-11-20T11:00:00Z"),
			"/t/a2.jsonl": record("shop-api", "/home/me/shop-api", "2026-11-29T09:00:00Z", "2026-11-29T09:30:00Z"),
			"/t/b1.jsonl": record("web", "/home/me/web", "2026-11-25T08:00:00Z"),
			"/t/c1.jsonl": record("old", "/home/me/old", "2025-01-01T00:00:00Z", "2025-01-01T01:00:00Z"),
		};
		expect(discoverProjects(state)).toEqual([
			{ path: "/home/me/shop-api", name: "shop-api", sessions: 2, lastActivity: "2026-11-29T09:30:00Z" },
			{ path: "/home/me/web", name: "web", sessions: 1, lastActivity: "2026-11-25T08:00:00Z" },
			{ path: "/home/me/old", name: "old", sessions: 1, lastActivity: "2025-01-01T01:00:00Z" },
		]);
	});

	it("compares times, not strings; undated projects last, by path; sessions without a path left out", () => {
		const state = emptySyncState();
		state.sessions = {
			a: record("late", "/p/late", "2026-11-29T23:30:00-05:00"), // 04:30 UTC on the 30th
			b: record("early", "/p/early", "2026-11-30T01:00:00Z"),
			c: record("z-undated", "/p/z"),
			d: record("a-undated", "/p/a", "not a date"),
			e: record("nowhere", undefined, "2027-01-01T00:00:00Z"),
		};
		expect(discoverProjects(state).map((p) => p.path)).toEqual(["/p/late", "/p/early", "/p/a", "/p/z"]);
		expect(discoverProjects(state).find((p) => p.path === "/p/a")).toEqual({ path: "/p/a", name: "a-undated", sessions: 1 });
	});

	it("the name is the vault folder of the latest session, the path's last part without one", () => {
		const state = emptySyncState();
		state.sessions = {
			a: record("api", "/srv/api", "2026-01-01T00:00:00Z"),
			b: record("api (2)", "/srv/api", "2026-02-01T00:00:00Z"),
			c: { ...record("", "C:\\code\\tool", "2026-01-01T00:00:00Z") },
		};
		expect(discoverProjects(state)).toEqual([
			{ path: "/srv/api", name: "api (2)", sessions: 2, lastActivity: "2026-02-01T00:00:00Z" },
			{ path: "C:\\code\\tool", name: "tool", sessions: 1, lastActivity: "2026-01-01T00:00:00Z" },
		]);
		expect(discoverProjects(emptySyncState())).toEqual([]);
	});
});
