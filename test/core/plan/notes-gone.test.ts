import { describe, expect, it } from "vitest";
import { vaultPath } from "../../../src/core/plan/follow-renames";
import { notesGone } from "../../../src/core/plan/notes-gone";
import { migrateSettings } from "../../../src/core/settings";
import { emptySyncState, type SessionRecord } from "../../../src/core/sync/sync-state";

const record = (notePath: string, extra: Partial<SessionRecord> = {}): SessionRecord => ({ projectKey: "/r/cli", project: "cli", notePath, written: true, digest: {} as SessionRecord["digest"], tags: [], keywords: [], ...extra });
const settings = migrateSettings({}).settings;

/** Folders as a note store lists them, in the vault's spelling whatever the folder's, counting the listings; a folder named "locked" cannot be listed. */
function store(files: string[]) {
	const listed: string[] = [];
	return {
		listed,
		list: async (folder: string) => {
			listed.push(folder);
			if (folder.endsWith("locked")) throw new Error("EACCES");
			const at = vaultPath(folder);
			return files.filter((f) => (at === "" ? !f.includes("/") : f.startsWith(`${at}/`) && !f.slice(at.length + 1).includes("/")));
		},
	};
}

describe("notesGone", () => {
	it("names the sessions whose written note their folder no longer holds, each folder listed once; not those never written, deleted already, or in a folder that cannot be listed", async () => {
		const state = emptySyncState();
		state.sessions["/t/a"] = record("AI Conversations/cli/a.md");
		state.sessions["/t/b"] = record("AI Conversations/cli/b.md");
		state.sessions["/t/c"] = record("AI Conversations/cli/c.md", { written: false });
		state.sessions["/t/d"] = record("AI Conversations/cli/d.md", { deleted: true });
		state.sessions["/t/e"] = record("AI Conversations/locked/e.md");
		state.sessions["/t/f"] = record("Top.md");
		const notes = store(["AI Conversations/cli/a.md"]);
		expect((await notesGone(state, notes, settings)).sort()).toEqual(["/t/b", "/t/f"]);
		expect(notes.listed.sort()).toEqual(["", "AI Conversations/cli", "AI Conversations/locked"]);
	});

	it("finds a note recorded composed that the file system lists decomposed (macOS), and leaves out an excluded project's", async () => {
		const state = emptySyncState();
		state.sessions["/t/a"] = record("AI Conversations/cli/Café.md".normalize("NFC"));
		state.sessions["/t/b"] = record("AI Conversations/cli/gone.md", { projectKey: "/r/private", projectPath: "/r/private" });
		const notes = store(["AI Conversations/cli/Café.md".normalize("NFD")]);
		expect(await notesGone(state, notes, { ...settings, excludedProjects: ["/r/private"] })).toEqual([]);
		expect(await notesGone(state, notes, settings)).toEqual(["/t/b"]);
	});

	it("matches the vault's spelling of a note when the notes folder is set as the vault's top or with a slash at its end (attack round 49a)", async () => {
		for (const [folder, at] of [["", "cli"], ["/", "cli"], ["x/", "x/cli"], ["./x", "x/cli"]] as const) {
			const state = emptySyncState();
			state.sessions["/t/a"] = record(`${folder}/cli/a.md`);
			state.sessions["/t/b"] = record(`${folder}/cli/b.md`);
			expect(await notesGone(state, store([`${at}/a.md`, `${at}/b.md`]), settings), folder).toEqual([]);
			expect(await notesGone(state, store([`${at}/b.md`]), settings), folder).toEqual(["/t/a"]);
			expect((await notesGone(state, store([]), settings)).sort(), folder).toEqual(["/t/a", "/t/b"]);
		}
	});
});
