import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIGEST_VERSION, type StoredDigest } from "../../../src/core/digest/session-digest";
import { cutAtLine, entryOf, renderFacts, renderProjectContext, renderSearchHits, renderSession, RECALL_HEAD, RECALL_TEXT_MAX } from "../../../src/core/recall/recall-text";
import type { SearchableSession } from "../../../src/core/recall/session-search";

function session(i: number, words: string): SearchableSession {
	const digest: StoredDigest = { version: DIGEST_VERSION, sessionId: `id-${i}`, agent: "claude-code", title: `Session ${i} ${words.slice(0, 60)}`, startedAt: "2026-11-20T10:00:00Z", models: [], tasks: [], asked: [words], done: [`commit ${String(i).padStart(7, "0")}: ${words}`], open: [], decisions: [], prompts: 1, toolCalls: 3, filesTouched: [], tools: [], subagents: [], tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, usage: [] };
	return { key: `/t/${i}.jsonl`, project: "api", notePath: `AI Conversations/api/${i}.md`, tags: ["ai/project/api", "ai/redis"], digest };
}

describe("recall answers", () => {
	it("stay within the bound however long what they hold, and start with the background line", () => {
		fc.assert(
			fc.property(fc.array(fc.string({ minLength: 0, maxLength: 3000 }), { minLength: 1, maxLength: 40 }), (texts) => {
				const hits = texts.map((t, i) => ({ session: session(i, t), score: 1 }));
				const search = renderSearchHits("q", hits, (s) => entryOf(s, "ai/"));
				const one = renderSession(hits[0]!.session, entryOf(hits[0]!.session, "ai/"));
				const facts = renderFacts("q", texts.map((t, i) => ({ name: `f${i}`, description: t.slice(0, 200), body: t.repeat(3) })));
				const packet = renderProjectContext("api", texts.join("\n"), "/v/packet.md");
				for (const out of [search, one, facts, packet]) {
					expect(out.length).toBeLessThanOrEqual(RECALL_TEXT_MAX);
					expect(out.startsWith(RECALL_HEAD)).toBe(true);
				}
			}),
			{ numRuns: 60 },
		);
	});

	it("stay within the bound however many models, and however long a folder or branch, a session names", () => {
		const many = session(1, "a");
		many.digest = { ...many.digest, models: Array.from({ length: 3000 }, (_, i) => `model-${i}-${"x".repeat(60)}`), projectPath: `/${"p".repeat(5000)}`, branch: "b".repeat(5000), sessionId: "s".repeat(5000) };
		const out = renderSession(many, entryOf(many, "ai/"));
		expect(out.length).toBeLessThanOrEqual(RECALL_TEXT_MAX);
		expect(out).toContain("(+2994)");
	});

	it("say what was left out; topics come without the tag prefix and the project tag", () => {
		const hits = Array.from({ length: 40 }, (_, i) => ({ session: session(i, "x ".repeat(200)), score: 1 }));
		expect(renderSearchHits("q", hits, (s) => entryOf(s, "ai/"))).toMatch(/\(\d+ more not shown: ask with a narrower query or a smaller limit\)\n$/);
		expect(entryOf(session(1, "a"), "ai/").topics).toEqual(["redis"]);
		expect(renderProjectContext("api", "line\n".repeat(5000), "/v/p.md")).toMatch(/… \(the rest is in `\/v\/p\.md`\)\n$/);
		expect(cutAtLine("a\nb\nc\n", 5, "…\n")).toBe("a\n…\n");
	});
});
