import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runProjectsAdd } from "../../src/cli/projects-command";
import { loadSettings } from "../../src/cli/settings-file";
import { runSyncCommand } from "../../src/cli/sync-command";
import { RECALL_TEXT_MAX } from "../../src/core/recall/recall-text";
import { hookLogPath } from "../../src/node/hook-log";
import { pluginFolder } from "../../src/node/plugin-paths";
import { recallServer, RECALL_TOOL_NAMES } from "../../src/node/mcp-server";
import { RecallTools } from "../../src/node/recall-tools";
import { UNEXPECTED_ERROR } from "../../src/core/write-error";
import { workingFolder } from "../../src/node/working-folder";
import { assistant, jsonl, resetIds, text, toolResult, toolUse, userText } from "../fixtures/lines";

/**
 * The MCP server as a client sees it: the SDK's own client, over the SDK's in-memory transport,
 * against a vault the real sync wrote from transcripts (one session with a commit, one with a
 * secret in its request, a fact in the vault's memory).
 */
let dir: string;
let vault: string;
let project: string;
let other: string;
let client: Client;

const A = "aaaaaaaa-1111-4111-8111-111111111111";
const B = "bbbbbbbb-2222-4222-8222-222222222222";
const C = "cccccccc-3333-4333-8333-333333333333";
/** A session whose id begins as C's does. */
const C2 = "cccccccc-5555-4555-8555-555555555555";
const SPACED = " padded-session-id ";
const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";

function transcripts(claude: string) {
	resetIds();
	const projectDir = join(claude, "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
	mkdirSync(projectDir, { recursive: true });
	const env = (id: string, at: string) => ({ sessionId: id, cwd: project, timestamp: at });
	writeFileSync(
		join(projectDir, `${A}.jsonl`),
		jsonl([
			userText("Add a sliding-window rate limiter to the login endpoint", env(A, "2026-11-20T10:00:00.000Z")),
			assistant(toolUse("toolu_1", "Bash", { command: 'git commit -am "Add sliding-window rate limiter for login"' }), { ...env(A, "2026-11-20T10:01:00.000Z"), messageId: "msg_a1" }),
			toolResult("toolu_1", "[main 3f2a9c1] Add sliding-window rate limiter for login\n 1 file changed", env(A, "2026-11-20T10:01:05.000Z")),
			assistant(text("The login endpoint now allows 5 attempts per minute per IP."), { ...env(A, "2026-11-20T10:02:00.000Z"), messageId: "msg_a2" }),
		]),
	);
	writeFileSync(
		join(projectDir, `${B}.jsonl`),
		jsonl([
			userText(`Deploy the invoice worker with token ${SECRET} to staging`, env(B, "2026-11-22T09:00:00.000Z")),
			assistant(text("The invoice worker is deployed to staging."), { ...env(B, "2026-11-22T09:05:00.000Z"), messageId: "msg_b1" }),
		]),
	);
	const otherDir = join(claude, "projects", other.replace(/[^A-Za-z0-9]/g, "-"));
	mkdirSync(otherDir, { recursive: true });
	// A file named with blanks at either end (its name is its id): found as named.
	writeFileSync(join(otherDir, `${SPACED}.jsonl`), jsonl([userText("Walk the padded folder", { sessionId: SPACED, cwd: other, timestamp: "2026-10-01T09:00:00.000Z" }), assistant(text("Walked it."), { sessionId: SPACED, cwd: other, timestamp: "2026-10-01T09:01:00.000Z", messageId: "msg_s1" })]));
	writeFileSync(join(otherDir, `${C2}.jsonl`), jsonl([userText("Warm the search cache at start", { sessionId: C2, cwd: other, timestamp: "2026-09-01T09:00:00.000Z" }), assistant(text("The cache is warmed at start."), { sessionId: C2, cwd: other, timestamp: "2026-09-01T09:01:00.000Z", messageId: "msg_c2" })]));
	writeFileSync(join(otherDir, `${C}.jsonl`), jsonl([userText("Tune the rate limiter of the search service", { sessionId: C, cwd: other, timestamp: "2026-11-23T09:00:00.000Z" }), assistant(text("The search rate limiter now allows 50 requests per second."), { sessionId: C, cwd: other, timestamp: "2026-11-23T09:01:00.000Z", messageId: "msg_c1" })]));
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "mcp-server-"));
	vault = join(dir, "vault");
	project = join(dir, "code", "rate-api");
	other = join(dir, "code", "search-api");
	const claude = join(dir, "claude");
	for (const d of [vault, project, other]) mkdirSync(d, { recursive: true });
	mkdirSync(join(vault, "AI Memory", "rate-api"), { recursive: true });
	writeFileSync(join(vault, "AI Memory", "rate-api", "login-rate-limit.md"), "---\nname: login-rate-limit\ndescription: The login rate limiter allows 5 attempts per minute per IP\nmetadata:\n  type: project\n---\n\nKept in Redis under rl:login:<ip> (BODY-MARK).\n");
	writeFileSync(join(vault, "AI Memory", "rate-api", "terminal-colours.md"), "---\nname: terminal-colours\ndescription: The deploy log prints its errors in red\nmetadata:\n  type: project\n---\n\nErrors show as \u001b[31mred\u001b[0m, the title as \u001b]0;deploy\u0007 (COLOUR-MARK).\rOVERWRITTEN\n");
	transcripts(claude);
	const quiet = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
	try {
		expect(await runProjectsAdd(project, { vault, mode: "lazy" })).toBe(0);
		expect(await runSyncCommand({ vault, claudeDir: claude, project: [], json: true })).toBe(0);
	} finally {
		quiet.mockRestore();
	}
	const { server } = recallServer({ vault, cwd: project, loadSettings: (path, host) => loadSettings(path, [], host) });
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
	await server.connect(serverSide);
	client = new Client({ name: "test", version: "1" });
	await client.connect(clientSide);
}, 60_000);
afterAll(async () => {
	await client?.close();
	rmSync(dir, { recursive: true, force: true });
});

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");

describe("ai-memory mcp, through the SDK's client", () => {
	it("answers with no terminal escape or control character of a fact or a transcript", async () => {
		const text = textOf(await client.callTool({ name: "recall_facts", arguments: { query: "deploy log errors red" } }));
		expect(text).toContain("COLOUR-MARK");
		for (const c of ["\u001b", "\u0007", "\r"]) expect(text).not.toContain(c);
	});

	it("lists the four tools, read-only, each argument described", async () => {
		const { tools } = await client.listTools();
		expect(tools.map((t) => t.name)).toEqual([...RECALL_TOOL_NAMES]);
		for (const tool of tools) {
			expect(tool.annotations?.readOnlyHint).toBe(true);
			for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) expect((schema as { description?: string }).description, `${tool.name}.${name}`).toBeTruthy();
		}
		expect(tools.find((t) => t.name === "search_sessions")?.inputSchema.required).toEqual(["query"]);
	});

	it("search_sessions finds the session by its words and by its commit hash, with its id and commit line, in the current folder's project only", async () => {
		const found = textOf(await client.callTool({ name: "search_sessions", arguments: { query: "rate limiter login" } }));
		expect(found).toContain("commit 3f2a9c1: Add sliding-window rate limiter for login");
		expect(found).toContain(`- Id: \`${A}\``);
		expect(found).not.toContain(C);
		expect(textOf(await client.callTool({ name: "search_sessions", arguments: { query: "3f2a9c1" } }))).toContain(A);
		const all = textOf(await client.callTool({ name: "search_sessions", arguments: { query: "rate limiter", project: "all" } }));
		expect(all).toContain(A);
		expect(all).toContain(C);
		expect(textOf(await client.callTool({ name: "search_sessions", arguments: { query: "rate limiter", project: "search-api" } }))).not.toContain(A);
	});

	it("search_sessions filters by date and agent, lists the latest for an empty query, and answers redacted", async () => {
		const since = textOf(await client.callTool({ name: "search_sessions", arguments: { query: "", since: "2026-11-21" } }));
		expect(since).toContain(B);
		expect(since).not.toContain(A);
		expect(textOf(await client.callTool({ name: "search_sessions", arguments: { query: "limiter", agent: "codex" } }))).toContain("No session matches");
		const latest = textOf(await client.callTool({ name: "search_sessions", arguments: { query: "", limit: 1 } }));
		expect(latest).toContain(B);
		expect(latest).not.toContain(SECRET);
		expect(textOf(await client.callTool({ name: "search_sessions", arguments: { query: "invoice worker" } }))).not.toContain(SECRET);
	});

	it("lists no session for a time past the year 9999, and says none is since then or of that agent, not that none was recorded (attack round 50a)", async () => {
		// `+010000-…` as text came before every date: every session was "active since" then.
		for (const since of ["9999-12-31T23:59:59.999-23:59", "9999-12-31T20:00-05:00", "2999-01-01"]) {
			const none = textOf(await client.callTool({ name: "search_sessions", arguments: { query: "", since, project: "all" } }));
			expect(none, since).not.toContain(A);
			expect(none, since).not.toContain("No sessions recorded yet");
			expect(none, since).toContain(`No session active since ${since}.`);
		}
		expect(textOf(await client.callTool({ name: "search_sessions", arguments: { query: "", agent: "aider" } }))).toContain("No session of aider.");
		expect(textOf(await client.callTool({ name: "search_sessions", arguments: { query: "", since: "2026-11-21" } }))).toContain(B);
	});

	it("gives nothing of a project excluded since the last sync, which has not forgotten it yet (attack round 38)", async () => {
		const dataJson = join(pluginFolder(vault), "data.json");
		const settings = readFileSync(dataJson, "utf8");
		writeFileSync(dataJson, JSON.stringify({ ...JSON.parse(settings), excludedProjects: [project] }));
		try {
			const found = textOf(await client.callTool({ name: "search_sessions", arguments: { query: "rate limiter", project: "all" } }));
			expect(found).toContain(C);
			expect(found).not.toContain(A);
			expect(textOf(await client.callTool({ name: "get_session", arguments: { id: A } }))).toContain("No session has the id");
			expect(textOf(await client.callTool({ name: "recall_facts", arguments: { query: "login rate limiter" } }))).not.toContain("BODY-MARK");
			expect(textOf(await client.callTool({ name: "project_context", arguments: {} }))).not.toContain("rate limiter");
		} finally {
			writeFileSync(dataJson, settings);
		}
		expect(textOf(await client.callTool({ name: "get_session", arguments: { id: A } }))).toContain("rate limiter");
	});

	it("get_session finds a session whose id begins or ends with a blank by that id, and by it trimmed when no other has it (attack round 38)", async () => {
		expect(textOf(await client.callTool({ name: "get_session", arguments: { id: SPACED } }))).toContain("Walk the padded folder");
		expect(textOf(await client.callTool({ name: "get_session", arguments: { id: ` \`${A}\` ` } }))).toContain("rate limiter");
	});

	it("get_session gives the session's digest by id or its start; full adds each task and the commands", async () => {
		const summary = textOf(await client.callTool({ name: "get_session", arguments: { id: A } }));
		expect(summary).toContain(`Session \`${A}\``);
		expect(summary).toContain("Add sliding-window rate limiter for login");
		expect(textOf(await client.callTool({ name: "get_session", arguments: { id: A.slice(0, 8) } }))).toBe(summary);
		const full = textOf(await client.callTool({ name: "get_session", arguments: { id: A, detail: "full" } }));
		expect(full).toContain("#### Tasks");
		expect(full).toContain("#### Commands run");
		expect(full).toContain('git commit -am "Add sliding-window rate limiter for login"');
		expect(textOf(await client.callTool({ name: "get_session", arguments: { id: B, detail: "full" } }))).not.toContain(SECRET);
	});

	it("recall_facts gives the fact with its body; project_context the packet", async () => {
		const facts = textOf(await client.callTool({ name: "recall_facts", arguments: { query: "login attempts limit" } }));
		expect(facts).toContain("**login-rate-limit** (project)");
		expect(facts).toContain("BODY-MARK");
		const context = textOf(await client.callTool({ name: "project_context", arguments: {} }));
		expect(context).toContain("# rate-api: context packet");
		expect(context.length).toBeLessThanOrEqual(RECALL_TEXT_MAX);
	});

	it("answers a bad argument or an unknown name with a tool error that says what to give, and keeps serving", async () => {
		const cases: [string, Record<string, unknown>, RegExp][] = [
			["search_sessions", { query: 42 }, /expected string/],
			["search_sessions", {}, /query/],
			["search_sessions", { query: "x", limit: 500 }, /limit/],
			["search_sessions", { query: "x", agent: "emacs" }, /agent/],
			["search_sessions", { query: "x", since: "last tuesday" }, /since "last tuesday" is no date/],
			["search_sessions", { query: "x", project: "nowhere" }, /No project "nowhere" has sessions\. Known projects: .*"rate-api"/],
			["get_session", { id: "0000" }, /No session has the id "0000" \(give at least its first 6 characters\)/],
			["get_session", { id: A, detail: "everything" }, /detail/],
			["recall_facts", { query: "x", project: "search-api" }, /No enabled project "search-api": the enabled ones are/],
			["project_context", { project: "nowhere" }, /No enabled project "nowhere"/],
			// What the model passes is the model's: said back to it, never kept in hooks.log (see below).
			["get_session", { id: "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8" }, /No session has the id "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"/],
			// Two ids begin so: the model is asked for more of it, not told there is none.
			["get_session", { id: "cccccccc" }, /More than one session's id begins with "cccccccc": give more of it/],
			["search_sessions", { query: "x", project: "sk_live_abcdefghijklmnop1234" }, /No project "sk_live_abcdefghijklmnop1234"/],
		];
		for (const [name, args, message] of cases) {
			const result = await client.callTool({ name, arguments: args });
			expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
			expect(textOf(result)).toMatch(message);
		}
		await expect(client.callTool({ name: "delete_everything", arguments: {} })).resolves.toMatchObject({ isError: true });
		expect(textOf(await client.callTool({ name: "search_sessions", arguments: { query: "limiter" } }))).toContain(A);
	});

	it("logs each answer with its size in hooks.log, for doctor", async () => {
		const { readFileSync } = await import("node:fs");
		const log = readFileSync(hookLogPath(join(vault, ".obsidian", "plugins", "ai-conversation-memory")), "utf8");
		expect(log).toMatch(/\tmcp:search_sessions\tok\tproject=\S+rate-api printed=\d+B/);
		expect(log).toMatch(/\tmcp:get_session\terror\tproject=\S+rate-api error="unknown session id"/);
		expect(log).toMatch(/\tmcp:search_sessions\terror\tproject=\S+rate-api error="unknown project"/);
		expect(log).not.toContain("ghp_A1b2");
		expect(log).not.toContain("sk_live_");
	});
});

describe("ai-memory mcp started in a folder that is gone", () => {
	it("searches every project and asks for one by name, with no folder to go by (a removed worktree)", async () => {
		const { server } = recallServer({ vault, cwd: workingFolder({}, () => {
			throw Object.assign(new Error("ENOENT: no such file or directory, uv_cwd"), { code: "ENOENT" });
		}), loadSettings: (path, host) => loadSettings(path, [], host) });
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const gone = new Client({ name: "test", version: "1" });
		await gone.connect(clientSide);
		try {
			const found = textOf(await gone.callTool({ name: "search_sessions", arguments: { query: "rate limiter" } }));
			expect(found).toContain("The folder this server was started in is gone: every project is searched.");
			expect(found).toContain(A);
			expect(found).toContain(C);
			const facts = await gone.callTool({ name: "recall_facts", arguments: { query: "login" } });
			expect(facts.isError).toBe(true);
			expect(textOf(facts)).toContain("The folder this server was started in is gone; name one: the enabled ones are");
			expect(textOf(await gone.callTool({ name: "recall_facts", arguments: { query: "login rate limiter", project: project } }))).toContain("BODY-MARK");
		} finally {
			await gone.close();
		}
	});

	it("says the sync's record cannot be read when it is damaged, not that no session has the id", async () => {
		const damaged = join(dir, "damaged-vault");
		const state = join(pluginFolder(damaged), "state");
		mkdirSync(state, { recursive: true });
		writeFileSync(join(state, "sync-state.json"), '{ "version": 3, "sessions');
		const { server } = recallServer({ vault: damaged, cwd: project, loadSettings: (path, host) => loadSettings(path, [], host) });
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const reader = new Client({ name: "test", version: "1" });
		await reader.connect(clientSide);
		try {
			const byId = await reader.callTool({ name: "get_session", arguments: { id: A } });
			expect(byId.isError).toBe(true);
			// A sync stops on it too (it does not write it anew): the answer says how to recover.
			expect(textOf(byId)).toContain("`state/sync-state.json` in the plugin's folder, cannot be read: syncs stop on it too");
			expect(textOf(byId)).not.toContain("No session has the id");
			expect(textOf(await reader.callTool({ name: "search_sessions", arguments: { query: "" } }))).toContain("cannot be read: syncs stop on it too");
		} finally {
			await reader.close();
		}
	});

	it("says a session file the record lists cannot be read (cut, a folder, its digest lists cut), naming it, not that no session has the id; and answers once it is put back", async () => {
		const copy = join(dir, "copied-vault");
		const state = join(pluginFolder(copy), "state");
		cpSync(join(pluginFolder(vault), "state"), state, { recursive: true });
		// The file holding session A (the records are keyed by their transcripts' paths, which hold the id).
		const name = readdirSync(join(state, "sessions")).find((n) => readFileSync(join(state, "sessions", n), "utf8").includes(A));
		const [sessions, lists] = [join(state, "sessions", name!), join(state, "lists", name!)];
		const [goodSessions, goodLists] = [readFileSync(sessions), readFileSync(lists)];
		const { server } = recallServer({ vault: copy, cwd: project, loadSettings: (path, host) => loadSettings(path, [], host) });
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const reader = new Client({ name: "test", version: "1" });
		await reader.connect(clientSide);
		// The state is read again when `sync-state.json` changes (a sync renames a new one in): its stamp is moved here.
		const touch = (n: number) => utimesSync(join(state, "sync-state.json"), n, n);
		try {
			const damage: [string, () => void][] = [
				[`sessions/${name}`, () => writeFileSync(sessions, goodSessions.subarray(0, 40))],
				[`sessions/${name}`, () => (rmSync(sessions), mkdirSync(sessions))],
				[`lists/${name}`, () => (rmSync(sessions, { recursive: true }), writeFileSync(sessions, goodSessions), writeFileSync(lists, goodLists.subarray(0, 40)))],
			];
			for (const [i, [file, make]] of damage.entries()) {
				make();
				touch(1_000 + i);
				const byId = await reader.callTool({ name: "get_session", arguments: { id: A } });
				expect(byId.isError).toBe(true);
				expect(textOf(byId)).toContain(`\`state/${file}\` in the plugin's folder, cannot be read`);
				expect(textOf(byId)).not.toContain("No session has the id");
				expect(textOf(await reader.callTool({ name: "search_sessions", arguments: { query: "rate limiter" } }))).toContain(`\`state/${file}\``);
			}
			writeFileSync(lists, goodLists);
			touch(2_000);
			const back = await reader.callTool({ name: "get_session", arguments: { id: A } });
			expect(back.isError).toBeFalsy();
			expect(textOf(await reader.callTool({ name: "search_sessions", arguments: { query: "rate limiter" } }))).not.toContain("cannot be read");
		} finally {
			await reader.close();
		}
	});
});

describe("ai-memory mcp over sessions another release digested", () => {
	it("says how many sessions an earlier or a newer release recorded are left out, in a search and for an id it does not find", async () => {
		const copy = join(dir, "release-vault");
		const state = join(pluginFolder(copy), "state");
		cpSync(join(pluginFolder(vault), "state"), state, { recursive: true });
		const files = readdirSync(join(state, "sessions")).map((n) => join(state, "sessions", n));
		const good = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));
		// A's record as a newer release leaves it, C's as an earlier one did (the next sync digests it again).
		for (const [file, text] of good) {
			const records = JSON.parse(text) as Record<string, { digest: { version: number; sessionId: string } }>;
			for (const record of Object.values(records)) {
				if (record.digest.sessionId === A) record.digest.version += 1;
				if (record.digest.sessionId === C) record.digest.version -= 1;
			}
			writeFileSync(file, JSON.stringify(records));
		}
		const { server } = recallServer({ vault: copy, cwd: project, loadSettings: (path, host) => loadSettings(path, [], host) });
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const reader = new Client({ name: "test", version: "1" });
		await reader.connect(clientSide);
		try {
			const found = textOf(await reader.callTool({ name: "search_sessions", arguments: { query: "rate limiter", project: "all" } }));
			expect(found).toContain("1 session recorded by a newer release of AI Conversation Memory is left out here: update it on this machine too.");
			expect(found).toContain("1 session recorded by an earlier release is left out until the next sync brings it up to date");
			expect(found).not.toContain(A);
			const byId = await reader.callTool({ name: "get_session", arguments: { id: A } });
			expect(byId.isError).toBe(true);
			expect(textOf(byId)).toContain("No session has the id");
			expect(textOf(byId)).toContain("recorded by a newer release");
			// What this release digested is found, with no word of another release.
			const own = await reader.callTool({ name: "get_session", arguments: { id: B } });
			expect(own.isError).toBeFalsy();
			expect(textOf(own)).not.toContain("recorded by");
		} finally {
			await reader.close();
		}
	});
});

describe("ai-memory mcp over a state with a field of another type (attack round 50a)", () => {
	async function readerOf(name: string, damage: (state: string) => void): Promise<Client> {
		const copy = join(dir, name);
		cpSync(pluginFolder(vault), pluginFolder(copy), { recursive: true });
		damage(join(pluginFolder(copy), "state"));
		const { server } = recallServer({ vault: copy, cwd: project, loadSettings: (path, host) => loadSettings(path, [], host) });
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const reader = new Client({ name: "test", version: "1" });
		await reader.connect(clientSide);
		return reader;
	}
	const edit = (file: string, change: (doc: Record<string, Record<string, unknown>>) => void) => {
		const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>;
		change(doc);
		writeFileSync(file, JSON.stringify(doc));
	};

	it("leaves out a session whose record holds one, says so, and answers for the others (one made every search fail in V8's words)", async () => {
		const reader = await readerOf("odd-session-vault", (state) => {
			const name = readdirSync(join(state, "lists")).find((n) => readFileSync(join(state, "lists", n), "utf8").includes(A))!;
			edit(join(state, "lists", name), (lists) => {
				const key = Object.keys(lists).find((k) => k.includes(A))!;
				lists[key]!.open = 5;
			});
		});
		try {
			const found = textOf(await reader.callTool({ name: "search_sessions", arguments: { query: "rate limiter", project: "all" } }));
			expect(found).not.toContain("could not answer");
			expect(found).not.toContain("is not iterable");
			expect(found).toContain(C);
			expect(found).toContain("1 session whose record in the plugin's state is damaged (a field of another type) is left out here.");
			const other = await reader.callTool({ name: "get_session", arguments: { id: C } });
			expect(other.isError).toBeFalsy();
			expect(textOf(other)).toContain("search rate limiter");
		} finally {
			await reader.close();
		}
	});

	it("recalls the other facts when one fact of the prepared context, or its body, is of another type", async () => {
		const reader = await readerOf("odd-fact-vault", (state) => {
			const name = readdirSync(join(state, "hooks")).find((n) => n.endsWith(".json"))!;
			edit(join(state, "hooks", name), (context) => {
				const recall = context.recall as { facts: { file: string; description: unknown }[] };
				const limit = recall.facts.find((f) => f.file.includes("login-rate-limit"))!;
				limit.description = 5;
				(context.bodies as Record<string, unknown>)[limit.file] = { text: 5 };
				const colours = recall.facts.find((f) => f.file.includes("terminal-colours"))!;
				(context.bodies as Record<string, unknown>)[colours.file] = 7;
			});
		});
		try {
			const facts = textOf(await reader.callTool({ name: "recall_facts", arguments: { query: "deploy log errors red login rate limiter" } }));
			expect(facts).not.toContain("could not answer");
			expect(facts).toContain("terminal-colours");
		} finally {
			await reader.close();
		}
	});

	it("finds a project by its name when another project's record is of another shape", async () => {
		const reader = await readerOf("odd-project-vault", (state) => {
			edit(join(state, "sync-state.json"), (doc) => {
				const projects = doc.projects as Record<string, unknown>;
				projects[other] = { ...(projects[other] as object), folder: 5 };
				projects["/elsewhere"] = null;
			});
		});
		try {
			const found = await reader.callTool({ name: "search_sessions", arguments: { query: "rate limiter", project: "rate-api" } });
			expect(found.isError).toBeFalsy();
			expect(textOf(found)).toContain(A);
			expect(textOf(await reader.callTool({ name: "search_sessions", arguments: { query: "x", project: "nope" } }))).toContain('Known projects: "rate-api"');
			expect(textOf(await reader.callTool({ name: "recall_facts", arguments: { query: "login rate limiter", project: "rate-api" } }))).toContain("BODY-MARK");
		} finally {
			await reader.close();
		}
	});

	it("words a bug of ours as one, never in the engine's words", async () => {
		const spy = vi.spyOn(RecallTools.prototype, "projectContext").mockRejectedValue(new TypeError("t.open is not iterable"));
		try {
			const answer = await client.callTool({ name: "project_context", arguments: {} });
			expect(answer.isError).toBe(true);
			expect(textOf(answer)).toBe(`ai-conversation-memory could not answer: ${UNEXPECTED_ERROR}`);
		} finally {
			spy.mockRestore();
		}
	});
});
