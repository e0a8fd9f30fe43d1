import { describe, expect, it } from "vitest";
import { factsLeftBy, NEW_REPOSITORY, recordedFingerprint, recordFingerprints, sameRepository, setAsideReplaced } from "../../../src/core/projects/replaced-repository";
import { emptySyncState, type SessionRecord, type SyncState } from "../../../src/core/sync/sync-state";

const A = "a".repeat(40);
const A2 = "2".repeat(40);
const B = "b".repeat(40);
const record = (projectKey: string): SessionRecord => ({ projectKey, project: "app", notePath: `AI/app/${projectKey}.md`, digest: {} as SessionRecord["digest"], tags: [], keywords: [] });

/** A state where the repository of root commit A was recorded at /code/app, with a session, shared facts, proposals and usage. */
function recorded(fingerprint: string | null = A): SyncState {
	const state = emptySyncState();
	state.projects["/code/app"] = { folder: "app", repository: true, ...(fingerprint === null ? {} : { fingerprint }) };
	state.sessions["/t/one.jsonl"] = record("/code/app");
	state.sessions["/t/other.jsonl"] = record("/code/lib");
	state.memory["/code/app"] = { "a.md": { vault: "a.md", base: "text" } };
	state.proposed["/code/app"] = ["fact"];
	state.usageOnly["/t/warm.jsonl"] = { projectKey: "/code/app", project: "app", agent: "claude-code", usage: [] };
	return state;
}

describe("a repository replaced at its path", () => {
	it("is one repository while a root commit is shared (a merge of an unrelated history adds one)", () => {
		expect(sameRepository(A, A)).toBe(true);
		expect(sameRepository(A, `${A} ${A2}`)).toBe(true);
		expect(sameRepository(A, B)).toBe(false);
	});

	it("puts the recorded project aside under a key of its own, with its sessions, facts, proposals and usage, when the path holds another repository", () => {
		const state = recorded();
		setAsideReplaced(state, [{ root: "/code/app", repository: true, fingerprint: B }]);
		const aside = `/code/app@${A.slice(0, 12)}`;
		expect(state.projects["/code/app"]).toBeUndefined();
		expect(state.projects[aside]).toEqual({ folder: "app", fingerprint: A, replacedAt: "/code/app" });
		expect(state.sessions["/t/one.jsonl"]!.projectKey).toBe(aside);
		expect(state.sessions["/t/other.jsonl"]!.projectKey).toBe("/code/lib");
		expect(state.memory[aside]).toEqual({ "a.md": { vault: "a.md", base: "text" } });
		expect(state.memory["/code/app"]).toBeUndefined();
		expect(state.proposed[aside]).toEqual(["fact"]);
		expect(state.usageOnly["/t/warm.jsonl"]!.projectKey).toBe(aside);

		// Its facts shared with Claude Code's folder at the path are noted there: the newcomer finds them, and takes none.
		const sharing = recorded();
		sharing.projects["/code/app"]!.memoryWith = "/claude/projects/-code-app/memory";
		setAsideReplaced(sharing, [{ root: "/code/app", repository: true, fingerprint: B }]);
		expect(sharing.projects[aside]!.leftFacts).toEqual({ folder: "/claude/projects/-code-app/memory", names: ["a.md"] });
		expect([...factsLeftBy(sharing, "/code/app", "/claude/projects/-code-app/memory")]).toEqual(["a.md"]);
		expect([...factsLeftBy(sharing, aside, "/claude/projects/-code-app/memory")]).toEqual([]);
		// Followed to its new place, the note stays: Claude Code still keeps those facts at the old path.
		setAsideReplaced(sharing, [{ root: "/src/app", repository: true, fingerprint: A }]);
		expect(sharing.projects["/src/app"]!.leftFacts).toEqual({ folder: "/claude/projects/-code-app/memory", names: ["a.md"] });
	});

	it("puts it aside for a repository with no commit made where it was, which records nothing and follows nothing", () => {
		const state = recorded();
		setAsideReplaced(state, [{ root: "/code/app", repository: true, fingerprint: NEW_REPOSITORY }]);
		expect(state.sessions["/t/one.jsonl"]!.projectKey).toBe(`/code/app@${A.slice(0, 12)}`);
		state.projects["/code/app"] = { folder: "app (code)" };
		recordFingerprints(state, [{ root: "/code/app", repository: true, fingerprint: NEW_REPOSITORY }]);
		expect(state.projects["/code/app"]).toEqual({ folder: "app (code)" });
		const fresh = recorded(null);
		fresh.projects[`/old@${A.slice(0, 12)}`] = { folder: "old", fingerprint: A, replacedAt: "/old" };
		setAsideReplaced(fresh, [{ root: "/new", repository: true, fingerprint: NEW_REPOSITORY }]);
		expect(fresh.projects["/new"]).toBeUndefined();
	});

	it("leaves the identity as it is for the same repository (a re-clone, more commits), one with no commit yet, and a state that recorded no fingerprint", () => {
		for (const [fingerprint, found] of [
			[A, A],
			[A, `${A} ${A2}`],
			[A, undefined],
			[null, B],
		] as const) {
			const state = recorded(fingerprint);
			const before = JSON.stringify(state);
			setAsideReplaced(state, [{ root: "/code/app", repository: true, ...(found === undefined ? {} : { fingerprint: found }) }]);
			expect(JSON.stringify(state)).toBe(before);
		}
	});

	it("follows a project put aside to where its repository is found again, when no project is there yet", () => {
		const state = recorded();
		setAsideReplaced(state, [{ root: "/code/app", repository: true, fingerprint: B }]);
		setAsideReplaced(state, [{ root: "/src/app", repository: true, fingerprint: A }]);
		expect(state.projects["/src/app"]).toEqual({ folder: "app", fingerprint: A, repository: true });
		expect(state.sessions["/t/one.jsonl"]!.projectKey).toBe("/src/app");
		expect(state.memory["/src/app"]).toBeDefined();
		expect(Object.keys(state.projects)).toEqual(["/src/app"]);

		// Found in the same sync as the newcomer took its path: it goes there at once.
		const both = recorded();
		setAsideReplaced(both, [
			{ root: "/code/app", repository: true, fingerprint: B },
			{ root: "/src/app", repository: true, fingerprint: A },
		]);
		expect(both.sessions["/t/one.jsonl"]!.projectKey).toBe("/src/app");

		// A project already there is another identity: the one put aside stays apart.
		const taken = recorded();
		setAsideReplaced(taken, [{ root: "/code/app", repository: true, fingerprint: B }]);
		taken.projects["/src/app"] = { folder: "app (src)", fingerprint: A };
		setAsideReplaced(taken, [{ root: "/src/app", repository: true, fingerprint: A }]);
		expect(taken.sessions["/t/one.jsonl"]!.projectKey).toBe(`/code/app@${A.slice(0, 12)}`);
	});

	it("takes a fingerprint that is no string (a state edited by hand) for none", () => {
		const state = recorded();
		state.projects["/code/app"]!.fingerprint = 42 as unknown as string;
		state.projects["/old@x"] = { folder: "old", fingerprint: ["a"] as unknown as string, replacedAt: "/old", leftFacts: { folder: "/m", names: "a.md" as unknown as string[] } };
		setAsideReplaced(state, [{ root: "/code/app", repository: true, fingerprint: B }, { root: "/new", repository: true, fingerprint: A }]);
		expect(state.sessions["/t/one.jsonl"]!.projectKey).toBe("/code/app");
		expect(state.projects["/new"]).toBeUndefined();
		expect(recordedFingerprint(state.projects["/code/app"])).toBeUndefined();
		expect([...factsLeftBy(state, "/code/app", "/m")]).toEqual([]);
	});

	it("gives a second repository put aside at one path a key of its own", () => {
		const state = recorded();
		state.projects[`/code/app@${A.slice(0, 12)}`] = { folder: "app 2", fingerprint: A, replacedAt: "/code/app" };
		setAsideReplaced(state, [{ root: "/code/app", repository: true, fingerprint: B }]);
		expect(state.sessions["/t/one.jsonl"]!.projectKey).toBe(`/code/app@${A.slice(0, 12)} 2`);
	});

	it("records the fingerprint of the repository at a project's own path, and none where none was found", () => {
		const state = recorded(null);
		state.projects["/code/lib"] = { folder: "lib" };
		recordFingerprints(state, [{ root: "/code/app", repository: true, fingerprint: B }, { root: "/code/lib", repository: true }, { root: "/notes", repository: false }, undefined]);
		expect(state.projects["/code/app"]!.fingerprint).toBe(B);
		expect(state.projects["/code/lib"].fingerprint).toBeUndefined();
		expect(state.projects["/notes"]).toBeUndefined();
	});
});
