import { appendFile, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NOTE_MARKERS } from "../../src/core/notes/note-regions";
import { DEFAULT_PROJECT, migrateSettings, type Settings } from "../../src/core/settings";
import { writeCheckpoint } from "../../src/node/checkpoints";
import { hookContextPath } from "../../src/node/plugin-paths";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";
import { assistant, jsonl, resetIds, text, toolResult, toolUse, userText } from "../fixtures/lines";

const A = "aaaaaaaa-1111-4000-8000-000000000001";
const B = "bbbbbbbb-2222-4000-8000-000000000002";
const C = "cccccccc-3333-4000-8000-000000000003";
let root: string;
let projects: string;
let projectPath: string;
let notes: MemoryNotes;

function session(id: string, prompt: string, answer: string, at: string, extra: unknown[] = []): string {
	return jsonl([userText(prompt, { sessionId: id, cwd: projectPath, timestamp: at }), assistant(text(answer), { sessionId: id, cwd: projectPath, timestamp: at, messageId: `msg_${id}` }), ...extra]);
}

function settings(extra: Partial<Settings> = {}): Settings {
	return { ...migrateSettings({}).settings, projects: [{ path: projectPath, ...DEFAULT_PROJECT }], ...extra };
}

function newSync(): VaultSync {
	return new VaultSync(projects, join(root, "state"), notes);
}

const transcript = (id: string) => join(projects, "-home-dev-shop-api", `${id}.jsonl`);
const noteOf = (prefix: string) => [...notes.files.keys()].find((k) => k.includes(prefix))!;

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "vault-sync-"));
	projects = join(root, "claude", "projects");
	projectPath = join(root, "shop-api");
	await mkdir(join(projects, "-home-dev-shop-api"), { recursive: true });
	await mkdir(projectPath);
	await writeFile(join(projectPath, "CLAUDE.md"), "# Shop API\r\n\r\nHand-written rules.  \r\n");
	await writeFile(transcript(A), session(A, "Add a health endpoint", "Added GET /health.", "2026-11-20T10:00:00.000Z"));
	await writeFile(transcript(B), session(B, "Fix the cart total", "Fixed the total; quantity counts now.", "2026-11-21T10:00:00.000Z"));
	notes = new MemoryNotes();
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("VaultSync", () => {
	it("makes the state's files readable and writable by the user alone, its folders too, whatever the umask gives (they hold conversation text and the hooks' context)", async () => {
		await newSync().run(settings());
		await writeCheckpoint(join(root, "state"), A, { text: "where we left off" });
		const modes: string[] = [];
		const walk = async (path: string): Promise<void> => {
			const info = await lstat(path);
			modes.push(`${info.isDirectory() ? "folder" : "file"} ${(info.mode & 0o777).toString(8)}`);
			if (info.isDirectory()) for (const name of await readdir(path)) await walk(join(path, name));
		};
		await walk(join(root, "state"));
		expect(modes.length).toBeGreaterThan(6);
		expect(new Set(modes)).toEqual(new Set(["folder 700", "file 600"]));
		expect((await stat(join(root, "state"))).mode & 0o777).toBe(0o700);
	});

	it("a Claude Code folder moved elsewhere (another CLAUDE_CONFIG_DIR, a new home) keeps every note: none is written a second time, and the next turn lands in the same note", async () => {
		await newSync().run(settings());
		const before = [...notes.files.keys()].sort();
		const moved = join(root, "elsewhere", "projects");
		await mkdir(join(root, "elsewhere"));
		await rename(projects, moved);
		const report = await new VaultSync(moved, join(root, "state"), notes).run(settings());
		expect(report.errors).toEqual([]);
		expect([...notes.files.keys()].sort()).toEqual(before);
		expect(report.notices.some((n) => n.startsWith("2 transcripts were found in a new place"))).toBe(true);
		await appendFile(join(moved, "-home-dev-shop-api", `${A}.jsonl`), session(A, "Also add a readiness probe", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		await new VaultSync(moved, join(root, "state"), notes).run(settings());
		expect([...notes.files.keys()].sort()).toEqual(before);
		expect(notes.files.get(noteOf("2026-11-20"))).toContain("Also add a readiness probe");
		// Rebuilt from what is stored: still one note a session.
		await new VaultSync(moved, join(root, "state"), notes).run(settings(), { rebuild: true });
		expect([...notes.files.keys()].sort()).toEqual(before);
	});

	it("keeps a tag a person added to a project's index note when the index is written again", async () => {
		await newSync().run(settings());
		const index = "AI Conversations/shop-api/shop-api.md";
		notes.files.set(index, notes.files.get(index)!.replace("tags:\n", "tags:\n  - work/clients\n"));
		await writeFile(transcript(C), session(C, "Add a coupon field", "Added the coupon field.", "2026-11-22T10:00:00.000Z"));
		const report = await newSync().run(settings());
		expect(report.errors).toEqual([]);
		expect(notes.files.get(index)).toContain("Add a coupon field");
		expect(notes.files.get(index)).toMatch(/\ntags:\n {2}- ai\/project-index\n {2}- work\/clients\n/);
	});

	it("a CLI sync follows a rename the plugin heard before Obsidian quit, that no sync took: the index is not written again at its old place", async () => {
		await newSync().run(settings());
		const index = "AI Conversations/shop-api/shop-api.md";
		const renamed = "AI Conversations/shop-api/Shop API sessions.md";
		notes.files.set(renamed, notes.files.get(index)!);
		notes.files.delete(index);
		await writeFile(join(root, "state", "renames.json"), JSON.stringify([{ from: index, to: renamed }]));
		await writeFile(transcript(C), session(C, "Add a coupon field", "Added the coupon field.", "2026-11-22T10:00:00.000Z"));
		const report = await newSync().run(settings());
		expect(report.errors).toEqual([]);
		expect(notes.files.has(index)).toBe(false);
		expect(notes.files.get(renamed)).toContain("Add a coupon field");
	});

	it("of a transcript of one line it could not read, says so in words that make a sentence", async () => {
		await writeFile(transcript(C), Buffer.from([0xff, 0xfe, 0x7b, 0x0a]));
		const report = await newSync().run(settings());
		expect(report.notices).toEqual([`${transcript(C)}: its one line could not be read, so it has no note (line 1: invalid UTF-8)`]);
	});

	it("says which transcript it could read no line of (UTF-16 text), which therefore has no note", async () => {
		await writeFile(transcript(C), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(session(C, "Sixteen bits", "Read.", "2026-11-22T10:00:00.000Z"), "utf16le")]));
		const report = await newSync().run(settings());
		expect(report.errors).toEqual([]);
		expect(report.notices).toEqual([`${transcript(C)}: none of its 2 lines could be read, so it has no note (line 1: invalid UTF-8)`]);
		expect(noteOf("Sixteen")).toBeUndefined();
	});

	it("says which entries of Claude Code's folder it did not read, a link out of it among them, and reads nothing through them", async () => {
		const outside = join(root, "outside.jsonl");
		await writeFile(outside, session(C, "The secret plan", "Outside the agent's folder.", "2026-11-22T10:00:00.000Z"));
		await symlink(outside, transcript(C));
		const report = await newSync().run(settings());
		expect(report.errors).toEqual([]);
		expect(report.notices).toEqual([`${transcript(C)}: not read: a link (transcripts are read where the agent writes them, never through a link)`]);
		expect([...notes.files.values()].some((t) => t.includes("secret plan"))).toBe(false);
	});

	it("puts a nested notes folder's base in it, named for its last part (it went in a copy of the folder's path inside it)", async () => {
		expect((await newSync().run(settings({ notesFolder: "Work/AI notes" }))).errors).toEqual([]);
		expect([...notes.files.keys()].filter((k) => k.endsWith(".base"))).toEqual(["Work/AI notes/AI notes.base"]);
	});

	it("writes a note per session, the project index, the base and the CLAUDE.md block; then nothing", async () => {
		const first = await newSync().run(settings());
		expect(first.errors).toEqual([]);
		expect([...notes.files.keys()].sort()).toEqual([
			"AI Conversations/AI Conversations.base",
			"AI Conversations/shop-api/2026-11-20 Add a health endpoint.md",
			"AI Conversations/shop-api/2026-11-21 Fix the cart total.md",
			"AI Conversations/shop-api/shop-api.md",
		]);
		expect(first.contextWritten).toEqual([`${projectPath}/CLAUDE.md`]);
		const claudeMd = await readFile(join(projectPath, "CLAUDE.md"), "utf8");
		expect(claudeMd.startsWith("# Shop API\r\n\r\nHand-written rules.  \r\n\r\n<!-- AUTO-CONTEXT:BEGIN -->\r\n")).toBe(true);

		const writes = notes.writes;
		const again = await newSync().run(settings()); // a new process: state from disk
		expect(again).toMatchObject({ transcriptsRead: 0, notesWritten: [], contextWritten: [], errors: [] });
		expect(notes.writes).toBe(writes);
	});

	it("writes a sub-agent whose session's transcript is not there as a note of its own, and follows it as it grows", async () => {
		const dir = join(projects, "-home-dev-shop-api", C, "subagents");
		await mkdir(dir, { recursive: true });
		const agent = join(dir, "agent-a42.jsonl");
		const line = (prompt: string, answer: string, at: string) => jsonl([userText(prompt, { sessionId: C, cwd: projectPath, timestamp: at, isSidechain: true, agentId: "a42" }), assistant(text(answer), { sessionId: C, cwd: projectPath, timestamp: at, isSidechain: true, agentId: "a42", messageId: `msg_${at}` })]);
		await writeFile(agent, line("Review the checkout module", "The checkout module double-counts tax.", "2026-11-22T10:00:00.000Z"));
		const first = await newSync().run(settings());
		expect(first.errors).toEqual([]);
		const note = noteOf("Review the checkout module");
		expect(note).toBe("AI Conversations/shop-api/2026-11-22 Review the checkout module.md");
		await appendFile(agent, line("And the refunds", "Refunds round down.", "2026-11-22T10:05:00.000Z"));
		const second = await newSync().run(settings());
		expect(second.notesWritten).toEqual([note]);
		expect(notes.files.get(note)).toContain("And the refunds");
	});

	describe("a sub-agent read before its session's transcript", () => {
		const X = "dddddddd-4444-4000-8000-000000000004";
		const D = "eeeeeeee-5555-4000-8000-000000000005";
		const sub = "2026-11-22 Review the checkout module.md";
		// C calls a sub-agent at 10:00 that works until 12:00; X starts between, D the next day.
		const arrive = async () => {
			await writeFile(transcript(X), session(X, "Tidy the logs", "Tidied.", "2026-11-22T11:00:00.000Z"));
			await writeFile(transcript(D), session(D, "Add a coupon field", "Added.", "2026-11-23T10:00:00.000Z"));
			const dir = join(projects, "-home-dev-shop-api", C, "subagents");
			await mkdir(dir, { recursive: true });
			const on = { sessionId: C, cwd: projectPath, isSidechain: true, agentId: "a42" };
			await writeFile(join(dir, "agent-a42.jsonl"), jsonl([userText("Review the checkout module", { ...on, timestamp: "2026-11-22T12:00:00.000Z" }), assistant(text("The checkout module double-counts tax."), { ...on, timestamp: "2026-11-22T12:00:01.000Z", messageId: "msg_a42" })]));
		};
		const parent = () =>
			writeFile(
				transcript(C),
				session(C, "Fix the tax in checkout", "Fixed: tax counted once.", "2026-11-22T10:00:00.000Z", [
					assistant(toolUse("toolu_R", "Agent", { description: "Review", prompt: "Review the checkout module", subagent_type: "Explore" }), { sessionId: C, cwd: projectPath, timestamp: "2026-11-22T10:00:02.000Z", messageId: "msg_call" }),
					toolResult("toolu_R", "double-counts tax", { sessionId: C, cwd: projectPath, timestamp: "2026-11-22T12:00:02.000Z", toolUseResult: { status: "completed", agentId: "a42" } }),
				]),
			);
		const index = () => notes.files.get("AI Conversations/shop-api/shop-api.md")!;

		it("is in its session's note once that arrives: its own note goes when all of it is the sync's, its neighbours link past it", async () => {
			await arrive();
			await newSync().run(settings());
			const own = `AI Conversations/shop-api/${sub}`;
			expect(notes.files.has(own)).toBe(true);
			expect(notes.files.get(noteOf("Add a coupon field"))).toContain(`Previous: [[AI Conversations/shop-api/${sub.slice(0, -3)}|`);
			await parent();
			const report = await newSync().run(settings());
			expect(report.errors).toEqual([]);
			expect(notes.files.has(own)).toBe(false);
			expect(report.notices).toEqual([expect.stringMatching(/^AI Conversations\/shop-api\/2026-11-22 Review the checkout module\.md: a sub-agent's note, .* so this note went to the trash$/)]);
			expect(notes.files.get(noteOf("Fix the tax in checkout"))).toContain("double-counts tax");
			expect(index()).toContain("sessions: 5");
			expect(index()).not.toContain("Review the checkout module");
			// Its neighbour the next day was no neighbour of its session's: rendered all the same, to link past it.
			expect(notes.files.get(noteOf("Add a coupon field"))).toContain("Previous: [[AI Conversations/shop-api/2026-11-22 Tidy the logs|Tidy the logs]]");
			const again = await newSync().run(settings());
			expect(again.notesWritten).toEqual([]);
		});

		it("keeps its own note when the user wrote in it, and says so; the sync no longer counts or updates it", async () => {
			await arrive();
			await newSync().run(settings());
			const own = `AI Conversations/shop-api/${sub}`;
			const mine = `${notes.files.get(own)!}\nTax rules: see the wiki.\n`;
			notes.files.set(own, mine);
			await parent();
			const report = await newSync().run(settings());
			expect(report.errors).toEqual([]);
			expect(notes.files.get(own)).toBe(mine);
			expect(report.notices).toEqual([expect.stringMatching(/: a sub-agent's note, .*; this note holds text of yours, so it stays, no longer updated$/)]);
			expect(index()).toContain("sessions: 5");
		});
	});

	it("links sessions to the index and to each other, and relinks when a session arrives", async () => {
		const sync = newSync();
		await sync.run(settings());
		const second = () => notes.files.get(noteOf("Fix the cart total"))!;
		expect(second()).toContain("Project: [[AI Conversations/shop-api/shop-api|shop-api]]");
		expect(second()).toContain("Previous: [[AI Conversations/shop-api/2026-11-20 Add a health endpoint|Add a health endpoint]]");
		expect(second()).not.toContain("Next:");
		await writeFile(transcript(C), session(C, "Add pagination", "Done.", "2026-11-22T10:00:00.000Z"));
		const r = await sync.run(settings());
		expect(r.notesWritten).toContain(noteOf("Fix the cart total"));
		expect(second()).toContain("Next: [[AI Conversations/shop-api/2026-11-22 Add pagination|Add pagination]]");
		const index = notes.files.get("AI Conversations/shop-api/shop-api.md")!;
		expect(index.indexOf("Add pagination")).toBeLessThan(index.indexOf("Fix the cart total"));
	});

	it("sync-state.json lost while the rest of the state stays is a first sync over the vault: every session in the index and the block, each note kept with its user text", async () => {
		await writeFile(transcript(C), session(C, "Add pagination", "Done.", "2026-11-22T10:00:00.000Z"));
		// A new process each time (the CLI), then one that lives on (the plugin) and read the transcripts before.
		for (const longLived of [false, true]) {
			const first = newSync();
			await first.run(settings());
			const mine = "\nMY OWN TEXT\n";
			const paths = [...notes.files.keys()].filter((k) => /\d{4}-\d\d-\d\d /.test(k));
			expect(paths).toHaveLength(3);
			for (const path of paths) notes.files.set(path, notes.files.get(path)! + mine);
			await rm(join(root, "state", "sync-state.json"));
			await appendFile(transcript(B), jsonl([userText(`And the tax ${paths.length}`, { sessionId: B, cwd: projectPath, timestamp: "2026-11-21T10:05:00.000Z" })]));
			expect((await (longLived ? first : newSync()).run(settings())).errors).toEqual([]);
			expect([...notes.files.keys()].filter((k) => /\d{4}-\d\d-\d\d /.test(k)).sort()).toEqual(paths.sort());
			for (const path of paths) expect(notes.files.get(path)!.endsWith(mine)).toBe(true);
			expect(notes.files.get(noteOf("Fix the cart total"))).toContain("And the tax");
			expect(notes.files.get(noteOf("Fix the cart total"))).toContain("Next: [[AI Conversations/shop-api/2026-11-22 Add pagination|Add pagination]]");
			const index = notes.files.get("AI Conversations/shop-api/shop-api.md")!;
			for (const title of ["Add a health endpoint", "Fix the cart total", "Add pagination"]) expect(index).toContain(title);
			const block = await readFile(join(projectPath, "CLAUDE.md"), "utf8");
			for (const title of ["Add a health endpoint", "Fix the cart total", "Add pagination"]) expect(block).toContain(title);
			await rm(join(root, "state"), { recursive: true });
			notes = new MemoryNotes();
		}
	});

	it("the notes folder setting changed: the project's notes, index and user text move with it, and stay one project", async () => {
		await newSync().run(settings());
		const before = [...notes.files.keys()].filter((k) => k.startsWith("AI Conversations/shop-api/"));
		const health = noteOf("Add a health endpoint");
		notes.files.set(health, `${notes.files.get(health)!}\nMY OWN TEXT\n`);
		await appendFile(transcript(B), jsonl([userText("And the tax", { sessionId: B, cwd: projectPath, timestamp: "2026-11-21T10:05:00.000Z" })]));
		await writeFile(transcript(C), session(C, "Add pagination", "Done.", "2026-11-22T10:00:00.000Z"));
		const report = await newSync().run(settings({ notesFolder: "Sessions" }));
		expect(report.errors).toEqual([]);
		expect([...notes.files.keys()].filter((k) => k.startsWith("AI Conversations/shop-api/"))).toEqual([]);
		for (const path of before) expect(notes.files.has(path.replace("AI Conversations/", "Sessions/")), path).toBe(true);
		expect(notes.files.get(health.replace("AI Conversations/", "Sessions/"))).toContain("MY OWN TEXT");
		const index = notes.files.get("Sessions/shop-api/shop-api.md")!;
		for (const title of ["Add a health endpoint", "Fix the cart total", "Add pagination"]) expect(index).toContain(title);
		expect(notes.files.get(noteOf("Fix the cart total"))).toContain("And the tax");
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).not.toContain("AI Conversations/shop-api");
	});

	it("the tag prefix setting changed: every note and index is retagged, the old prefix's tags gone, the user's own kept", async () => {
		await newSync().run(settings());
		const health = noteOf("Add a health endpoint");
		notes.files.set(health, notes.files.get(health)!.replace("tags:\n", "tags:\n  - to-review\n"));
		expect(notes.files.get(health)).toMatch(/ {2}- ai\//);
		expect((await newSync().run(settings({ tagPrefix: "mem/" }))).errors).toEqual([]);
		const notesNow = [...notes.files.entries()].filter(([k]) => k.startsWith("AI Conversations/shop-api/"));
		expect(notesNow.length).toBeGreaterThan(2);
		for (const [path, text] of notesNow) {
			expect(text, path).not.toMatch(/^ {2}- ai\//m);
			expect(text, path).toMatch(/^ {2}- mem\//m);
		}
		expect(notes.files.get(health)).toMatch(/^ {2}- to-review$/m);
	});

	it("leaves the block another vault writes while that vault's notes are there: two vaults enabling one project replaced each other's at every sync", async () => {
		const vaultOne = join(root, "vault-one");
		// Each vault's notes stay between its syncs, as its state does.
		const [notesOne, notesTwo] = [new MemoryNotes(), new MemoryNotes()];
		const one = () => new VaultSync(projects, join(root, "state-one"), notesOne, { vaultPath: vaultOne });
		const two = () => new VaultSync(projects, join(root, "state-two"), notesTwo, { vaultPath: join(root, "vault-two") });
		expect((await one().run(settings())).errors).toEqual([]);
		const written = await readFile(join(projectPath, "CLAUDE.md"), "utf8");
		// Its notes folder is not on this machine (the vault moved): the block is this vault's to write.
		const moved = await two().run(settings());
		expect(moved.errors).toEqual([]);
		expect(moved.contextWritten).toEqual([join(projectPath, "CLAUDE.md")]);
		expect((await one().run(settings())).contextWritten).toEqual([join(projectPath, "CLAUDE.md")]);
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).toBe(written);
		// There: left as it is, and said.
		await mkdir(join(vaultOne, "AI Conversations", "shop-api"), { recursive: true });
		for (let i = 0; i < 2; i++) {
			const report = await two().run(settings());
			expect(report.contextWritten).toEqual([]);
			expect(report.errors.join("\n")).toMatch(/CLAUDE\.md in .*shop-api holds the block another vault writes \(its notes in .*vault-one\/AI Conversations\/shop-api\); this vault leaves it/);
			expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).toBe(written);
		}
	});

	it("takes its own vault reached through a link for itself: the block is neither refused as another vault's nor rewritten for the spelling", async () => {
		const real = join(root, "vault-real");
		const link = join(root, "vault-link");
		await mkdir(join(real, "AI Conversations", "shop-api"), { recursive: true });
		await symlink(real, link);
		const vaultNotes = new MemoryNotes();
		const through = (vaultPath: string) => new VaultSync(projects, join(root, "state-one"), vaultNotes, { vaultPath });
		expect((await through(real).run(settings())).errors).toEqual([]);
		const written = await readFile(join(projectPath, "CLAUDE.md"), "utf8");
		for (const vaultPath of [link, `${link}/`, real]) {
			const report = await through(vaultPath).run(settings());
			expect(report.errors).toEqual([]);
			expect(report.contextWritten).toEqual([]);
		}
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).toBe(written);
	});

	it("a session whose recorded folder is relative (`cwd: \".\"`) is not given to the repository the sync runs in", async () => {
		await writeFile(transcript(C), jsonl([userText("Tidy the scripts", { sessionId: C, cwd: ".", timestamp: "2026-11-22T10:00:00.000Z" }), assistant(text("Tidied."), { sessionId: C, cwd: ".", timestamp: "2026-11-22T10:00:00.000Z", messageId: `msg_${C}` })]));
		expect((await newSync().run(settings())).errors).toEqual([]);
		const note = [...notes.files.keys()].find((k) => k.includes("Tidy the scripts"))!;
		expect(note).toBeDefined();
		// Resolved, "." was this process's folder (a git repository here): a project of its own, and its CLAUDE.md.
		const here = process.cwd().split("/").at(-1)!;
		expect(note.startsWith(`AI Conversations/${here}/`)).toBe(false);
		const state = JSON.parse(await readFile(join(root, "state", "sync-state.json"), "utf8")) as { projects: Record<string, unknown> };
		expect(Object.keys(state.projects)).not.toContain(process.cwd());
	});

	it("keeps the user's own text and properties byte for byte while the session grows", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		const mine = "\n## My notes\n\nCheck the **load balancer** too.  \n\n";
		const original = notes.files.get(path)!;
		// Obsidian's Properties view adds an alias after the title's.
		notes.files.set(path, original.replace("tags:\n", "rating: 5\ntags:\n  - to-review\n").replace(/(aliases:\n {2}- .*\n)/, "$1  - Health check\n") + mine);
		await appendFile(transcript(A), jsonl([userText("Also add a readiness check", { sessionId: A, cwd: projectPath, timestamp: "2026-11-20T10:05:00.000Z" })]));
		const r = await newSync().run(settings());
		expect(r.notesWritten).toContain(path);
		const updated = notes.files.get(path)!;
		expect(updated).toContain("Also add a readiness check");
		expect(updated.endsWith(`${NOTE_MARKERS.end}\n${mine}`)).toBe(true);
		expect(updated).toMatch(/\nrating: 5\n---\n/);
		expect(updated).toMatch(/tags:\n {2}- ai\/project\/shop-api\n(?: {2}- ai\/.*\n)* {2}- to-review\n/);
		expect(updated).toMatch(/aliases:\n {2}- Add a health endpoint\n {2}- Health check\n/);
		expect(updated).toMatch(/^---\nsession_id: aaaaaaaa/);
	});

	it("does not recreate a note the user deleted, unless asked for a full rebuild; a vanished transcript keeps its note", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		notes.files.delete(path);
		await appendFile(transcript(A), jsonl([userText("more", { sessionId: A, cwd: projectPath })]));
		const r = await newSync().run(settings());
		expect(r.notesSkipped).toEqual([path]);
		expect(notes.files.has(path)).toBe(false);
		expect(notes.files.get("AI Conversations/shop-api/shop-api.md")).not.toContain("Add a health endpoint");

		await unlink(transcript(B));
		const kept = noteOf("Fix the cart total");
		await newSync().run(settings());
		expect(notes.files.has(kept)).toBe(true);

		await newSync().run(settings(), { rebuild: true });
		expect(notes.files.has(path)).toBe(true);
	});

	it("writes the Bases file once: renamed or deleted, none comes back, but for a rebuild; one that failed to be written is written next time", async () => {
		const base = "AI Conversations/AI Conversations.base";
		notes.beforeWrite = (p) => {
			if (p === base) throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
		};
		expect((await newSync().run(settings())).errors).toEqual([`${base}: not written, the disk is full (ENOSPC); the next sync tries again`]);
		notes.beforeWrite = undefined;
		await appendFile(transcript(A), jsonl([userText("more", { sessionId: A, cwd: projectPath })]));
		await newSync().run(settings());
		const text = notes.files.get(base)!;
		expect(text).toContain("session_id");
		// Renamed by the person: no second one beside theirs.
		notes.files.set("AI Conversations/My sessions.base", text);
		notes.files.delete(base);
		await appendFile(transcript(A), jsonl([userText("and more", { sessionId: A, cwd: projectPath })]));
		await newSync().run(settings());
		expect(notes.files.has(base)).toBe(false);
		await newSync().run(settings(), { rebuild: true });
		expect(notes.files.get(base)).toBe(text);
	});

	it("keeps the note's path when the session gets a title later", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		await appendFile(transcript(A), jsonl([{ type: "custom-title", customTitle: "Health checks", sessionId: A }]));
		await newSync().run(settings());
		expect(notes.files.get(path)).toContain("# Health checks");
		expect([...notes.files.keys()].filter((k) => k.includes("2026-11-20"))).toEqual([path]);
	});

	it("syncs one project when asked, and the others' sessions read meanwhile at the next sync", async () => {
		const other = join(root, "billing");
		await mkdir(join(projects, "-billing"), { recursive: true });
		await writeFile(join(projects, "-billing", `${C}.jsonl`), jsonl([userText("Add invoices", { sessionId: C, cwd: other, timestamp: "2026-11-22T10:00:00.000Z" })]));
		const only = await newSync().run(settings(), { project: projectPath });
		expect(only.notesWritten.filter((p) => p.includes("/billing/"))).toEqual([]);
		expect(only.notesWritten.filter((p) => p.includes("/shop-api/2026"))).toHaveLength(2);
		const next = await newSync().run(settings());
		expect(next.transcriptsRead).toBe(0);
		expect(next.notesWritten).toContain("AI Conversations/billing/2026-11-22 Add invoices.md");
	});

	it("writes the block into the other agents' files the project asks for, each once: a link or an import is not a second copy", async () => {
		await writeFile(join(projectPath, "AGENTS.md"), "# Agents\n\nRun the tests before a commit.\n");
		const both = settings({ projects: [{ path: projectPath, ...DEFAULT_PROJECT, alsoWriteTo: ["AGENTS.md", "GEMINI.md"] }] });
		const r = await newSync().run(both);
		expect(r.errors).toEqual([]);
		expect(r.contextWritten.sort()).toEqual([`${projectPath}/AGENTS.md`, `${projectPath}/CLAUDE.md`, `${projectPath}/GEMINI.md`]);
		const agents = await readFile(join(projectPath, "AGENTS.md"), "utf8");
		expect(agents.startsWith("# Agents\n\nRun the tests before a commit.\n\n<!-- AUTO-CONTEXT:BEGIN -->\n")).toBe(true);
		expect(await readFile(join(projectPath, "GEMINI.md"), "utf8")).toContain("Add a health endpoint (Claude Code)");

		// CLAUDE.md now imports AGENTS.md: Claude Code reads the block there; CLAUDE.md's own goes, its other bytes stay.
		const claudeMd = await readFile(join(projectPath, "CLAUDE.md"), "utf8");
		await writeFile(join(projectPath, "CLAUDE.md"), `@AGENTS.md\n\n${claudeMd}`);
		await writeFile(transcript(C), session(C, "Add pagination", "Done.", "2026-11-22T10:00:00.000Z"));
		const imported = await newSync().run(both);
		expect(imported.contextWritten.sort()).toEqual([`${projectPath}/AGENTS.md`, `${projectPath}/CLAUDE.md`, `${projectPath}/GEMINI.md`]);
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).toBe("@AGENTS.md\n\n# Shop API\r\n\r\nHand-written rules.  \r\n");
		// And then it is left alone.
		const quiet = await newSync().run(both);
		expect(quiet.contextWritten).toEqual([]);
		expect(await readFile(join(projectPath, "AGENTS.md"), "utf8")).toContain("Add pagination (Claude Code)");
	});

	it("writes one block into a CLAUDE.md that is a link to AGENTS.md", async () => {
		await rm(join(projectPath, "CLAUDE.md"));
		await writeFile(join(projectPath, "AGENTS.md"), "# Agents\n");
		await symlink("AGENTS.md", join(projectPath, "CLAUDE.md"));
		const r = await newSync().run(settings({ projects: [{ path: projectPath, ...DEFAULT_PROJECT, alsoWriteTo: ["AGENTS.md"] }] }));
		expect(r.errors).toEqual([]);
		expect(r.contextWritten).toEqual([`${projectPath}/CLAUDE.md`]);
		const text = await readFile(join(projectPath, "AGENTS.md"), "utf8");
		expect(text.split("<!-- AUTO-CONTEXT:BEGIN -->")).toHaveLength(2);
		expect((await lstat(join(projectPath, "CLAUDE.md"))).isSymbolicLink()).toBe(true);
	});

	it("honours excluded projects everywhere", async () => {
		const r = await newSync().run(settings({ excludedProjects: [join(root, "*")] }));
		expect(r.notesWritten).toEqual([]);
		expect(r.contextWritten).toEqual([]);
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).toBe("# Shop API\r\n\r\nHand-written rules.  \r\n");
	});

	it("a session no state recorded takes the note a killed sync wrote for it (found by its session_id), even after a new title: no second note", async () => {
		await writeFile(transcript(C), session(C, "Alpha title", "Done.", "2026-11-22T10:00:00.000Z"));
		await newSync().run(settings());
		const alpha = noteOf("2026-11-22 Alpha title");
		expect(alpha).toBeDefined();
		// The run was killed before its state was stored; the session got a new title meanwhile.
		await rm(join(root, "state"), { recursive: true, force: true });
		await appendFile(transcript(C), jsonl([{ type: "custom-title", customTitle: "Beta title", sessionId: C }]));
		const r = await newSync().run(settings());
		expect(r.errors).toEqual([]);
		const forC = [...notes.files].filter(([, text]) => text.includes(`session_id: ${C}`)).map(([path]) => path);
		expect(forC).toEqual([alpha]);
	});

	it("a session whose folder, tool or record type is named like an object's own property (`constructor`, `__proto__`, `toString`) is one like any other", async () => {
		const names = ["constructor", "__proto__", "toString", "hasOwnProperty"];
		for (const [i, name] of names.entries()) {
			const id = `dddddddd-4444-4000-8000-00000000000${i}`;
			const env = { sessionId: id, cwd: name, timestamp: `2026-11-2${i}T10:00:00.000Z` };
			await writeFile(transcript(id), jsonl([userText(`Run the ${name} check`, env), assistant(toolUse(`toolu_${i}`, name, { x: 1 }), { ...env, messageId: `m_${i}` }), toolResult(`toolu_${i}`, "ok", env), { ...env, type: name, uuid: `u_${i}` }, assistant(text("Done."), { ...env, messageId: `n_${i}` })]));
		}
		for (let run = 0; run < 2; run++) {
			// The second sync starts from the state the first stored (parsed from JSON again).
			const r = await newSync().run(settings(), run === 0 ? {} : { rebuild: true });
			expect(r.errors).toEqual([]);
			for (const name of names) expect([...notes.files.keys()].some((k) => k.includes(`Run the ${name} check`)), name).toBe(true);
		}
	});

	it("renames a note named while redaction was off once it is on: no secret stays in a note's name, a link or CLAUDE.md", async () => {
		const token = `ghp${"_"}Zq8Xw2Vr5Ty7Ub3Nm9Lk1Jh4Gf6Ds0AbCdEf`;
		await writeFile(transcript(C), session(C, `Rotate ${token} today`, "Rotated it.", "2026-11-22T10:00:00.000Z"));
		const off = settings({ redaction: { ...settings().redaction, enabled: false } });
		await newSync().run(off);
		const named = [...notes.files.keys()].find((k) => k.includes(token.slice(4, 12)));
		expect(named).toBeDefined();
		notes.files.set(named!, notes.files.get(named!)!.replace(/\n$/, "\nMy own line.\n"));
		const r = await newSync().run(settings(), { rebuild: true });
		expect(r.errors).toEqual([]);
		expect(r.notesMoved.length).toBe(1);
		expect([...notes.files.keys()].filter((k) => k.includes(token.slice(4, 12)))).toEqual([]);
		const renamed = [...notes.files.keys()].find((k) => k.includes("2026-11-22 Rotate"))!;
		expect(notes.files.get(renamed)).toContain("My own line.");
		for (const [path, text] of notes.files) expect(text, path).not.toContain(token.slice(4, 12));
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).not.toContain(token.slice(4, 12));
	});

	it("honours an exclusion written through a link or with another case: Claude Code records the real folder", async () => {
		// `work/shop-api` is a link to the project's real folder, where the sessions ran.
		await mkdir(join(root, "work"));
		await symlink(projectPath, join(root, "work", "shop-api"));
		for (const excluded of [join(root, "work", "shop-api"), join(root, "work", "shop-*"), projectPath.toUpperCase()]) {
			await rm(join(root, "state"), { recursive: true, force: true });
			notes = new MemoryNotes();
			const r = await newSync().run(settings({ excludedProjects: [excluded] }));
			expect(r.notesWritten, excluded).toEqual([]);
			const stored = (await readdir(join(root, "state"), { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
			const texts = await Promise.all(stored.map((d) => readFile(join(d.parentPath, d.name), "utf8")));
			expect(texts.some((t) => t.includes("health endpoint")), excluded).toBe(false);
		}
	});

	it("honours an exclusion of the real folder when the sessions ran in a link to it, or spelled it with // or ..: nothing of them is stored", async () => {
		// Sessions recorded in `work/alias`, a link to the project (the opposite of the test above),
		// and in spellings of the project's path itself; the exclusion names the real folder.
		await mkdir(join(root, "work"));
		await symlink(projectPath, join(root, "work", "alias"));
		const spellings = [join(root, "work", "alias"), `${root}//shop-api`, `${root}/work/../shop-api`];
		await rm(join(projects, "-home-dev-shop-api"), { recursive: true, force: true });
		for (const [i, cwd] of spellings.entries()) {
			const folder = join(projects, `-spelling-${i}`);
			await mkdir(folder, { recursive: true });
			const id = `dddddddd-4444-4000-8000-00000000000${i}`;
			await writeFile(join(folder, `${id}.jsonl`), jsonl([userText(`Plan the launch ${i}`, { sessionId: id, cwd, timestamp: "2026-11-20T10:00:00.000Z" }), assistant(text("Planned it."), { sessionId: id, cwd, timestamp: "2026-11-20T10:00:00.000Z", messageId: `msg_${id}` })]));
		}
		const r = await newSync().run(settings({ excludedProjects: [projectPath] }));
		expect(r.errors).toEqual([]);
		expect(r.notesWritten).toEqual([]);
		const stored = (await readdir(join(root, "state"), { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
		const texts = await Promise.all(stored.map((d) => readFile(join(d.parentPath, d.name), "utf8")));
		expect(texts.filter((t) => t.includes("Plan the launch"))).toEqual([]);
	});

	it("stores nothing of a session resumed in an excluded project from another folder: no note, no state, not what was said in either", async () => {
		await rm(join(projects, "-home-dev-shop-api"), { recursive: true, force: true });
		const other = join(root, "other");
		await mkdir(other);
		// Claude Code writes a session resumed in the project into the project's folder; its first lines keep the old folder.
		const folder = join(projects, "-resumed");
		await mkdir(folder, { recursive: true });
		const id = "eeeeeeee-4444-4000-8000-000000000001";
		const at = { sessionId: id, timestamp: "2026-11-20T10:00:00.000Z" };
		await writeFile(join(folder, `${id}.jsonl`), jsonl([userText("Sketch the plan elsewhere", { ...at, cwd: other }), userText("The payroll numbers of the private project", { ...at, cwd: projectPath })]));
		const r = await newSync().run(settings({ excludedProjects: [projectPath] }));
		expect(r.errors).toEqual([]);
		expect([...notes.files.values()].filter((t) => t.includes("payroll"))).toEqual([]);
		const stored = (await readdir(join(root, "state"), { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
		const texts = await Promise.all(stored.map((d) => readFile(join(d.parentPath, d.name), "utf8")));
		expect(texts.filter((t) => t.includes("payroll") || t.includes("Sketch the plan"))).toEqual([]);
	});

	it("forgets what it stored of a project excluded after it was read, keeps its notes, and reads it again once the exclusion goes", async () => {
		await newSync().run(settings());
		const noteA = noteOf("Add a health endpoint");
		const before = notes.files.get(noteA);
		const stored = async () => (await readdir(join(root, "state", "models"))).length;
		const everything = async () => (await Promise.all((await readdir(join(root, "state"), { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => readFile(join(d.parentPath, d.name), "utf8")))).join("\n");
		expect(await stored()).toBe(2);
		expect(await everything()).toContain("health endpoint");
		// A checkpoint a pre-compact hook kept of one of its sessions, merged into the state by a sync.
		await writeCheckpoint(join(root, "state"), A, { at: "2026-11-20T10:05:00.000Z", text: "Asked: the launch checklist\nReply: wrote it" });
		await newSync().run(settings());
		expect(await everything()).toContain("the launch checklist");

		const excluded = await newSync().run(settings({ excludedProjects: [projectPath] }));
		expect(excluded.errors).toEqual([]);
		expect(await stored()).toBe(0);
		expect(await everything()).not.toContain("health endpoint");
		expect(await everything()).not.toContain("cart total");
		expect(await everything()).not.toContain("the launch checklist");
		expect(notes.files.get(noteA)).toBe(before);
		// Excluded still: read (it is new to the store again), never stored.
		await newSync().run(settings({ excludedProjects: [projectPath] }));
		expect(await stored()).toBe(0);

		const back = await newSync().run(settings());
		expect(back.transcriptsRead).toBe(2);
		expect(await stored()).toBe(2);
		expect(notes.files.get(noteA)).toBe(before);
	});

	it("writes no secret of a session anywhere: notes, CLAUDE.md or the state folder", async () => {
		const secrets = ["sk-ant-api03-" + "x".repeat(80) + "AA", "AKIAIOSFODNN7EXAMPLF", "ghp_" + "a1B2".repeat(9), "hunter2hunter2"];
		await writeFile(
			transcript(C),
			jsonl([
				userText(`Deploy with key ${secrets[0]} please`, { sessionId: C, cwd: projectPath, timestamp: "2026-11-22T10:00:00.000Z" }),
				assistant(toolUse("toolu_s", "Bash", { command: `AWS_ACCESS_KEY_ID=${secrets[1]} ./deploy.sh` }), { sessionId: C, cwd: projectPath, messageId: "msg_s" }),
				toolResult("toolu_s", `GITHUB_TOKEN=${secrets[2]}\nDB_PASSWORD=${secrets[3]}`, { sessionId: C, cwd: projectPath }),
				assistant(text(`Deployed. The token ${secrets[2]} is in your env.`), { sessionId: C, cwd: projectPath, messageId: "msg_t" }),
			]),
		);
		await newSync().run(settings());
		const written = [...notes.files.values(), await readFile(join(projectPath, "CLAUDE.md"), "utf8")];
		for (const file of await readdir(join(root, "state"), { recursive: true })) {
			if (String(file).endsWith(".json")) written.push(await readFile(join(root, "state", String(file)), "utf8"));
		}
		expect(written.join("\n")).toContain("[redacted:");
		for (const secret of secrets) expect(written.filter((w) => w.includes(secret))).toEqual([]);
	});

	it("keeps the hook context of a project whose folder is not here as it was, writes it once the folder is back, and removes it when the project is kept out", async () => {
		const gone = join(root, "drive", "app");
		const both = (kept: boolean) => settings({ projects: [{ path: projectPath, ...DEFAULT_PROJECT }, { path: gone, ...DEFAULT_PROJECT }], excludedProjects: kept ? [] : [gone] });
		await newSync().run(both(true));
		const state = join(root, "state");
		expect(await readFile(hookContextPath(state, projectPath), "utf8")).toContain(projectPath);
		// No session starts in a folder not there: nothing is written for it (100,000 such projects were as many files compared).
		await expect(stat(hookContextPath(state, gone))).rejects.toMatchObject({ code: "ENOENT" });
		await mkdir(gone, { recursive: true });
		await appendFile(transcript(A), session(A, "One more step", "Done.", "2026-11-22T10:00:00.000Z"));
		await newSync().run(both(true));
		const written = await readFile(hookContextPath(state, gone), "utf8");
		expect(written).toContain(gone);
		// Gone again: the context it had stays (a drive unmounted is back with the same sessions).
		await rm(gone, { recursive: true });
		await appendFile(transcript(B), session(B, "And another", "Done too.", "2026-11-23T10:00:00.000Z"));
		await newSync().run(both(true));
		expect(await readFile(hookContextPath(state, gone), "utf8")).toBe(written);
		// Kept out: removed, folder or no folder.
		await appendFile(transcript(B), session(B, "Last one", "Done at last.", "2026-11-24T10:00:00.000Z"));
		await newSync().run(both(false));
		await expect(stat(hookContextPath(state, gone))).rejects.toMatchObject({ code: "ENOENT" });
	});
});

describe("VaultSync and a person editing at the same time", () => {
	it("never overwrites an edit made while the sync ran, and updates the note next time", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		await appendFile(transcript(A), jsonl([userText("Also log the uptime", { sessionId: A, cwd: projectPath })]));
		const edited = `${notes.files.get(path)!}\nMy edit, typed during the sync.\n`;
		notes.beforeWrite = (p) => {
			if (p === path && !notes.files.get(p)!.includes("My edit")) notes.files.set(p, edited);
		};
		const r = await newSync().run(settings());
		notes.beforeWrite = undefined;
		expect(r.errors).toEqual([`${path}: it changed while the sync ran; it is left as it is and updated next time`]);
		expect(notes.files.get(path)).toBe(edited);

		const next = await newSync().run(settings());
		expect(next.errors).toEqual([]);
		expect(next.notesWritten).toContain(path);
		expect(notes.files.get(path)).toContain("Also log the uptime");
		expect(notes.files.get(path)).toContain("My edit, typed during the sync.");
	});

	it("gives a new note's path up to a file the person made there while the sync ran, and writes the note beside it next time", async () => {
		await newSync().run(settings());
		await writeFile(transcript(C), session(C, "Add a search endpoint", "Added GET /search.", "2026-11-22T10:00:00.000Z"));
		const mine = "My own note, made in Obsidian under the name the sync was about to use.\n";
		let path = "";
		notes.beforeWrite = (p) => {
			if (p.includes("Add a search endpoint") && !notes.files.has(p)) {
				path = p;
				notes.files.set(p, mine);
			}
		};
		const r = await newSync().run(settings());
		notes.beforeWrite = undefined;
		expect(r.errors).toEqual([`${path}: it changed while the sync ran; it is left as it is and updated next time`]);
		// Kept, the path made the next sync take the person's file for the note, "its markers removed", for good.
		const next = await newSync().run(settings());
		expect(next.errors).toEqual([]);
		expect(notes.files.get(path)).toBe(mine);
		const note = [...notes.files.keys()].find((k) => k.includes("Add a search endpoint") && k !== path)!;
		expect(note).toBe(path.replace(/\.md$/, " (2).md"));
		expect(notes.files.get(note)).toContain("Added GET /search.");
	});

	it("writes a project's index the next time when it was edited while the sync ran, though no session changed since", async () => {
		await newSync().run(settings());
		const index = "AI Conversations/shop-api/shop-api.md";
		await appendFile(transcript(A), jsonl([userText("Also log the uptime", { sessionId: A, cwd: projectPath })]));
		notes.beforeWrite = (p) => {
			if (p === index && !notes.files.get(p)!.includes("Mine.")) notes.files.set(p, `${notes.files.get(p)!}\nMine.\n`);
		};
		const r = await newSync().run(settings());
		notes.beforeWrite = undefined;
		expect(r.errors).toEqual([`${index}: it changed while the sync ran; it is left as it is and updated next time`]);
		expect(notes.files.get(index)).toContain("· 1 prompt ·");

		const next = await newSync().run(settings());
		expect(next.errors).toEqual([]);
		expect(next.notesWritten).toEqual([index]);
		expect(notes.files.get(index)).toContain("· 2 prompts ·");
		expect(notes.files.get(index)).toContain("Mine.");
		// Written once: the sync after does not write it again.
		expect((await newSync().run(settings())).notesWritten).toEqual([]);
	});
});

describe("VaultSync and a note it could not write", () => {
	it("writes the turns a note with broken markers missed once they are put right, though the session did not change since", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		const good = `${notes.files.get(path)!}\nMine.\n`;
		await appendFile(transcript(A), session(A, "Also add a readiness check", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		notes.files.set(path, `${good}${NOTE_MARKERS.end}\n`);
		const broken = await newSync().run(settings());
		expect(broken.errors).toEqual([`${path}: it has a second ${NOTE_MARKERS.end} at line 20; it is left as it is, and updated once its markers are put right`]);
		// Said again at each sync until it is put right; then written, with nothing else changed (the session has ended).
		expect((await newSync().run(settings())).errors).toHaveLength(1);
		notes.files.set(path, good);
		const repaired = await newSync().run(settings());
		expect(repaired.errors).toEqual([]);
		expect(notes.files.get(path)).toContain("Also add a readiness check");
		expect(notes.files.get(path)!.endsWith(`${NOTE_MARKERS.end}\n\nMine.\n`)).toBe(true);
	});

	it("writes the turns a note it could not read missed (a folder in its place) once it can", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		await appendFile(transcript(A), session(A, "Also add a readiness check", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		const read = notes.read.bind(notes);
		notes.read = async (p: string) => {
			if (p === path) throw new Error(`The note ${p} is not a plain file (a folder); it is neither read nor written`);
			return read(p);
		};
		expect((await newSync().run(settings())).errors).toEqual([`${path}: not read, so not written: The note ${path} is not a plain file (a folder); it is neither read nor written`]);
		notes.read = read;
		expect((await newSync().run(settings())).errors).toEqual([]);
		expect(notes.files.get(path)).toContain("Also add a readiness check");
	});

	it("writes the turns a note missed when it was read in the middle of an editor's save (its markers not there yet)", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		const whole = `${notes.files.get(path)!}\nMine.\n`;
		notes.files.set(path, whole);
		await appendFile(transcript(A), session(A, "Also add a readiness check", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		// The first read sees what the editor has written so far, its properties; the save is done by the next.
		const read = notes.read.bind(notes);
		let first = true;
		notes.read = async (p: string) => {
			if (p !== path || !first) return read(p);
			first = false;
			return whole.slice(0, whole.indexOf(NOTE_MARKERS.begin));
		};
		expect((await newSync().run(settings())).errors).toEqual([`${path}: it changed while the sync ran; it is left as it is and updated next time`]);
		notes.read = read;
		expect((await newSync().run(settings())).errors).toEqual([]);
		expect(notes.files.get(path)).toContain("Also add a readiness check");
		expect(notes.files.get(path)!.endsWith(`${NOTE_MARKERS.end}\n\nMine.\n`)).toBe(true);
	});

	it("leaves a note whose markers the user removed as theirs: said once, not tried again", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		await appendFile(transcript(A), session(A, "Also add a readiness check", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		notes.files.set(path, "My own note now.\n");
		expect((await newSync().run(settings())).errors).toEqual([`${path}: its generated region markers were removed; it is left as you edited it`]);
		expect((await newSync().run(settings())).errors).toEqual([]);
		expect(notes.files.get(path)).toBe("My own note now.\n");
	});
});

describe("VaultSync and a note whose name was taken over", () => {
	it("follows a note the user renamed and whose old name they gave to a note of their own: the turns go to the session's note, theirs is left", async () => {
		await newSync().run(settings());
		const path = noteOf("Add a health endpoint");
		const renamed = path.replace(/[^/]+$/, "Health work.md");
		notes.files.set(renamed, notes.files.get(path)!);
		notes.files.set(path, "My own summary of the health work.\n");
		await appendFile(transcript(A), session(A, "Also add a readiness check", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		const r = await newSync().run(settings());
		expect(r.errors).toEqual([]);
		expect(notes.files.get(renamed)).toContain("Also add a readiness check");
		expect(notes.files.get(path)).toBe("My own summary of the health work.\n");
		// Followed: the next turn goes there too, the index links it.
		await appendFile(transcript(A), session(A, "And a liveness check", "Added GET /live.", "2026-11-20T12:00:00.000Z"));
		await newSync().run(settings());
		expect(notes.files.get(renamed)).toContain("And a liveness check");
		expect(notes.files.get(noteOf("shop-api/shop-api.md"))).toContain("[[AI Conversations/shop-api/Health work|");
	});

	it("writes no session's turns into another session's note when two notes' names were swapped; each is written once put back", async () => {
		await newSync().run(settings());
		const [a, b] = [noteOf("Add a health endpoint"), noteOf("Fix the cart total")];
		const [textA, textB] = [`${notes.files.get(a)!}\nWords about health.\n`, `${notes.files.get(b)!}\nWords about the cart.\n`];
		notes.files.set(a, textB);
		notes.files.set(b, textA);
		await appendFile(transcript(A), session(A, "Also add a readiness check", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		const r = await newSync().run(settings());
		expect(r.errors).toContain(`${a}: it is the note of another session (${B}) now, renamed to this one's name; it is left as it is, and this session's note is written once each has a name of its own`);
		expect(notes.files.get(a)).toBe(textB);
		expect(notes.files.get(b)).toBe(textA);
		notes.files.set(a, textA);
		notes.files.set(b, textB);
		expect((await newSync().run(settings())).errors).toEqual([]);
		expect(notes.files.get(a)).toContain("Also add a readiness check");
		expect(notes.files.get(a)).toContain("Words about health.");
		expect(notes.files.get(b)).not.toContain("readiness");
	});
});

describe("VaultSync and files that are not plain files", () => {
	const mkfifo = async (path: string) => {
		await mkdir(join(path, ".."), { recursive: true });
		expect((await import("node:child_process")).spawnSync("mkfifo", [path]).status).toBe(0);
	};

	it("a FIFO as Claude Code's settings.json or as the state's files is never waited on: as the list of transcripts read, the transcripts are read again; as the state, the sync stops with a sentence, and runs once it is a file again", async () => {
		await mkfifo(join(root, "claude", "settings.json"));
		expect((await newSync().run(settings())).errors.join("\n")).toMatch(/settings\.json: not read, so no fact is shared with it: .*a FIFO/);
		await rm(join(root, "claude", "settings.json"));
		await rm(join(root, "state", "transcripts.json"), { force: true });
		await mkfifo(join(root, "state", "transcripts.json"));
		await appendFile(transcript(A), session(A, "And a readiness endpoint", "Added GET /ready.", "2026-11-20T11:00:00.000Z"));
		const report = await newSync().run(settings());
		expect(report.errors).toEqual([]);
		expect(notes.files.get(noteOf("health"))).toContain("readiness endpoint");
		expect((await lstat(join(root, "state", "transcripts.json"))).isFile()).toBe(true);
		const state = await readFile(join(root, "state", "sync-state.json"));
		await rm(join(root, "state", "sync-state.json"));
		await mkfifo(join(root, "state", "sync-state.json"));
		await appendFile(transcript(A), session(A, "And a liveness endpoint", "Added GET /live.", "2026-11-20T12:00:00.000Z"));
		await expect(newSync().run(settings())).rejects.toThrow(/sync-state\.json cannot be read \(.*is not a plain file \(a FIFO\).*\); nothing was synced/);
		expect(notes.files.get(noteOf("health"))).not.toContain("liveness endpoint");
		await rm(join(root, "state", "sync-state.json"));
		await writeFile(join(root, "state", "sync-state.json"), state);
		expect((await newSync().run(settings())).errors).toEqual([]);
		expect(notes.files.get(noteOf("health"))).toContain("liveness endpoint");
	});

	it("a Claude Code memory folder that is a link out of Claude Code's folder is reported and not shared; the rest of the sync is done", async () => {
		const outside = join(root, "elsewhere");
		await mkdir(outside);
		await mkdir(join(projects, projectPath.replace(/[^A-Za-z0-9]/g, "-")), { recursive: true });
		await symlink(outside, join(projects, projectPath.replace(/[^A-Za-z0-9]/g, "-"), "memory"));
		notes.files.set("AI Memory/shop-api/use-pnpm.md", "---\nname: use-pnpm\ndescription: pnpm, not npm\nmetadata:\n  type: feedback\n---\nUse pnpm.\n");
		const report = await newSync().run(settings());
		expect(report.errors.join("\n")).toMatch(/memory: not read, so no fact is shared with it: .*leads to .*elsewhere/);
		expect(await readdir(outside)).toEqual([]);
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).toContain("AUTO-CONTEXT:BEGIN");
	});

	const fact = (name: string) => `---\nname: ${name}\ndescription: About ${name}\ntype: project\n---\nWe do ${name}.\n`;
	/** The project's Claude Code memory folder with one fact, shared by a first sync: its path. */
	const sharedOneFact = async () => {
		const memory = join(projects, projectPath.replace(/[^A-Za-z0-9]/g, "-"), "memory");
		await mkdir(memory, { recursive: true });
		await writeFile(join(memory, "use-pnpm.md"), fact("use-pnpm"));
		expect((await newSync().run(sharing())).errors).toEqual([]);
		expect(notes.files.has("AI Memory/shop-api/use-pnpm.md")).toBe(true);
		return memory;
	};
	const sharing = () => settings({ projects: [{ path: projectPath, ...DEFAULT_PROJECT, memorySharing: true }] });

	it("a fact in Claude Code's memory that becomes a FIFO or a link is reported, and is not taken for deleted: the vault's copy stays", async () => {
		const memory = join(projects, projectPath.replace(/[^A-Za-z0-9]/g, "-"), "memory");
		await mkdir(memory, { recursive: true });
		await writeFile(join(memory, "use-pnpm.md"), fact("use-pnpm"));
		await writeFile(join(memory, "tabs.md"), fact("tabs"));
		expect((await newSync().run(sharing())).errors).toEqual([]);
		expect([...notes.files.keys()].filter((k) => k.startsWith("AI Memory/"))).toEqual(expect.arrayContaining(["AI Memory/shop-api/use-pnpm.md", "AI Memory/shop-api/tabs.md"]));
		await unlink(join(memory, "use-pnpm.md"));
		await mkfifo(join(memory, "use-pnpm.md"));
		await unlink(join(memory, "tabs.md"));
		await writeFile(join(root, "tabs-elsewhere.md"), fact("tabs"));
		await symlink(join(root, "tabs-elsewhere.md"), join(memory, "tabs.md"));
		const report = await newSync().run(sharing());
		expect(report.errors.join("\n")).toMatch(/memory: not read, so no fact is shared with it: The memory file .*tabs\.md is a link/);
		expect(notes.files.has("AI Memory/shop-api/use-pnpm.md")).toBe(true);
		expect(notes.files.has("AI Memory/shop-api/tabs.md")).toBe(true);
		expect(await readFile(join(root, "tabs-elsewhere.md"), "utf8")).toBe(fact("tabs"));
	});

	it("Claude Code's settings.json that cannot be read (a save under way, a trailing comma, a FIFO) is not taken for none: no fact is shared, none trashed, none written to the default folder", async () => {
		const custom = join(root, "custom-memory");
		const settingsFile = join(root, "claude", "settings.json");
		const good = JSON.stringify({ autoMemoryDirectory: custom });
		await writeFile(settingsFile, good);
		await mkdir(custom);
		await writeFile(join(custom, "use-pnpm.md"), fact("use-pnpm"));
		expect((await newSync().run(sharing())).errors).toEqual([]);
		expect(notes.files.has("AI Memory/shop-api/use-pnpm.md")).toBe(true);
		const shared = await readdir(custom);
		const defaultFolder = join(projects, projectPath.replace(/[^A-Za-z0-9]/g, "-"), "memory");
		for (const [broken, why] of [["", "it is empty"], [`${good.slice(0, -1)},}`, "it is not JSON"], [null, "a FIFO"]] as const) {
			await rm(settingsFile);
			if (broken === null) await mkfifo(settingsFile);
			else await writeFile(settingsFile, broken);
			const report = await newSync().run(sharing());
			expect(report.errors.join("\n")).toMatch(new RegExp(`settings\\.json: not read, so no fact is shared with it: Claude Code's settings cannot be read \\(.*${why}.*\\), so where it keeps memory is not known`));
			expect(notes.files.has("AI Memory/shop-api/use-pnpm.md")).toBe(true);
			expect(await readdir(custom)).toEqual(shared);
			expect(await lstat(defaultFolder).then(() => true, () => false)).toBe(false);
		}
		await rm(settingsFile);
		await writeFile(settingsFile, good);
		expect((await newSync().run(sharing())).errors).toEqual([]);
		expect(notes.files.has("AI Memory/shop-api/use-pnpm.md")).toBe(true);
	});

	it("a memory folder that is not there is not every fact deleted: a memory folder setting changed, a folder moved, another Claude Code folder each share as for the first time", async () => {
		const memory = await sharedOneFact();
		// The setting changed (the settings tab offers it): the new folder is not there yet.
		const moved = await newSync().run({ ...sharing(), memoryFolder: "Facts" });
		expect(await readFile(join(memory, "use-pnpm.md"), "utf8")).toBe(fact("use-pnpm"));
		expect(notes.files.get("Facts/shop-api/use-pnpm.md")).toContain("We do use-pnpm.");
		expect(moved.notices.join("\n")).toMatch(/the vault's memory folder Facts\/shop-api is not there .*shared as for the first time/);
		// The folder moved by hand with Obsidian closed: the same.
		for (const path of [...notes.files.keys()].filter((k) => k.startsWith("Facts/shop-api/"))) {
			notes.files.set(path.replace("Facts/shop-api/", "Archive/shop-api facts/"), notes.files.get(path)!);
			notes.files.delete(path);
		}
		await newSync().run({ ...sharing(), memoryFolder: "Facts" });
		expect(await readFile(join(memory, "use-pnpm.md"), "utf8")).toBe(fact("use-pnpm"));
		// Another Claude Code folder (the hook's sync runs with the ended session's): nothing of either is deleted, nor taken back.
		const otherProjects = join(root, "claude-work", "projects");
		await mkdir(otherProjects, { recursive: true });
		const other = () => new VaultSync(otherProjects, join(root, "state"), notes);
		const otherMemory = join(otherProjects, basename(dirname(memory)), "memory");
		await other().run({ ...sharing(), memoryFolder: "Facts" });
		expect(await readFile(join(otherMemory, "use-pnpm.md"), "utf8")).toContain("We do use-pnpm.");
		notes.files.set("Facts/shop-api/use-pnpm.md", notes.files.get("Facts/shop-api/use-pnpm.md")!.replace("We do use-pnpm.", "We do use-pnpm, edited."));
		await other().run({ ...sharing(), memoryFolder: "Facts" });
		await newSync().run({ ...sharing(), memoryFolder: "Facts" });
		expect(notes.files.get("Facts/shop-api/use-pnpm.md")).toContain("We do use-pnpm, edited.");
		expect(await readFile(join(memory, "use-pnpm.md"), "utf8")).toContain("edited");
		expect(await readFile(join(otherMemory, "use-pnpm.md"), "utf8")).toContain("edited");
	});

	it("a fact of Claude Code's that cannot be read is named redacted: a token in its file name reaches no error (attack round 51a)", async () => {
		const memory = join(projects, projectPath.replace(/[^A-Za-z0-9]/g, "-"), "memory");
		await mkdir(memory, { recursive: true });
		const key = `AKIA${"J4JJUHR7JVCXRDXG"}`;
		await writeFile(join(memory, `reference_${key}.md`), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
		const report = await newSync().run(sharing());
		expect(report.errors.join("\n")).toMatch(/not read, so no fact is shared with it: .*reference_\[redacted:aws-access-key\]\.md is not UTF-8/);
		expect(JSON.stringify(report)).not.toContain(key.slice(4));
	});

	it("a memory folder swapped for a link to another folder is met as for the first time: no fact of the vault goes (attack round 51a)", async () => {
		const memory = await sharedOneFact();
		const otherMemory = join(projects, "-other", "memory");
		await mkdir(otherMemory, { recursive: true });
		await writeFile(join(otherMemory, "tabs.md"), fact("tabs"));
		await rename(memory, `${memory}.aside`);
		await symlink(otherMemory, memory);
		const report = await newSync().run(sharing());
		expect(report.errors).toEqual([]);
		expect(report.notices.join("\n")).toContain(`leads to ${await realpath(otherMemory)} this time`);
		expect(notes.files.get("AI Memory/shop-api/use-pnpm.md")).toBe(fact("use-pnpm"));
		expect(notes.files.has("AI Memory/shop-api/tabs.md")).toBe(true);
	});

	it("a Claude Code folder with no projects folder (a typo in claudeDir, the vault) is given no memory folder: no fact is shared with it, and the sync says so", async () => {
		await newSync().run(sharing());
		notes.files.set("AI Memory/shop-api/use-pnpm.md", fact("use-pnpm"));
		const typo = new VaultSync(join(root, "claude-typo", "projects"), join(root, "state"), notes);
		const report = await typo.run(sharing());
		expect(await readdir(root)).not.toContain("claude-typo");
		expect(report.notices.join("\n")).toMatch(/claude-typo has no projects folder \(is it Claude Code's\? check "claudeDir" in the settings, or --claude-dir\), so no fact was shared with it/);
		expect((await typo.plan(sharing())).plan.notices.join("\n")).toMatch(/claude-typo has no projects folder/);
		expect(notes.files.get("AI Memory/shop-api/use-pnpm.md")).toBe(fact("use-pnpm"));
	});

	it("a vault memory folder that is a link out of the vault, or holds a FIFO, is reported and not merged: Claude Code's facts stay", async () => {
		const { VaultFolder } = await import("../../src/node/vault-folder");
		const vault = join(root, "vault");
		await mkdir(vault);
		const folder = new VaultFolder(vault);
		const memory = join(projects, projectPath.replace(/[^A-Za-z0-9]/g, "-"), "memory");
		await mkdir(memory, { recursive: true });
		await writeFile(join(memory, "use-pnpm.md"), fact("use-pnpm"));
		await writeFile(join(memory, "tabs.md"), fact("tabs"));
		const run = () => new VaultSync(projects, join(root, "state"), new VaultFolder(vault)).run(sharing());
		expect((await new VaultSync(projects, join(root, "state"), folder).run(sharing())).errors).toEqual([]);
		const shared = (await readdir(memory)).sort();
		const inVault = join(vault, "AI Memory", "shop-api");
		expect((await readdir(inVault)).sort()).toEqual(["MEMORY.md", "tabs.md", "use-pnpm.md"]);
		// The folder moved away, a link to an empty folder outside in its place.
		await mkdir(join(root, "empty"));
		await rename(inVault, join(root, "kept"));
		await symlink(join(root, "empty"), inVault);
		expect((await run()).errors.join("\n")).toMatch(/AI Memory\/shop-api: not read, so no fact of it is merged or shared this time: .*leads to .*empty/);
		expect((await readdir(memory)).sort()).toEqual(shared);
		expect(await readdir(join(root, "empty"))).toEqual([]);
		// Back, with a FIFO for one of its facts.
		await unlink(inVault);
		await rename(join(root, "kept"), inVault);
		await unlink(join(inVault, "tabs.md"));
		await mkfifo(join(inVault, "tabs.md"));
		expect((await run()).errors.join("\n")).toMatch(/AI Memory\/shop-api: not read, so no fact of it is merged or shared this time: .*tabs\.md is not a plain file \(a FIFO\)/);
		expect((await readdir(memory)).sort()).toEqual(shared);
		expect(await readFile(join(memory, "tabs.md"), "utf8")).toBe(fact("tabs"));
	});
});
