import { describe, expect, it } from "vitest";
import { BACKGROUND_LINE, renderContextBlock, type ContextEntry } from "../../../src/core/context/context-block";
import { FACADE_MAX_CHARS, renderContextPacket, renderFacade } from "../../../src/core/context/lazy-context";
import type { SessionDigest } from "../../../src/core/digest/session-digest";

function digest(id: string, day: string, extra: Partial<SessionDigest> = {}): SessionDigest {
	return {
		sessionId: id,
		title: `Session ${id}`,
		projectPath: "/home/dev/shop-api",
		startedAt: `2026-11-${day}T10:00:00.000Z`,
		endedAt: `2026-11-${day}T10:30:00.000Z`,
		models: [],
		goal: `Goal of ${id}`,
		outcome: `Outcome of ${id}`,
		prompts: 1,
		toolCalls: 0,
		filesTouched: ["/home/dev/shop-api/src/cart.ts"],
		filesRead: [],
		commands: ["npm test"],
		errors: ["Bash: npm ERR! boom"],
		decisions: [],
		openEnds: [],
		tools: [],
		subagents: [],
		tokens: { input: 0, output: 0 },
		...extra,
	};
}

const entry = (d: SessionDigest, topics: string[] = []): ContextEntry => ({ digest: d, topics, notePath: `/vault/AI Conversations/shop-api/${d.sessionId}.md` });

describe("eager block", () => {
	it("describes the latest sessions newest first: date, title, topics, goal, outcome, open ends, files, note", () => {
		const block = renderContextBlock([entry(digest("a", "20")), entry(digest("b", "21", { openEnds: ["We still need to migrate the orders table."] }), ["typescript", "rate-limit"])], { sessions: 5, maxChars: 4000 });
		expect(block.startsWith(`## Recent Claude Code sessions\n\n${BACKGROUND_LINE}\n`)).toBe(true);
		expect(block.indexOf("### 2026-11-21 — Session b")).toBeLessThan(block.indexOf("### 2026-11-20 — Session a"));
		expect(block).toContain("- Topics: typescript, rate-limit\n- Goal: Goal of b\n- Outcome: Outcome of b\n- Open: We still need to migrate the orders table.\n- Files: `src/cart.ts`\n- Note: `/vault/AI Conversations/shop-api/b.md`");
	});

	it("never carries tool output: commands run and errors met stay out", () => {
		const block = renderContextBlock([entry(digest("a", "20"))], { sessions: 5, maxChars: 4000 });
		expect(block).not.toContain("npm ERR!");
		expect(block).not.toContain("npm test");
	});

	it("keeps to the number of sessions and the size budget, dropping whole entries", () => {
		const many = Array.from({ length: 9 }, (_, i) => entry(digest(`s${i}`, String(10 + i), { goal: "g".repeat(200) })));
		expect(renderContextBlock(many, { sessions: 3, maxChars: 10_000 }).match(/^### /gm)).toHaveLength(3);
		const tight = renderContextBlock(many, { sessions: 9, maxChars: 900 });
		expect(tight.length).toBeLessThanOrEqual(900);
		expect(tight.match(/^### /gm)?.length).toBeGreaterThan(0);
		expect(tight.endsWith("\n")).toBe(true);
	});

	it("is the same whatever order the sessions come in, and skips sessions without a prompt", () => {
		const list = [entry(digest("a", "20")), entry(digest("b", "20")), entry(digest("c", "22", { prompts: 0 }))];
		const one = renderContextBlock(list, { sessions: 5, maxChars: 4000 });
		expect(renderContextBlock([...list].reverse(), { sessions: 5, maxChars: 4000 })).toBe(one);
		expect(one).not.toContain("Session c");
	});
});

describe("lazy facade and packet", () => {
	it("fits the facade in about 150 tokens, even with long titles, goals and paths, and always keeps the packet path", () => {
		const long = digest("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "21", {
			title: "T".repeat(300),
			goal: "G".repeat(2000),
			outcome: "O".repeat(2000),
			openEnds: ["X".repeat(500)],
			filesTouched: Array.from({ length: 20 }, (_, i) => `/home/dev/shop-api/${"deep/".repeat(20)}file${i}.ts`),
		});
		const packet = `/home/dev/${"Vault/".repeat(10)}AI Conversations/shop-api/shop-api context.md`;
		const facade = renderFacade(entry(long), packet);
		expect(facade.length).toBeLessThanOrEqual(FACADE_MAX_CHARS);
		expect(facade).toContain(`- Full context: \`${packet}\``);
		expect(facade).toContain("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
	});

	it("shows the latest session's goal, status and checkpoint", () => {
		const d = digest("b", "21", { openEnds: ["Next we should add the retry queue."] });
		const facade = renderFacade(entry(d), "/vault/p.md");
		expect(facade).toContain("- Goal: Goal of b\n- Status: open: Next we should add the retry queue.\n- Last checkpoint: 2026-11-21 10:30 Outcome of b\n- Key files: `src/cart.ts`");
		expect(renderFacade(entry(d), "/vault/p.md", { at: "2026-11-21T10:20:00.000Z", text: "Before compaction: queue half done" })).toContain("- Last checkpoint: 2026-11-21 10:20 Before compaction: queue half done");
		expect(renderFacade(undefined, "/vault/p.md")).toContain("- No past sessions yet.\n- Full context: `/vault/p.md`");
	});

	it("puts open ends, facts and the recent sessions in the packet", () => {
		const note = renderContextPacket("shop-api", "/home/dev/shop-api", [entry(digest("a", "20", { openEnds: ["Migrate the orders table."], decisions: ["We decided to use Redis."] }))], [{ name: "use-pnpm", description: "The project uses pnpm, not npm" }]);
		expect(note.frontmatter).toContain("type: ai-context-packet");
		expect(note.body).toContain("## Open ends\n\n- Migrate the orders table. (2026-11-20)");
		expect(note.body).toContain("## Facts\n\n- **use-pnpm**: The project uses pnpm, not npm");
		expect(note.body).toContain("- Decision: We decided to use Redis.");
		expect(note.body).toContain(BACKGROUND_LINE);
	});
});
