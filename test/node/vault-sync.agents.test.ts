import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SqliteImage } from "../../src/node/sqlite-image";
import { DEFAULT_PROJECT, migrateSettings, type Settings } from "../../src/core/settings";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";

/**
 * Codex CLI and Gemini CLI sessions recorded from the real clients, with the bundled Claude Code
 * examples, into one vault: one history across agents. The recorded sessions ran in folders that
 * are gone; each is moved to one project folder here, as if the person used all three agents in it.
 */
const FIXTURES = join(__dirname, "..", "fixtures", "agents");
let root: string;
let project: string;
let notes: MemoryNotes;

/** Copies a tree, replacing a path inside every file (the recorded project folders). */
function copyWith(from: string, to: string, replace: [string, string][]): void {
	cpSync(from, to, { recursive: true });
	for (const f of readdirSync(to, { recursive: true }) as string[]) {
		const path = join(to, f);
		if (!statSync(path).isFile()) continue;
		let text = readFileSync(path, "utf8");
		for (const [a, b] of replace) text = text.split(a).join(b);
		writeFileSync(path, text);
	}
}

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "vault-agents-"));
	project = join(root, "demo-project");
	cpSync(join(__dirname, "..", "..", "examples", "claude-projects"), join(root, "claude", "projects"), { recursive: true });
	const recorded = readFileSync(join(FIXTURES, "codex", "0.171.0", "b-tool-call", "sessions", "2026", "12", "01", readdirSync(join(FIXTURES, "codex", "0.171.0", "b-tool-call", "sessions", "2026", "12", "01"))[0]!), "utf8");
	const codexCwd = /"cwd":"([^"]+)"/.exec(recorded)![1]!;
	copyWith(join(FIXTURES, "codex", "0.171.0", "b-tool-call"), join(root, "codex"), [[codexCwd, project]]);
	copyWith(join(FIXTURES, "gemini-cli", "0.61.0", "home"), join(root, "gemini"), [["/tmp/gemini-record/work/demo-project", project]]);
	const copilot = join(FIXTURES, "copilot-cli", "1.0.102", "b-tool-calls");
	const copilotCwd = /"cwd":"([^"]+)"/.exec(readFileSync(join(copilot, "session-state", readdirSync(join(copilot, "session-state"))[0]!, "events.jsonl"), "utf8"))![1]!;
	copyWith(copilot, join(root, "copilot"), [[copilotCwd, project]]);
	mkdirSync(project);
	// Aider's history is in the project's folder (written by hand the way Aider's source writes it).
	cpSync(join(FIXTURES, "aider", "0.86", "project", ".aider.chat.history.md"), join(project, ".aider.chat.history.md"));
	notes = new MemoryNotes();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const settings = (extra: Partial<Settings> = {}): Settings => ({ ...migrateSettings({}).settings, projects: [{ ...DEFAULT_PROJECT, path: project, memorySharing: false }], ...extra });
const sync = (s: Settings) =>
	new VaultSync(join(root, "claude", "projects"), join(root, "state"), notes, {
		roots: (x) => ({ ...(x.agents.includes("claude-code") ? { "claude-code": join(root, "claude", "projects") } : {}), ...(x.agents.includes("codex") ? { codex: join(root, "codex") } : {}), ...(x.agents.includes("gemini-cli") ? { "gemini-cli": join(root, "gemini") } : {}), ...(x.agents.includes("copilot-cli") ? { "copilot-cli": join(root, "copilot") } : {}), ...(x.agents.includes("aider") ? { aider: x.projects.map((p) => p.path) } : {}) }),
	}).run(s);
const agentOfNote = (text: string) => /\nagent: (\S+)\n/.exec(text)?.[1];

describe("VaultSync with Codex CLI, Gemini CLI, Copilot CLI and Aider", () => {
	it("writes every agent's sessions as notes of one project, each with its agent, and names them in the context block", async () => {
		// A block of 12 sessions: Aider's sessions are the oldest of this project's.
		const all = () => settings({ projects: [{ ...DEFAULT_PROJECT, path: project, memorySharing: false, sessions: 12 }] });
		const report = await sync(all());
		expect(report.errors).toEqual([]);
		// The recorded Gemini sessions include one of another folder named demo-project: that one gets the parent's name too.
		const folder = [...notes.files.keys()].find((p) => agentOfNote(notes.files.get(p)!) === "codex")!.split("/").slice(0, 2).join("/");
		const inProject = [...notes.files].filter(([p]) => p.startsWith(`${folder}/2026`));
		const agents = new Set(inProject.map(([, text]) => agentOfNote(text)));
		expect(agents).toEqual(new Set(["codex", "gemini-cli", "copilot-cli", "aider"]));
		const codex = inProject.find(([, t]) => agentOfNote(t) === "codex")![1];
		expect(codex).toContain("cat README.md");
		expect(codex).toContain("branch: feature/demo");
		// Claude Code's examples are another project's, with their own agent.
		expect([...notes.files].filter(([p]) => p.startsWith("AI Conversations/shop-api/2026")).every(([, t]) => agentOfNote(t) === "claude-code")).toBe(true);
		const block = readFileSync(join(project, "CLAUDE.md"), "utf8");
		expect(block).toContain("(Codex)");
		expect(block).toContain("(Gemini CLI)");
		expect(block).toContain("(Copilot CLI)");
		expect(block).toContain("(Aider)");
		// Nothing to do the second time.
		const again = await sync(all());
		expect(again).toMatchObject({ transcriptsRead: 0, notesWritten: [], errors: [] });
	});

	it("reads only the agents the settings turn on", async () => {
		await sync(settings({ agents: ["claude-code"] }));
		expect([...notes.files.values()].some((t) => agentOfNote(t) === "codex" || agentOfNote(t) === "gemini-cli")).toBe(false);
		await sync(settings({ agents: ["claude-code", "codex"] }));
		expect([...notes.files.values()].some((t) => agentOfNote(t) === "codex")).toBe(true);
		expect([...notes.files.values()].some((t) => agentOfNote(t) === "gemini-cli")).toBe(false);
	});

	it("Codex: a rollout copied into archived_sessions/ (the original left) is one session, one note; then the original deleted, or a rollout moved, still one note", async () => {
		const day = join(root, "codex", "sessions", "2026", "12", "01");
		const name = readdirSync(day)[0]!;
		const archive = join(root, "codex", "archived_sessions");
		const codexNotes = () => [...notes.files.values()].filter((t) => agentOfNote(t) === "codex");
		await sync(settings({ agents: ["codex"] }));
		expect(codexNotes()).toHaveLength(1);
		mkdirSync(archive);
		cpSync(join(day, name), join(archive, name));
		expect(await sync(settings({ agents: ["codex"] }))).toMatchObject({ errors: [] });
		expect(codexNotes()).toHaveLength(1);
		// Codex's own archiving is a move: the original goes, the copy is the session's file now.
		rmSync(join(day, name));
		const moved = await sync(settings({ agents: ["codex"] }));
		expect(moved.errors).toEqual([]);
		expect(moved.notices.join("\n")).toContain("found in a new place");
		expect(codexNotes()).toHaveLength(1);
		// And moved back (unarchived), as a rename.
		renameSync(join(archive, name), join(day, name));
		expect(await sync(settings({ agents: ["codex"] }))).toMatchObject({ errors: [] });
		expect(codexNotes()).toHaveLength(1);
		expect(codexNotes()[0]).toContain("cat README.md");
	});

	it("Codex: a rollout moved into archived_sessions/ before it had a note (no prompt yet) leaves no model behind at its old place", async () => {
		// Attack round 51b: the old path's model stayed in the state for good, and the list of transcripts read named a file gone.
		const day = join(root, "codex", "sessions", "2026", "12", "01");
		const name = readdirSync(day)[0]!;
		const whole = readFileSync(join(day, name), "utf8");
		writeFileSync(join(day, name), `${whole.split("\n")[0]!}\n`);
		await sync(settings({ agents: ["codex"] }));
		const known = () => (JSON.parse(readFileSync(join(root, "state", "transcripts.json"), "utf8")) as { path: string }[]).map((f) => f.path);
		expect(known()).toEqual([join(day, name)]);
		const archive = join(root, "codex", "archived_sessions");
		mkdirSync(archive);
		writeFileSync(join(day, name), whole);
		renameSync(join(day, name), join(archive, name));
		const moved = await sync(settings({ agents: ["codex"] }));
		expect(moved.errors).toEqual([]);
		// It had no note to keep: none is said kept.
		expect(moved.notices.join("\n")).not.toContain("found in a new place");
		expect(known()).toEqual([join(archive, name)]);
		expect([...notes.files.values()].filter((t) => agentOfNote(t) === "codex")).toHaveLength(1);
		const models = JSON.stringify(readdirSync(join(root, "state", "models")).map((f) => readFileSync(join(root, "state", "models", f), "utf8")));
		expect(models).not.toContain(join(day, name));
	});

	it("a Gemini CLI session that grows is read again whole: its turns each once", async () => {
		await sync(settings({ agents: ["gemini-cli"] }));
		const chats = join(root, "gemini", "tmp", "demo-project", "chats");
		const file = readdirSync(chats).find((f) => f.endsWith(".jsonl") && readFileSync(join(chats, f), "utf8").includes('"Say hello"'))!;
		const id = /"sessionId":"([^"]+)"/.exec(readFileSync(join(chats, file), "utf8"))![1]!;
		const noteOf = () => [...notes.files.values()].find((t) => t.startsWith(`---\nsession_id: ${id}\n`))!;
		const count = (text: string, part: string) => text.split(part).length - 1;
		const before = count(noteOf(), "STUB-REPLY-TEXT: Hello from the stub");
		const lines = [
			{ id: "u-more", timestamp: "2026-12-01T15:50:00.000Z", type: "user", content: [{ text: "And one more thing" }] },
			{ id: "g-more", timestamp: "2026-12-01T15:50:01.000Z", type: "gemini", content: "Done the one more thing.", model: "gemini-3.8-flash" },
		];
		writeFileSync(join(chats, file), `${readFileSync(join(chats, file), "utf8")}${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const report = await sync(settings({ agents: ["gemini-cli"] }));
		expect(report.transcriptsRead).toBe(1);
		expect(noteOf()).toContain("And one more thing");
		expect(count(noteOf(), "STUB-REPLY-TEXT: Hello from the stub")).toBe(before);
	});

	it("Aider: one note per session of the history; a session that grows is read on, the others left alone", async () => {
		await sync(settings({ agents: ["aider"] }));
		const aider = () => [...notes.files].filter(([, t]) => agentOfNote(t) === "aider");
		const ids = aider().map(([, t]) => /\nsession_id: (\S+)\n/.exec(t)?.[1] ?? "");
		expect(ids.map((id) => id.replace(/^aider-\w+-/, "")).sort()).toEqual(["2026-11-30-09-12-03", "2026-11-30-14-40-55", "2026-12-01-08-05-10"]);
		const first = aider().find(([, t]) => t.includes("cart total ignores the discount"))![1];
		expect(first).toContain("commit 1a2b3c4");
		expect(first).toContain("cost_usd: 0.03");
		appendFileSync(join(project, ".aider.chat.history.md"), "\nI'll rename `qty` to `quantity` in `src/cart.py` and its tests.\n\n> Applied edit to src/cart.py  \n");
		const report = await sync(settings({ agents: ["aider"] }));
		expect(report.transcriptsRead).toBe(1);
		const sessionNotes = report.notesWritten.filter((p) => aider().some(([q]) => q === p));
		expect(sessionNotes).toHaveLength(1);
		const last = aider().find(([, t]) => t.includes("Rename Item.qty"))![1];
		expect(last).toContain("rename `qty` to `quantity`");
		expect(last).toContain("src/cart.py");
	});
});

describe("VaultSync with opencode", () => {
	const OPENCODE = join(FIXTURES, "opencode");
	const data = () => join(root, "opencode");
	const syncOpencode = () => new VaultSync(join(root, "claude", "projects"), join(root, "state"), notes, { roots: () => ({ opencode: data() }) }).run(settings({ agents: ["opencode"] }));
	const noteOf = (id: string) => [...notes.files].find(([, t]) => t.startsWith(`---\nsession_id: ${id}\n`));
	const PARENT = "ses_dcd5c92d6ffelM9p6XPBL08S0T";
	const CHILD = "ses_dcd5c7bb6ffeqh9l1DiBpzPbIE";
	const LAST = "ses_dcd5c0560ffegzsr8e2qThfHvJ";

	it("each session (the one in the WAL too) becomes a note with agent opencode, its cost; a sub-agent's work is in its parent's note", async () => {
		cpSync(join(OPENCODE, "1.18.33", "data"), data(), { recursive: true });
		const report = await syncOpencode();
		expect(report.errors).toEqual([]);
		const written = [...notes.files].filter(([, t]) => agentOfNote(t) === "opencode");
		// Ten sessions, one of them a sub-agent's: nine notes.
		expect(written).toHaveLength(9);
		expect(noteOf(LAST)?.[1]).toContain("You are in the src folder of the demo project.");
		expect(noteOf(CHILD)).toBeUndefined();
		const parent = noteOf(PARENT)![1];
		expect(parent).toContain("Top-level files: README.md, AGENTS.md, src/.");
		expect(parent).toMatch(/\ncost_usd: 0\.\d+\n/);
		expect(parent).toContain("\nagent: opencode\n");
		// No file was written beside opencode's database, none was changed.
		expect(readdirSync(data()).sort()).toEqual(["opencode.db", "opencode.db-wal"]);
		expect(readFileSync(join(data(), "opencode.db")).equals(readFileSync(join(OPENCODE, "1.18.33", "data", "opencode.db")))).toBe(true);
		expect(readFileSync(join(data(), "opencode.db-wal")).equals(readFileSync(join(OPENCODE, "1.18.33", "data", "opencode.db-wal")))).toBe(true);
		expect(await syncOpencode()).toMatchObject({ transcriptsRead: 0, notesWritten: [], errors: [] });
	});

	it("a database that changed: only the sessions that changed are read again", async () => {
		// The recording's main file alone is the database as it was before its last run (see the fixture's README).
		mkdirSync(data());
		cpSync(join(OPENCODE, "1.18.33", "data", "opencode.db"), join(data(), "opencode.db"));
		const before = await syncOpencode();
		expect(before.errors).toEqual([]);
		expect(before.transcriptsRead).toBe(9);
		expect(noteOf(LAST)).toBeUndefined();
		// Then the last run's log arrives.
		cpSync(join(OPENCODE, "1.18.33", "data", "opencode.db-wal"), join(data(), "opencode.db-wal"));
		const after = await syncOpencode();
		expect(after).toMatchObject({ transcriptsRead: 1, errors: [] });
		expect(noteOf(LAST)).toBeDefined();
	});

	it("a database whose files did not change is not even opened; one that became garbage is reported, every note kept", async () => {
		cpSync(join(OPENCODE, "1.18.33", "data"), data(), { recursive: true });
		expect((await syncOpencode()).errors).toEqual([]);
		const opened = vi.spyOn(SqliteImage, "open");
		try {
			expect(await syncOpencode()).toMatchObject({ transcriptsRead: 0, errors: [] });
			expect(opened).not.toHaveBeenCalled();
		} finally {
			opened.mockRestore();
		}
		const db = join(data(), "opencode.db");
		writeFileSync(db, Buffer.alloc(statSync(db).size, 0x41), { flag: "r+" });
		const broken = await syncOpencode();
		expect(broken.errors).toHaveLength(1);
		expect(broken.errors).toEqual([`${db}: not an SQLite database`]);
		expect([...notes.files.values()].filter((t) => agentOfNote(t) === "opencode")).toHaveLength(9);
	});

	it("the JSON files of versions before 1.2 are read too, beside a database", async () => {
		cpSync(join(OPENCODE, "1.18.33", "data"), data(), { recursive: true });
		cpSync(join(OPENCODE, "1.1.65", "data", "storage"), join(data(), "storage"), { recursive: true });
		const report = await syncOpencode();
		expect(report.errors).toEqual([]);
		// Nine from the database, three from the files (and their sub-agent's work in its parent's note).
		expect([...notes.files.values()].filter((t) => agentOfNote(t) === "opencode")).toHaveLength(12);
		expect(noteOf("ses_dcd596c7fffetKgfQdRGdO5JSa")?.[1]).toContain("Top-level files: README.md, AGENTS.md, src/.");
	});
});
