import { describe, expect, it } from "vitest";
import { retitledNotePath } from "../../../src/core/plan/retitled-note";
import type { SessionRecord } from "../../../src/core/sync/sync-state";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, text, userText } from "../../fixtures/lines";

const AT = "2026-05-04T10:00:00.000Z";
const model = (prompt: string) => parseTranscript(jsonl([userText(prompt, { timestamp: AT }), assistant(text("Done."), { timestamp: AT })]), "s1");
const record = (title: string, notePath = `AI Conversations/p/2026-05-04 ${title}.md`) => ({ project: "p", notePath, digest: { title, startedAt: AT }, tags: [], keywords: [] }) as unknown as SessionRecord;

describe("a note whose transcript was rewritten under a new title", () => {
	it("moves when a word of its old title is in the session no more (a scrubbed password)", () => {
		const taken = new Set<string>();
		expect(retitledNotePath(record("Use password swordfish-77 for staging"), { title: "Use password REMOVED for staging", startedAt: AT }, model("Use password REMOVED for staging"), undefined, taken)).toBe("AI Conversations/p/2026-05-04 Use password REMOVED for staging.md");
	});

	it("stays when every word of the old title is still there (a newer titler, a copied transcript)", () => {
		expect(retitledNotePath(record("Fix the parser crash"), { title: "Parser crash on empty input", startedAt: AT }, model("Fix the parser crash on empty input"), undefined, new Set())).toBeUndefined();
	});

	it("stays when the user renamed it; moves, without its suffix, when it was named `(2)` after another's title", () => {
		const next = { title: "Deploy with key GONE", startedAt: AT };
		const now = model("Deploy with key GONE");
		expect(retitledNotePath(record("Deploy with key k99zzq", "AI Conversations/p/My deploy notes.md"), next, now, undefined, new Set())).toBeUndefined();
		const taken = new Set(["ai conversations/p/2026-05-04 deploy with key gone.md"]);
		expect(retitledNotePath(record("Deploy with key k99zzq", "AI Conversations/p/2026-05-04 Deploy with key k99zzq (2).md"), next, now, undefined, taken)).toBe("AI Conversations/p/2026-05-04 Deploy with key GONE (2).md");
	});

	it("counts a title's words found in a tool call or a summary as still there", () => {
		const withSummary = retitledNotePath(record("Release checklist"), { title: "Something else", startedAt: AT }, model("Prepare things"), "Release checklist", new Set());
		expect(withSummary).toBeUndefined();
	});
});
