import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { confineStateFolder, DamagedStateError, readSessionFile, readStoredState, StateFolder } from "../../src/node/state-folder";
import { appendToPack } from "../../src/node/model-pack";
import { hash53 } from "../../src/core/transcript/fold";
import { DIGEST_VERSION } from "../../src/core/digest/session-digest";
import { emptySyncState, SYNC_STATE_VERSION, type SessionRecord, type SyncState } from "../../src/core/sync/sync-state";

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "ai-memory-state-"));
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

function record(projectKey: string, title: string): SessionRecord {
	return {
		projectKey,
		project: projectKey.split("/").at(-1)!,
		notePath: `AI Conversations/${title}.md`,
		digest: { version: 1, sessionId: title, agent: "claude-code", title, models: [], tasks: [], asked: [], done: [], open: [], decisions: [], prompts: 1, toolCalls: 0, filesTouched: [], tools: [], subagents: [], tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, usage: [] },
		tags: [],
		keywords: ["word"],
	};
}

function stateWith(sessions: Record<string, SessionRecord>): SyncState {
	return { ...emptySyncState(), sessions, projects: { "/w/api": { folder: "api" }, "/w/cli": { folder: "cli" } } };
}

const sessionFiles = async () => (await readdir(join(dir, "sessions"))).sort();
const listed = async () => (JSON.parse(await readFile(join(dir, "sync-state.json"), "utf8")) as { sessionFiles: string[] }).sessionFiles;

describe("state folder: session records a project a file", () => {
	it("keeps the records in one file per project, listed by sync-state.json, and reads them back", async () => {
		const state = stateWith({ "/t/1.jsonl": record("/w/api", "one"), "/t/2.jsonl": record("/w/cli", "two"), "/t/3.jsonl": record("/w/cli", "three") });
		await new StateFolder(dir).flush(state);
		const main = JSON.parse(await readFile(join(dir, "sync-state.json"), "utf8")) as Record<string, unknown>;
		expect(main.sessions).toBeUndefined();
		expect(await sessionFiles()).toEqual([...(await listed())].sort());
		expect(await listed()).toHaveLength(2);
		expect(await new StateFolder(dir).loadState()).toEqual(state);
	});

	it("writes many projects' files at once, each listed in the projects' order, and reads them all back", async () => {
		const sessions: Record<string, SessionRecord> = {};
		for (let i = 0; i < 60; i++) sessions[`/t/${i}.jsonl`] = record(`/w/p${String(i).padStart(2, "0")}`, `s${i}`);
		const state = { ...emptySyncState(), sessions };
		await new StateFolder(dir).flush(state);
		const names = await listed();
		expect(names).toHaveLength(60);
		expect(new Set(names).size).toBe(60);
		expect(await sessionFiles()).toEqual([...names].sort());
		expect(await new StateFolder(dir).loadState()).toEqual(state);
	});

	it("a session file that cannot be written fails the flush once every write has ended, before the list is written; none is left half-made", async () => {
		await mkdir(join(dir, "lists"), { recursive: true });
		// `catalog` a file: every project's catalog write fails, its other writes do not.
		await writeFile(join(dir, "catalog"), "not a folder");
		const sessions: Record<string, SessionRecord> = {};
		for (let i = 0; i < 20; i++) sessions[`/t/${i}.jsonl`] = record(`/w/p${i}`, `s${i}`);
		await expect(new StateFolder(dir).flush({ ...emptySyncState(), sessions })).rejects.toThrow(/ENOTDIR|EEXIST/);
		expect(existsSync(join(dir, "sync-state.json"))).toBe(false);
		// Every write has ended: no temporary file is left, nor written after the flush failed.
		await new Promise((resolve) => setTimeout(resolve, 50));
		for (const folder of ["sessions", "lists"]) expect((await readdir(join(dir, folder))).filter((n) => !n.endsWith(".json"))).toEqual([]);
	});

	it("a sync that changed one project's records writes that project's file only, and removes its old one", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one"), "/t/2.jsonl": record("/w/cli", "two") }));
		const before = await listed();
		const store = new StateFolder(dir);
		const state = await store.loadState();
		state.sessions["/t/2.jsonl"] = { ...state.sessions["/t/2.jsonl"]!, tags: ["x"] };
		await store.flush(state);
		const after = await listed();
		expect(after.filter((n) => before.includes(n))).toHaveLength(1);
		expect(await sessionFiles()).toEqual([...after].sort());
		expect((await new StateFolder(dir).loadState()).sessions["/t/2.jsonl"]?.tags).toEqual(["x"]);
	});

	it("a sync that changed no record writes no session file and lists the same files in the same order; one record added is written", async () => {
		const sessions: Record<string, SessionRecord> = {};
		for (let i = 0; i < 12; i++) sessions[`/t/${i}.jsonl`] = record(`/w/p${i % 4}`, `s${i}`);
		await new StateFolder(dir).flush({ ...emptySyncState(), sessions });
		const names = await listed();
		const stateFile = await stat(join(dir, "sync-state.json"));
		const store = new StateFolder(dir);
		const state = await store.loadState();
		await store.flush(state);
		// The same instance again (the plugin keeps one), then a new record.
		await store.flush(state);
		expect(await listed()).toEqual(names);
		expect((await stat(join(dir, "sync-state.json"))).ino).toBe(stateFile.ino);
		expect(await sessionFiles()).toEqual([...names].sort());
		state.sessions["/t/new.jsonl"] = record("/w/p9", "new");
		await store.flush(state);
		expect(await listed()).toHaveLength(names.length + 1);
		expect((await new StateFolder(dir).loadState()).sessions["/t/new.jsonl"]?.project).toBe("p9");
	});

	it("records read are frozen: a change must make a new record, or it would not be written", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one") }));
		const state = await new StateFolder(dir).loadState();
		expect(() => {
			(state.sessions["/t/1.jsonl"] as { tags: string[] }).tags = ["y"];
		}).toThrow();
	});

	it("a project of many sessions keeps them in several files: a session that changed writes its own file again, no other", async () => {
		const sessions: Record<string, SessionRecord> = {};
		for (let i = 0; i < 300; i++) sessions[`/t/${i}.jsonl`] = record("/w/api", `s${i}`);
		const state = stateWith(sessions);
		await new StateFolder(dir).flush(state);
		const before = await listed();
		expect(before.length).toBeGreaterThan(2);
		const store = new StateFolder(dir);
		const loaded = await store.loadState();
		expect(loaded).toEqual(state);
		await store.flush({ ...loaded, sessions: { ...loaded.sessions, "/t/7.jsonl": { ...record("/w/api", "s7"), tags: ["changed"] } } });
		const after = await listed();
		expect(after.filter((name) => !before.includes(name))).toHaveLength(1);
		expect(after).toHaveLength(before.length);
		expect((await new StateFolder(dir).loadState()).sessions["/t/7.jsonl"]?.tags).toEqual(["changed"]);
		expect(await sessionFiles()).toEqual([...after].sort());
	});

	it("a state of the older layout (records inside sync-state.json) is read, and written in the new one", async () => {
		const state = stateWith({ "/t/1.jsonl": record("/w/api", "one") });
		await writeFile(join(dir, "sync-state.json"), JSON.stringify(state));
		const store = new StateFolder(dir);
		const loaded = await store.loadState();
		expect(loaded).toEqual(state);
		await store.flush(loaded);
		expect(await sessionFiles()).toHaveLength(1);
		expect(await new StateFolder(dir).loadState()).toEqual(state);
	});

	it("a file a killed run left unlisted goes", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one"), "/t/2.jsonl": record("/w/cli", "two") }));
		await writeFile(join(dir, "sessions", "zzz-orphan.json"), "{}");
		const store = new StateFolder(dir);
		const state = await store.loadState();
		expect(Object.keys(state.sessions)).toHaveLength(2);
		await store.flush(state);
		expect(await sessionFiles()).toEqual((await listed()).sort());
		expect(existsSync(join(dir, "sessions", "zzz-orphan.json"))).toBe(false);
	});

	it("a state that is there but cannot be read stops the sync with a sentence, and is left as it is: taken as none, it dropped every session's record", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one"), "/t/2.jsonl": record("/w/cli", "two") }));
		const good = await readFile(join(dir, "sync-state.json"), "utf8");
		const [first] = await listed();
		const part = await readFile(join(dir, "sessions", first!), "utf8");
		const refused = async (why: RegExp) => {
			await expect(new StateFolder(dir).loadState()).rejects.toThrow(DamagedStateError);
			await expect(new StateFolder(dir).loadState()).rejects.toThrow(why);
		};
		await writeFile(join(dir, "sync-state.json"), good.slice(0, -1));
		await refused(/sync-state\.json cannot be read \(it is not JSON\); nothing was synced\..*move the state folder away to start over/);
		expect(await readFile(join(dir, "sync-state.json"), "utf8")).toBe(good.slice(0, -1));
		await writeFile(join(dir, "sync-state.json"), "[]");
		await refused(/it is not a JSON object/);
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...JSON.parse(good), version: 99 }));
		await refused(new RegExp(`written by a newer release \\(state version 99, this one knows ${SYNC_STATE_VERSION}\\)`));
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...JSON.parse(good), version: "x" }));
		await refused(/its version is "x"/);
		// A session file it lists: damaged, gone, or not a plain file.
		await writeFile(join(dir, "sync-state.json"), good);
		await writeFile(join(dir, "sessions", first!), "{");
		await refused(new RegExp(`${first!.replace(".", "\\.")} cannot be read \\(it is not JSON\\)`));
		await rm(join(dir, "sessions", first!));
		await refused(/the state lists it, and it is gone/);
		expect(spawnSync("mkfifo", [join(dir, "sessions", first!)]).status).toBe(0);
		await refused(/is not a plain file \(a FIFO\)/);
		await rm(join(dir, "sessions", first!));
		await writeFile(join(dir, "sessions", first!), part);
		expect(Object.keys((await new StateFolder(dir).loadState()).sessions).sort()).toEqual(["/t/1.jsonl", "/t/2.jsonl"]);
	});

	it("sessions a newer release digested stop the sync with a sentence, the file left as it is: digested again here, each release rewrote the other's notes at every sync (attack round 34)", async () => {
		const newer = record("/w/api", "one");
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": { ...newer, digest: { ...newer.digest, version: DIGEST_VERSION + 1 } }, "/t/2.jsonl": record("/w/cli", "two") }));
		const files = await Promise.all((await listed()).map((name) => readFile(join(dir, "sessions", name), "utf8")));
		await expect(new StateFolder(dir).loadState()).rejects.toThrow(DamagedStateError);
		await expect(new StateFolder(dir).loadState()).rejects.toThrow(`holds sessions a newer release digested (digest version ${DIGEST_VERSION + 1}, this one knows ${DIGEST_VERSION}); nothing was synced: update AI Conversation Memory here too`);
		expect(await Promise.all((await listed()).map((name) => readFile(join(dir, "sessions", name), "utf8")))).toEqual(files);
	});

	it("a state file nested deeper than any state is damaged, named so, not V8's stack overflow", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one") }));
		const good = await readFile(join(dir, "sync-state.json"), "utf8");
		const [first] = await listed();
		const tower = "[".repeat(50_000) + "]".repeat(50_000);
		const refusedFor = async (file: string) => {
			const error = await new StateFolder(dir).loadState().then(() => undefined, (e: unknown) => e);
			expect(error).toBeInstanceOf(DamagedStateError);
			expect((error as Error).message).toContain(`${file} cannot be read (it is nested more than 64 deep, as no state is)`);
		};
		await writeFile(join(dir, "sync-state.json"), good.replace(/"version":\d+/, `"version":${tower}`));
		await refusedFor("sync-state.json");
		await writeFile(join(dir, "sync-state.json"), good);
		await writeFile(join(dir, "sessions", first!), `{"/t/9.jsonl":${tower}}`);
		await refusedFor(first!);
	});

	it("a state file that is JSON of another shape stops the sync naming the file and the record, not with V8's words", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one") }));
		const good = JSON.parse(await readFile(join(dir, "sync-state.json"), "utf8")) as Record<string, unknown>;
		const [first] = await listed();
		const part = JSON.parse(await readFile(join(dir, "sessions", first!), "utf8")) as Record<string, Record<string, unknown>>;
		const refused = async (why: RegExp) => {
			const error = await new StateFolder(dir).loadState().then(() => undefined, (e: unknown) => e);
			expect(error).toBeInstanceOf(DamagedStateError);
			expect((error as Error).message).toMatch(why);
		};
		const session = async (records: Record<string, unknown>) => writeFile(join(dir, "sessions", first!), JSON.stringify(records));
		// A key that is no record (a newer release's field, a merge), a field of another kind, one missing, `__proto__`.
		await session({ ...part, version: 99999 });
		await refused(new RegExp(`${first!.replace(".", "\\.")} cannot be read \\(its record of version is 99999, not a record\\)`));
		await session({ "/t/1.jsonl": { ...part["/t/1.jsonl"], notePath: 12 } });
		await refused(/its record of \/t\/1\.jsonl has `notePath` 12, not a text/);
		await session({ "/t/1.jsonl": { ...part["/t/1.jsonl"], tags: "a" } });
		await refused(/has `tags` a, not a list of texts/);
		await session({ "/t/1.jsonl": { ...part["/t/1.jsonl"], digest: { ...part["/t/1.jsonl"]!.digest as object, title: null } } });
		await refused(/has a digest that has `title` null, not a text/);
		await writeFile(join(dir, "sessions", first!), `{"__proto__":{"notePath":"x"},"/t/1.jsonl":${JSON.stringify(part["/t/1.jsonl"])}}`);
		await refused(/its record of __proto__ has no `project`/);
		await session(part);
		// The digest's lists, in the lists file of the same name: each item is read into a note or the block.
		const lists = await readFile(join(dir, "lists", first!), "utf8");
		const stored = JSON.parse(lists) as Record<string, Record<string, unknown>>;
		await writeFile(join(dir, "lists", first!), JSON.stringify({ "/t/1.jsonl": { ...stored["/t/1.jsonl"], asked: ["one", -1] } }));
		await refused(/lists\/.*cannot be read \(its digest lists for \/t\/1\.jsonl has `asked` \["one",-1\], not a list of texts\)/);
		await writeFile(join(dir, "lists", first!), JSON.stringify({ "/t/1.jsonl": { ...stored["/t/1.jsonl"], usage: [{ day: "2026-01-01" }] } }));
		await refused(/has `usage` whose item 0 has no `model`/);
		await writeFile(join(dir, "lists", first!), lists);
		// The projects of sync-state.json, and the records an older state holds itself.
		await writeFile(join(dir, "sync-state.json"), `{"version":3,"sessionFiles":${JSON.stringify(good.sessionFiles)},"projects":{"__proto__":{"path":"/"}}}`);
		await refused(/sync-state\.json cannot be read \(its project __proto__ has no `folder`\)/);
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...good, projects: [1] }));
		await refused(/its `projects` is not an object/);
		// A title kept from a `summary` line, a checkpoint, a project's shared facts.
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...good, summaries: { "123": null } }));
		await refused(/its summary 123 is null, not a text/);
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...good, checkpoints: { s1: { text: -1 } } }));
		await refused(/its checkpoint of s1 has `text` -1, not a text/);
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...good, memory: { "/w/api": { "a.md": { vault: "a.md" } } } }));
		await refused(/its shared facts of \/w\/api has a\.md, which has no `base`/);
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ version: 1, sessions: { "/t/1.jsonl": { project: "api" } } }));
		await refused(/its record of \/t\/1\.jsonl has no `notePath`/);
		await writeFile(join(dir, "sync-state.json"), JSON.stringify(good));
		expect(Object.keys((await new StateFolder(dir).loadState()).sessions)).toEqual(["/t/1.jsonl"]);
	});

	it("a listed name that is not a plain file name is never read", async () => {
		await mkdir(join(dir, "sessions"), { recursive: true });
		await writeFile(join(dir, "outside.json"), JSON.stringify({ "/t/9.jsonl": record("/w/api", "stolen") }));
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...emptySyncState(), sessions: undefined, sessionFiles: ["../outside.json"] }));
		expect((await new StateFolder(dir).loadState()).sessions).toEqual({});
	});
});

describe("state folder: digests' lists in a file of their own, read when asked for", () => {
	const withLists = (projectKey: string, title: string): SessionRecord => {
		const r = record(projectKey, title);
		return { ...r, digest: { ...r.digest, asked: [`ask ${title}`], done: [`did ${title}`], filesTouched: ["src/a.ts"], usage: [{ day: "2026-11-02", model: "m", input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }] } };
	};
	const state = () => stateWith({ "/t/1.jsonl": withLists("/w/api", "one"), "/t/2.jsonl": withLists("/w/cli", "two") });
	const listsFiles = async () => (await readdir(join(dir, "lists"))).sort();
	/** The session file that holds a transcript's record. */
	const fileOf = async (key: string) => {
		for (const name of await sessionFiles()) if (key in (JSON.parse(await readFile(join(dir, "sessions", name), "utf8")) as object)) return name;
		throw new Error(`no file holds ${key}`);
	};

	it("the session file holds each digest's scalars, the lists file of the same name its lists; both reads give the digest whole", async () => {
		await new StateFolder(dir).flush(state());
		expect(await listsFiles()).toEqual(await sessionFiles());
		const first = await fileOf("/t/1.jsonl");
		const head = Object.values(JSON.parse(await readFile(join(dir, "sessions", first), "utf8")) as Record<string, SessionRecord>)[0]!;
		expect(head.digest).not.toHaveProperty("asked");
		expect(head.digest).toMatchObject({ sessionId: "one", title: "one", prompts: 1 });
		expect(Object.values(JSON.parse(await readFile(join(dir, "lists", first), "utf8")) as object)[0]).toMatchObject({ asked: ["ask one"], done: ["did one"] });
		expect(await new StateFolder(dir).loadState()).toEqual(state());
		expect(await new StateFolder(dir).loadState(true)).toEqual(state());
		expect(JSON.parse(JSON.stringify((await new StateFolder(dir).loadState(true)).sessions))).toEqual(state().sessions);
		expect(await readSessionFile(dir, first)).toEqual({ records: { "/t/1.jsonl": state().sessions["/t/1.jsonl"] } });
	});

	it("read when asked for: a lists file is not read until a list is; a damaged one then stops the sync with its name, the scalars read before unharmed", async () => {
		await new StateFolder(dir).flush(state());
		const first = await fileOf("/t/1.jsonl");
		const one = (await new StateFolder(dir).loadState(true)).sessions["/t/1.jsonl"]!;
		await writeFile(join(dir, "lists", first), "{");
		expect(one.digest.sessionId).toBe("one");
		expect(() => one.digest.asked).toThrow(DamagedStateError);
		expect(() => one.digest.done).toThrow(new RegExp(`lists.${first.replace(".", "\\.")} cannot be read \\(it is not JSON\\)`));
		await rm(join(dir, "lists", first));
		await expect(new StateFolder(dir).loadState()).rejects.toThrow(/the state lists it, and it is gone/);
		await writeFile(join(dir, "lists", first), JSON.stringify({ "/t/9.jsonl": {} }));
		await expect(new StateFolder(dir).loadState()).rejects.toThrow(/holds no digest lists for \/t\/1\.jsonl/);
		expect(await readSessionFile(dir, first)).toEqual({ records: {}, unreadable: `lists/${first}` });
	});

	it("a project no sync changed keeps its two files, unread; one it changed gets both anew, its old ones gone", async () => {
		await new StateFolder(dir).flush(state());
		const store = new StateFolder(dir);
		const loaded = await store.loadState(true);
		const two = "/t/2.jsonl";
		// The api project's lists made unreadable: a flush that does not change it must not read them.
		const apiName = await fileOf("/t/1.jsonl");
		const apiLists = await readFile(join(dir, "lists", apiName), "utf8");
		await writeFile(join(dir, "lists", apiName), "damaged");
		loaded.sessions[two] = { ...loaded.sessions[two]!, tags: ["x"] };
		await store.flush(loaded);
		await writeFile(join(dir, "lists", apiName), apiLists);
		const after = await listsFiles();
		expect(after).toContain(apiName);
		expect(after).toHaveLength(2);
		expect(after).toEqual(await sessionFiles());
		expect(await new StateFolder(dir).loadState()).toEqual({ ...state(), sessions: { ...state().sessions, "/t/2.jsonl": { ...state().sessions["/t/2.jsonl"]!, tags: ["x"] } } });
	});

	it("keys of this version's state it does not know (a newer release's, added without a new version) are written back as they were (attack round 34)", async () => {
		const first = stateWith({ "/t/1.jsonl": record("/w/api", "one") });
		await new StateFolder(dir).flush(first);
		const stored = JSON.parse(await readFile(join(dir, "sync-state.json"), "utf8")) as Record<string, unknown>;
		const newer = { archivedNotes: { "/t/0.jsonl": "AI Conversations/old.md" }, carried: [1, 2] };
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...stored, ...newer }));
		const store = new StateFolder(dir);
		const loaded = await store.loadState();
		await store.flush({ ...loaded, sessions: { ...loaded.sessions, "/t/2.jsonl": record("/w/cli", "two") } });
		const after = JSON.parse(await readFile(join(dir, "sync-state.json"), "utf8")) as Record<string, unknown>;
		expect(after).toMatchObject(newer);
		expect(after.version).toBe(SYNC_STATE_VERSION);
		expect(Object.keys((await new StateFolder(dir).loadState()).sessions)).toEqual(["/t/1.jsonl", "/t/2.jsonl"]);
	});

	it("a version 2 state, digests whole in its session files, is read as it is; the next flush writes version 3, the untouched project's file kept", async () => {
		const { sessions, ...rest } = state();
		await mkdir(join(dir, "sessions"), { recursive: true });
		// Named as a flush names them: by the project's hash.
		const [api, cli] = ["/w/api", "/w/cli"].map((key) => `${hash53(key).toString(36)}-1.json`);
		await writeFile(join(dir, "sessions", api!), JSON.stringify({ "/t/1.jsonl": sessions["/t/1.jsonl"] }));
		await writeFile(join(dir, "sessions", cli!), JSON.stringify({ "/t/2.jsonl": sessions["/t/2.jsonl"] }));
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...rest, version: 2, sessionFiles: [api, cli] }));
		const store = new StateFolder(dir);
		const loaded = await store.loadState(true);
		expect(loaded).toEqual(state());
		loaded.sessions["/t/2.jsonl"] = { ...loaded.sessions["/t/2.jsonl"]!, tags: ["x"] };
		await store.flush(loaded);
		expect(JSON.parse(await readFile(join(dir, "sync-state.json"), "utf8"))).toMatchObject({ version: SYNC_STATE_VERSION });
		expect(await sessionFiles()).toContain(api);
		expect(await listsFiles()).toHaveLength(1);
		expect((await new StateFolder(dir).loadState()).sessions).toEqual({ ...state().sessions, "/t/2.jsonl": { ...state().sessions["/t/2.jsonl"]!, tags: ["x"] } });
	});

	it("the Sessions view's catalog, its own file gone, is made from the records and their lists", async () => {
		await new StateFolder(dir).flush(state());
		await rm(join(dir, "catalog"), { recursive: true });
		expect((await new StateFolder(dir).loadCatalog()).sessions["/t/1.jsonl"]).toMatchObject({ digest: { title: "one", asked: ["ask one"], filesTouched: ["src/a.ts"] } });
	});
});

describe("state folder: the Sessions view's catalog", () => {
	it("beside each project's records, the same records cut to what the view reads, under the same name; old ones go with theirs", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one"), "/t/2.jsonl": record("/w/cli", "two") }));
		expect((await readdir(join(dir, "catalog"))).sort()).toEqual(await sessionFiles());
		const catalog = (await new StateFolder(dir).loadCatalog()).sessions;
		expect(Object.keys(catalog).sort()).toEqual(["/t/1.jsonl", "/t/2.jsonl"]);
		expect(catalog["/t/1.jsonl"]).toEqual({ title: "one", project: "api", agent: "claude-code", activeMinutes: 0, prompts: 1, tags: [], files: [], notePath: "AI Conversations/one.md", deleted: false, usage: [], tokens: 0 });
		const store = new StateFolder(dir);
		const state = await store.loadState();
		state.sessions["/t/2.jsonl"] = { ...state.sessions["/t/2.jsonl"]!, tags: ["x"] };
		await store.flush(state);
		expect((await readdir(join(dir, "catalog"))).sort()).toEqual(await sessionFiles());
		expect((await new StateFolder(dir).loadCatalog()).sessions["/t/2.jsonl"]?.tags).toEqual(["x"]);
	});

	it("a session file written before catalogs existed is read whole", async () => {
		await new StateFolder(dir).flush(stateWith({ "/t/1.jsonl": record("/w/api", "one") }));
		await rm(join(dir, "catalog"), { recursive: true });
		expect((await new StateFolder(dir).loadCatalog()).sessions["/t/1.jsonl"]).toMatchObject({ notePath: "AI Conversations/one.md", digest: { title: "one" } });
		await rm(join(dir, "sync-state.json"));
		expect(await new StateFolder(dir).loadCatalog()).toEqual({ sessions: {}, usageOnly: {} });
	});

	it("usage no session holds is kept in the state and read with the catalog; a state from before it has none, and a damaged entry is left out", async () => {
		const usage = [{ day: "2026-11-02", model: "claude-haiku-4-5", input: 3, output: 1, cacheRead: 0, cacheWrite: 40 }];
		const warmup = { projectKey: "/w/api", project: "api", agent: "claude-code" as const, startedAt: "2026-11-02T10:00:00Z", usage };
		await new StateFolder(dir).flush({ ...stateWith({ "/t/1.jsonl": record("/w/api", "one") }), usageOnly: { "/t/agent-1.jsonl": warmup } });
		expect((await new StateFolder(dir).loadState()).usageOnly).toEqual({ "/t/agent-1.jsonl": warmup });
		const catalog = await new StateFolder(dir).loadCatalog();
		expect([Object.keys(catalog.sessions), catalog.usageOnly]).toEqual([["/t/1.jsonl"], { "/t/agent-1.jsonl": warmup }]);
		// As the previous release wrote it: no `usageOnly` at all.
		const raw = JSON.parse(await readFile(join(dir, "sync-state.json"), "utf8")) as Record<string, unknown>;
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...raw, usageOnly: undefined }));
		expect((await new StateFolder(dir).loadState()).usageOnly).toEqual({});
		expect(Object.keys((await new StateFolder(dir).loadCatalog()).sessions)).toEqual(["/t/1.jsonl"]);
		await writeFile(join(dir, "sync-state.json"), JSON.stringify({ ...raw, usageOnly: { a: warmup, b: { ...warmup, usage: [{ day: 1 }] }, c: "x" } }));
		expect(Object.keys((await new StateFolder(dir).loadCatalog()).usageOnly)).toEqual(["a"]);
	});
});

describe("state folder: models packed by the threads that folded them", () => {
	const file = (name: string) => ({ path: `/claude/projects/p/${name}.jsonl`, projectDir: "p", kind: "session" as const, fileId: name, size: 10, mtimeMs: 1, ino: 1 });
	const stored = (name: string, prompt = "hi") => ({ file: file(name), cursor: { offset: 10, nextLineNo: 2, ino: 1, head: "" }, model: { fileId: name, prompt } as never });

	it("a pack no entry names any more goes at the next flush that changes packs; one of this process stays", async () => {
		const first = new StateFolder(dir);
		for (const n of ["a", "b"]) await first.saved(file(n), appendToPack(first.packFolder(), JSON.stringify(stored(n))));
		await first.flush(emptySyncState());
		const [pack] = (await readdir(join(dir, "models"))).filter((n) => n.startsWith("pack-"));
		// Another process's pack, left by a run killed before its flush: named by no entry.
		const orphan = pack!.replace(/^pack-\d+-/, "pack-999999999-");
		await writeFile(join(dir, "models", orphan), `${JSON.stringify(stored("z"))}\n`);
		const later = new StateFolder(dir);
		await later.loadState();
		for (const n of ["a", "b"]) await later.save(stored(n, "grown"));
		await later.flush(emptySyncState());
		const left = (await readdir(join(dir, "models"))).filter((n) => n.startsWith("pack-"));
		// This process's own pack is named by nothing now, but a thread of it may still append to it.
		expect(left).toEqual([pack]);
		expect((await new StateFolder(dir).load(file("a").path))?.model).toEqual({ fileId: "a", prompt: "grown" });
	});

	it("a model read anew (its transcript rewritten in place) leaves no byte of its packed form behind; one that only grew leaves the pack alone", async () => {
		const first = new StateFolder(dir);
		await first.saved(file("a"), appendToPack(first.packFolder(), JSON.stringify(stored("a", "scrubbed-secret"))));
		await first.saved(file("b"), appendToPack(first.packFolder(), JSON.stringify(stored("b"))));
		await first.flush(emptySyncState());
		const packText = async () => (await Promise.all((await readdir(join(dir, "models"))).filter((n) => n.startsWith("pack-")).map((n) => readFile(join(dir, "models", n), "utf8")))).join("");
		const grown = new StateFolder(dir);
		await grown.loadState();
		await grown.save(stored("b", "grown"));
		await grown.flush(emptySyncState());
		expect(await packText()).toContain("scrubbed-secret");
		const anew = new StateFolder(dir);
		await anew.loadState();
		await anew.save(stored("a", "****"), undefined, true);
		await anew.flush(emptySyncState());
		expect(await packText()).not.toContain("scrubbed-secret");
		expect((await new StateFolder(dir).load(file("a").path))?.model).toEqual({ fileId: "a", prompt: "****" });
	});

	it("files recorded at once, before the list of transcripts was read, are all kept", async () => {
		const store = new StateFolder(dir);
		await Promise.all(["a", "b", "c"].map((n) => store.saved(file(n))));
		expect((await store.known()).map((f) => f.fileId).sort()).toEqual(["a", "b", "c"]);
	});

	it("a list of transcripts read that is damaged is done without, and said once: the sync read every transcript again without a word", async () => {
		const store = new StateFolder(dir);
		await Promise.all(["a", "b"].map((n) => store.saved(file(n))));
		await store.flush(emptySyncState());
		expect(new StateFolder(dir).damaged()).toEqual([]);
		const fresh = new StateFolder(dir);
		await fresh.known();
		expect(fresh.damaged()).toEqual([]);
		for (const broken of ["", '[{"path":"/t/a.js', "\u00ff\u00fe{", '{"not":"a list"}']) {
			await writeFile(join(dir, "transcripts.json"), broken, "latin1");
			const after = new StateFolder(dir);
			expect(await after.known()).toEqual([]);
			expect(after.damaged()).toEqual([{ path: join(dir, "transcripts.json"), reason: expect.stringMatching(/damaged: every transcript was read again/) as unknown }]);
			expect(after.damaged()).toEqual([]);
		}
		await rm(join(dir, "transcripts.json"));
		const gone = new StateFolder(dir);
		await gone.known();
		expect(gone.damaged()).toEqual([]);
	});

	it("a list of transcripts read that is a FIFO is done without and said, as a damaged one: it was done without in silence", async () => {
		const fifo = join(dir, "transcripts.json");
		await mkdir(dir, { recursive: true });
		expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
		const store = new StateFolder(dir);
		expect(await store.known()).toEqual([]);
		expect(store.damaged()).toEqual([{ path: fifo, reason: expect.stringMatching(/^the list of transcripts read was not a file that could be read: every transcript was read again/) as unknown }]);
		expect(store.damaged()).toEqual([]);
	});

	it("an index of packed models that is damaged is done without, said once, and written anew: its models' transcripts were read again without a word", async () => {
		const index = join(dir, "models", "packs.json");
		const store = new StateFolder(dir);
		await store.saved(file("a"), appendToPack(store.packFolder(), JSON.stringify(stored("a"))));
		await store.flush(emptySyncState());
		const whole = new StateFolder(dir);
		expect(await whole.load(file("a").path)).toBeDefined();
		expect(whole.damaged()).toEqual([]);
		for (const broken of ["", '{"/t/a.js":{"pack', "[]"]) {
			await writeFile(index, broken);
			const after = new StateFolder(dir);
			await after.loadState();
			expect(await after.load(file("a").path)).toBeUndefined();
			expect(await after.load(file("b").path)).toBeUndefined();
			expect(after.damaged()).toEqual([{ path: index, reason: expect.stringMatching(/^the index of packed models was damaged: the models it named were done without/) as unknown }]);
			expect(after.damaged()).toEqual([]);
			// Nothing was packed or saved since: the index is written anew all the same.
			await after.flush(emptySyncState());
			expect(JSON.parse(await readFile(index, "utf8"))).toEqual({});
		}
		await rm(index);
		expect(spawnSync("mkfifo", [index]).status).toBe(0);
		const fifo = new StateFolder(dir);
		expect(await fifo.load(file("a").path)).toBeUndefined();
		expect(fifo.damaged()).toEqual([{ path: index, reason: expect.stringMatching(/^the index of packed models was not a file that could be read/) as unknown }]);
		await rm(index);
		const gone = new StateFolder(dir);
		expect(await gone.load(file("a").path)).toBeUndefined();
		expect(gone.damaged()).toEqual([]);
	});

	it("a pack that is gone gives the model's own file, or nothing (the transcript is read again)", async () => {
		const store = new StateFolder(dir);
		await store.saved(file("a"), appendToPack(store.packFolder(), JSON.stringify(stored("a"))));
		await store.flush(emptySyncState());
		for (const n of (await readdir(join(dir, "models"))).filter((n) => n.startsWith("pack-"))) await rm(join(dir, "models", n));
		expect(await new StateFolder(dir).load(file("a").path)).toBeUndefined();
	});

	it("a pack whose bytes a crash zeroed gives the model's own file, or nothing (the transcript is read again), never an error", async () => {
		const store = new StateFolder(dir);
		await store.saved(file("a"), appendToPack(store.packFolder(), JSON.stringify(stored("a"))));
		await store.flush(emptySyncState());
		for (const n of (await readdir(join(dir, "models"))).filter((n) => n.startsWith("pack-"))) {
			const size = (await readFile(join(dir, "models", n))).length;
			await writeFile(join(dir, "models", n), Buffer.alloc(size));
		}
		await expect(new StateFolder(dir).load(file("a").path)).resolves.toBeUndefined();
	});

	it("a reader of the state (the MCP server) meets a damaged state or session file as one gone, not with an error; a session file it names as not read", async () => {
		await mkdir(join(dir, "sessions"), { recursive: true });
		await writeFile(join(dir, "sync-state.json"), Buffer.alloc(64));
		await writeFile(join(dir, "sessions", "ab-cd.json"), "{\"cut");
		await expect(readStoredState(dir)).resolves.toBeUndefined();
		await expect(readSessionFile(dir, "ab-cd.json")).resolves.toEqual({ records: {}, unreadable: "sessions/ab-cd.json" });
		// Listed and gone is not read either (a sync stops on it: "the state lists it, and it is gone").
		await expect(readSessionFile(dir, "ef-gh.json")).resolves.toEqual({ records: {}, unreadable: "sessions/ef-gh.json" });
	});

	it("models packed by a run killed before its flush are not known: their transcripts are read again", async () => {
		const store = new StateFolder(dir);
		await store.saved(file("a"), appendToPack(store.packFolder(), JSON.stringify(stored("a"))));
		const next = new StateFolder(dir);
		expect(await next.known()).toEqual([]);
		expect(await next.load(file("a").path)).toBeUndefined();
	});

	it("packs.json is merged at flush: a run holding an older view changes only its own entries", async () => {
		const one = new StateFolder(dir);
		const two = new StateFolder(dir);
		await one.loadState();
		await two.loadState();
		await one.saved(file("a"), appendToPack(one.packFolder(), JSON.stringify(stored("a"))));
		await one.flush(emptySyncState());
		await two.saved(file("b"), appendToPack(two.packFolder(), JSON.stringify(stored("b"))));
		await two.flush(emptySyncState());
		const index = JSON.parse(await readFile(join(dir, "models", "packs.json"), "utf8")) as Record<string, unknown>;
		expect(Object.keys(index).sort()).toEqual([file("a").path, file("b").path]);
	});
});

describe("state folder: pack entries recorded at once", () => {
	it("entries recorded all at once, before the index is first read, are all found in this run and the next", async () => {
		const file = (name: string) => ({ path: `/claude/projects/p/${name}.jsonl`, projectDir: "p", kind: "session" as const, fileId: name, size: 10, mtimeMs: 1, ino: 1 });
		const stored = (name: string) => ({ file: file(name), cursor: { offset: 10, nextLineNo: 2, ino: 1, head: "" }, model: { fileId: name } as never });
		const store = new StateFolder(dir);
		const names = Array.from({ length: 20 }, (_, i) => `s${i}`);
		await Promise.all(names.map((n) => store.saved(file(n), appendToPack(store.packFolder(), JSON.stringify(stored(n))))));
		for (const n of names) expect((await store.load(file(n).path))?.file.path).toBe(file(n).path);
		await store.flush(emptySyncState());
		const next = new StateFolder(dir);
		for (const n of names) expect((await next.load(file(n).path))?.file.path).toBe(file(n).path);
	});
});

describe("state folder: a reader that lives long", () => {
	it("finds a model another process packed after this one first read the index", async () => {
		const file = { path: "/claude/projects/p/late.jsonl", projectDir: "p", kind: "session" as const, fileId: "late", size: 10, mtimeMs: 1, ino: 1 };
		const reader = new StateFolder(dir);
		expect(await reader.load(file.path)).toBeUndefined();
		const writer = new StateFolder(dir);
		await writer.saved(file, appendToPack(writer.packFolder(), JSON.stringify({ file, cursor: { offset: 10, nextLineNo: 2, ino: 1, head: "" }, model: { fileId: "late" } })));
		await writer.flush(emptySyncState());
		expect((await reader.load(file.path))?.file.path).toBe(file.path);
	});
});

describe("state folder: no byte of a forgotten or redacted-again model stays in a pack", () => {
	const file = (name: string) => ({ path: `/claude/projects/p/${name}.jsonl`, projectDir: "p", kind: "session" as const, fileId: name, size: 10, mtimeMs: 1, ino: 1 });
	const stored = (name: string, text: string, redaction = "on:[]") => ({ file: file(name), cursor: { offset: 10, nextLineNo: 2, ino: 1, head: "" }, model: { fileId: name, text } as never, redaction });
	const packBytes = async () => {
		const names = (await readdir(join(dir, "models"))).filter((n) => n.startsWith("pack-"));
		return (await Promise.all(names.map((n) => readFile(join(dir, "models", n), "utf8")))).join("");
	};
	const packTwo = async (store: StateFolder) => {
		for (const [n, text] of [["kept", "KEEP-ME"], ["gone", "SECRET-TEXT"]] as const) {
			const entry = stored(n, text);
			await store.saved(file(n), { ...appendToPack(store.packFolder(), JSON.stringify(entry)), redaction: entry.redaction });
		}
		await store.flush(emptySyncState());
	};

	it("a model forgotten (its project excluded) leaves its pack with the sync that forgot it; the others are still found", async () => {
		await packTwo(new StateFolder(dir));
		const store = new StateFolder(dir);
		await store.loadState();
		await store.forget(file("gone").path);
		await store.flush(emptySyncState());
		expect(await packBytes()).not.toContain("SECRET-TEXT");
		const next = new StateFolder(dir);
		expect((await next.load(file("kept").path))?.model).toEqual({ fileId: "kept", text: "KEEP-ME" });
		expect(await next.load(file("gone").path)).toBeUndefined();
	});

	it("a model redacted again under other settings leaves its pack; one saved under the same settings (grown) may stay there", async () => {
		await packTwo(new StateFolder(dir));
		const grown = new StateFolder(dir);
		await grown.save(stored("kept", "KEEP-ME and more"));
		await grown.flush(emptySyncState());
		expect(await packBytes()).toContain("SECRET-TEXT");
		const store = new StateFolder(dir);
		await store.save(stored("gone", "[redacted]", 'on:["SECRET"]'));
		await store.flush(emptySyncState());
		expect(await packBytes()).not.toContain("SECRET-TEXT");
		const next = new StateFolder(dir);
		expect((await next.load(file("kept").path))?.model).toEqual({ fileId: "kept", text: "KEEP-ME and more" });
		expect((await next.load(file("gone").path))?.model).toEqual({ fileId: "gone", text: "[redacted]" });
	});
});

describe("state folder: packs a failed or killed run left", () => {
	// A pid that runs no process (spawned and gone), and one that does (this test's parent).
	const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid;
	it("removes the packs of processes that are gone that no entry names; keeps named ones, live processes' ones, and all of them when the index cannot be read", async () => {
		const models = join(dir, "models");
		await mkdir(models, { recursive: true });
		const dead = deadPid();
		const named = `pack-${dead}-0-a1.jsonl`;
		const left = `pack-${dead}-1-b2.jsonl`;
		const live = `pack-${process.ppid}-0-c3.jsonl`;
		for (const name of [named, left, live]) await writeFile(join(models, name), "{}\n");
		await writeFile(join(models, "packs.json"), JSON.stringify({ "/t/a.jsonl": { pack: named, offset: 0, length: 2 } }));
		await new StateFolder(dir).removeLeftPacks();
		// The index read, the packs it names are listed beside it for the next sync.
		expect((await readdir(models)).sort()).toEqual([live, named, "packs.json", "packs.names.json"].sort());
		const list = JSON.parse(await readFile(join(models, "packs.names.json"), "utf8")) as { index: string; names: string[] };
		const index = await stat(join(models, "packs.json"));
		expect(list).toEqual({ index: `${index.ino}:${index.size}:${index.mtimeMs}`, names: [named] });
		// A damaged index may name any pack: none goes.
		await writeFile(join(models, left), "{}\n");
		await writeFile(join(models, "packs.json"), "{ damaged");
		await new StateFolder(dir).removeLeftPacks();
		expect(await readdir(models)).toContain(left);
		// No index at all (a first sync killed before it wrote one): nothing names them.
		await rm(join(models, "packs.json"));
		await new StateFolder(dir).removeLeftPacks();
		expect((await readdir(models)).filter((n) => n.startsWith("pack-"))).toEqual([live]);
	});
});

describe("state folder: the packs the index names, listed beside it", () => {
	const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid;
	const file = (name: string) => ({ path: `/claude/projects/p/${name}.jsonl`, projectDir: "p", kind: "session" as const, fileId: name, size: 10, mtimeMs: 1, ino: 1 });

	it("a flush that packed writes packs.names.json: the index's packs, with the index's stamp", async () => {
		const store = new StateFolder(dir);
		await store.saved(file("a"), appendToPack(store.packFolder(), JSON.stringify({ file: file("a"), cursor: { offset: 10, nextLineNo: 2, ino: 1, head: "" }, model: { fileId: "a" } })));
		await store.flush(emptySyncState());
		const models = join(dir, "models");
		const index = JSON.parse(await readFile(join(models, "packs.json"), "utf8")) as Record<string, { pack: string }>;
		const list = JSON.parse(await readFile(join(models, "packs.names.json"), "utf8")) as { index: string; names: string[] };
		expect(list.names).toEqual([index[file("a").path]!.pack]);
		const s = await stat(join(models, "packs.json"));
		expect(list.index).toBe(`${s.ino}:${s.size}:${s.mtimeMs}`);
	});

	it("keeps a pack the list names while the index is the file it was made from; once the index changes, the index decides", async () => {
		const models = join(dir, "models");
		await mkdir(models, { recursive: true });
		const pack = `pack-${deadPid()}-0-a1.jsonl`;
		await writeFile(join(models, pack), "{}\n");
		// An index that names no pack, and a list made from it that names this one: the list is what is read.
		await writeFile(join(models, "packs.json"), "{}");
		const s = await stat(join(models, "packs.json"));
		await writeFile(join(models, "packs.names.json"), JSON.stringify({ index: `${s.ino}:${s.size}:${s.mtimeMs}`, names: [pack] }));
		await new StateFolder(dir).removeLeftPacks();
		expect(await readdir(models)).toContain(pack);
		// The index written again (another stamp): the list no longer holds, and the index names no pack.
		await writeFile(join(models, "packs.json"), "{ }");
		await new StateFolder(dir).removeLeftPacks();
		expect(await readdir(models)).not.toContain(pack);
	});

	it("a damaged list is passed over: the index decides", async () => {
		const models = join(dir, "models");
		await mkdir(models, { recursive: true });
		const dead = deadPid();
		const [named, left] = [`pack-${dead}-0-a1.jsonl`, `pack-${dead}-1-b2.jsonl`];
		for (const name of [named, left]) await writeFile(join(models, name), "{}\n");
		await writeFile(join(models, "packs.json"), JSON.stringify({ "/t/a.jsonl": { pack: named, offset: 0, length: 2 } }));
		await writeFile(join(models, "packs.names.json"), "{ damaged");
		await new StateFolder(dir).removeLeftPacks();
		expect((await readdir(models)).filter((n) => n.startsWith("pack-"))).toEqual([named]);
	});
});

describe("state folder: the list of transcripts read", () => {
	const file = (name: string, size = 10) => ({ path: `/claude/projects/p/${name}.jsonl`, projectDir: "p", kind: "session" as const, fileId: name, size, mtimeMs: 1, ino: 1 });

	it("is not written again by a run that changed none of its entries, and is by one that did", async () => {
		const first = new StateFolder(dir);
		await first.saved(file("a"));
		await first.saved(file("b"));
		await first.flush(emptySyncState());
		const path = join(dir, "transcripts.json");
		const written = await stat(path);
		const quiet = new StateFolder(dir);
		expect((await quiet.known()).map((f) => f.path).sort()).toEqual([file("a").path, file("b").path]);
		await quiet.flush(emptySyncState());
		expect((await stat(path)).ino).toBe(written.ino);
		// One entry replaced (the transcript grew): written, with it.
		const grown = new StateFolder(dir);
		await grown.saved(file("b", 20));
		await grown.flush(emptySyncState());
		expect((await stat(path)).ino).not.toBe(written.ino);
		expect((JSON.parse(await readFile(path, "utf8")) as { size: number }[]).map((f) => f.size)).toEqual([10, 20]);
		// One removed: written too.
		const forgot = new StateFolder(dir);
		await forgot.forget(file("a").path);
		await forgot.flush(emptySyncState());
		expect((JSON.parse(await readFile(path, "utf8")) as { path: string }[]).map((f) => f.path)).toEqual([file("b").path]);
	});

	it("a list with an entry damaged is written anew without it, though nothing else changed", async () => {
		await writeFile(join(dir, "transcripts.json"), JSON.stringify([file("a"), { nopath: true }]));
		const store = new StateFolder(dir);
		await store.known();
		await store.flush(emptySyncState());
		expect(JSON.parse(await readFile(join(dir, "transcripts.json"), "utf8"))).toEqual([file("a")]);
	});
});

describe("state folder: a model write that fails in the background", () => {
	const file = (name: string) => ({ path: `/claude/projects/p/${name}.jsonl`, projectDir: "p", kind: "session" as const, fileId: name, size: 10, mtimeMs: 1, ino: 1 });
	const stored = (name: string) => ({ file: file(name), cursor: { offset: 10, nextLineNo: 2, ino: 1, head: "" }, model: { fileId: name } as never });

	it("is thrown by the flush, before the state is written: left to reject unawaited, it ended the CLI with Node's stack (a full disk)", async () => {
		// `models` a file: every model write fails, after save has returned.
		await writeFile(join(dir, "models"), "not a folder");
		const store = new StateFolder(dir);
		await store.save(stored("a"));
		await new Promise((resolve) => setTimeout(resolve, 50));
		await expect(store.flush(emptySyncState())).rejects.toThrow(/ENOTDIR|EEXIST/);
		expect(existsSync(join(dir, "sync-state.json"))).toBe(false);
		// Thrown once: a long-lived reader (the plugin) syncs again when the folder is right.
		await rm(join(dir, "models"));
		await store.save(stored("b"));
		await store.flush(emptySyncState());
		expect(existsSync(join(dir, "sync-state.json"))).toBe(true);
	});
});

describe("state folder: a file where one of its folders should be", () => {
	it("is refused in words before a sync or a hook writes, each folder; a folder not made yet is fine", async () => {
		const state = join(dir, "plugin", "state");
		await mkdir(state, { recursive: true });
		await expect(confineStateFolder(state)).resolves.toBeUndefined();
		for (const folder of ["models", "catalog", "lists", "hooks", "sessions", "checkpoints"]) {
			await writeFile(join(state, folder), "not a folder");
			// Node's own words were the sync's last line at every run: `EEXIST: file already exists, mkdir '…/models'`.
			const refused = await confineStateFolder(state).then(() => undefined, (error: unknown) => error);
			expect(refused, folder).toBeInstanceOf(DamagedStateError);
			expect((refused as Error).message).toBe(`The state folder ${join(state, folder)} is a file, not a folder, so nothing was written: move it away, and the next sync makes the folder again (what it held is read again from the transcripts; for \`sessions\`, the sync then says how to start over)`);
			await rm(join(state, folder));
			await mkdir(join(state, folder));
		}
		await rm(state, { recursive: true });
		await writeFile(state, "");
		await expect(confineStateFolder(state)).rejects.toThrow(`The state folder ${state} is a file, not a folder`);
	});

	it("a folder where a state file goes is refused in words before a sync writes, or when it is written: Node's EISDIR came after the notes, at every sync", async () => {
		const state = join(dir, "plugin", "state");
		await mkdir(join(state, "hooks"), { recursive: true });
		for (const file of ["sync-state.json", "transcripts.json", "models/packs.json", "hooks/1abc.json"]) {
			await mkdir(join(state, file, "inner"), { recursive: true });
			const refused = await confineStateFolder(state).then(() => undefined, (error: unknown) => error);
			expect(refused, file).toBeInstanceOf(DamagedStateError);
			expect((refused as Error).message).toBe(`The state file ${join(state, file)} is a folder, not a file, so nothing was synced: move it away, and the next sync writes the file again`);
			await rm(join(state, file), { recursive: true });
		}
		await expect(confineStateFolder(state)).resolves.toBeUndefined();
		// One no check knows by name (a session file, a model's) is said when it is written.
		const store = new StateFolder(state);
		await mkdir(join(state, "hooks", `${hash53("/w/api").toString(36)}.json`), { recursive: true });
		await expect(store.writeHookContext("/w/api", { project: "api" } as never)).rejects.toThrow(DamagedStateError);
	});
});
