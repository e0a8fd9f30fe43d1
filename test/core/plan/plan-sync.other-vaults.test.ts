import { describe, expect, it } from "vitest";
import { renderContextBlock, type ContextEntry } from "../../../src/core/context/context-block";
import type { SessionDigest } from "../../../src/core/digest/session-digest";
import { otherVaultsNotes } from "../../../src/core/plan/plan-sync";
import { BEGIN_MARKER, END_MARKER } from "../../../src/core/text/marked-block";

function entry(id: string, done: string, notePath?: string): ContextEntry {
	const digest = { version: 3, sessionId: id, agent: "claude-code", title: `Session ${id}`, projectPath: "/home/dev/app", startedAt: `2026-11-2${id}T10:00:00.000Z`, models: [], tasks: [], asked: [`Goal of ${id}`], done: [done], open: [], decisions: [], filesTouched: [], prompts: 1 } as unknown as SessionDigest;
	return { digest, topics: [], ...(notePath ? { notePath } : {}) };
}

const file = (body: string, above = "# App\n") => `${above}\n${BEGIN_MARKER}\n${body}${END_MARKER}\n`;

describe("otherVaultsNotes", () => {
	it("is the folder the block's own line names, when it is outside this vault", () => {
		const block = renderContextBlock([entry("1", "Fixed it", "/home/dev/other-vault/AI/app/a.md")], { sessions: 5, maxChars: 4000 });
		expect(otherVaultsNotes(file(block), "/home/dev/vault")).toBe("/home/dev/other-vault/AI/app");
		expect(otherVaultsNotes(file(block), "/home/dev/other-vault")).toBeUndefined();
	});

	it("is not what a reply quoted in the block says, nor the file's own text above it: either stopped every later update", () => {
		// Notes in two folders: the block names none, and a reply's words are the only ones.
		const quoted = renderContextBlock([entry("1", "Moved the notes. Session notes are in `/home/dev/old/` now", "/home/dev/vault/AI/app/a.md"), entry("2", "Fixed it", "/home/dev/vault/Moved/b.md")], { sessions: 5, maxChars: 4000 });
		expect(quoted).toContain("Session notes are in `/home/dev/old/` now");
		expect(otherVaultsNotes(file(quoted), "/home/dev/vault")).toBeUndefined();
		const own = renderContextBlock([entry("1", "Fixed it", "/home/dev/vault/AI/app/a.md")], { sessions: 5, maxChars: 4000 });
		expect(otherVaultsNotes(file(own, "# App\n\nThe plugin's block is below. Session notes are in `/home/dev/old/`.\n"), "/home/dev/vault")).toBeUndefined();
		// No block at all: nothing is another vault's.
		expect(otherVaultsNotes("Session notes are in `/home/dev/old/`.\n", "/home/dev/vault")).toBeUndefined();
	});
});
