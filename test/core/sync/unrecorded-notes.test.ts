import { describe, expect, it } from "vitest";
import { NOTE_MARKERS } from "../../../src/core/notes/note-regions";
import type { SessionScope } from "../../../src/core/plan/plan-scope";
import { emptySyncState, type SessionRecord, type SyncState } from "../../../src/core/sync/sync-state";
import { takesOccupied, unrecordedNotes } from "../../../src/core/sync/unrecorded-notes";
import { MemoryNotes } from "../../fakes/memory-notes";

const ours = (properties: string) => `---\n${properties}\n---\n${NOTE_MARKERS.begin}\nbody\n${NOTE_MARKERS.end}\n`;
const record = (notePath: string, sessionId: string) => ({ notePath, digest: { sessionId } }) as unknown as SessionRecord;

/** A vault where `shop` was synced before and `web` and one of its sessions are new. */
function setting(): { notes: MemoryNotes; start: SyncState; scope: SessionScope } {
	const start = emptySyncState();
	start.projects["/r/shop"] = { folder: "shop" };
	start.sessions["/t/a.jsonl"] = record("AI Conversations/shop/a.md", "s-a");
	const state = { ...start, projects: { ...start.projects, "/r/web": { folder: "web" } }, sessions: { ...start.sessions, "/t/b.jsonl": record("AI Conversations/web/b.md", "s-b") } };
	const scope = { state, live: [{ file: { path: "/t/b.jsonl" } }] } as unknown as SessionScope;
	const notes = new MemoryNotes();
	notes.files.set("AI Conversations/shop/a.md", ours("session_id: s-a"));
	notes.files.set("AI Conversations/shop/shop.md", "the index, recorded\n");
	notes.files.set("AI Conversations/shop/Mine.md", "My own note.\n");
	notes.files.set("AI Conversations/web/web.md", ours("type: ai-project-index"));
	notes.files.set("AI Conversations/web/web context.md", "MY PACKET\n");
	notes.files.set("AI Conversations/web/b (written).md", ours("session_id: s-b"));
	return { notes, start, scope };
}

describe("unrecordedNotes", () => {
	it("names every file the state does not, but a new project's index its properties call one, and finds a new session's note by its session_id", async () => {
		const { notes, start, scope } = setting();
		const found = await unrecordedNotes(notes, "AI Conversations", scope, start);
		expect([...found.occupied].sort()).toEqual(["ai conversations/shop/mine.md", "ai conversations/web/b (written).md", "ai conversations/web/web context.md"]);
		expect([...found.orphans]).toEqual([["s-b", "AI Conversations/web/b (written).md"]]);
		// The folders that hold them, as spelled, for a new project named as one of them but for case.
		expect([...found.folders]).toEqual([["shop", "shop"], ["web", "web"]]);
		// A dry run claims no note.
		expect((await unrecordedNotes(notes, "AI Conversations", scope, start, true)).orphans.size).toBe(0);
	});

	it("never finds a new session's note in a file-sync tool's conflict copy of it, though it holds its session_id and sorts first", async () => {
		const { notes, start, scope } = setting();
		notes.files.set("AI Conversations/web/b (written).sync-conflict-20261104-101010-ABCDEFG.md", ours("session_id: s-b"));
		notes.files.set("AI Conversations/web/b (written) (conflicted copy).md", ours("session_id: s-b"));
		expect([...(await unrecordedNotes(notes, "AI Conversations", scope, start)).orphans]).toEqual([["s-b", "AI Conversations/web/b (written).md"]]);
		// The copy alone: no note of the session's; a new one is written beside it.
		notes.files.delete("AI Conversations/web/b (written).md");
		const found = await unrecordedNotes(notes, "AI Conversations", scope, start);
		expect(found.orphans.size).toBe(0);
		expect(found.occupied.has("ai conversations/web/b (written) (conflicted copy).md")).toBe(true);
	});

	it("lists nothing when no session or project is new", async () => {
		const { notes, start } = setting();
		const found = await unrecordedNotes(notes, "AI Conversations", { state: start, live: [] } as unknown as SessionScope, start);
		expect(found.occupied.size).toBe(0);
	});
});

describe("takesOccupied", () => {
	it("is true when the scope gave a note, an index or a packet the path of a file none of ours, in any case", () => {
		const { scope } = setting();
		expect(takesOccupied(scope, "AI Conversations", new Set(["ai conversations/shop/mine.md"]))).toBe(false);
		expect(takesOccupied(scope, "AI Conversations", new Set(["ai conversations/web/b.md"]))).toBe(true);
		expect(takesOccupied(scope, "AI Conversations", new Set(["ai conversations/web/web context.md"]))).toBe(true);
	});
});
