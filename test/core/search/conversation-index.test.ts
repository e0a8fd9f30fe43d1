import { describe, expect, it } from "vitest";
import { scanSessions, ConversationIndex, snippetOf, type SearchDoc } from "../../../src/core/search/conversation-index";

const docs: SearchDoc[] = [
	{ id: "a", turns: [{ turn: 0, text: "Fix the login page" }, { turn: 1, text: "The login page crashes" }, { turn: 2, text: "Now fix the token refresh in the auth client" }] },
	{ id: "b", turns: [{ turn: 0, text: "Add pagination" }, { turn: 1, text: "Add cursor pagination to the orders endpoint" }] },
	{ id: "c", turns: [{ turn: 0, text: "토큰 갱신 버그 수정" }, { turn: 1, text: "令牌刷新失败了，请修复" }] },
];

function index(): ConversationIndex {
	const s = new ConversationIndex();
	for (const d of docs) s.add(d);
	return s;
}

describe("ConversationIndex", () => {
	it("finds the session and the turn where every word is", () => {
		const hits = index().search("token refresh ");
		expect(hits.map((h) => [h.id, h.turn])).toEqual([["a", 2]]);
		expect(hits[0]!.snippet).toContain("token refresh");
	});

	it("takes the last word as a prefix while it is typed, and whole once a space follows", () => {
		const s = index();
		expect(s.search("pagin").map((h) => h.id)).toEqual(["b"]);
		expect(s.search("pagin ")).toEqual([]);
	});

	it("lists each session once, at its best turn", () => {
		const hits = index().search("login");
		expect(hits.map((h) => h.id)).toEqual(["a"]);
	});

	it("finds words of Korean, and of Chinese written without spaces", () => {
		const s = index();
		expect(s.search("토큰 갱신 ").map((h) => [h.id, h.turn])).toEqual([["c", 0]]);
		expect(s.search("刷新").map((h) => [h.id, h.turn])).toEqual([["c", 1]]);
	});

	it("finds a word in any case, as full case folding has them, and the snippet shows where", () => {
		const s = new ConversationIndex();
		s.add({ id: "d", turns: [{ turn: 0, text: `${"word ".repeat(60)}Rename the Straße column and the İstanbul office` }] });
		for (const query of ["STRASSE", "strasse ", "istanbul"]) expect(s.search(query).map((h) => h.id), query).toEqual(["d"]);
		expect(s.search("STRASSE")[0]!.snippet).toContain("Straße column");
	});

	it("keeps to the sessions the filters accept", () => {
		expect(index().search("fix", { accept: (id) => id !== "a" }).map((h) => h.id)).toEqual([]);
		expect(index().search("fix").map((h) => h.id)).toEqual(["a"]);
	});

	it("replaces a session added again and forgets a removed one, also after compaction", () => {
		const s = index();
		s.add({ id: "a", turns: [{ turn: 1, text: "something else entirely" }] });
		expect(s.search("login")).toEqual([]);
		expect(s.search("entirely").map((h) => h.id)).toEqual(["a"]);
		for (let i = 0; i < 2000; i++) s.add({ id: `x${i}`, turns: [{ turn: 1, text: `filler ${i}` }] });
		for (let i = 0; i < 2000; i++) s.remove(`x${i}`);
		expect(s.size).toBe(3);
		expect(s.search("filler")).toEqual([]);
		expect(s.search("pagination").map((h) => h.id)).toEqual(["b"]);
	});

	it("agrees with a linear scan on whole words", () => {
		const s = index();
		for (const q of ["fix", "login page", "orders", "auth client "]) {
			expect(new Set(s.search(`${q} `).map((h) => h.id))).toEqual(new Set(scanSessions(docs, q).map((h) => h.id)));
		}
	});

	it("ranks a turn where a rare word is frequent first", () => {
		const s = new ConversationIndex();
		s.add({ id: "once", turns: [{ turn: 1, text: "deploy the app, then the deploy script, then more words here and there" }] });
		s.add({ id: "twice", turns: [{ turn: 1, text: "deploy deploy deploy" }] });
		expect(s.search("deploy ").map((h) => h.id)).toEqual(["twice", "once"]);
	});
});

describe("snippetOf", () => {
	it("cuts around the first match at word boundaries, on one line", () => {
		const text = `${"word ".repeat(80)}the refresh token\nexpired ${"more ".repeat(80)}`;
		const s = snippetOf(text, ["refresh"]);
		expect(s).toContain("refresh token expired");
		expect(s.startsWith("…") && s.endsWith("…")).toBe(true);
		expect(s.length).toBeLessThanOrEqual(162);
	});
	it("gives a short text whole", () => {
		expect(snippetOf("short\ntext", ["x"])).toBe("short text");
	});
	it("finds the word where folding made the text before it longer or shorter", () => {
		for (const before of ["Straße ", "ﬁle ", "Cafe\u0301 "]) {
			const text = `${before.repeat(100)}the refresh token expired ${"more ".repeat(80)}`;
			expect(snippetOf(text, ["refresh"]), before).toContain("refresh token expired");
		}
	});
});
