import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DIGEST_VERSION, type StoredDigest } from "../../src/core/digest/session-digest";
import { emptySyncState, type SyncState } from "../../src/core/sync/sync-state";
import { RecallStore } from "../../src/node/recall-store";
import { StateFolder } from "../../src/node/state-folder";

/** Run once, just before the store reads a session file the state it read lists: a sync writing meanwhile. */
const between = vi.hoisted(() => ({ run: undefined as (() => Promise<void>) | undefined }));
vi.mock("../../src/node/state-folder", async (original) => {
	const actual = await original<typeof import("../../src/node/state-folder")>();
	return {
		...actual,
		readSessionFile: async (dir: string, name: string) => {
			const run = between.run;
			between.run = undefined;
			await run?.();
			return actual.readSessionFile(dir, name);
		},
	};
});

const dir = mkdtempSync(join(tmpdir(), "recall-store-race-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d02";

function stateWith(title: string): SyncState {
	const state = emptySyncState();
	state.projects["/code/shop"] = { folder: "shop" };
	const digest: StoredDigest = { version: DIGEST_VERSION, sessionId: ID, agent: "claude-code", title, models: [], tasks: [], asked: [title], done: [], open: [], decisions: [], prompts: 1, toolCalls: 0, filesTouched: [], tools: [], subagents: [], tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, usage: [], endedAt: "2026-11-29T10:00:00.000Z" };
	state.sessions[`/home/me/.claude/projects/-code-shop/${ID}.jsonl`] = { projectKey: "/code/shop", project: "shop", projectPath: "/code/shop", notePath: `AI Conversations/shop/${title}.md`, written: true, digest, tags: [], keywords: [] };
	return state;
}

describe("RecallStore beside a sync (attack round 50a)", () => {
	it("reads the state again when a sync replaced it, and the session files it listed, while the store read them: no damage is said", async () => {
		const writer = new StateFolder(dir);
		await writer.flush(stateWith("Fix the cart total"));
		const store = new RecallStore(dir);
		// The sync renames its new list in, then removes the files the old list named: the store had read the old list.
		between.run = async () => {
			await writer.flush(stateWith("Fix the cart total for good"));
		};
		await store.refresh();
		expect(between.run).toBeUndefined();
		expect(store.unreadable).toBeUndefined();
		expect(store.sessions.byId(ID)?.digest.title).toBe("Fix the cart total for good");
	});

	it("still says a session file the state lists is gone when no sync replaced the state", async () => {
		const other = mkdtempSync(join(tmpdir(), "recall-store-gone-"));
		try {
			const writer = new StateFolder(other);
			await writer.flush(stateWith("Fix the cart total"));
			const store = new RecallStore(other);
			between.run = async () => {
				const { readdirSync } = await import("node:fs");
				for (const name of readdirSync(join(other, "sessions"))) rmSync(join(other, "sessions", name));
			};
			await store.refresh();
			expect(store.unreadable).toMatch(/^sessions\//);
			expect(existsSync(join(other, "sync-state.json"))).toBe(true);
		} finally {
			rmSync(other, { recursive: true, force: true });
		}
	});
});
