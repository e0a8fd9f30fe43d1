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

	it("follows the index and notes folder from where the last sync placed them, not from a notes folder setting changed since (attack round 49a)", () => {
		const state = emptySyncState();
		state.projects["/r/cli"] = { folder: "cli", notesRoot: "AI Conversations" };
		// The setting says "Mine/Chats" now; no sync placed anything there yet. The person renames "Mine".
		followRenames(state, [{ from: "Mine", to: "Mine moved" }], { notes: "Mine/Chats", memory: "AI Memory" });
		expect(state.projects["/r/cli"]).toEqual({ folder: "cli", notesRoot: "AI Conversations" });
		followRenames(state, [{ from: "AI Conversations", to: "Archive" }], { notes: "Mine/Chats", memory: "AI Memory" });
		expect(state.projects["/r/cli"]).toMatchObject({ notesPath: "Archive/cli", indexPath: "Archive/cli/cli.md", packetPath: "Archive/cli/cli context.md" });
	});

	it("seeded: a folder rename pins a project's index only to where its index was carried (never under the setting's folders it was not in)", () => {
		let seed = 49;
		const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
		const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
		const roots = ["AI Conversations", "Mine", "Mine/Chats", "Notes/Deep", "Caf\u00e9"];
		for (let run = 0; run < 400; run++) {
			const root = pick(roots);
			const state = emptySyncState();
			state.projects["/r/cli"] = { folder: "cli", notesRoot: root };
			const renames = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
				const from = pick([...roots, `${pick(roots)}/cli`]);
				return { from, to: `${pick(["Moved", "Mine", "Archive/x"])}${Math.floor(next() * 3)}` };
			});
			followRenames(state, renames, { notes: pick(roots), memory: "AI Memory" });
			// Where the index that the last sync placed went, rename after rename.
			let where = `${root}/cli/cli.md`;
			let carried = false;
			for (const { from, to } of renames) {
				if (where === from || where.startsWith(`${from}/`)) {
					where = `${to}${where.slice(from.length)}`;
					carried = true;
				}
			}
			expect(state.projects["/r/cli"].indexPath, JSON.stringify({ root, renames })).toBe(carried ? where : undefined);
		}
	});

	it("matches the vault's spelling of a path when the notes folder is set as the vault's top or with a slash at its end (attack round 49a)", () => {
		for (const [notes, at] of [["", "cli"], ["/", "cli"], ["x/", "x/cli"], ["./x", "x/cli"]] as const) {
			const state = emptySyncState();
			state.projects["/r/cli"] = { folder: "cli", notesRoot: notes };
			state.sessions["/t/a.jsonl"] = record(`${notes}/cli/a.md`);
			state.sessions["/t/b.jsonl"] = record(`${notes}/cli/b.md`);
			// Obsidian tells a rename and a deletion in its own spelling: "cli/cli.md", never "/cli/cli.md".
			followRenames(state, [{ from: `${at}/cli.md`, to: `${at}/CLI sessions.md` }, { from: `${at}/b.md`, to: `${at}/kept.md` }], { notes, memory: "AI Memory" });
			expect(state.projects["/r/cli"].indexPath, notes).toBe(`${at}/CLI sessions.md`);
			expect(state.sessions["/t/b.jsonl"].notePath, notes).toBe(`${at}/kept.md`);
		}
	});

	it("seeded: however the notes folder is spelled, a rename the vault tells of the index pins it there", () => {
		let seed = 4901;
		const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
		const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
		for (let run = 0; run < 300; run++) {
			const folder = pick(["", "Notes", "Notes/AI", "Caf\u00e9/x"]);
			const spelled = pick([folder, `${folder}/`, `./${folder}`, folder.replace("/", "//"), folder === "" ? "/" : `${folder}//`]);
			const state = emptySyncState();
			state.projects["/r/cli"] = { folder: "cli", notesRoot: spelled };
			const vault = folder === "" ? "cli" : `${folder}/cli`;
			const to = `${pick(["Mine", vault, "A/b"])}/${pick(["idx", "CLI sessions"])}.md`;
			followRenames(state, [{ from: `${vault}/cli.md`, to }], { notes: spelled, memory: "AI Memory" });
			expect(state.projects["/r/cli"].indexPath, JSON.stringify({ spelled, to })).toBe(to);
		}
	});
});
