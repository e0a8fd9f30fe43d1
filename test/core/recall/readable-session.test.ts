import { describe, expect, it } from "vitest";
import { DIGEST_VERSION } from "../../../src/core/digest/session-digest";
import { readableSession } from "../../../src/core/recall/readable-session";
import { entryOf, renderSearchHits, renderSession } from "../../../src/core/recall/recall-text";
import { SessionIndex } from "../../../src/core/recall/session-search";

/** A session record as the sync stores it (its digest's lists merged back, as the state's reader gives it). */
function record(): Record<string, unknown> {
	return {
		projectKey: "/code/shop",
		project: "shop",
		projectPath: "/code/shop",
		notePath: "AI Conversations/shop/2026-11-29 Fix the cart.md",
		tags: ["ai/project/shop", "ai/cart"],
		keywords: ["cart"],
		written: true,
		digest: {
			version: DIGEST_VERSION,
			sessionId: "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d02",
			agent: "claude-code",
			title: "Fix the cart total",
			projectPath: "/code/shop",
			branch: "main",
			startedAt: "2026-11-29T10:00:00.000Z",
			endedAt: "2026-11-29T10:05:00.000Z",
			activeMinutes: 5,
			prompts: 1,
			toolCalls: 3,
			models: ["claude-opus-5-5"],
			asked: ["The cart total is wrong"],
			done: ["Fixed `cartTotal` in `src/cart.js`"],
			open: ["a test for discounts"],
			decisions: ["Chose integers for cents"],
			filesTouched: ["/code/shop/src/cart.js"],
			tools: ["Read", "Edit"],
			subagents: [{ description: "look around", type: "Explore" }],
			tokens: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
			usage: [],
			tasks: [{ ask: "The cart total is wrong", calls: 3, result: ["Fixed it"] }],
		},
	};
}

function paths(value: unknown, at: string[] = []): string[][] {
	const out = [at];
	if (typeof value === "object" && value !== null) for (const key of Object.keys(value)) out.push(...paths((value as Record<string, unknown>)[key], [...at, key]));
	return out;
}

const OTHER_TYPES: unknown[] = [null, 5, Number.NaN, "", "text", true, [], [null], [5], [{}], {}, { a: 1 }];

/** What the recall tools do with a session: index it, search it, list it and show it. */
function useAsTheToolsDo(key: string, stored: unknown): string {
	const session = readableSession(key, stored);
	if (!session) return "left out";
	const index = new SessionIndex();
	index.put(session);
	const hits = index.search("cart total", { projects: new Set(["/code/shop"]), since: "2026-01-01", notAfter: "2027-01-01", excluded: ["/elsewhere"] }, 5);
	renderSearchHits("cart total", hits, (s) => entryOf(s, "ai/"));
	renderSearchHits("", index.search("", {}, 5), (s) => entryOf(s, "ai/"));
	index.byId("5b0d7a4e-1c2f");
	return renderSession(session, entryOf(session, "ai/"));
}

describe("readableSession (attack round 50a)", () => {
	it("takes a record of the shape the sync writes as it is", () => {
		const session = readableSession("/t/a.jsonl", record());
		expect(session?.digest.title).toBe("Fix the cart total");
		expect(useAsTheToolsDo("/t/a.jsonl", record())).toContain("Fix the cart total");
	});

	it("gives each field of another type, or missing, a record left out or one every tool reads without a TypeError", () => {
		// One record whose `open` was a number made every search over every session fail with "t.open is not iterable".
		let leftOut = 0;
		const all = paths(record()).filter((p) => p.length > 0);
		for (const path of all) {
			for (const value of [...OTHER_TYPES, undefined]) {
				const stored = record();
				let parent = stored;
				for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
				// JSON has no holes in a list: a member only goes missing from an object.
				if (value === undefined && Array.isArray(parent)) continue;
				if (value === undefined) delete parent[path.at(-1)!];
				else parent[path.at(-1)!] = value;
				let said: string;
				expect(() => (said = useAsTheToolsDo("/t/a.jsonl", stored)), `${path.join(".")} = ${JSON.stringify(value)}`).not.toThrow();
				if (said! === "left out") leftOut++;
			}
		}
		expect(leftOut).toBeGreaterThan(0);
	});

	it("leaves out what is no record", () => {
		for (const value of [null, 5, "x", [], [record()]]) expect(readableSession("/t/a.jsonl", value)).toBeUndefined();
	});
});
