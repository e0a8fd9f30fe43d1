import { describe, expect, it } from "vitest";
import { followRenames } from "../../../src/core/plan/follow-renames";
import { emptySyncState, type SessionRecord } from "../../../src/core/sync/sync-state";

const folders = { notes: "AI Conversations", memory: "AI Memory" };
const record = (notePath: string): SessionRecord => ({ projectKey: "/r/cli", project: "cli", notePath, written: true, digest: {} as SessionRecord["digest"], tags: [], keywords: [] });

describe("followRenames", () => {
	it("follows a note, then a folder's move with everything below it, and says whose notes moved", () => {
		const state = emptySyncState();
		state.projects["/r/cli"] = { folder: "cli" };
		state.sessions["/t/a.jsonl"] = { ...record("AI Conversations/cli/a.md"), deleted: true };
		state.sessions["/t/b.jsonl"] = record("AI Conversations/cli/b.md");
		state.memory["/r/cli"] = { "feedback_pnpm.md": { vault: "use-pnpm.md", base: "x" } };
		const moved = followRenames(
			state,
			[
				{ from: "AI Conversations/cli/a.md", to: "Archive/a.md" },
				{ from: "AI Conversations/cli", to: "Projects/cli" },
				{ from: "AI Memory/cli/use-pnpm.md", to: "AI Memory/cli/pnpm only.md" },
			],
			folders,
		);
		expect([...moved].sort()).toEqual(["/t/a.jsonl", "/t/b.jsonl"]);
		// A note found again is not deleted any more.
		expect(state.sessions["/t/a.jsonl"]).toMatchObject({ notePath: "Archive/a.md", deleted: undefined });
		expect(state.sessions["/t/b.jsonl"].notePath).toBe("Projects/cli/b.md");
		expect(state.projects["/r/cli"]).toEqual({ folder: "cli", notesPath: "Projects/cli", indexPath: "Projects/cli/cli.md", packetPath: "Projects/cli/cli context.md" });
		expect(state.memory["/r/cli"]["feedback_pnpm.md"]!.vault).toBe("pnpm only.md");
	});

	it("follows the memory folder itself, and leaves a fact moved out of it unpaired", () => {
		const state = emptySyncState();
		state.projects["/r/cli"] = { folder: "cli" };
		state.memory["/r/cli"] = { "a.md": { vault: "a.md", base: "x" }, "b.md": { vault: "b.md", base: "y" } };
		followRenames(state, [{ from: "AI Memory/cli/b.md", to: "Elsewhere/b.md" }, { from: "AI Memory/cli", to: "AI Memory/cli tools" }], folders);
		expect(state.projects["/r/cli"].memoryPath).toBe("AI Memory/cli tools");
		expect(state.memory["/r/cli"]["b.md"]!.vault).toBe("b.md");
	});
});
