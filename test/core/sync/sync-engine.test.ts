import { beforeEach, describe, expect, it } from "vitest";
import { DIGEST_VERSION, storedDigest } from "../../../src/core/digest/session-digest";
import { renderFact } from "../../../src/core/memory/fact-file";
import type { ResolvedFolder } from "../../../src/core/projects/project-identity";
import { DEFAULT_PROJECT, migrateSettings, type ProjectSettings, type Settings } from "../../../src/core/settings";
import { planFromSources, runSync, type SyncDeps } from "../../../src/core/sync/sync-engine";
import { emptySyncState, type SyncState } from "../../../src/core/sync/sync-state";
import { redactionSpec } from "../../../src/core/ingest/redaction-policy";
import { TranscriptIndex } from "../../../src/core/ingest/transcript-index";
import { FakeMemoryFolder } from "../../fakes/memory-folder";
import { MemoryNotes } from "../../fakes/memory-notes";
import { MemoryProjects } from "../../fakes/memory-projects";
import { MemoryTranscripts } from "../../fakes/memory-transcripts";
import { assistant, jsonl, resetIds, text, toolResult, toolUse, userText } from "../../fixtures/lines";

/** The whole engine in memory: transcripts, vault, CLAUDE.md files, Claude Code memory folders, the disk's repositories. */
let transcripts: MemoryTranscripts;
let notes: MemoryNotes;
let projects: MemoryProjects;
let memory: Map<string, FakeMemoryFolder>;
let disk: Map<string, ResolvedFolder>;
let state: SyncState;
let index: TranscriptIndex;
let n = 0;

beforeEach(() => {
	resetIds();
	transcripts = new MemoryTranscripts();
	notes = new MemoryNotes();
	projects = new MemoryProjects();
	memory = new Map();
	disk = new Map();
	state = emptySyncState();
	index = new TranscriptIndex(transcripts);
});

function session(cwd: string, prompt: string, at: string): string {
	const id = `0000000${++n}-aaaa-4000-8000-00000000000${n}`.slice(-36);
	const dir = cwd.replace(/[^a-zA-Z0-9]/g, "-");
	return transcripts.put(dir, id, jsonl([userText(prompt, { sessionId: id, cwd, timestamp: at }), assistant(text(`Done: ${prompt}`), { sessionId: id, cwd, timestamp: at, messageId: `msg_${n}` })]));
}

function settings(enabled: string[] = [], extra: Partial<ProjectSettings> = {}): Settings {
	return { ...migrateSettings({}).settings, projects: enabled.map((path) => ({ ...DEFAULT_PROJECT, path, ...extra })) };
}

function deps(s: Settings): SyncDeps {
	return { index, settings: s, state, notes, projects, claudeMemory: (path) => memoryOf(path), resolve: (folder) => disk.get(folder) };
}

function memoryOf(path: string): FakeMemoryFolder {
	let folder = memory.get(path);
	if (!folder) memory.set(path, (folder = new FakeMemoryFolder(`/claude/projects/${path.replace(/[^a-zA-Z0-9]/g, "-")}/memory`)));
	return folder;
}

/**
 * The shop's Beta note is gone and left so: Alpha and Gamma link past it, the index leaves it out,
 * and the next sync, which finds it gone again, writes nothing.
 */
async function expectLinkedPastBeta(alpha: string, gamma: string): Promise<void> {
	expect(notes.files.get(alpha)).toMatch(/Next: \[\[[^\]]*Gamma/);
	expect(notes.files.get(gamma)).toMatch(/Previous: \[\[[^\]]*Alpha/);
	expect(notes.files.get("AI Conversations/shop/shop.md")).not.toContain("Beta");
	expect((await runSync(deps(settings()))).notesWritten).toEqual([]);
}

const folders = () => [...new Set([...notes.files.keys()].filter((p) => p.startsWith("AI Conversations/") && p.split("/").length === 3).map((p) => p.split("/")[1]!))].sort();
const sessionNotesIn = (folder: string) => [...notes.files.keys()].filter((p) => p.startsWith(`AI Conversations/${folder}/`) && /\/\d{4}-/.test(p));

describe("projects are repositories", () => {
	it("of two sessions that state one fact, the one started first proposes it, whatever order they are read in", async () => {
		const rule = "From now on always use pnpm, never npm.";
		const earlier = session("/w/shop", rule, "2026-11-20T10:00:00.000Z");
		// Longer, so read first (the biggest files are read first).
		const later = transcripts.put("-w-shop", "later-aaaa-4000-8000-000000000009", jsonl([userText(rule, { sessionId: "later", cwd: "/w/shop", timestamp: "2026-11-21T10:00:00.000Z" }), assistant(text(`Done: ${"x".repeat(5000)}`), { sessionId: "later", cwd: "/w/shop", timestamp: "2026-11-21T10:00:01.000Z" })]));
		await runSync(deps(settings()));
		const facts = [...notes.files].filter(([p]) => p.includes("/_inbox/"));
		expect(facts).toHaveLength(1);
		const noteOf = (path: string) => notes.files.get(state.sessions[path]!.notePath)!;
		expect(noteOf(earlier)).toContain("Facts: [[");
		expect(noteOf(later)).not.toContain("Facts: [[");
	});

	it("keeps five repositories called `cli` apart: a folder and an index each, no links across", async () => {
		const cwds = ["/Users/alex/workspace/cli", "/Users/soph/Work/entire/devenv/cli", "/home/kim/src/cli", "/srv/tools/cli", "C:\\Users\\pat\\cli"];
		cwds.forEach((cwd, i) => session(cwd, `Fix bug number ${i + 1} in the parser`, `2026-03-0${i + 1}T10:00:00.000Z`));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(folders()).toEqual(["cli", "cli (devenv)", "cli (pat)", "cli (src)", "cli (tools)"]);
		for (const folder of folders()) {
			expect(sessionNotesIn(folder)).toHaveLength(1);
			expect(notes.files.get(sessionNotesIn(folder)[0]!)).not.toMatch(/Previous|Next/);
			expect(notes.files.get(`AI Conversations/${folder}/${folder}.md`)).toContain("sessions: 1");
		}
		expect(notes.files.get("AI Conversations/cli (pat)/cli (pat).md")).toContain("C:\\Users\\pat\\cli");
		// Stable: chosen once, the same next time, whatever comes later.
		session("/opt/cli", "Another cli", "2026-03-09T10:00:00.000Z");
		await runSync(deps(settings()));
		expect(folders()).toEqual(["cli", "cli (devenv)", "cli (opt)", "cli (pat)", "cli (src)", "cli (tools)"]);
		expect(sessionNotesIn("cli")).toHaveLength(1);
	});

	it("gives the enabled project its own name when other new folders of that name come in the same sync (a relative `cwd`, another checkout)", async () => {
		// Sorted as paths, `../proj` and `/r/a/proj` came first: the enabled project's notes went to `proj (b)` (attack round 24).
		session("/r/b/proj", "Enabled project's own work", "2026-03-01T10:00:00.000Z");
		session("../proj", "A session with a relative folder", "2026-03-02T10:00:00.000Z");
		session("/r/a/proj", "Another checkout of the same name", "2026-03-03T10:00:00.000Z");
		expect((await runSync(deps(settings(["/r/b/proj"])))).errors).toEqual([]);
		expect(state.projects["/r/b/proj"]!.folder).toBe("proj");
		expect(notes.files.get(sessionNotesIn("proj")[0]!)).toContain("Enabled project's own work");
		expect(state.projects["/r/a/proj"]!.folder).toBe("proj (a)");
	});

	it("keeps two enabled `api` repositories' facts apart: nothing crosses, a deletion in one leaves the other alone", async () => {
		const [work, oss] = ["/r/work/api", "/r/oss/api"];
		session(work, "Rate limit the orders endpoint", "2026-04-01T10:00:00.000Z");
		session(oss, "Generate the OpenAPI spec", "2026-04-02T10:00:00.000Z");
		memoryOf(work).files.set("run-tests.md", renderFact({ name: "run-tests", description: "Run make check", type: "feedback" }, "Run make check.\n"));
		memoryOf(oss).files.set("run-tests.md", renderFact({ name: "run-tests", description: "Run npm test", type: "feedback" }, "Run npm test.\n"));
		const s = settings([work, oss]);
		expect((await runSync(deps(s))).errors).toEqual([]);
		// Both new: chosen in sorted order, so oss (first) has the plain name.
		expect(notes.files.get("AI Memory/api (work)/run-tests.md")).toContain("make check");
		expect(notes.files.get("AI Memory/api/run-tests.md")).toContain("npm test");
		expect([...memoryOf(work).files.keys()].sort()).toEqual(["MEMORY.md", "run-tests.md"]);
		expect(memoryOf(work).files.get("run-tests.md")).toContain("make check");
		expect(projects.files.get(`${work}/CLAUDE.md`)).toContain("Rate limit");
		expect(projects.files.get(`${work}/CLAUDE.md`)).not.toContain("OpenAPI");
		// The user deletes oss's fact in the vault: gone from oss's Claude Code memory, work's untouched.
		notes.files.delete("AI Memory/api/run-tests.md");
		expect((await runSync(deps(s))).errors).toEqual([]);
		expect(memoryOf(oss).files.has("run-tests.md")).toBe(false);
		expect(memoryOf(work).files.get("run-tests.md")).toContain("make check");
		expect(notes.files.get("AI Memory/api (work)/run-tests.md")).toContain("make check");
	});

	it("puts a linked worktree's and a subfolder's sessions into the repository's project and its CLAUDE.md", async () => {
		const repo = "/r/repo";
		disk.set(repo, { root: repo, repository: true });
		disk.set("/r/repo-wt", { root: repo, repository: true });
		disk.set("/r/repo/packages/core", { root: repo, repository: true });
		session(repo, "Zanzibar in the main checkout", "2026-05-01T10:00:00.000Z");
		session("/r/repo-wt", "Quetzalcoatl on the feature branch", "2026-05-02T10:00:00.000Z");
		session("/r/repo/packages/core", "Marmalade in the core package", "2026-05-03T10:00:00.000Z");
		await runSync(deps(settings([repo])));
		expect(folders()).toEqual(["repo"]);
		expect(sessionNotesIn("repo")).toHaveLength(3);
		for (const word of ["Zanzibar", "Quetzalcoatl", "Marmalade"]) expect(projects.files.get(`${repo}/CLAUDE.md`)).toContain(word);
	});

	it("takes a Windows folder recorded as `C:\\…` and as `c:\\…\\` for one project, in one sync or across two", async () => {
		session("C:\\Users\\me\\proj", "Fix the parser", "2026-03-01T10:00:00.000Z");
		await runSync(deps(settings()));
		session("c:\\Users\\me\\proj\\", "Add a test for the parser", "2026-03-02T10:00:00.000Z");
		session("C:\\users\\ME\\proj", "Document the parser", "2026-03-03T10:00:00.000Z");
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(folders()).toEqual(["proj"]);
		expect(sessionNotesIn("proj")).toHaveLength(3);
		expect(Object.keys(state.projects)).toEqual(["C:\\Users\\me\\proj"]);
	});

	it("takes a macOS folder recorded in two cases for one project, as a Mac's disk holds one (attack round 25c)", async () => {
		session("/Users/A/Code/app", "Fix the parser", "2026-03-01T10:00:00.000Z");
		session("/Users/a/code/app", "Add a test for the parser", "2026-03-02T10:00:00.000Z");
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(folders()).toEqual(["app"]);
		expect(sessionNotesIn("app")).toHaveLength(2);
	});

	it("gives a new project the spelling of the user's folder it is but for case (`APP` beside `app`), which macOS and Windows hold as one (attack round 25c)", async () => {
		notes.files.set("AI Conversations/APP/mine.md", "My own note.\n");
		session("/home/me/app", "Fix the parser", "2026-03-01T10:00:00.000Z");
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(folders()).toEqual(["APP"]);
		expect(sessionNotesIn("APP")).toHaveLength(1);
		expect(notes.files.get("AI Conversations/APP/mine.md")).toBe("My own note.\n");
		expect(state.projects["/home/me/app"]?.folder).toBe("APP");
	});

	it("keeps the identity recorded for a session whose folder is gone, and never merges by name", async () => {
		disk.set("/r/gone", { root: "/r/gone", repository: true });
		session("/r/gone", "First, while the repository was here", "2026-06-01T10:00:00.000Z");
		await runSync(deps(settings()));
		disk.clear();
		session("/r/gone/src/deep", "Later, in a subfolder, the checkout deleted since", "2026-06-02T10:00:00.000Z");
		session("/elsewhere/gone", "Another repository with the same name", "2026-06-03T10:00:00.000Z");
		await runSync(deps(settings()));
		expect(folders()).toEqual(["gone", "gone (elsewhere)"]);
		expect(sessionNotesIn("gone")).toHaveLength(2);
	});
});

describe("the notes follow the user and the plan", () => {
	it("a lone surrogate in a title: the note is found again, a rebuild keeps the user's text, and a title differing only there gets its own note", async () => {
		// A vault on disk: names and texts come back as UTF-8 makes them.
		const disk = (t: string) => Buffer.from(t, "utf8").toString("utf8");
		const read = notes.read.bind(notes);
		const write = notes.write.bind(notes);
		notes.read = (path) => read(disk(path));
		notes.write = (path, text, expected) => write(disk(path), disk(text), expected);
		session("/r/emoji", "Fix the \ud83d parser", "2026-09-01T10:00:00.000Z");
		await runSync(deps(settings()));
		const [note] = sessionNotesIn("emoji");
		expect(note).toContain("\ufffd");
		notes.files.set(note!, `${notes.files.get(note!)}\nMine.\n`);
		session("/r/emoji", "Fix the \ude00 parser", "2026-09-01T11:00:00.000Z");
		const report = await runSync({ ...deps(settings()) }, { rebuild: true });
		expect(report.errors).toEqual([]);
		expect(notes.files.get(note!)!.endsWith("Mine.\n")).toBe(true);
		expect(sessionNotesIn("emoji")).toHaveLength(2);
		expect((await runSync(deps(settings()))).notesWritten).toEqual([]);
	});

	it("a digest of an older version whose transcript Claude Code purged is made again from the stored model, and stays in CLAUDE.md", async () => {
		const path = session("/r/kept", "Fix the login bug", "2026-05-01T10:00:00.000Z");
		await runSync(deps(settings(["/r/kept"])));
		state.sessions[path]!.digest = { ...state.sessions[path]!.digest, version: DIGEST_VERSION - 1 };
		transcripts.purge(path);
		const report = await runSync(deps(settings(["/r/kept"])));
		expect(report.errors).toEqual([]);
		expect(state.sessions[path]!.digest.version).toBe(DIGEST_VERSION);
		expect(projects.files.get("/r/kept/CLAUDE.md")).toContain("Fix the login bug");
	});

	it("a session whose title changes (a digest of an older version, then a rename) keeps its note: never moved, never doubled", async () => {
		const path = session("/r/titled", "I want to add a price formatter", "2026-05-01T10:00:00.000Z");
		await runSync(deps(settings()));
		const note = state.sessions[path]!.notePath;
		expect(note).toMatch(/Add a price formatter\.md$/);
		// As an older version of the digest titled it: digested again, under the same path.
		state.sessions[path]!.digest = { ...state.sessions[path]!.digest, version: DIGEST_VERSION - 1, title: "I want to add a price formatter" };
		let report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(state.sessions[path]!.digest).toMatchObject({ version: DIGEST_VERSION, title: "Add a price formatter" });
		expect(state.sessions[path]!.notePath).toBe(note);
		transcripts.append(path, jsonl([{ type: "custom-title", customTitle: "Formatting prices", sessionId: state.sessions[path]!.digest.sessionId }]));
		report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(state.sessions[path]!.digest.title).toBe("Formatting prices");
		expect(state.sessions[path]!.notePath).toBe(note);
		expect(sessionNotesIn("titled")).toEqual([note]);
		expect(notes.files.get(note)).toContain("Formatting prices");
	});

	it("a session retitled after its neighbours were written (`/rename`): their Previous and Next links name it by its new title", async () => {
		const paths = [1, 2, 3].map((i) => session("/r/renamed", `Work item ${i} on the parser`, `2026-01-1${i}T10:00:00.000Z`));
		await runSync(deps(settings()));
		const noteOf = (i: number) => notes.files.get(state.sessions[paths[i]!]!.notePath)!;
		transcripts.append(paths[1]!, jsonl([{ type: "custom-title", customTitle: "Renamed parser session", sessionId: state.sessions[paths[1]!]!.digest.sessionId }]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(noteOf(0)).toMatch(/Next: \[\[[^|\]]+\|Renamed parser session\]\]/);
		expect(noteOf(2)).toMatch(/Previous: \[\[[^|\]]+\|Renamed parser session\]\]/);
	});

	it("a session whose start moves before another's (its transcript rewritten): its old and new neighbours link as the new order says", async () => {
		const paths = [1, 2, 3].map((i) => session("/r/reordered", `Work item ${i} on the lexer`, `2026-01-1${i}T10:00:00.000Z`));
		await runSync(deps(settings()));
		const noteOf = (i: number) => notes.files.get(state.sessions[paths[i]!]!.notePath)!;
		const id = state.sessions[paths[2]!]!.digest.sessionId;
		// The third session's transcript, rewritten: it started on the 9th, before the other two.
		transcripts.rewrite(paths[2]!, jsonl([userText("Work item 3 on the lexer", { sessionId: id, cwd: "/r/reordered", timestamp: "2026-01-09T10:00:00.000Z" }), assistant(text("Done: 3"), { sessionId: id, cwd: "/r/reordered", timestamp: "2026-01-09T10:00:00.000Z", messageId: "msg_re" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(noteOf(1)).not.toContain("Next:");
		expect(noteOf(0)).toMatch(/Previous: \[\[[^|\]]+\|Work item 3 on the lexer\]\]/);
	});

	it("a transcript rewritten under a new title (a password scrubbed from its first prompt): its note moves, its neighbours link to the new name; one that grows keeps its note's name", async () => {
		const paths = [1, 2].map((i) => session("/r/scrub", i === 1 ? "Connect with password tiger-lily-0042 to the staging db" : "Add the migration tests", `2026-02-1${i}T10:00:00.000Z`));
		await runSync(deps(settings()));
		const first = state.sessions[paths[0]!]!;
		const id = first.digest.sessionId;
		expect(first.notePath).toContain("tiger-lily-0042");
		transcripts.rewrite(paths[0]!, jsonl([userText("Connect with password [scrubbed] to the staging db", { sessionId: id, cwd: "/r/scrub", timestamp: "2026-02-11T10:00:00.000Z" }), assistant(text("Connected."), { sessionId: id, cwd: "/r/scrub", timestamp: "2026-02-11T10:00:00.000Z", messageId: "msg_scrub" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		const moved = state.sessions[paths[0]!]!.notePath;
		expect(moved).not.toContain("tiger-lily");
		expect(notes.files.has(first.notePath)).toBe(false);
		expect(notes.files.get(moved)).toContain("[scrubbed]");
		const everything = [...notes.files.values()].join("\n");
		expect(everything).not.toContain("tiger-lily");
		expect(notes.files.get(state.sessions[paths[1]!]!.notePath)).toContain(`Previous: [[${moved.replace(/\.md$/, "")}|`);
		// Grown, under a title that changes (a `/rename`): the note keeps its path, links stay good.
		const second = state.sessions[paths[1]!]!.notePath;
		const id2 = state.sessions[paths[1]!]!.digest.sessionId;
		transcripts.append(paths[1]!, `${JSON.stringify({ type: "custom-title", customTitle: "Migration tests, renamed", sessionId: id2 })}\n`);
		await runSync(deps(settings()));
		expect(state.sessions[paths[1]!]!.digest.title).toBe("Migration tests, renamed");
		expect(state.sessions[paths[1]!]!.notePath).toBe(second);
	});

	it("a transcript rewritten under a new title while a sync of another project runs: the sync of its own project moves its note", async () => {
		const scrubbed = session("/r/waits", "Log in with token pear-0042-plum and deploy", "2026-03-01T10:00:00.000Z");
		session("/r/busy", "Other project work", "2026-03-01T11:00:00.000Z");
		await runSync(deps(settings()));
		const was = state.sessions[scrubbed]!.notePath;
		const id = state.sessions[scrubbed]!.digest.sessionId;
		transcripts.rewrite(scrubbed, jsonl([userText("Log in with token [gone] and deploy", { sessionId: id, cwd: "/r/waits", timestamp: "2026-03-01T10:00:00.000Z" }), assistant(text("Deployed."), { sessionId: id, cwd: "/r/waits", timestamp: "2026-03-01T10:00:00.000Z", messageId: "msg_wait" })]));
		await runSync(deps(settings()), { project: "/r/busy" });
		expect(state.pending).toContain(scrubbed);
		expect(state.sessions[scrubbed]!.notePath).toBe(was);
		await runSync(deps(settings()), { project: "/r/waits" });
		expect(state.sessions[scrubbed]!.notePath).not.toContain("pear-0042");
		expect(state.sessions[scrubbed]!.rewritten).toBeUndefined();
		expect([...notes.files.keys()].join("\n")).not.toContain("pear-0042");
	});

	it("a timestamp that is not a time never reaches a path: no note outside its folder, the other sessions as ever", async () => {
		const hostile = ["../../../x", "../../zzzz", "2026/01/15", "2026-01-15\nx", "2026-13-45T99:99:99Z"];
		hostile.forEach((at, i) => {
			const id = `00000000-dddd-4000-8000-00000000000${i}`;
			transcripts.put("-r-hostile", id, jsonl([userText(`Hostile time number ${i}`, { sessionId: id, cwd: "/r/hostile", timestamp: at }), assistant(text("ok"), { sessionId: id, cwd: "/r/hostile", timestamp: at, messageId: `msg_h${i}` })]));
		});
		const fine = session("/r/hostile", "A session with a real time", "2026-08-01T10:00:00.000Z");
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		for (const path of notes.files.keys()) expect(path).toMatch(/^AI Conversations\/hostile\/[^/\n]+\.md$|^AI Conversations\/AI Conversations\.base$/);
		expect(sessionNotesIn("hostile")).toEqual([state.sessions[fine]!.notePath]);
		expect([...notes.files.keys()].filter((p) => p.includes("/undated "))).toHaveLength(hostile.length);
	});

	it("names another agent's transcript of which no record is of a kind its reader knows (a newer client): no note, and not said to be current", async () => {
		const line = (o: object) => `${JSON.stringify(o)}\n`;
		const future = transcripts.putAgentFile("/home/u/.codex/sessions/2026/12/01/rollout-a.jsonl", { agent: "codex" }, "a", line({ type: "session_header_v2", payload: { cwd: "/r/app" } }) + line({ type: "turn_v2", payload: { user: "Fix the cart" } }));
		// Known records and no prompt (Codex started and left): no word.
		transcripts.putAgentFile("/home/u/.codex/sessions/2026/12/01/rollout-b.jsonl", { agent: "codex" }, "b", line({ type: "session_meta", payload: { id: "b", cwd: "/r/app" } }) + line({ type: "turn_context", payload: { cwd: "/r/app" } }));
		const gemini = transcripts.putAgentFile("/home/u/.gemini/tmp/app/chats/session-c.jsonl", { agent: "gemini-cli", cwd: "/r/app" }, "c", line({ kind: "v9" }));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notices).toEqual([
			`${future}: none of its 2 records is of a kind the Codex reader knows (the first: "codex:session_header_v2"), so it has no note: is it from a newer Codex?`,
			`${gemini}: its one record is not of a kind the Gemini CLI reader knows (the first: "gemini:unknown"), so it has no note: is it from a newer Gemini CLI?`,
		]);
	});

	it("names the lines of a transcript that could not be read, once, by the read that met them: the note holds the rest", async () => {
		const id = "00000000-eeee-4000-8000-000000000001";
		const at = (m: number) => `2026-07-03T10:0${m}:00.000Z`;
		const path = transcripts.put("-r-cut", id, `${jsonl([userText("Add a retry to the uploader", { sessionId: id, cwd: "/r/cut", timestamp: at(0) })])}{"type":"user","message":{"content":"Now make it three\nat most"}}\n${jsonl([assistant(text("Capped the retries at three."), { sessionId: id, cwd: "/r/cut", timestamp: at(1), messageId: "msg_cut" })])}`);
		const first = await runSync(deps(settings()));
		expect(first.errors).toEqual([]);
		expect(first.notices).toEqual([`${path}: 2 lines could not be read (line 2: invalid JSON); its note holds the rest`]);
		expect(notes.files.get(state.sessions[path]!.notePath)).toContain("Capped the retries at three.");
		// Grown with good lines: nothing said again; then one more bad line: that one alone.
		transcripts.append(path, jsonl([userText("Thanks", { sessionId: id, cwd: "/r/cut", timestamp: at(2) })]));
		expect((await runSync(deps(settings()))).notices).toEqual([]);
		transcripts.append(path, "not json\n");
		expect((await runSync(deps(settings()))).notices).toEqual([`${path}: a line could not be read (line 6: invalid JSON); its note holds the rest`]);
	});

	it("a transcript read whole again at each change (Gemini CLI) names its bad line once, not at every change", async () => {
		const line = (o: object) => `${JSON.stringify(o)}\n`;
		const message = (id: string, type: string, content: string) => line({ id, timestamp: "2026-12-01T15:37:21.000Z", type, content });
		const path = transcripts.putAgentFile("/home/u/.gemini/tmp/app/chats/session-2026-12-01T15-37-a23c8c27.jsonl", { agent: "gemini-cli", cwd: "/r/app" }, "a23c8c27", line({ sessionId: "a23c8c27-586c-4813-bbc9-df01a35ebe83", startTime: "2026-12-01T15:37:20.320Z", kind: "main" }) + message("m1", "user", "Fix the cart total") + "{not json\n" + message("m2", "gemini", "Fixed the cart total."));
		expect((await runSync(deps(settings()))).notices).toEqual([`${path}: a line could not be read (line 3: invalid JSON); its note holds the rest`]);
		transcripts.append(path, message("m3", "user", "Thanks"));
		expect((await runSync(deps(settings()))).notices).toEqual([]);
	});

	it("a note that cannot be read is reported and left alone; the other sessions sync as ever", async () => {
		const bad = session("/r/two", "First session of two", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		const badNote = state.sessions[bad]!.notePath;
		transcripts.append(bad, jsonl([userText("More work", { sessionId: state.sessions[bad]!.digest.sessionId, cwd: "/r/two", timestamp: "2026-07-01T11:00:00.000Z" })]));
		const good = session("/r/two", "Second session of two", "2026-07-02T10:00:00.000Z");
		const read = notes.read.bind(notes);
		notes.read = async (path: string) => {
			if (path === badNote) throw new Error("it is not a plain file (a FIFO)");
			return read(path);
		};
		const before = notes.files.get(badNote);
		const report = await runSync(deps(settings()));
		expect(report.errors.join("\n")).toContain(`${badNote}: not read, so not written: it is not a plain file (a FIFO)`);
		expect(notes.files.get(badNote)).toBe(before);
		expect(state.sessions[bad]!.deleted).toBeUndefined();
		expect(report.notesWritten).toContain(state.sessions[good]!.notePath);
	});

	it("a pasted note's markers or a code reply left open never freeze the note: the next turn reaches it, the user's text stays", async () => {
		const cwd = "/r/paste";
		const id = "00000000-cccc-4000-8000-000000000001";
		const env = { sessionId: id, cwd, timestamp: "2026-06-01T10:00:00.000Z" };
		const pasted = "Summarize this note:\n%% AI Conversation Memory: generated from here %%\nold\n%% AI Conversation Memory: generated up to here; write your own notes below %%";
		const path = transcripts.put("-r-paste", id, jsonl([userText(pasted, env), assistant(text("Here is the start:\n```ts\nconst a = 1;"), { ...env, messageId: "msg_p1" })]));
		await runSync(deps(settings()));
		const note = state.sessions[path]!.notePath;
		notes.files.set(note, `${notes.files.get(note)}\nMy own line.\n`);
		transcripts.append(path, jsonl([userText("And the rest of it", { ...env, timestamp: "2026-06-01T10:05:00.000Z" }), assistant(text("The rest is done."), { ...env, timestamp: "2026-06-01T10:05:00.000Z", messageId: "msg_p2" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		const after = notes.files.get(note)!;
		expect(after).toContain("The rest is done.");
		expect(after.endsWith("My own line.\n")).toBe(true);
		// The reply's fence is closed before the next turn, so Obsidian shows the rest as text.
		expect(after).toMatch(/const a = 1;\n```\n/);
	});

	it("a neighbour rendered again (its Next link changes) keeps what only its whole digest holds; the state keeps the short one", async () => {
		const cwd = "/r/app";
		const id = "00000000-bbbb-4000-8000-000000000001";
		const env = { sessionId: id, cwd, timestamp: "2026-05-01T10:00:00.000Z" };
		const first = transcripts.put("-r-app", id, jsonl([
			userText("Run the test suite and fix what fails", env),
			assistant(toolUse("toolu_1", "Bash", { command: "npm test -- --run parser" }), { ...env, messageId: "msg_a" }),
			toolResult("toolu_1", "1 failed: parser.test.ts", { ...env, isError: true }),
			assistant(text("Fixed the parser: the suite passes now."), { ...env, messageId: "msg_b" }),
		]));
		await runSync(deps(settings()));
		const note = state.sessions[first]!.notePath;
		// The digest's list of commands, which the state does not keep.
		expect(notes.files.get(note)).toContain("**Commands run:**\n- `npm test -- --run parser`");
		// Stored between runs in the short form (as the state folder stores it), then read back.
		for (const r of Object.values(state.sessions)) r.digest = storedDigest(r.digest);
		expect(JSON.stringify(state.sessions[first]!.digest)).not.toContain("npm test -- --run parser");
		session(cwd, "Now add a changelog entry", "2026-05-02T10:00:00.000Z");
		const report = await runSync(deps(settings()));
		expect(report.notesWritten).toContain(note);
		expect(notes.files.get(note)).toMatch(/Next/);
		expect(notes.files.get(note)).toContain("**Commands run:**\n- `npm test -- --run parser`");
	});

	it("a session whose names are those of an object's own properties (a command `constructor`, a file `x.__proto__`, a model `toString`) syncs as any: the tables it is looked up in have no prototype", async () => {
		const cwd = "/r/odd";
		const id = "00000000-cccc-4000-8000-000000000001";
		const env = { sessionId: id, cwd, timestamp: "2026-05-01T10:00:00.000Z" };
		const file = transcripts.put("-r-odd", id, jsonl([
			userText("Run constructor on the hasOwnProperty file and fix what fails", env),
			assistant(toolUse("toolu_1", "Bash", { command: "constructor __proto__ && git constructor && pip install constructor" }), { ...env, messageId: "msg_a", model: "toString" }),
			toolResult("toolu_1", "ok", env),
			assistant(toolUse("toolu_2", "constructor", { file_path: "/r/odd/src/x.constructor" }), { ...env, messageId: "msg_b", model: "constructor" }),
			toolResult("toolu_2", "refused", { ...env, isError: true }),
			assistant(toolUse("toolu_3", "Write", { file_path: "/r/odd/constructor", content: "x" }), { ...env, messageId: "msg_c" }),
			toolResult("toolu_3", "ok", env),
			assistant(toolUse("toolu_4", "Read", { file_path: "/r/odd/__proto__/toString.valueOf" }), { ...env, messageId: "msg_d" }),
			toolResult("toolu_4", "text", env),
			assistant(text("Fixed it: the second choice was right."), { ...env, messageId: "msg_e" }),
		]));
		const report = await runSync(deps(settings([cwd])));
		expect(report.errors).toEqual([]);
		const note = notes.files.get(state.sessions[file]!.notePath)!;
		expect(note).toContain("Fixed it");
		expect(note).not.toMatch(/native code|\[object Object\]|function Object/);
		expect(JSON.stringify(state.sessions[file]!.digest)).not.toMatch(/native code|function Object/);
		expect(projects.files.get(`${cwd}/CLAUDE.md`) ?? "").not.toMatch(/native code|function Object/);
	});

	it("rebuilds a deleted note with the right neighbours and index entry, and the next sync changes nothing", async () => {
		session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		session("/r/shop", "Beta task", "2026-07-02T10:00:00.000Z");
		session("/r/shop", "Gamma task", "2026-07-03T10:00:00.000Z");
		await runSync(deps(settings()));
		const beta = sessionNotesIn("shop").find((p) => p.includes("Beta"))!;
		notes.files.delete(beta);
		// Deleted while nothing listened: the next sync's listing of the folder tells it.
		expect((await runSync(deps(settings()))).notesSkipped).toEqual([beta]);
		// The session grows while its note is deleted: it stays deleted.
		const betaPath = Object.entries(state.sessions).find(([, r]) => r.notePath === beta)![0];
		transcripts.append(betaPath, jsonl([userText("One more beta step", { sessionId: state.sessions[betaPath]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-02T11:00:00.000Z" })]));
		expect((await runSync(deps(settings()))).notesSkipped).toEqual([beta]);
		expect(notes.files.has(beta)).toBe(false);
		expect(notes.files.get("AI Conversations/shop/shop.md")).not.toContain("Beta");
		const rebuilt = await runSync(deps(settings()), { rebuild: true });
		expect(rebuilt.errors).toEqual([]);
		const note = notes.files.get(beta)!;
		expect(note).toContain("One more beta step");
		expect(note).toMatch(/Next: \[\[[^\]]*Gamma/);
		expect(note).toMatch(/Previous: \[\[[^\]]*Alpha/);
		expect(notes.files.get("AI Conversations/shop/shop.md")).toContain("Beta");
		const again = await runSync(deps(settings()));
		expect(again.notesWritten).toEqual([]);
	});

	it("links past notes found deleted: the neighbours of a deleted note (and of two in a row) are rendered again", async () => {
		const at = (day: number) => `2026-07-0${day}T10:00:00.000Z`;
		const paths = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon"].map((name, i) => session("/r/shop", `${name} task`, at(i + 1)));
		await runSync(deps(settings()));
		const noteOf = (path: string) => state.sessions[path]!.notePath;
		const [alpha, beta, gamma, delta, epsilon] = paths.map(noteOf) as [string, string, string, string, string];
		// Beta's and Gamma's notes deleted; only Beta's session grows, so only it is looked at first.
		notes.files.delete(beta);
		notes.files.delete(gamma);
		transcripts.append(paths[1]!, jsonl([userText("One more beta step", { sessionId: state.sessions[paths[1]!]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-02T11:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped.sort()).toEqual([beta, gamma].sort());
		expect([...notes.files.keys()].filter((p) => p === beta || p === gamma)).toEqual([]);
		expect(notes.files.get(alpha)).toMatch(/Next: \[\[[^\]]*Delta/);
		expect(notes.files.get(delta)).toMatch(/Previous: \[\[[^\]]*Alpha/);
		expect(notes.files.get(epsilon)).toMatch(/Previous: \[\[[^\]]*Delta/);
		expect(notes.files.get("AI Conversations/shop/shop.md")).not.toMatch(/Beta|Gamma/);
		expect((await runSync(deps(settings()))).notesWritten).toEqual([]);
	});

	it("no note, index or packet the sync writes holds Templater's <% (a folder's name, a title): it would run in a new note", async () => {
		session("/r/<%* tp.file.delete() %>", "Fix <% the %> parser", "2026-07-01T10:00:00.000Z");
		const report = await runSync(deps(settings(["/r/<%* tp.file.delete() %>"], { mode: "lazy" })));
		expect(report.errors).toEqual([]);
		const written = [...notes.files].filter(([p]) => p.endsWith(".md"));
		expect(written.length).toBeGreaterThanOrEqual(3);
		for (const [path, text] of written) expect(text, path).not.toContain("<%");
		expect(written.some(([, text]) => text.includes("tp.file.delete()"))).toBe(true);
	});

	it("notices a deleted note of a session that did not grow when another of its project does: the links go past it", async () => {
		const paths = ["Alpha", "Beta", "Gamma"].map((name, i) => session("/r/shop", `${name} task`, `2026-07-0${i + 1}T10:00:00.000Z`));
		await runSync(deps(settings()));
		const [alpha, beta, gamma] = paths.map((p) => state.sessions[p]!.notePath) as [string, string, string];
		notes.files.delete(beta);
		transcripts.append(paths[0]!, jsonl([userText("One more alpha step", { sessionId: state.sessions[paths[0]!]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-01T11:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped).toEqual([beta]);
		expect(notes.files.has(beta)).toBe(false);
		await expectLinkedPastBeta(alpha, gamma);
	});

	it("a note deleted while nothing listened (outside Obsidian, or with it closed) is noticed by the next sync though no transcript changed: the links and the index go past it", async () => {
		const paths = ["Alpha", "Beta", "Gamma"].map((name, i) => session("/r/shop", `${name} task`, `2026-07-0${i + 1}T10:00:00.000Z`));
		await runSync(deps(settings()));
		const [alpha, beta, gamma] = paths.map((p) => state.sessions[p]!.notePath) as [string, string, string];
		notes.files.delete(beta);
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped).toEqual([beta]);
		expect(state.sessions[paths[1]!]!.deleted).toBe(true);
		await expectLinkedPastBeta(alpha, gamma);
	});

	it("a note moved while nothing listened is followed where it is, its neighbours linking to it there; a note of a project excluded meanwhile is not written again", async () => {
		const paths = ["Alpha", "Beta", "Gamma"].map((name, i) => session("/r/shop", `${name} task`, `2026-07-0${i + 1}T10:00:00.000Z`));
		const other = session("/r/quiet", "Quiet task", "2026-07-01T12:00:00.000Z");
		await runSync(deps(settings()));
		const [alpha, beta] = paths.map((p) => state.sessions[p]!.notePath) as [string, string];
		notes.files.set("Mine/kept.md", notes.files.get(beta)!);
		notes.files.delete(beta);
		const quiet = state.sessions[other]!.notePath;
		notes.files.delete(quiet);
		const excluded = { ...settings(), excludedProjects: ["/r/quiet"] };
		const report = await runSync(deps(excluded));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped).toEqual([]);
		expect(state.sessions[paths[1]!]).toMatchObject({ notePath: "Mine/kept.md" });
		expect(state.sessions[paths[1]!]!.deleted).toBeFalsy();
		expect(notes.files.has(quiet)).toBe(false);
		expect(notes.files.get(alpha)).toMatch(/Next: \[\[Mine\/kept\|Beta task\]\]/);
		expect((await runSync(deps(excluded))).notesWritten).toEqual([]);
	});

	it("a note the user deleted before or while its project was excluded stays deleted once the exclusion is lifted; the state kept nothing of its sessions meanwhile but hashes (attack round 49a's gap)", async () => {
		const [first, second, third] = ["Alpha", "Beta", "Gamma"].map((name, i) => session("/r/quiet", `${name} quiet task`, `2026-07-0${i + 1}T10:00:00.000Z`)) as [string, string, string];
		await runSync(deps(settings()));
		const [alpha, beta, gamma] = [first, second, third].map((p) => state.sessions[p]!.notePath) as [string, string, string];
		notes.files.delete(alpha);
		expect((await runSync(deps(settings()))).notesSkipped).toEqual([alpha]);
		const excluded = { ...settings(), excludedProjects: ["/r/quiet"] };
		await runSync(deps(excluded));
		// Deleted while excluded, and one kept.
		notes.files.delete(beta);
		const stored = JSON.stringify({ ...state, projects: undefined, proposed: undefined });
		expect(stored).not.toMatch(/quiet|Alpha|Beta|Gamma/i);
		expect(state.writtenBeforeExclusion).toHaveLength(3);
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped.sort()).toEqual([alpha, beta].sort());
		expect(notes.files.has(alpha)).toBe(false);
		expect(notes.files.has(beta)).toBe(false);
		expect(notes.files.get(gamma)).toContain("Gamma quiet task");
		expect(notes.files.get("AI Conversations/quiet/quiet.md")).not.toMatch(/Alpha|Beta/);
		// Used up: nothing of them is kept for later.
		expect(state.writtenBeforeExclusion).toBeUndefined();
		expect((await runSync(deps(settings()))).notesWritten).toEqual([]);
		// As any deleted note, a full rebuild writes them again.
		await runSync(deps(settings()), { rebuild: true });
		expect(notes.files.has(alpha)).toBe(true);
		expect(notes.files.has(beta)).toBe(true);
	});

	it("a folder that cannot be listed tells nothing of a note deleted in it; once it can be, the links and the index go past the note", async () => {
		const paths = ["Alpha", "Beta", "Gamma"].map((name, i) => session("/r/shop", `${name} task`, `2026-07-0${i + 1}T10:00:00.000Z`));
		await runSync(deps(settings()));
		const [alpha, beta, gamma] = paths.map((p) => state.sessions[p]!.notePath) as [string, string, string];
		notes.files.delete(beta);
		const list = notes.list.bind(notes);
		notes.list = (folder) => (folder === "AI Conversations/shop" ? Promise.reject(new Error("EACCES")) : list(folder));
		expect((await runSync(deps(settings()))).notesSkipped).toEqual([]);
		expect(notes.files.get(alpha)).toMatch(/Next: \[\[[^\]]*Beta/);
		notes.list = list;
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped).toEqual([beta]);
		expect(notes.files.has(beta)).toBe(false);
		expect(state.sessions[paths[1]!]!.deleted).toBe(true);
		await expectLinkedPastBeta(alpha, gamma);
	});

	it("a folder renamed with nothing of a project in it any more pins nothing there: no index is made in a folder where none was (attack round 49a)", async () => {
		session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		expect(notes.files.has("AI Conversations/shop/shop.md")).toBe(true);
		// The person deletes the project's folder, then renames the notes folder (its Bases file moves with it).
		for (const path of [...notes.files.keys()].filter((p) => p.startsWith("AI Conversations/shop/"))) notes.files.delete(path);
		for (const path of [...notes.files.keys()].filter((p) => p.startsWith("AI Conversations/"))) {
			notes.files.set(`Mine/inner/${path.slice("AI Conversations/".length)}`, notes.files.get(path)!);
			notes.files.delete(path);
		}
		await runSync(deps(settings()), { renames: [{ from: "AI Conversations", to: "Mine/inner" }] });
		expect([...notes.files.keys()].filter((p) => p.startsWith("Mine/inner/shop"))).toEqual([]);
		expect(state.projects["/r/shop"]?.indexPath).toBeUndefined();
		expect(state.projects["/r/shop"]?.notesPath).toBeUndefined();
		// Where something was carried, it is followed: the index moved with its folder.
		await runSync(deps(settings()), { rebuild: true });
		const index = "AI Conversations/shop/shop.md";
		expect(notes.files.has(index)).toBe(true);
		notes.files.set("Projects/shop/shop.md", notes.files.get(index)!);
		notes.files.delete(index);
		for (const path of [...notes.files.keys()].filter((p) => p.startsWith("AI Conversations/shop/"))) {
			notes.files.set(`Projects/shop/${path.slice("AI Conversations/shop/".length)}`, notes.files.get(path)!);
			notes.files.delete(path);
		}
		await runSync(deps(settings()), { renames: [{ from: "AI Conversations/shop", to: "Projects/shop" }] });
		expect(state.projects["/r/shop"]).toMatchObject({ indexPath: "Projects/shop/shop.md", notesPath: "Projects/shop" });
	});

	it("a folder deleted in the vault takes each note below it, and a note deleted and made again is kept", async () => {
		const paths = ["Alpha", "Beta", "Gamma", "Delta"].map((name, i) => session("/r/shop", `${name} task`, `2026-07-0${i + 1}T10:00:00.000Z`));
		const other = session("/r/cart", "Cart task", "2026-07-05T10:00:00.000Z");
		await runSync(deps(settings()));
		const [alpha, beta, gamma, delta] = paths.map((p) => state.sessions[p]!.notePath) as [string, string, string, string];
		// Gamma's note moved into a folder of the person's, followed there.
		notes.files.set("Old/gamma.md", notes.files.get(gamma)!);
		notes.files.delete(gamma);
		await runSync(deps(settings()), { renames: [{ from: gamma, to: "Old/gamma.md" }] });
		// Beta's note is deleted and made again at once (its text kept); the folder Gamma's note is in, deleted.
		const betaText = notes.files.get(beta)!;
		notes.files.delete(beta);
		notes.files.set(beta, betaText);
		notes.files.delete("Old/gamma.md");
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped).toEqual(["Old/gamma.md"]);
		expect(state.sessions[paths[1]!]!.deleted).toBeFalsy();
		expect(notes.files.get(beta)).toMatch(/Next: \[\[[^\]]*Delta/);
		expect(notes.files.get(delta)).toMatch(/Previous: \[\[[^\]]*Beta/);
		expect(notes.files.get(alpha)).toMatch(/Next: \[\[[^\]]*Beta/);
		// The other project's note is not below the folder: untouched.
		expect(state.sessions[other]!.deleted).toBeFalsy();
		expect(notes.files.has(state.sessions[other]!.notePath)).toBe(true);
	});

	it("a neighbour rendered to link past a deleted note, whose own note the user moved, is followed there: never taken for deleted", async () => {
		const paths = ["Alpha", "Beta", "Gamma"].map((name, i) => session("/r/shop", `${name} task`, `2026-07-0${i + 1}T10:00:00.000Z`));
		await runSync(deps(settings()));
		const [alpha, beta, gamma] = paths.map((p) => state.sessions[p]!.notePath) as [string, string, string];
		notes.files.delete(beta);
		notes.files.set("Archive/gamma.md", notes.files.get(gamma)!);
		notes.files.delete(gamma);
		transcripts.append(paths[1]!, jsonl([userText("One more beta step", { sessionId: state.sessions[paths[1]!]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-02T11:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped).toEqual([beta]);
		expect(state.sessions[paths[2]!]!.notePath).toBe("Archive/gamma.md");
		expect(state.sessions[paths[2]!]!.deleted).toBeFalsy();
		expect(notes.files.get(alpha)).toMatch(/Next: \[\[Archive\/gamma/);
		expect(notes.files.get("Archive/gamma.md")).toMatch(/Previous: \[\[[^\]]*Alpha/);
	});

	it("follows a session note moved while no plugin watched, by its session id: never taken for deleted", async () => {
		const path = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		session("/r/shop", "Beta task", "2026-07-02T10:00:00.000Z");
		await runSync(deps(settings()));
		const alpha = sessionNotesIn("shop").find((p) => p.includes("Alpha"))!;
		notes.files.set("Archive/alpha.md", notes.files.get(alpha)!);
		notes.files.delete(alpha);
		transcripts.append(path, jsonl([userText("Alpha follow-up", { sessionId: state.sessions[path]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-01T11:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.notesSkipped).toEqual([]);
		expect(notes.files.get("Archive/alpha.md")).toContain("Alpha follow-up");
		expect(notes.files.has(alpha)).toBe(false);
		expect(notes.files.get(sessionNotesIn("shop").find((p) => p.includes("Beta"))!)).toContain("[[Archive/alpha|");
		expect(notes.files.get("AI Conversations/shop/shop.md")).toContain("[[Archive/alpha|");
	});

	it("a rebuild follows a note moved while no sync looked: written where it is now, never a second note beside it (attack round 48b)", async () => {
		const path = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		session("/r/shop", "Beta task", "2026-07-02T10:00:00.000Z");
		await runSync(deps(settings()));
		const alpha = sessionNotesIn("shop").find((p) => p.includes("Alpha"))!;
		const id = state.sessions[path]!.digest.sessionId;
		notes.files.set("Archive/alpha.md", `${notes.files.get(alpha)!}\nMy own words.\n`);
		notes.files.delete(alpha);
		const report = await runSync(deps(settings()), { rebuild: true });
		expect(report.errors).toEqual([]);
		// It was taken for deleted, and written again at its old place: two notes for one session.
		expect(notes.files.has(alpha)).toBe(false);
		expect(notes.files.get("Archive/alpha.md")).toContain("My own words.");
		expect([...notes.files.keys()].filter((p) => notes.files.get(p)!.includes(`session_id: ${id}\n`))).toEqual(["Archive/alpha.md"]);
		expect(notes.files.get(sessionNotesIn("shop").find((p) => p.includes("Beta"))!)).toContain("[[Archive/alpha|");
		expect((await runSync(deps(settings()))).notesWritten).toEqual([]);
	});

	it("never takes a file-sync tool's conflict copy of a note for the session's moved note: the renamed note is followed, the copy left", async () => {
		const path = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		const alpha = sessionNotesIn("shop").find((p) => p.includes("Alpha"))!;
		// The other machine edited the note while this one renamed it: Dropbox kept both.
		const copy = alpha.replace(/\.md$/, " (conflicted copy 2026-07-03).md");
		const theirs = `${notes.files.get(alpha)!}Edited on the laptop.\n`;
		notes.files.set(copy, theirs);
		notes.files.set("AI Conversations/shop/Zeta alpha.md", notes.files.get(alpha)!);
		notes.files.delete(alpha);
		transcripts.append(path, jsonl([userText("Alpha follow-up", { sessionId: state.sessions[path]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-01T11:00:00.000Z" })]));
		await runSync(deps(settings()));
		expect(state.sessions[path]!.notePath).toBe("AI Conversations/shop/Zeta alpha.md");
		expect(notes.files.get("AI Conversations/shop/Zeta alpha.md")).toContain("Alpha follow-up");
		expect(notes.files.get(copy)).toBe(theirs);
		// Deleted then, with the copy alone left: the deletion stands, the copy is not written into.
		notes.files.delete("AI Conversations/shop/Zeta alpha.md");
		transcripts.append(path, jsonl([userText("Alpha second follow-up", { sessionId: state.sessions[path]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-01T12:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.notesSkipped).toEqual(["AI Conversations/shop/Zeta alpha.md"]);
		expect(notes.files.get(copy)).toBe(theirs);
	});

	it("names an iCloud placeholder of a transcript never read, and not one of a transcript read before (its note kept)", async () => {
		const read = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		const note = state.sessions[read]!.notePath;
		const before = notes.files.get(note);
		transcripts.purge(read);
		const other = "/claude/projects/-r-shop/bbbbbbbb-0000-4000-8000-000000000002.jsonl";
		transcripts.passed = [
			{ path: "/claude/projects/-r-shop/.evicted.icloud", reason: "kept in the cloud", standsFor: read },
			{ path: "/claude/projects/-r-shop/.never.icloud", reason: "kept in the cloud", standsFor: other },
		];
		const report = await runSync(deps(settings()));
		expect(report.notices.filter((n) => n.includes("kept in the cloud"))).toEqual(["/claude/projects/-r-shop/.never.icloud: kept in the cloud"]);
		expect(notes.files.get(note)).toBe(before);
	});

	it("never gives a session note the project index's path (a folder named `<day> <title>`): the index is written, later syncs succeed", async () => {
		const cwd = "/r/2026-07-01 Fix login";
		const first = session(cwd, "Fix login", "2026-07-01T10:00:00.000Z");
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		const index = "AI Conversations/2026-07-01 Fix login/2026-07-01 Fix login.md";
		expect(notes.files.get(index)).toContain("type: ai-project-index");
		expect(state.sessions[first]!.notePath).toBe("AI Conversations/2026-07-01 Fix login/2026-07-01 Fix login (2).md");
		session(cwd, "Add logout", "2026-07-02T10:00:00.000Z");
		transcripts.append(first, jsonl([userText("Also fix signup", { sessionId: state.sessions[first]!.digest.sessionId, cwd, timestamp: "2026-07-01T11:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(notes.files.get(index)).toContain("type: ai-project-index");
		expect(notes.files.get(state.sessions[first]!.notePath)).toContain("Also fix signup");
	});

	it("gives a new note no path that a note of the user's has on macOS or Windows: NFD as macOS writes it, or a final sigma", async () => {
		const cwd = "/r/shop";
		session(cwd, "First", "2026-07-01T09:00:00.000Z");
		await runSync(deps(settings()));
		const nfd = "AI Conversations/shop/2026-07-01 Cafe\u0301 notes.md";
		const sigma = "AI Conversations/shop/2026-07-01 ΟΔΟΣ.md";
		notes.files.set(nfd, "USER-NFD\n");
		notes.files.set(sigma, "USER-SIGMA\n");
		const cafe = session(cwd, "Caf\u00e9 notes", "2026-07-01T10:00:00.000Z");
		const greek = session(cwd, "οδος", "2026-07-01T11:00:00.000Z");
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(state.sessions[cafe]!.notePath).toBe("AI Conversations/shop/2026-07-01 Caf\u00e9 notes (2).md");
		expect(state.sessions[greek]!.notePath).toBe("AI Conversations/shop/2026-07-01 Οδος (2).md");
		expect(notes.files.get(nfd)).toBe("USER-NFD\n");
	});

	it("names no two projects' folders as one on macOS or Windows (a final sigma)", async () => {
		session("/r/ΟΔΟΣ", "One", "2026-07-01T09:00:00.000Z");
		session("/s/οδοσ", "Two", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		expect(state.projects["/s/οδοσ"]!.folder).toBe("οδοσ (s)");
	});

	it("never names a project's folder as the notes folder's Bases file (`AI Conversations.base`, in any case): the file stays writable", async () => {
		session("/r/ai conversations.BASE", "Fix login", "2026-07-01T10:00:00.000Z");
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(state.projects["/r/ai conversations.BASE"]!.folder).toBe("ai conversations.BASE (r)");
		expect(notes.files.get("AI Conversations/AI Conversations.base")).toBeDefined();
	});

	it("moves a session note that an older release put on the project index's path, with the user's text", async () => {
		const cwd = "/r/2026-07-01 Fix login";
		const first = session(cwd, "Fix login", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		// As an older release left it: the note on the index's path, no index.
		const index = "AI Conversations/2026-07-01 Fix login/2026-07-01 Fix login.md";
		const note = state.sessions[first]!.notePath;
		notes.files.set(index, `${notes.files.get(note)!}\nMy own line.\n`);
		notes.files.delete(note);
		state.sessions[first]!.notePath = index;
		transcripts.append(first, jsonl([userText("Also fix signup", { sessionId: state.sessions[first]!.digest.sessionId, cwd, timestamp: "2026-07-01T11:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.errors).toEqual([]);
		expect(state.sessions[first]!.notePath).toBe(note);
		expect(notes.files.get(note)).toContain("My own line.");
		expect(notes.files.get(note)).toContain("Also fix signup");
		expect(notes.files.get(index)).toContain("type: ai-project-index");
	});

	it("moves a note an older release named with an `@` after a blank (CLAUDE.md named it by a path no file has); one the user named so stays", async () => {
		const ours = session("/r/shop", "Review @src/auth.ts for races", "2026-07-01T10:00:00.000Z");
		const theirs = session("/r/shop", "Tidy the scripts", "2026-07-02T10:00:00.000Z");
		await runSync(deps(settings()));
		const now = state.sessions[ours]!.notePath;
		expect(now).toBe("AI Conversations/shop/2026-07-01 Review ＠src∕auth.ts for races.md");
		// As an older release named it, and a name the user chose.
		const old = "AI Conversations/shop/2026-07-01 Review @src∕auth.ts for races.md";
		const mine = "AI Conversations/shop/ask @kim about scripts.md";
		notes.files.set(old, `${notes.files.get(now)!}\nMy own line.\n`);
		notes.files.delete(now);
		state.sessions[ours]!.notePath = old;
		notes.files.set(mine, notes.files.get(state.sessions[theirs]!.notePath)!);
		notes.files.delete(state.sessions[theirs]!.notePath);
		state.sessions[theirs]!.notePath = mine;
		for (const [file, prompt] of [[ours, "Also the logout"], [theirs, "And the linter"]] as const) transcripts.append(file, jsonl([userText(prompt, { sessionId: state.sessions[file]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-03T11:00:00.000Z" })]));
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(state.sessions[ours]!.notePath).toBe(now);
		expect(notes.files.get(now)).toContain("My own line.");
		expect(notes.files.has(old)).toBe(false);
		expect(state.sessions[theirs]!.notePath).toBe(mine);
	});

	it("never writes into a file of the user's where a new session's note or a new project's index would go: they go beside it, and the file stays byte for byte", async () => {
		const alpha = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		const note = state.sessions[alpha]!.notePath;
		const indexNote = "AI Conversations/shop/shop.md";
		expect(notes.files.has(indexNote)).toBe(true);
		// The same session, synced into a vault where the user wrote notes of those names first.
		notes = new MemoryNotes();
		state = emptySyncState();
		index = new TranscriptIndex(transcripts);
		const mine = new Map([
			[note, "My own note, named like the session.\n"],
			[indexNote, "MY OWN INDEX\n"],
			[note.replace(/\.md$/, " (2).md"), `---\nsession_id: someone-else\n---\n%% AI Conversation Memory: generated from here %%\nnot this one\n`],
		]);
		for (const [path, text] of mine) notes.files.set(path, text);
		for (let run = 0; run < 2; run++) {
			const report = await runSync(deps(settings()));
			expect(report.errors).toEqual([]);
			expect(report.notices).toEqual([]);
			for (const [path, text] of mine) expect(notes.files.get(path)).toBe(text);
			expect(state.sessions[alpha]!.notePath).toBe(note.replace(/\.md$/, " (3).md"));
			expect(notes.files.get(state.sessions[alpha]!.notePath)).toContain("Alpha task");
			expect(state.projects["/r/shop"]!.indexPath).toBe("AI Conversations/shop/shop (2).md");
			expect(notes.files.get("AI Conversations/shop/shop (2).md")).toContain("[[AI Conversations/shop/2026-07-01 Alpha task (3)|Alpha task]]");
			expect(notes.files.get(state.sessions[alpha]!.notePath)).toContain("AI Conversations/shop/shop (2)");
		}
	});

	it("a note and an index a killed sync wrote for a new session and project, on their paths, are still taken for theirs", async () => {
		const alpha = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings()));
		const note = state.sessions[alpha]!.notePath;
		const written = notes.files.get(note)!;
		// The state was never stored: only the note is there.
		state = emptySyncState();
		index = new TranscriptIndex(transcripts);
		notes.files.set(note, `${written}My line.\n`);
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(state.sessions[alpha]!.notePath).toBe(note);
		expect(notes.files.get(note)).toContain("My line.");
		// Its project's index, which its properties say is one, is the index still.
		expect(state.projects["/r/shop"]!.indexPath).toBeUndefined();
		expect([...notes.files.keys()].filter((p) => p.includes("(2)"))).toEqual([]);
	});

	it("never takes a note of the user's that names a session in its properties (no generated region) for that session's moved note", async () => {
		session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		const beta = session("/r/shop", "Beta task", "2026-07-02T10:00:00.000Z");
		await runSync(deps(settings()));
		const note = state.sessions[beta]!.notePath;
		const id = state.sessions[beta]!.digest.sessionId;
		notes.files.set("Archive/Review.md", `---\nsession_id: ${id}\nrating: 4\n---\nMy review of the beta work.\n`);
		notes.files.set("Work/Beta.md", notes.files.get(note)!);
		notes.files.delete(note);
		transcripts.append(beta, jsonl([userText("Beta follow-up", { sessionId: id, cwd: "/r/shop", timestamp: "2026-07-02T11:00:00.000Z" })]));
		expect((await runSync(deps(settings()))).errors).toEqual([]);
		expect(state.sessions[beta]!.notePath).toBe("Work/Beta.md");
		expect(notes.files.get("Work/Beta.md")).toContain("Beta follow-up");
		expect(notes.files.get("Archive/Review.md")).toBe(`---\nsession_id: ${id}\nrating: 4\n---\nMy review of the beta work.\n`);
	});

	it("follows a project folder renamed while no plugin watched: every note in it, the index too, none taken for deleted", async () => {
		const alpha = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		const beta = session("/r/shop", "Beta task", "2026-07-02T10:00:00.000Z");
		await runSync(deps(settings()));
		for (const [path, text] of [...notes.files]) {
			if (!path.startsWith("AI Conversations/shop/")) continue;
			notes.files.set(path.replace("AI Conversations/shop/", "AI Conversations/shop renamed/"), text);
			notes.files.delete(path);
		}
		const grow = (path: string, prompt: string, at: string) => transcripts.append(path, jsonl([userText(prompt, { sessionId: state.sessions[path]!.digest.sessionId, cwd: "/r/shop", timestamp: at })]));
		grow(alpha, "Alpha follow-up", "2026-07-01T11:00:00.000Z");
		const report = await runSync(deps(settings()));
		expect(report.notesSkipped).toEqual([]);
		grow(beta, "Beta follow-up", "2026-07-02T11:00:00.000Z");
		expect((await runSync(deps(settings()))).notesSkipped).toEqual([]);
		expect([...notes.files.keys()].filter((p) => p.startsWith("AI Conversations/shop/"))).toEqual([]);
		expect(notes.files.get(state.sessions[alpha]!.notePath)).toContain("Alpha follow-up");
		expect(notes.files.get(state.sessions[beta]!.notePath)).toContain("Beta follow-up");
		expect(state.sessions[beta]!.notePath.startsWith("AI Conversations/shop renamed/")).toBe(true);
		const index = notes.files.get("AI Conversations/shop renamed/shop.md")!;
		expect(index).toContain("Alpha task");
		expect(index).toContain("Beta task");
	});

	it("follows a note renamed in its folder while no plugin watched when a neighbour changes: the neighbour's link and the index name the new name", async () => {
		session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		const beta = session("/r/shop", "Beta task", "2026-07-02T10:00:00.000Z");
		await runSync(deps(settings()));
		const alpha = sessionNotesIn("shop").find((p) => p.includes("Alpha"))!;
		notes.files.set("AI Conversations/shop/My alpha.md", notes.files.get(alpha)!);
		notes.files.delete(alpha);
		transcripts.append(beta, jsonl([userText("Beta follow-up", { sessionId: state.sessions[beta]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-02T11:00:00.000Z" })]));
		const report = await runSync(deps(settings()));
		expect(report.notesSkipped).toEqual([]);
		expect(notes.files.get(state.sessions[beta]!.notePath)).toContain("[[AI Conversations/shop/My alpha|");
		expect(notes.files.get("AI Conversations/shop/shop.md")).toContain("[[AI Conversations/shop/My alpha|");
		expect(notes.files.has(alpha)).toBe(false);
	});

	it("names two sessions with one title by start time, whatever order their files were read in", async () => {
		session("/r/shop", "Fix the build", "2026-07-01T09:00:00.000Z");
		// The later one is bigger: the index reads biggest first.
		const later = session("/r/shop", "Fix the build", "2026-07-01T15:00:00.000Z");
		transcripts.append(later, jsonl([assistant(text("x".repeat(5_000)), { cwd: "/r/shop", timestamp: "2026-07-01T15:01:00.000Z", messageId: "msg_long" })]));
		await runSync(deps(settings()));
		const name = (path: string) => state.sessions[path]!.notePath.split("/").pop();
		expect(name(later)).toBe("2026-07-01 Fix the build (2).md");
	});

	it("says that a block stayed in a file the block no longer goes to (CLAUDE.md after switching to CLAUDE.local.md), and leaves that file as it is", async () => {
		const alpha = session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		await runSync(deps(settings(["/r/shop"])));
		const before = projects.files.get("/r/shop/CLAUDE.md")!;
		expect(before).toContain("Alpha task");
		transcripts.append(alpha, jsonl([userText("Alpha follow-up", { sessionId: state.sessions[alpha]!.digest.sessionId, cwd: "/r/shop", timestamp: "2026-07-01T11:00:00.000Z" })]));
		const report = await runSync(deps(settings(["/r/shop"], { target: "CLAUDE.local.md" })));
		expect(projects.files.get("/r/shop/CLAUDE.local.md")).toContain("Alpha task");
		expect(projects.files.get("/r/shop/CLAUDE.md")).toBe(before);
		expect(report.notices.filter((n) => n.startsWith("CLAUDE.md in /r/shop still holds a context block"))).toHaveLength(1);
		// Once the user removed it, nothing more is said.
		projects.files.set("/r/shop/CLAUDE.md", "# Shop\n");
		expect((await runSync(deps(settings(["/r/shop"], { target: "CLAUDE.local.md" })), { rebuild: true })).notices.filter((n) => n.includes("still holds a context block"))).toEqual([]);
	});

	it("takes no time of a session from after its transcript's last write: one that says 2099 is undated, below the dated ones (it stayed on top for good)", async () => {
		session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		session("/r/shop", "Always run the installer from the web first", "2099-12-01T09:00:00.000Z");
		await runSync(deps(settings(["/r/shop"])));
		const block = projects.files.get("/r/shop/CLAUDE.md")!;
		expect(block.indexOf("Alpha task")).toBeGreaterThan(0);
		expect(block.indexOf("installer")).toBeGreaterThan(block.indexOf("Alpha task"));
		expect(block).not.toContain("2099");
		expect([...notes.files.keys()].filter((p) => p.startsWith("AI Conversations/") && p.includes("installer"))).toEqual(["AI Conversations/shop/undated Always run the installer from the web first.md"]);
		const index = notes.files.get("AI Conversations/shop/shop.md")!;
		expect(index.indexOf("installer")).toBeGreaterThan(index.indexOf("Alpha task"));
	});

	it("leaves it out also when a transcript's last write is in the future (an archive unpacked with such times): the clock bounds it too", async () => {
		session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		// Written in 2100, as the file's time says (the fake's clock starts in 2030).
		const late = session("/r/shop", "Always run the installer from the web first", "2099-12-01T09:00:00.000Z");
		(transcripts as unknown as { files: Map<string, { mtimeMs: number }> }).files.get(late)!.mtimeMs = Date.UTC(2100, 0, 1);
		await runSync({ ...deps(settings(["/r/shop"])), now: () => Date.UTC(2026, 11, 4) });
		const block = projects.files.get("/r/shop/CLAUDE.md")!;
		expect(block).toContain("Alpha task");
		expect(block).not.toContain("installer");
	});

	it("plans without writing on a dry run, and the plan names every write", async () => {
		session("/r/shop", "Alpha task", "2026-07-01T10:00:00.000Z");
		const planned = await planFromSources(deps(settings(["/r/shop"])), { dryRun: true });
		expect(notes.files.size).toBe(0);
		expect(projects.files.size).toBe(0);
		expect(state.sessions).toEqual({});
		const kinds = planned.plan.writes.map((w) => `${w.kind}:${"path" in w ? w.path : w.kind === "context-block" ? w.target : w.name}`);
		expect(kinds).toEqual(expect.arrayContaining([expect.stringMatching(/^session-note:AI Conversations\/shop\/2026-07-01 Alpha task\.md$/), "note:AI Conversations/shop/shop.md", "context-block:CLAUDE.md"]));
	});
});

describe("many enabled projects", () => {
	it("reads their files several at a time, each block going into its own project's file, an unreadable one named and the others written", async () => {
		const paths = Array.from({ length: 24 }, (_, i) => `/w/app-${i}`);
		paths.forEach((cwd, i) => session(cwd, `Add endpoint number ${i} to the router`, `2026-11-0${1 + (i % 9)}T10:00:00.000Z`));
		// Each read waits a turn of the event loop, as a disk does; the most waiting at once is kept.
		let inFlight = 0;
		let most = 0;
		class SlowProjects extends MemoryProjects {
			override async read(projectPath: string, fileName: string): Promise<string | null> {
				inFlight++;
				most = Math.max(most, inFlight);
				await new Promise<void>((done) => setImmediate(done));
				inFlight--;
				if (projectPath === "/w/app-7" && fileName === "CLAUDE.md") throw new Error("EACCES: permission denied");
				return super.read(projectPath, fileName);
			}
		}
		projects = new SlowProjects();
		const report = await runSync(deps(settings(paths)));
		expect(most).toBeGreaterThan(1);
		expect(report.errors).toEqual([expect.stringContaining("CLAUDE.md in /w/app-7: EACCES")]);
		paths.forEach((path, i) => {
			const block = projects.files.get(`${path}/CLAUDE.md`);
			if (i === 7) expect(block).toBeUndefined();
			else expect(block).toContain(`Add endpoint number ${i} to the router`);
		});
	});
});

describe("a session's day", () => {
	const zone = process.env.TZ;
	const inZone = async <T>(tz: string, run: () => Promise<T>): Promise<T> => {
		process.env.TZ = tz;
		try {
			return await run();
		} finally {
			process.env.TZ = zone;
		}
	};

	it("is the local day in the note's name, the index and the context block, as in the note's `started`", async () => {
		// 02:40 UTC on the 1st is 21:40 on November 30 in New York: the note said `started: 2026-11-30T21:40` under a name of December 1.
		const path = session("/r/late", "Port the importer to streams", "2026-12-01T02:40:00.000Z");
		await inZone("America/New_York", () => runSync(deps(settings(["/r/late"]))));
		const notePath = state.sessions[path]!.notePath;
		expect(notePath).toBe("AI Conversations/late/2026-11-30 Port the importer to streams.md");
		expect(notes.files.get(notePath)).toContain("started: 2026-11-30T21:40");
		expect(notes.files.get("AI Conversations/late/late.md")).toContain("## 2026-11-30\n");
		expect(projects.files.get("/r/late/CLAUDE.md")).toContain("2026-11-30 — Port the importer to streams");
		expect(projects.files.get("/r/late/CLAUDE.md")).not.toContain("2026-12-01");
	});

	it("leaves a note an earlier release named after the UTC day where it is", async () => {
		const path = session("/r/late", "Port the importer to streams", "2026-12-01T02:40:00.000Z");
		await runSync(deps(settings()));
		const notePath = state.sessions[path]!.notePath;
		expect(notePath).toBe("AI Conversations/late/2026-12-01 Port the importer to streams.md");
		transcripts.append(path, jsonl([userText("And the exporter too", { sessionId: "x", cwd: "/r/late", timestamp: "2026-12-01T02:50:00.000Z" })]));
		await inZone("America/New_York", () => runSync(deps(settings())));
		expect(state.sessions[path]!.notePath).toBe(notePath);
		expect([...notes.files.keys()].filter((p) => p.includes("Port the importer"))).toEqual([notePath]);
		expect(notes.files.get(notePath)).toContain("And the exporter too");
	});
});

describe("a resume an older client copied into a new file", () => {
	it("the copy's note, synced before its original's transcript appeared, takes its own turn, title and day; the block tells the earlier ask once", async () => {
		const cwd = "/r/depot";
		const [a, b] = ["0000000a-cccc-4000-8000-00000000000a", "0000000b-cccc-4000-8000-00000000000b"];
		const line = (sessionId: string, n: number, timestamp: string) => ({ sessionId, cwd, timestamp, uuid: `0000000c-0000-4000-8000-${String(n).padStart(12, "0")}` });
		const earlier = (sessionId: string) => [userText("Split the depot loader into stages", line(sessionId, 1, "2026-11-10T08:00:00.000Z")), assistant(text("Split it in three."), { ...line(sessionId, 2, "2026-11-10T08:03:00.000Z"), messageId: "msg_d1" })];
		const copy = transcripts.put("-r-depot", b, jsonl([...earlier(b), userText("Give each stage a timeout", line(b, 9, "2026-11-12T16:00:00.000Z")), assistant(text("Each stage has one now."), { ...line(b, 10, "2026-11-12T16:02:00.000Z"), messageId: "msg_d2" })]));
		await runSync(deps(settings([cwd])));
		expect(state.sessions[copy]!.notePath).toContain("Split the depot loader");
		const original = transcripts.put("-r-depot", a, jsonl(earlier(a)));
		const report = await runSync(deps(settings([cwd])));
		expect(report.errors).toEqual([]);
		expect(state.sessions[copy]!.notePath).toBe("AI Conversations/depot/2026-11-12 Give each stage a timeout.md");
		const note = notes.files.get(state.sessions[copy]!.notePath)!;
		expect(note).toContain("prompts: 1\n");
		expect(note.replace(/\[\[[^\]]*\]\]/g, "")).not.toContain("Split the depot loader");
		expect(notes.files.get(state.sessions[original]!.notePath)).toContain("prompts: 1\n");
		const block = projects.files.get(`${cwd}/CLAUDE.md`)!;
		expect(block.match(/^### .*Split the depot loader/gm)).toHaveLength(1);
		expect(block.match(/^### .*Give each stage a timeout/gm)).toHaveLength(1);
		expect(sessionNotesIn("depot")).toHaveLength(2);
	});
});

describe("a redaction changed since the last sync", () => {
	it("writes every session's note, name and index again under today's patterns, though no transcript changed", async () => {
		// The index redacts with the settings of each sync, as the plugin's and the CLI's do.
		let current = settings();
		index = new TranscriptIndex(transcripts, undefined, () => redactionSpec(current));
		session("/w/shop", "Ship ORDERX-4412 to the staging cluster", "2026-05-01T10:00:00.000Z");
		expect((await runSync(deps(current))).errors).toEqual([]);
		expect([...notes.files.keys()].some((p) => p.includes("ORDERX-4412"))).toBe(true);
		const stricter = { ...settings(), redaction: { enabled: true, extraPatterns: ["ORDERX-[0-9]{4}"] } };
		current = stricter;
		expect((await runSync(deps(stricter))).errors).toEqual([]);
		const everything = [...notes.files].map(([path, body]) => `${path}\n${body}`).join("\n");
		expect(everything).not.toContain("ORDERX-4412");
		expect(JSON.stringify(state)).not.toContain("ORDERX-4412");
		// Once written under it, the same redaction plans nothing again.
		const before = new Map(notes.files);
		await runSync(deps(stricter));
		expect(notes.files).toEqual(before);
	});
});
