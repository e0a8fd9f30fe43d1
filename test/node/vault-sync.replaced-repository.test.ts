import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_PROJECT, migrateSettings, type Settings } from "../../src/core/settings";
import { readHookContext } from "../../src/node/hook-project";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";
import { assistant, jsonl, resetIds, text, userText } from "../fixtures/lines";

// Real repositories at real paths: a project is its repository's root, told from another made at the same path by its root commit.
let root: string;
let projects: string;
let notes: MemoryNotes;
let app: string;

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });

async function repository(path: string, message?: string): Promise<void> {
	await mkdir(path, { recursive: true });
	git(path, "init", "-q");
	if (message !== undefined) git(path, "commit", "-q", "--allow-empty", "-m", message);
}

/** A Claude Code session in `cwd`, in the transcript folder Claude Code names after it. */
async function session(id: string, prompt: string, at: string, cwd: string): Promise<void> {
	const folder = join(projects, cwd.replace(/[^A-Za-z0-9]/g, "-"));
	await mkdir(folder, { recursive: true });
	await writeFile(join(folder, `${id}.jsonl`), jsonl([userText(prompt, { sessionId: id, cwd, timestamp: at }), assistant(text("Done."), { sessionId: id, cwd, timestamp: at, messageId: `msg_${id}` })]));
}

function settings(...paths: string[]): Settings {
	return { ...migrateSettings({}).settings, projects: paths.map((path) => ({ path, ...DEFAULT_PROJECT })) };
}

const sync = (s: Settings) => new VaultSync(projects, join(root, "state"), notes).run(s);
const sessionNotes = () => [...notes.files.keys()].filter((k) => /\/2026-\d\d-\d\d /.test(k)).sort();

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "replaced-repo-"));
	projects = join(root, "claude", "projects");
	app = join(root, "code", "app");
	notes = new MemoryNotes();
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("a repository replaced by another at its path", () => {
	it("is another project: the newcomer's CLAUDE.md, index and notes hold none of the moved one's sessions, which follow it to its new place", async () => {
		await repository(app, "app begins");
		await session("11111111-1111-4111-8111-111111111111", "Original app: secret roadmap work", "2026-11-29T10:00:00.000Z", app);
		expect((await sync(settings(app))).errors).toEqual([]);
		expect((await readHookContext(join(root, "state"), app))?.packet).toContain("secret roadmap");
		const moved = join(root, "src", "app");
		await mkdir(join(root, "src"));
		await rename(app, moved);
		await repository(app, "newcomer begins");
		// Before any sync of it, the hooks in the newcomer print nothing the last sync prepared for the other.
		expect((await readHookContext(join(root, "state"), app))?.packet).toBeUndefined();
		await session("22222222-2222-4222-8222-222222222222", "Newcomer repo: unrelated cleanup", "2026-11-29T12:00:00.000Z", app);
		expect((await sync(settings(app))).errors).toEqual([]);
		const context = await readHookContext(join(root, "state"), app);
		expect(context?.packet).toContain("unrelated cleanup");
		expect(context?.packet).not.toContain("secret roadmap");

		const block = await readFile(join(app, "CLAUDE.md"), "utf8");
		expect(block).toContain("unrelated cleanup");
		expect(block).not.toContain("secret roadmap");
		// The moved one keeps its folder and index; the newcomer gets its own.
		expect(sessionNotes()).toEqual(["AI Conversations/app (code)/2026-11-29 Newcomer repo꞉ unrelated cleanup.md", "AI Conversations/app/2026-11-29 Original app꞉ secret roadmap work.md"]);
		expect(notes.files.get("AI Conversations/app (code)/app (code).md")).not.toContain("secret roadmap");
		expect(notes.files.get("AI Conversations/app/app.md")).toContain("secret roadmap");
		expect(notes.files.get("AI Conversations/app/app.md")).not.toContain("unrelated cleanup");

		// Its next session, where it is now: its old one follows it there, in its folder.
		await session("33333333-3333-4333-8333-333333333333", "Original app: next step", "2026-11-30T10:00:00.000Z", moved);
		expect((await sync(settings(app, moved))).errors).toEqual([]);
		const movedBlock = await readFile(join(moved, "CLAUDE.md"), "utf8");
		expect(movedBlock).toContain("secret roadmap");
		expect(movedBlock).toContain("next step");
		expect(movedBlock).not.toContain("unrelated cleanup");
		expect(await readFile(join(app, "CLAUDE.md"), "utf8")).not.toContain("secret roadmap");
		expect(sessionNotes()).toEqual(["AI Conversations/app (code)/2026-11-29 Newcomer repo꞉ unrelated cleanup.md", "AI Conversations/app/2026-11-29 Original app꞉ secret roadmap work.md", "AI Conversations/app/2026-11-30 Original app꞉ next step.md"]);
	});

	it("the newcomer shares none of the moved one's facts that Claude Code keeps at the path, and shares its own", async () => {
		const sharing = (...paths: string[]) => ({ ...settings(), projects: paths.map((path) => ({ path, ...DEFAULT_PROJECT, memorySharing: true })) });
		const fact = (name: string) => `---\nname: ${name}\ndescription: About ${name}\ntype: project\n---\nWe do ${name}.\n`;
		// Claude Code keeps a project's memory by its path: the newcomer's sessions find the moved one's facts there.
		const memory = join(projects, app.replace(/[^A-Za-z0-9]/g, "-"), "memory");
		await repository(app, "app begins");
		await session("11111111-1111-4111-8111-111111111111", "Original app: secret roadmap work", "2026-11-29T10:00:00.000Z", app);
		await mkdir(memory, { recursive: true });
		await writeFile(join(memory, "roadmap.md"), fact("roadmap"));
		expect((await sync(sharing(app))).errors).toEqual([]);
		expect(notes.files.has("AI Memory/app/roadmap.md")).toBe(true);
		await rename(app, join(root, "app-moved"));
		await repository(app, "newcomer begins");
		await session("22222222-2222-4222-8222-222222222222", "Newcomer repo: unrelated cleanup", "2026-11-29T12:00:00.000Z", app);
		await writeFile(join(memory, "tabs.md"), fact("tabs"));
		expect((await sync(sharing(app))).errors).toEqual([]);
		const theirs = [...notes.files.keys()].filter((k) => k.startsWith("AI Memory/app (code)/"));
		expect(theirs).toContain("AI Memory/app (code)/tabs.md");
		expect(theirs).not.toContain("AI Memory/app (code)/roadmap.md");
		expect(notes.files.has("AI Memory/app/roadmap.md")).toBe(true);
		expect(await readFile(join(memory, "roadmap.md"), "utf8")).toBe(fact("roadmap"));
	});

	it("a repository with no commit yet made where another was is another project from its first session", async () => {
		await repository(app, "app begins");
		await session("11111111-1111-4111-8111-111111111111", "Original app: secret roadmap work", "2026-11-29T10:00:00.000Z", app);
		await sync(settings(app));
		await rm(app, { recursive: true, force: true });
		await repository(app);
		await session("22222222-2222-4222-8222-222222222222", "Newcomer repo: unrelated cleanup", "2026-11-29T12:00:00.000Z", app);
		expect((await sync(settings(app))).errors).toEqual([]);
		git(app, "commit", "-q", "--allow-empty", "-m", "newcomer begins");
		await session("33333333-3333-4333-8333-333333333333", "Newcomer repo: first commit made", "2026-11-30T12:00:00.000Z", app);
		expect((await sync(settings(app))).errors).toEqual([]);
		const block = await readFile(join(app, "CLAUDE.md"), "utf8");
		expect(block).toContain("unrelated cleanup");
		expect(block).toContain("first commit made");
		expect(block).not.toContain("secret roadmap");
		expect(sessionNotes()).toEqual(["AI Conversations/app (code)/2026-11-29 Newcomer repo꞉ unrelated cleanup.md", "AI Conversations/app (code)/2026-11-30 Newcomer repo꞉ first commit made.md", "AI Conversations/app/2026-11-29 Original app꞉ secret roadmap work.md"]);
	});

	it("a re-clone of the same repository, with more commits fetched, is the same project: one folder, no note twice", async () => {
		const origin = join(root, "origin");
		await repository(origin, "app begins");
		git(root, "clone", "-q", `file://${origin}`, app);
		await session("11111111-1111-4111-8111-111111111111", "First look at the app", "2026-11-29T10:00:00.000Z", app);
		await sync(settings(app));
		git(origin, "commit", "-q", "--allow-empty", "-m", "more");
		await rm(app, { recursive: true, force: true });
		git(root, "clone", "-q", `file://${origin}`, app);
		await session("22222222-2222-4222-8222-222222222222", "Second look at the app", "2026-11-30T10:00:00.000Z", app);
		expect((await sync(settings(app))).errors).toEqual([]);
		const block = await readFile(join(app, "CLAUDE.md"), "utf8");
		expect(block).toContain("First look");
		expect(block).toContain("Second look");
		expect(sessionNotes()).toEqual(["AI Conversations/app/2026-11-29 First look at the app.md", "AI Conversations/app/2026-11-30 Second look at the app.md"]);
	});

	it("a repository with no commit yet keeps its identity through its first commit", async () => {
		await repository(app);
		await session("11111111-1111-4111-8111-111111111111", "Start the app", "2026-11-29T10:00:00.000Z", app);
		await sync(settings(app));
		git(app, "commit", "-q", "--allow-empty", "-m", "app begins");
		await session("22222222-2222-4222-8222-222222222222", "Carry on with the app", "2026-11-30T10:00:00.000Z", app);
		expect((await sync(settings(app))).errors).toEqual([]);
		git(app, "commit", "-q", "--allow-empty", "-m", "more");
		await session("33333333-3333-4333-8333-333333333333", "Finish the app", "2026-12-01T10:00:00.000Z", app);
		expect((await sync(settings(app))).errors).toEqual([]);
		const block = await readFile(join(app, "CLAUDE.md"), "utf8");
		for (const prompt of ["Start the app", "Carry on", "Finish the app"]) expect(block).toContain(prompt);
		expect(sessionNotes()).toEqual(["AI Conversations/app/2026-11-29 Start the app.md", "AI Conversations/app/2026-11-30 Carry on with the app.md", "AI Conversations/app/2026-12-01 Finish the app.md"]);
	});
});
