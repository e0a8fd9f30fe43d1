import { describe, expect, it } from "vitest";
import type { StoredDigest } from "../../../src/core/digest/session-digest";
import { DIGEST_VERSION } from "../../../src/core/digest/session-digest";
import { SessionIndex, type SearchableSession } from "../../../src/core/recall/session-search";

function session(id: string, fields: Partial<StoredDigest> & { project?: string; key?: string; tags?: string[] } = {}): SearchableSession {
	const { project = "api", key = `/t/${id}.jsonl`, tags = [], ...digest } = fields;
	return {
		key,
		project,
		projectKey: `/code/${project}`,
		notePath: `AI Conversations/${project}/${id}.md`,
		tags,
		digest: { version: DIGEST_VERSION, sessionId: id, agent: "claude-code", title: "", models: [], tasks: [], asked: [], done: [], open: [], decisions: [], prompts: 1, toolCalls: 0, filesTouched: [], tools: [], subagents: [], tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, usage: [], ...digest },
	};
}

const limiter = session("aaaaaaaa-1111", { title: "Add a rate limiter", asked: ["Add a sliding-window rate limiter to login"], done: ["commit 3f2a9c1: Add rate limiter"], endedAt: "2026-11-20T10:00:00Z" });
const cache = session("bbbbbbbb-2222", { title: "Cache the product list", asked: ["Cache products in Redis"], filesTouched: ["/code/api/src/cache/redis-client.ts"], endedAt: "2026-11-21T10:00:00Z", agent: "codex" });
const korean = session("cccccccc-3333", { title: "주문 목록 페이지네이션", asked: ["주문 목록 API에 페이지네이션을 추가해 줘"], endedAt: "2026-11-22T10:00:00Z", project: "shop" });

function index(...sessions: SearchableSession[]): SessionIndex {
	const i = new SessionIndex();
	for (const s of sessions) i.put(s);
	return i;
}

describe("SessionIndex", () => {
	it("ranks by the digest's words (requests, results, files, tags), in any language, and by commit hash or id", () => {
		const i = index(limiter, cache, korean);
		expect(i.search("rate limiting for the login", {}, 5).map((h) => h.session)).toEqual([limiter]);
		expect(i.search("redis client", {}, 5).map((h) => h.session)).toEqual([cache]);
		expect(i.search("페이지네이션", {}, 5).map((h) => h.session)).toEqual([korean]);
		expect(i.search("what was 3f2a9c1 about?", {}, 5)[0]?.session).toBe(limiter);
		expect(i.search("bbbbbbbb-2222", {}, 5)[0]?.session).toBe(cache);
		expect(i.search("kubernetes", {}, 5)).toEqual([]);
	});

	it("leaves out the sessions of an excluded project, by its identity or its path, in any spelling (attack round 38)", () => {
		const i = index(limiter, cache, korean);
		expect(i.search("", { excluded: ["/CODE/API"] }, 5).map((h) => h.session)).toEqual([korean]);
		expect(i.search("", { excluded: ["/code/*"] }, 5)).toEqual([]);
		expect(i.search("", { excluded: [] }, 5)).toHaveLength(3);
	});

	it("finds a session by its words in any Unicode spelling of them (decomposed, composed, full-width)", () => {
		// A macOS paste gives `cafe\u0301`; a model's query `caf\u00e9`: the mark cut the word, and nothing was found.
		const decomposed = session("dddddddd-4444", { title: "Fix the cafe\u0301 cre\u0300me page", endedAt: "2026-11-23T10:00:00Z" });
		const composed = session("eeeeeeee-5555", { title: "Rewrite the na\u00efve parser", endedAt: "2026-11-24T10:00:00Z" });
		const wide = session("ffffffff-6666", { title: "Deploy the \uff21\uff30\uff29 gateway", endedAt: "2026-11-25T10:00:00Z" });
		const i = index(decomposed, composed, wide, limiter);
		expect(i.search("caf\u00e9 cr\u00e8me", {}, 5).map((h) => h.session)).toEqual([decomposed]);
		expect(i.search("nai\u0308ve", {}, 5).map((h) => h.session)).toEqual([composed]);
		expect(i.search("api gateway", {}, 5).map((h) => h.session)).toEqual([wide]);
	});

	it("finds a session by its words in any case, as full case folding has them (ß and SS, İ and i, final sigma)", () => {
		const street = session("abababab-7777", { title: "Validate the STRASSE field of the address form", endedAt: "2026-11-26T10:00:00Z" });
		const city = session("cdcdcdcd-8888", { title: "Geocode İstanbul addresses", endedAt: "2026-11-27T10:00:00Z" });
		const greek = session("efefefef-9999", { title: "Translate ΟΔΟΣ labels", endedAt: "2026-11-28T10:00:00Z" });
		const i = index(street, city, greek, limiter);
		for (const query of ["straße", "Strasse", "STRAẞE"]) expect(i.search(query, {}, 5).map((h) => h.session), query).toEqual([street]);
		for (const query of ["istanbul", "ISTANBUL", "İSTANBUL"]) expect(i.search(query, {}, 5).map((h) => h.session), query).toEqual([city]);
		expect(i.search("οδοσ", {}, 5).map((h) => h.session)).toEqual([greek]);
	});

	it("lists no session dated after the clock, and takes no time after it for a session's last: a line dated 2099 kept one on top for good", () => {
		const reopened = session("11111111-aaaa", { title: "Old session", asked: ["rate limiter"], startedAt: "2026-11-01T10:00:00Z", endedAt: "2099-12-31T23:59:59Z" });
		const future = session("22222222-bbbb", { title: "Future session", asked: ["rate limiter"], startedAt: "2099-01-01T00:00:00Z", endedAt: "2099-01-01T00:00:00Z" });
		const i = index(reopened, future, limiter, cache);
		const notAfter = "2026-12-06T00:00:00.000Z";
		expect(i.search("", { notAfter }, 5).map((h) => h.session.digest.sessionId)).toEqual([cache.digest.sessionId, limiter.digest.sessionId, reopened.digest.sessionId]);
		expect(i.search("", { notAfter, since: "2026-11-15" }, 5).map((h) => h.session)).toEqual([cache, limiter]);
		expect(i.search("rate limiter", { notAfter }, 5).map((h) => h.session)).not.toContain(future);
		// Without a clock to go by, as before.
		expect(i.search("", {}, 1).map((h) => h.session)).toEqual([reopened]);
	});

	it("an empty query lists the most recent; filters by project, agent and date", () => {
		const i = index(limiter, cache, korean);
		expect(i.search("", {}, 2).map((h) => h.session)).toEqual([korean, cache]);
		expect(i.search("", { projects: new Set(["/code/api"]) }, 5).map((h) => h.session)).toEqual([cache, limiter]);
		expect(i.search("", { agent: "codex" }, 5).map((h) => h.session)).toEqual([cache]);
		expect(i.search("", { since: "2026-11-21" }, 5).map((h) => h.session)).toEqual([korean, cache]);
		expect(i.search("a the of", {}, 5)).toEqual([]);
	});

	it("a session put again replaces itself, a deleted one is gone; ids by their start when only one starts so", () => {
		const i = index(limiter, cache);
		i.put({ ...limiter, digest: { ...limiter.digest, title: "Tune the retry policy", asked: ["Tune retries"], done: [] } });
		expect(i.size).toBe(2);
		expect(i.search("rate limiter", {}, 5)).toEqual([]);
		expect(i.search("retry policy", {}, 5)).toHaveLength(1);
		i.delete(cache.key);
		expect(i.search("redis", {}, 5)).toEqual([]);
		expect(i.byId("aaaaaaaa")?.digest.title).toBe("Tune the retry policy");
		expect(i.byId("aaa")).toBeUndefined();
		const twins = index(session("dddddddd-1"), session("dddddddd-2"));
		expect(twins.byId("dddddddd")).toBeUndefined();
		expect(twins.byId("dddddddd-2")?.digest.sessionId).toBe("dddddddd-2");
		expect(twins.startingWith("dddddddd", 5).map((s) => s.digest.sessionId).sort()).toEqual(["dddddddd-1", "dddddddd-2"]);
		expect(twins.startingWith("dddddddd", 1)).toHaveLength(1);
		expect(twins.startingWith("eeeeeeee", 5)).toEqual([]);
	});

	it("finds a session by its id as the tools show it, control characters left out (an opencode id is free text)", () => {
		const i = index(session("ses_\u001b]0;pwn\u0007esc"), cache);
		expect(i.byId("ses_esc")?.digest.sessionId).toBe("ses_\u001b]0;pwn\u0007esc");
	});
});
