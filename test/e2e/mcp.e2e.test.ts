/**
 * The MCP server with the REAL Claude Code (2.1.337) and the built CLI:
 * 1. a lazy project with one past session that committed (`git commit` in a Bash call), synced;
 * 2. `ai-memory hooks install` puts our hooks into settings.json and our server into the temp
 *    HOME's `.claude.json` (a user file with keys of its own), where `claude mcp add --scope user`
 *    writes; `claude mcp list` sees it, connected;
 * 3. a new session: the client lists the server's tools to the model as `mcp__ai-memory__<tool>`;
 *    the stub model calls `search_sessions`, and the next request holds the tool result with the
 *    earlier session's commit line and id; then `get_session` with that id returns its digest;
 *    the facade reached the model once, from CLAUDE.md (SessionStart printed nothing);
 * 4. `ai-memory doctor` tells what reached that session: CLAUDE.md with the block (the
 *    InstructionsLoaded hook), each tool call and its size;
 * 5. uninstall: settings.json byte for byte, and `.claude.json` holds everything the client wrote
 *    meanwhile, byte for byte, but our entry; installed and removed with no session between, byte for byte.
 * Steps 2 and 3 run the client with `NODE_OPTIONS=--require=/nonexistent.js` inherited: the entry's
 * `env` empties it for the server (without that, `claude mcp list` says "Failed to connect").
 * The real Codex CLI (0.171.0) accepts the entry's inline `env` and, likewise started, lists the
 * server's tools to the model (it passes a server only a few variables of its own: NODE_OPTIONS was
 * not among them, with or without the entry). Gemini CLI
 * (0.61.0) refuses NODE_OPTIONS in a server's env (it warns, and passes its own on): its entry has
 * none, and the server's tools reach the model.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, claudeEnv, codexEnv, ensureClaudeCode, ensureCodex, ensureGeminiCli, geminiEnv, makeTempDir, requestText, runClaude, startCodexStub, startGeminiStub, startStub, text, toolUse, writeCodexConfig, writeGeminiSettings, type RecordedRequest, type Stub, removeWhenIdle } from "./harness/index.js";
import { collectProcess } from "./harness/collect-process.js";

const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");

/** What an agent's environment may carry: without the entry's `env`, Node would stop before the server runs. */
const BAD_NODE_OPTIONS = "--require=/nonexistent.js";

function run(...args: string[]) {
	return runWith({}, ...args);
}

function runWith(env: Record<string, string>, ...args: string[]) {
	const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
	expect(r.status, `${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
	return r.stdout;
}

const USER_SETTINGS = '{\n  "cleanupPeriodDays": 99\n}\n';
const COMMIT = "Add sliding-window limiter for login";

/** The tool results of the latest user message in a request, as text. */
function toolResults(req: RecordedRequest): string[] {
	const messages = (req.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
	const last = [...messages].reverse().find((m) => m.role === "user");
	const blocks = Array.isArray(last?.content) ? (last.content as Record<string, unknown>[]) : [];
	return blocks.filter((b) => b.type === "tool_result").map((b) => (typeof b.content === "string" ? b.content : JSON.stringify(b.content)));
}

describe("the MCP server in the real Claude Code", () => {
	let stub: Stub;
	let root: string;
	beforeAll(async () => {
		ensureClaudeCode();
		buildCli();
		stub = await startStub();
		root = realpathSync(makeTempDir("cc-mcp-"));
	});
	afterAll(async () => {
		await stub?.close();
		// The SessionEnd hook's background sync may still be running: the folder goes when it is done.
		if (root) await removeWhenIdle(root);
	});

	it("search_sessions and get_session reach the model as tool results; doctor shows what reached the session; uninstall gives the files back", async () => {
		const home = join(root, "home");
		const claudeDir = join(home, ".claude");
		const cwd = join(root, "work", "rate-api");
		const vault = join(root, "vault");
		for (const d of [cwd, claudeDir, vault]) mkdirSync(d, { recursive: true });
		spawnSync("git", ["init", "-q", cwd]);
		spawnSync("git", ["-C", cwd, "config", "user.email", "e2e@example.com"]);
		spawnSync("git", ["-C", cwd, "config", "user.name", "e2e"]);
		spawnSync("git", ["-C", cwd, "commit", "-q", "--allow-empty", "-m", "start"]);
		writeFileSync(join(claudeDir, "settings.json"), USER_SETTINGS);

		stub.setScript({
			rules: [
				{
					match: "rate limiter to the login",
					steps: [
						[text("Adding it."), toolUse("Write", { file_path: join(cwd, "limiter.js"), content: "export const ATTEMPTS = 5;\n" })],
						[toolUse("Bash", { command: `git add limiter.js && git commit -m "${COMMIT}"`, description: "Commit the limiter" })],
						"The login endpoint now allows 5 attempts per minute per IP.",
					],
				},
			],
		});
		// The second rule's later steps need the id the search returns: set once the first session is known.
		const setSearchScript = (id: string) =>
			stub.setScript({
				rules: [
					{ match: "rate limiter to the login", steps: [] },
					{
						match: "how did we limit logins",
						steps: [
							// MCP tools come deferred: their names are listed, their schemas loaded with ToolSearch first.
							[toolUse("ToolSearch", { query: "select:mcp__ai-memory__search_sessions,mcp__ai-memory__get_session" })],
							[toolUse("mcp__ai-memory__search_sessions", { query: "login rate limiter" })],
							[toolUse("mcp__ai-memory__get_session", { id })],
							"We added a sliding-window limiter in an earlier session.",
						],
					},
				],
			});

		// 1. A lazy project with one past session that committed, synced.
		run("projects", "add", cwd, "--mode", "lazy", "--vault", vault);
		const one = await runClaude({ home, cwd, stub, prompt: "Add a rate limiter to the login endpoint" });
		expect(one.exitCode, one.stderr).toBe(0);
		const sessionId = one.sessionId!;
		run("sync", "--vault", vault, "--claude-dir", claudeDir);
		const claudeMd = readFileSync(join(cwd, "CLAUDE.md"), "utf8");
		expect(claudeMd).toContain("`search_sessions`");
		const facade = /<!-- AUTO-CONTEXT:BEGIN -->\n([^]*?)<!-- AUTO-CONTEXT:END -->/.exec(claudeMd)![1]!;

		// 2. Hooks and server installed; the real client lists the server, connected.
		const userConfig = join(home, ".claude.json");
		// A person who runs Claude Code in the project has trusted its folder there: 2.1.337's
		// `claude mcp list` checks no server in a folder not trusted ("Not checked (folder not trusted …)").
		const before = `{\n  "numStartups": 7,\n  "theme": "dark",\n  "projects": {\n    ${JSON.stringify(cwd)}: {\n      "hasTrustDialogAccepted": true\n    }\n  }\n}\n`;
		writeFileSync(userConfig, before);
		run("hooks", "install", "--vault", vault, "--claude-dir", claudeDir);
		const installed = JSON.parse(readFileSync(userConfig, "utf8")) as { numStartups: number; mcpServers: Record<string, { type: string; command: string; args: string[] }> };
		expect(installed.numStartups).toBe(7);
		expect(installed.mcpServers["ai-memory"]).toEqual({ type: "stdio", command: process.execPath, args: [join(repo, "dist", "mcp.cjs"), "mcp", "--vault", vault, "--from", "ai-conversation-memory"], env: { NODE_OPTIONS: "" } });
		const list = spawnSync(ensureClaudeCode(), ["mcp", "list"], { cwd, encoding: "utf8", env: claudeEnv(home, stub.url, { NODE_OPTIONS: BAD_NODE_OPTIONS }), timeout: 60_000 });
		expect(list.stdout).toMatch(/ai-memory: .*mcp\.cjs mcp --vault .* - [✓✔] Connected/);

		// 3. The model calls the tools; their results reach the next requests.
		setSearchScript(sessionId);
		stub.clear();
		const two = await runClaude({ home, cwd, stub, prompt: "how did we limit logins last time?", env: { NODE_OPTIONS: BAD_NODE_OPTIONS } });
		expect(two.exitCode, two.stderr).toBe(0);
		const requests = stub.mainRequests().filter((r) => r.headers["x-claude-code-session-id"] === two.sessionId);
		// The client names the server's tools `mcp__ai-memory__<tool>`, deferred: listed by name, loaded by ToolSearch.
		const deferred = /Use ToolSearch with query[^\n]*\n((?:[^\n]+\n)+)/.exec(requestText(requests[0]!))?.[1]?.split("\n") ?? [];
		expect(deferred).toEqual(expect.arrayContaining(["mcp__ai-memory__search_sessions", "mcp__ai-memory__get_session", "mcp__ai-memory__recall_facts", "mcp__ai-memory__project_context"]));
		const loaded = toolResults(requests.find((r) => r.rule === 1 && r.step === 1)!).join("\n");
		expect(loaded).toContain('{"type":"tool_reference","tool_name":"mcp__ai-memory__search_sessions"}');
		const afterSearch = requests.find((r) => r.rule === 1 && r.step === 2)!;
		expect(afterSearch, "a request after the search").toBeDefined();
		const found = toolResults(afterSearch).join("\n");
		expect(found).toMatch(new RegExp(`commit [0-9a-f]{7}: ${COMMIT}`));
		expect(found).toContain(`- Id: \`${sessionId}\``);
		const afterGet = requests.find((r) => r.rule === 1 && r.step === 3)!;
		const digest = toolResults(afterGet).join("\n");
		expect(digest).toContain(`Session \`${sessionId}\``);
		expect(digest).toContain("Add a rate limiter to the login endpoint");
		expect(digest).toMatch(new RegExp(`commit [0-9a-f]{7}: ${COMMIT}`));
		// The facade once, from CLAUDE.md: the session start printed nothing.
		for (const req of requests) {
			const seen = requestText(req);
			expect(seen.split("## Project memory").length - 1, "the facade once").toBe(1);
			expect(seen).toContain(facade.trim().split("\n").at(-1)!);
			expect(seen).not.toContain("SessionStart:startup hook success: ## Project memory");
		}

		// 4. Doctor: what reached that session.
		const doctor = run("doctor", "--vault", vault, "--claude-dir", claudeDir);
		if (process.env.MCP_E2E_DUMP) writeFileSync(process.env.MCP_E2E_DUMP, doctor);
		expect(doctor).toContain(`Last session: ${two.sessionId}`);
		expect(doctor).toMatch(/CLAUDE\.md loaded with the block \(InstructionsLoaded, session_start\)/);
		expect(doctor).toMatch(/Tool search_sessions: \d+ bytes/);
		expect(doctor).toMatch(/Tool get_session: \d+ bytes/);
		expect(doctor).not.toContain("WARNING");
		expect(doctor).toContain("MCP server: installed for Claude Code");

		// 5. Uninstall: settings.json as it was; .claude.json as the client left it, less our entry.
		const clientWrote = JSON.parse(readFileSync(userConfig, "utf8")) as Record<string, unknown>;
		delete (clientWrote.mcpServers as Record<string, unknown>)["ai-memory"];
		if (Object.keys(clientWrote.mcpServers as object).length === 0) delete clientWrote.mcpServers;
		run("hooks", "uninstall", "--claude-dir", claudeDir);
		expect(readFileSync(join(claudeDir, "settings.json"), "utf8")).toBe(USER_SETTINGS);
		expect(JSON.parse(readFileSync(userConfig, "utf8"))).toEqual(clientWrote);
		expect(readFileSync(userConfig, "utf8")).not.toContain("ai-memory");
		// With no session between, byte for byte.
		const now = readFileSync(userConfig, "utf8");
		run("mcp", "install", "--vault", vault, "--claude-dir", claudeDir);
		run("mcp", "uninstall", "--claude-dir", claudeDir);
		expect(readFileSync(userConfig, "utf8")).toBe(now);
	});

	it("Codex takes the entry with its env and starts the server under an inherited NODE_OPTIONS; Gemini CLI, whose entry cannot clear it, starts it with no warning; uninstall gives both files back", async () => {
		const vault = join(root, "vault-agents");
		const cwd = join(root, "work", "agents");
		for (const d of [vault, cwd]) mkdirSync(d, { recursive: true });
		const tools = ["search_sessions", "get_session", "recall_facts", "project_context"];

		// Codex: its config first (the harness's runCodex rewrites config.toml, so the binary is run here).
		const codexHome = join(root, "codex-home");
		const codexStub = await startCodexStub();
		try {
			writeCodexConfig(codexHome, codexStub.url, "gpt-5.5");
			const codexBefore = readFileSync(join(codexHome, "config.toml"), "utf8");
			runWith({ CODEX_HOME: codexHome }, "mcp", "install", "--vault", vault, "--agent", "codex");
			expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toContain('\n[mcp_servers.ai-memory]\ncommand = ');
			expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toContain('\nenv = { NODE_OPTIONS = "" }\n');
			const codex = ensureCodex();
			const child = spawn(codex.bin, ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--json", "say hi"], { cwd, env: codexEnv(codexHome, codex.packageRoot, codexHome, { NODE_OPTIONS: BAD_NODE_OPTIONS }), stdio: ["ignore", "pipe", "pipe"] });
			const done = await collectProcess(child, 120_000);
			expect(done.code, done.stderr).toBe(0);
			const first = codexStub.requests.find((r) => r.url.includes("/responses"))!;
			// Its MCP tools come deferred: a namespace per server that started, described by the server's instructions.
			const said = JSON.stringify(first.body).replace(/\\n/g, "\n");
			const deferred = /Deferred tool namespaces:\n((?:- [^\n]*\n)+)/.exec(said)?.[1] ?? "";
			expect(deferred, "Codex lists the server's tools").toMatch(/^- mcp__ai_memory: .*search_sessions/m);
			runWith({ CODEX_HOME: codexHome }, "mcp", "uninstall", "--agent", "codex");
			expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toBe(codexBefore);
		} finally {
			await codexStub.close();
		}

		// Gemini CLI drops NODE_OPTIONS from a server's env with a warning: the entry has none, and starts without one.
		const geminiHome = join(root, "gemini-home");
		const geminiStub = await startGeminiStub();
		try {
			writeGeminiSettings(geminiHome);
			const geminiBefore = readFileSync(join(geminiHome, ".gemini", "settings.json"), "utf8");
			runWith({ HOME: geminiHome, GEMINI_CLI_HOME: geminiHome }, "mcp", "install", "--vault", vault, "--agent", "gemini-cli");
			const settings = JSON.parse(readFileSync(join(geminiHome, ".gemini", "settings.json"), "utf8")) as { mcpServers: Record<string, unknown>; telemetry: unknown };
			expect(settings.telemetry).toEqual({ enabled: false });
			expect(settings.mcpServers["ai-memory"]).toEqual({ command: process.execPath, args: [join(repo, "dist", "mcp.cjs"), "mcp", "--vault", vault, "--from", "ai-conversation-memory"] });
			const child = spawn(process.execPath, [ensureGeminiCli().entry, "-p", "say hi", "--output-format", "json"], { cwd, env: geminiEnv(geminiHome, geminiStub.url), stdio: ["ignore", "pipe", "pipe"] });
			const done = await collectProcess(child, 120_000);
			expect(done.code, done.stderr).toBe(0);
			expect(done.stdout + done.stderr).not.toContain("Blocked dangerous environment variable");
			const offered = JSON.stringify(geminiStub.mainRequests()[0]?.body);
			for (const tool of tools) expect(offered, "Gemini CLI lists the server's tools").toContain(tool);
			runWith({ HOME: geminiHome, GEMINI_CLI_HOME: geminiHome }, "mcp", "uninstall", "--agent", "gemini-cli");
			expect(readFileSync(join(geminiHome, ".gemini", "settings.json"), "utf8")).toBe(geminiBefore);
		} finally {
			await geminiStub.close();
		}
	});
});
