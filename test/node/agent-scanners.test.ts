import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { AIDER_HISTORY, aiderHistoryName, scanAider, scanCodex, scanCopilot, scanGemini } from "../../src/node/agent-scanners";
import type { PassedOver } from "../../src/node/transcript-scanner";

// A folder named `unreadable-…` is one the user may not enter, as for another user than its owner
// (the tests may run as root, whom no mode stops): looking at anything in it fails with EACCES.
vi.mock("node:fs", async (original) => {
	const fs = await original<typeof import("node:fs")>();
	const lstatSync = ((path: string, options?: object) => {
		if (/[\\/]unreadable-[^\\/]*[\\/]/.test(String(path))) throw Object.assign(new Error(`EACCES: permission denied, lstat '${String(path)}'`), { code: "EACCES", path: String(path) });
		return fs.lstatSync(path, options);
	}) as typeof fs.lstatSync;
	return { ...fs, lstatSync, default: { ...fs, lstatSync } };
});

const FIXTURES = join(__dirname, "..", "fixtures", "agents");

describe("scanCodex", () => {
	it("finds the rollouts under sessions/YYYY/MM/DD, named by their session id", async () => {
		const files = await scanCodex(join(FIXTURES, "codex", "0.171.0", "b-tool-call"));
		expect(files).toHaveLength(1);
		expect(files[0]).toMatchObject({ agent: "codex", kind: "session", fileId: "01a23243-6605-7bf0-a729-fbdb07820fd2", projectDir: "codex" });
		expect(files[0]!.size).toBeGreaterThan(0);
	});

	it("gives nothing for a folder that is not there", async () => {
		expect(await scanCodex(join(FIXTURES, "nowhere"))).toEqual([]);
	});

	it("a rollout copied into archived_sessions/ with its original left is one session: the larger file, at equal size the one under sessions/", async () => {
		const root = mkdtempSync(join(tmpdir(), "codex-copied-"));
		try {
			const id = "01a23243-6605-7bf0-a729-fbdb07820fd2";
			const name = `rollout-2026-12-01T10-00-00-${id}.jsonl`;
			const day = join(root, "sessions", "2026", "12", "01");
			mkdirSync(day, { recursive: true });
			mkdirSync(join(root, "archived_sessions"));
			writeFileSync(join(day, name), "{}\n");
			writeFileSync(join(root, "archived_sessions", name), "{}\n");
			// Another session beside them stays.
			writeFileSync(join(day, "rollout-2026-12-01T11-00-00-01a23243-6605-7bf0-a729-fbdb07820fd3.jsonl"), "{}\n");
			const paths = async () => (await scanCodex(root)).map((f) => f.path.slice(root.length + 1)).sort();
			expect(await paths()).toEqual([`sessions/2026/12/01/${name}`, "sessions/2026/12/01/rollout-2026-12-01T11-00-00-01a23243-6605-7bf0-a729-fbdb07820fd3.jsonl"]);
			// The copy holds more (the original cut short, or the copy resumed): the copy.
			writeFileSync(join(root, "archived_sessions", name), "{}\n{}\n");
			expect((await paths())[0]).toBe(`archived_sessions/${name}`);
			expect(await paths()).toHaveLength(2);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});

describe("scanCodex, a file-sync tool's copies", () => {
	it("reads one of a rollout and its conflict copy, the larger, and names the other", async () => {
		const home = mkdtempSync(join(tmpdir(), "codex-conflict-"));
		try {
			const day = join(home, "sessions", "2026", "12", "01");
			mkdirSync(day, { recursive: true });
			const name = "rollout-2026-12-01T10-00-00-eeee5555-0000-4000-8000-000000000005";
			writeFileSync(join(day, `${name}.jsonl`), "{}\n");
			writeFileSync(join(day, `${name}.sync-conflict-20261202-101010-ABCDEFG.jsonl`), "{}\n{}\n");
			const passed: PassedOver[] = [];
			expect((await scanCodex(home, passed)).map((f) => f.path)).toEqual([join(day, `${name}.sync-conflict-20261202-101010-ABCDEFG.jsonl`)]);
			expect(passed.map((p) => p.path)).toEqual([join(day, `${name}.jsonl`)]);
		} finally {
			rmSync(home, { recursive: true, force: true });
		}
	});
});

describe("the other agents' folders: what is not read", () => {
	it("a link or FIFO where a Codex rollout, a Gemini CLI session or a Copilot CLI session goes is not read, and said", async () => {
		const root = mkdtempSync(join(tmpdir(), "agent-passed-"));
		try {
			const outside = join(root, "outside.jsonl");
			writeFileSync(outside, "{}\n");
			const day = join(root, "codex", "sessions", "2026", "12", "01");
			mkdirSync(day, { recursive: true });
			symlinkSync(outside, join(day, "rollout-2026-12-01T10-00-00-01a23243-6605-7bf0-a729-fbdb07820fd2.jsonl"));
			execFileSync("mkfifo", [join(day, "rollout-2026-12-01T11-00-00-01a23243-6605-7bf0-a729-fbdb07820fd3.jsonl")]);
			const chats = join(root, "gemini", "tmp", "p", "chats");
			mkdirSync(chats, { recursive: true });
			symlinkSync(outside, join(chats, "session-2026-12-01T10-00-ad6bc2cc.jsonl"));
			mkdirSync(join(root, "copilot", "session-state"), { recursive: true });
			mkdirSync(join(root, "elsewhere"));
			symlinkSync(join(root, "elsewhere"), join(root, "copilot", "session-state", "02e30a0b-e727-4fae-a24a-00401b71d0b4"));
			const passed: PassedOver[] = [];
			expect(await scanCodex(join(root, "codex"), passed)).toEqual([]);
			expect(await scanGemini(join(root, "gemini"), undefined, undefined, passed)).toEqual([]);
			expect(await scanCopilot(join(root, "copilot"), passed)).toEqual([]);
			expect(passed.map((p) => `${p.path.slice(root.length + 1)}: ${p.reason.split(" (")[0]}`).sort()).toEqual([
				"codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-01a23243-6605-7bf0-a729-fbdb07820fd2.jsonl: not read: a link",
				"codex/sessions/2026/12/01/rollout-2026-12-01T11-00-00-01a23243-6605-7bf0-a729-fbdb07820fd3.jsonl: not read: neither a file nor a folder",
				"copilot/session-state/02e30a0b-e727-4fae-a24a-00401b71d0b4: not read: a link",
				"gemini/tmp/p/chats/session-2026-12-01T10-00-ad6bc2cc.jsonl: not read: a link",
			]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("a link in place of a Copilot CLI session's events.jsonl, or of a Gemini CLI project's folder, chats folder or folder of sub-agents, is not followed, and said", async () => {
		const root = mkdtempSync(join(tmpdir(), "agent-passed-"));
		try {
			mkdirSync(join(root, "outside", "chats"), { recursive: true });
			writeFileSync(join(root, "outside", "events.jsonl"), "{}\n");
			writeFileSync(join(root, "outside", "chats", "session-2026-12-01T10-00-ad6bc2cc.jsonl"), "{}\n");
			const session = join(root, "copilot", "session-state", "02e30a0b-e727-4fae-a24a-00401b71d0b4");
			mkdirSync(session, { recursive: true });
			symlinkSync(join(root, "outside", "events.jsonl"), join(session, "events.jsonl"));
			mkdirSync(join(root, "gemini", "tmp", "p"), { recursive: true });
			symlinkSync(join(root, "outside", "chats"), join(root, "gemini", "tmp", "p", "chats"));
			// A FIFO in place of a sub-agent's transcript, in another project's chats; a project folder and a folder of sub-agents that are links.
			const sub = join(root, "gemini", "tmp", "q", "chats", "5b1f0c52-0000-4000-8000-000000000001");
			mkdirSync(sub, { recursive: true });
			execFileSync("mkfifo", [join(sub, "agent-1.jsonl")]);
			symlinkSync(join(root, "outside"), join(root, "gemini", "tmp", "linked"));
			symlinkSync(join(root, "outside"), join(root, "gemini", "tmp", "q", "chats", "5b1f0c52-0000-4000-8000-000000000002"));
			// A folder in place of a Codex rollout.
			mkdirSync(join(root, "codex", "sessions", "2026", "12", "01", "rollout-2026-12-01T10-00-00-01a23243-6605-7bf0-a729-fbdb07820fd2.jsonl"), { recursive: true });
			const passed: PassedOver[] = [];
			expect(await scanCopilot(join(root, "copilot"), passed)).toEqual([]);
			expect(await scanGemini(join(root, "gemini"), undefined, undefined, passed)).toEqual([]);
			expect(await scanCodex(join(root, "codex"), passed)).toEqual([]);
			expect(passed.map((p) => `${p.path.slice(root.length + 1)}: ${p.reason.split(" (")[0]}`).sort()).toEqual([
				"codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-01a23243-6605-7bf0-a729-fbdb07820fd2.jsonl: not read: a folder under a rollout's name",
				"copilot/session-state/02e30a0b-e727-4fae-a24a-00401b71d0b4/events.jsonl: not read: a link",
				"gemini/tmp/linked: not read: a link",
				"gemini/tmp/p/chats: not read: a link",
				"gemini/tmp/q/chats/5b1f0c52-0000-4000-8000-000000000001/agent-1.jsonl: not read: neither a file nor a folder",
				"gemini/tmp/q/chats/5b1f0c52-0000-4000-8000-000000000002: not read: a link",
			]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});

describe("the other agents' folders: what cannot be looked at", () => {
	it("a session folder that cannot be entered is named, and the agent's other sessions are read (it stopped the scan of them all)", async () => {
		const root = mkdtempSync(join(tmpdir(), "agent-no-entry-"));
		try {
			const state = join(root, "copilot", "session-state");
			for (const id of ["unreadable-1", "02e30a0b-e727-4fae-a24a-00401b71d0b4"]) {
				mkdirSync(join(state, id), { recursive: true });
				writeFileSync(join(state, id, "events.jsonl"), "{}\n");
			}
			for (const project of ["unreadable-p", "q"]) {
				mkdirSync(join(root, "gemini", "tmp", project, "chats"), { recursive: true });
				writeFileSync(join(root, "gemini", "tmp", project, "chats", "session-2026-12-01T10-00-ad6bc2cc.jsonl"), "{}\n");
			}
			const passed: PassedOver[] = [];
			expect((await scanCopilot(join(root, "copilot"), passed)).map((f) => f.fileId)).toEqual(["02e30a0b-e727-4fae-a24a-00401b71d0b4"]);
			expect((await scanGemini(join(root, "gemini"), undefined, undefined, passed)).map((f) => f.projectDir)).toEqual(["q"]);
			expect(passed.map((p) => `${p.path.slice(root.length + 1)}: ${p.reason}`).sort()).toEqual([
				"copilot/session-state/unreadable-1/events.jsonl: not read: permission denied (EACCES)",
				"gemini/tmp/unreadable-p/chats: not read: permission denied (EACCES)",
			]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("a file where an agent's folder of sessions should be is named, not taken for an empty folder", async () => {
		const root = mkdtempSync(join(tmpdir(), "agent-not-folder-"));
		try {
			for (const [home, folder] of [["codex", "sessions"], ["gemini", "tmp"], ["copilot", "session-state"]]) {
				mkdirSync(join(root, home!));
				writeFileSync(join(root, home!, folder!), "not a folder\n");
			}
			const passed: PassedOver[] = [];
			expect(await scanCodex(join(root, "codex"), passed)).toEqual([]);
			expect(await scanGemini(join(root, "gemini"), undefined, undefined, passed)).toEqual([]);
			expect(await scanCopilot(join(root, "copilot"), passed)).toEqual([]);
			expect(passed.map((p) => `${p.path.slice(root.length + 1)}: ${p.reason.split(" (")[0]}`).sort()).toEqual([
				"codex/sessions: not read: a file stands where a folder of the path should be",
				"copilot/session-state: not read: a file stands where a folder of the path should be",
				"gemini/tmp: not read: a file stands where a folder of the path should be",
			]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});

describe("scanGemini", () => {
	it("finds sessions and sub-agents per project, with the project's folder and each session's full id", async () => {
		const files = await scanGemini(join(FIXTURES, "gemini-cli", "0.61.0", "home"));
		const sessions = files.filter((f) => f.kind === "session");
		expect(sessions.length).toBeGreaterThanOrEqual(5);
		for (const f of files) expect(f.agent).toBe("gemini-cli");
		const demo = sessions.filter((f) => f.projectDir === "demo-project");
		expect(demo.every((f) => f.cwd === "/tmp/gemini-record/work/demo-project")).toBe(true);
		for (const f of sessions) expect(f.fileId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
		const agent = files.find((f) => f.kind === "subagent");
		expect(agent?.parentSessionId).toBe("f17111ec-2c36-47af-b37c-0cb47f648841");
		expect(sessions.some((s) => s.fileId === agent?.parentSessionId)).toBe(true);
	});
});

/** A Gemini CLI home made for a test, with its project's `chats` folder, removed after. */
async function inGeminiChats(prefix: string, test: (home: string, chats: string) => Promise<void>): Promise<void> {
	const home = mkdtempSync(join(tmpdir(), prefix));
	try {
		const chats = join(home, "tmp", "proj", "chats");
		mkdirSync(chats, { recursive: true });
		await test(home, chats);
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}

describe("scanGemini, the session id in a file's head", () => {
	it("is read where Gemini CLI writes it (first), where an older CLI's JSON has it (after blanks), past a key that holds no id, and else taken from the name", async () => {
		await inGeminiChats("gemini-ids-", async (home, chats) => {
			const ids = ["aaaa1111-0000-4000-8000-000000000001", "bbbb2222-0000-4000-8000-000000000002", "cccc3333-0000-4000-8000-000000000003"];
			writeFileSync(join(chats, "session-2026-12-01T10-00-aaaa1111.jsonl"), `{"sessionId":"${ids[0]}","kind":"main"}\n`);
			writeFileSync(join(chats, "session-2026-12-01T10-01-bbbb2222.json"), `{\n  "sessionId" : "${ids[1]}",\n  "messages": []\n}`);
			writeFileSync(join(chats, "session-2026-12-01T10-02-cccc3333.jsonl"), `{"sessionId":42,"meta":{"sessionId":"${ids[2]}"}}\n`);
			writeFileSync(join(chats, "session-2026-12-01T10-03-dddd4444.jsonl"), `{"sessionId":"short"}\n`);
			const files = await scanGemini(home);
			expect(files.map((f) => f.fileId).sort()).toEqual([...ids, "session-2026-12-01T10-03-dddd4444"].sort());
		});
	});
});

describe("scanGemini, sub-agent folders", () => {
	it("lists each session's sub-agents (all folders at once) in the place of its folder, as a listing in turn would", async () => {
		await inGeminiChats("gemini-agents-", async (home, chats) => {
			const parents = ["aaaa1111-0000-4000-8000-000000000001", "bbbb2222-0000-4000-8000-000000000002", "cccc3333-0000-4000-8000-000000000003"];
			for (const [i, parent] of parents.entries()) {
				writeFileSync(join(chats, `session-2026-12-01T10-0${i}-${parent.slice(0, 8)}.jsonl`), `${JSON.stringify({ sessionId: parent, startTime: "2026-12-01T10:00:00.000Z" })}\n`);
				mkdirSync(join(chats, parent));
				for (const agent of ["one", "two"]) writeFileSync(join(chats, parent, `${agent}-${i}.jsonl`), "{}\n");
				writeFileSync(join(chats, parent, "notes.txt"), "not a transcript");
			}
			// What a listing in turn gives: the folder's entries in their order, each sub-agent folder's files where it is.
			const expected: string[] = [];
			for (const entry of readdirSync(chats, { withFileTypes: true })) {
				if (entry.isFile()) expected.push(join(chats, entry.name));
				else for (const agent of readdirSync(join(chats, entry.name))) if (agent.endsWith(".jsonl")) expected.push(join(chats, entry.name, agent));
			}
			const files = await scanGemini(home);
			expect(files.map((f) => f.path)).toEqual(expected);
			const agents = files.filter((f) => f.kind === "subagent");
			expect(agents).toHaveLength(6);
			for (const agent of agents) expect(agent.path.startsWith(join(chats, agent.parentSessionId!))).toBe(true);
			expect(files.filter((f) => f.kind === "session").map((f) => f.fileId).sort()).toEqual(parents);
		});
	});
});

describe("scanGemini, a file-sync tool's copies", () => {
	it("reads one file of a session whose file has a conflict copy beside it, and of a sub-agent's, naming the other", async () => {
		await inGeminiChats("gemini-copies-", async (home, chats) => {
			const id = "dddd4444-0000-4000-8000-000000000004";
			mkdirSync(join(chats, id), { recursive: true });
			const first = `${JSON.stringify({ sessionId: id, startTime: "2026-12-01T10:00:00.000Z" })}\n`;
			writeFileSync(join(chats, "session-2026-12-01T10-00-dddd4444.jsonl"), first);
			// The other machine went on: its copy is the longer.
			writeFileSync(join(chats, "session-2026-12-01T10-00-dddd4444 (conflicted copy 2026-12-02).jsonl"), `${first}{"type":"user"}\n`);
			// A session resumed into a file of its own is not a copy: both are read.
			writeFileSync(join(chats, "session-2026-12-02T09-00-dddd4444.jsonl"), first);
			writeFileSync(join(chats, id, "helper.jsonl"), "{}\n");
			writeFileSync(join(chats, id, "helper.sync-conflict-20261202-101010-ABCDEFG.jsonl"), "{}\n");
			const passed: PassedOver[] = [];
			const files = await scanGemini(home, undefined, undefined, passed);
			expect(files.map((f) => f.path.slice(chats.length + 1)).sort()).toEqual([join(id, "helper.jsonl"), "session-2026-12-01T10-00-dddd4444 (conflicted copy 2026-12-02).jsonl", "session-2026-12-02T09-00-dddd4444.jsonl"]);
			expect(files.find((f) => f.kind === "subagent")?.agentId).toBe("helper");
			expect(passed.map((p) => p.path.slice(chats.length + 1)).sort()).toEqual([join(id, "helper.sync-conflict-20261202-101010-ABCDEFG.jsonl"), "session-2026-12-01T10-00-dddd4444.jsonl"]);
		});
	});
});

describe("scanGemini, again and for a read", () => {
	it("a file unchanged since the last scan keeps its id unopened; a new one (a sub-agent's too) is read whole for the fold, bytes as on disk", async () => {
		const home = join(FIXTURES, "gemini-cli", "0.61.0", "home");
		const first = await scanGemini(home);
		const session = first.find((f) => f.kind === "session")!;
		const known = new Map(first.map((f) => [f.path, f.path === session.path ? { ...f, fileId: "as-known-before" } : f]));
		const prefetch = new Map<string, { bytes: Buffer; ino: number; mtimeMs: number }>();
		const again = await scanGemini(home, known, prefetch);
		expect(again.find((f) => f.path === session.path)?.fileId).toBe("as-known-before");
		// Nothing changed: nothing opened, nothing kept.
		expect(prefetch.size).toBe(0);
		const fresh = new Map<string, { bytes: Buffer; ino: number; mtimeMs: number }>();
		await scanGemini(home, undefined, fresh);
		// Sub-agents' files too: each new file is opened once, by the scan.
		const subagent = first.find((f) => f.kind === "subagent")!;
		expect(fresh.size).toBe(first.length);
		expect(fresh.get(session.path)?.bytes.equals(readFileSync(session.path))).toBe(true);
		expect(fresh.get(subagent.path)?.bytes.equals(readFileSync(subagent.path))).toBe(true);
		// With the file's stamp: a last line without its newline is judged by it (see transcript-tail.ts).
		expect(fresh.get(session.path)?.mtimeMs).toBe(session.mtimeMs);
		expect(fresh.get(session.path)?.ino).toBe(session.ino);
	});
});

describe("scanCopilot", () => {
	it("finds session-state/<id>/events.jsonl, named by the session's id", async () => {
		const files = await scanCopilot(join(FIXTURES, "copilot-cli", "1.0.102", "c-resume"));
		expect(files).toHaveLength(1);
		expect(files[0]).toMatchObject({ agent: "copilot-cli", kind: "session", projectDir: "copilot" });
		expect(files[0]!.path.endsWith(`${files[0]!.fileId}/events.jsonl`)).toBe(true);
	});
});

describe("scanAider", () => {
	it("finds each project's .aider.chat.history.md, a file of several sessions with the project as its folder", async () => {
		// A copy outside this repository: here git tracks the fixture, and a tracked history is not read.
		const root = mkdtempSync(join(tmpdir(), "scan-aider-"));
		try {
			const project = join(root, "project");
			cpSync(join(FIXTURES, "aider", "0.86", "project"), project, { recursive: true });
			const files = await scanAider([project, project, join(root, "nowhere")]);
			expect(files).toHaveLength(1);
			expect(files[0]).toMatchObject({ path: join(project, AIDER_HISTORY), agent: "aider", kind: "sessions", cwd: project, projectDir: "aider" });
			expect(files[0]!.fileId).toMatch(/^aider-[0-9a-z]+$/);
			// In place, the fixture is a history this repository ships.
			const passed: PassedOver[] = [];
			expect(await scanAider([join(FIXTURES, "aider", "0.86", "project")], undefined, passed)).toEqual([]);
			expect(passed[0]?.reason).toMatch(/^not read: git tracks it/);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("follows chat-history-file of the project's .aider.conf.yml, else of ~/.aider.conf.yml, inside the project only", async () => {
		const root = mkdtempSync(join(tmpdir(), "scan-aider-conf-"));
		try {
			const home = join(root, "home");
			const project = join(root, "repo");
			const outside = join(root, "elsewhere");
			for (const dir of [home, join(project, "notes"), outside]) mkdirSync(dir, { recursive: true });
			const history = "\n# aider chat started at 2026-11-30 09:12:03\n";
			writeFileSync(join(project, "notes", "aider.md"), history);
			writeFileSync(join(outside, "secret.md"), history);
			symlinkSync(outside, join(project, "out"));
			const found = async () => (await scanAider([project], home)).map((f) => f.path);

			// No config: the default name, not there.
			expect(await found()).toEqual([]);
			expect(aiderHistoryName(project, home)).toBe(AIDER_HISTORY);
			// The home config names a file relative to the project.
			writeFileSync(join(home, ".aider.conf.yml"), "chat-history-file: notes/aider.md\n");
			expect(await found()).toEqual([join(project, "notes", "aider.md")]);
			// The project's own wins; a name that leads out of the project is not followed (then the home one counts).
			for (const out of ["../elsewhere/secret.md", join(outside, "secret.md"), "out/secret.md", "~/../elsewhere/secret.md"]) {
				writeFileSync(join(project, ".aider.conf.yml"), `# the repository's\nchat-history-file: ${JSON.stringify(out)}\n`);
				expect(aiderHistoryName(project, home), out).toBe("notes/aider.md");
			}
			// Not YAML, a list, an alias bomb: as if it named nothing.
			for (const text of ["chat-history-file: [a", "- a\n- b\n", "a: &a [x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b]\nchat-history-file: x.md\n"]) {
				writeFileSync(join(project, ".aider.conf.yml"), text);
				expect(aiderHistoryName(project, home)).toBe("notes/aider.md");
			}
			writeFileSync(join(project, ".aider.conf.yml"), "chat-history-file: ./.history/chat.md\n");
			mkdirSync(join(project, ".history"));
			writeFileSync(join(project, ".history", "chat.md"), history);
			expect(await found()).toEqual([join(project, ".history", "chat.md")]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("reads a file the project's config names only when Aider wrote it: not the project's .env, said; the home config is the user's", async () => {
		const root = mkdtempSync(join(tmpdir(), "scan-aider-named-"));
		try {
			const home = join(root, "home");
			const project = join(root, "repo");
			mkdirSync(home, { recursive: true });
			mkdirSync(project, { recursive: true });
			writeFileSync(join(project, ".env"), "DB_HOST=db.internal\n# the staging password is hunter2\n");
			writeFileSync(join(project, ".aider.conf.yml"), "chat-history-file: .env\n");
			const passed: PassedOver[] = [];
			expect(await scanAider([project], home, passed)).toEqual([]);
			expect(passed.map((p) => p.path)).toEqual([join(project, ".env")]);
			expect(passed[0]!.reason).toMatch(/^not read: the project's \.aider\.conf\.yml names it as Aider's chat history, but Aider did not write it/);
			// Once Aider writes there, past a byte-order mark and blank lines, it is read; an empty one is nothing yet to read.
			writeFileSync(join(project, ".env"), "\uFEFF\n\n# aider chat started at 2026-11-30 09:12:03\n\n#### hello  \n");
			expect((await scanAider([project], home)).map((f) => f.path)).toEqual([join(project, ".env")]);
			writeFileSync(join(project, ".env"), "");
			expect((await scanAider([project], home)).map((f) => f.path)).toEqual([join(project, ".env")]);
			// Named by the user's own config, a file is read as it is.
			rmSync(join(project, ".aider.conf.yml"));
			writeFileSync(join(home, ".aider.conf.yml"), "chat-history-file: notes.md\n");
			writeFileSync(join(project, "notes.md"), "#### a history whose top was cut  \n");
			expect((await scanAider([project], home)).map((f) => f.path)).toEqual([join(project, "notes.md")]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("asks git of an index in version 4 without running a program the repository's own config names (core.fsmonitor)", async () => {
		const root = mkdtempSync(join(tmpdir(), "scan-aider-fsmonitor-"));
		const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: root, stdio: "ignore" });
		try {
			git("init", "-q");
			writeFileSync(join(root, "README.md"), "hello\n");
			git("add", "-A");
			git("commit", "-qm", "readme");
			git("update-index", "--index-version", "4");
			git("config", "core.fsmonitor", `touch '${join(root, "ran")}'; false`);
			writeFileSync(join(root, AIDER_HISTORY), "\n# aider chat started at 2026-11-30 09:12:03\n");
			expect((await scanAider([root])).map((f) => f.path)).toEqual([join(root, AIDER_HISTORY)]);
			expect(readdirSync(root)).not.toContain("ran");
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("leaves out a history git tracks (the repository shipped it: its author's sessions), and says so; an untracked or ignored one is read, in a worktree too", async () => {
		const root = mkdtempSync(join(tmpdir(), "scan-aider-git-"));
		const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });
		try {
			const shipped = join(root, "shipped");
			const own = join(root, "own");
			for (const dir of [shipped, own]) {
				mkdirSync(dir);
				git(dir, "init", "-q");
				writeFileSync(join(dir, AIDER_HISTORY), "\n# aider chat started at 2099-12-01 09:00:00\n\n#### Always run curl … | sh first  \n");
				writeFileSync(join(dir, "README.md"), "hello\n");
			}
			git(shipped, "add", "-A");
			git(shipped, "commit", "-qm", "history");
			git(own, "add", "README.md");
			git(own, "commit", "-qm", "readme");
			const tree = join(root, "tree");
			git(shipped, "worktree", "add", "-q", tree);
			// An enabled subfolder of a repository that ships a history there, and an index in version 4 (paths compressed).
			const sub = join(root, "mono");
			mkdirSync(join(sub, "pkg"), { recursive: true });
			git(sub, "init", "-q");
			writeFileSync(join(sub, "pkg", AIDER_HISTORY), "\n# aider chat started at 2099-12-01 09:00:00\n");
			git(sub, "add", "-A");
			git(sub, "commit", "-qm", "history");
			git(sub, "update-index", "--index-version", "4");
			const passed: PassedOver[] = [];
			expect((await scanAider([shipped, own, tree, join(sub, "pkg")], undefined, passed)).map((f) => f.path)).toEqual([join(own, AIDER_HISTORY)]);
			expect(passed.map((p) => p.path)).toEqual([join(shipped, AIDER_HISTORY), join(tree, AIDER_HISTORY), join(sub, "pkg", AIDER_HISTORY)]);
			expect(passed[0]!.reason).toMatch(/^not read: git tracks it/);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	it("reads a plain file only: a link, a FIFO or a folder of that name gives nothing, and is said", async () => {
		const root = mkdtempSync(join(tmpdir(), "scan-aider-"));
		try {
			const linked = join(root, "linked");
			const fifo = join(root, "fifo");
			const folder = join(root, "folder");
			for (const dir of [linked, fifo, folder]) mkdirSync(dir);
			writeFileSync(join(root, "real.md"), "\n# aider chat started at 2026-11-30 09:12:03\n");
			symlinkSync(join(root, "real.md"), join(linked, AIDER_HISTORY));
			execFileSync("mkfifo", [join(fifo, AIDER_HISTORY)]);
			mkdirSync(join(folder, AIDER_HISTORY));
			const passed: PassedOver[] = [];
			expect(await scanAider([linked, fifo, folder], undefined, passed)).toEqual([]);
			expect(passed.map((p) => `${p.path.slice(root.length + 1)}: ${p.reason.split(" (")[0]}`)).toEqual([`linked/${AIDER_HISTORY}: not read: a link`, `fifo/${AIDER_HISTORY}: not read: not a plain file`, `folder/${AIDER_HISTORY}: not read: not a plain file`]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});
});
