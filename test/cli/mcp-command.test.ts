import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";
import { RecallIndex } from "../../src/core/memory/recall";
import type { HookContext } from "../../src/core/plan/hook-context";
import { hookContextPath } from "../../src/node/plugin-paths";

/**
 * The built server (dist/mcp.cjs, reached through `ai-memory mcp` of dist/cli.cjs too) over stdio,
 * as an agent starts it: the SDK's client and transport, and bytes that are not the protocol.
 */
const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
const mcp = join(repo, "dist", "mcp.cjs");
let dir: string;
let vault: string;
let project: string;

beforeAll(() => {
	buildCli("mcp.cjs");
	dir = mkdtempSync(join(tmpdir(), "cli-mcp-"));
	vault = join(dir, "vault");
	project = join(dir, "code", "api");
	mkdirSync(project, { recursive: true });
	mkdirSync(vault);
	expect(spawnSync(process.execPath, [cli, "projects", "add", project, "--mode", "lazy", "--vault", vault]).status).toBe(0);
	const context: HookContext = {
		version: 1,
		projectPath: project,
		mode: "lazy",
		facade: "## Project memory\n",
		packet: "# api: context packet\n\nHISTORY-MARK\n",
		packetPath: "/v/api context.md",
		recall: RecallIndex.build([{ file: "cache.md", name: "cache-ttl", description: "The cache TTL is ten minutes" }]).serialize(),
		bodies: { "cache.md": "TTL 600 s, set in config/cache.ts (BODY-MARK); deploy key ghp_abcdefghijklmnopqrstuvwxyz0123456789." },
	};
	const state = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "state");
	mkdirSync(join(state, "hooks"), { recursive: true });
	writeFileSync(hookContextPath(state, project), JSON.stringify(context));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function connect(args: string[]): Promise<Client> {
	const client = new Client({ name: "test", version: "1" });
	await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: project, stderr: "pipe" }));
	return client;
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { text: string }[]).map((c) => c.text).join("\n");

describe("ai-memory mcp over stdio", () => {
	it("serves the tools from dist/mcp.cjs and from `ai-memory mcp`, its answers redacted", async () => {
		for (const args of [[mcp, "mcp", "--vault", vault], [cli, "mcp", "--vault", vault]]) {
			const client = await connect(args);
			try {
				expect((await client.listTools()).tools.map((t) => t.name)).toContain("search_sessions");
				const facts = textOf(await client.callTool({ name: "recall_facts", arguments: { query: "cache ttl" } }));
				expect(facts).toContain("BODY-MARK");
				expect(facts).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789");
				expect(textOf(await client.callTool({ name: "project_context", arguments: {} }))).toContain("HISTORY-MARK");
			} finally {
				await client.close();
			}
		}
	});

	it("a data.json it cannot use is said in the tools' words: what to do and that the tools answer once it is, not that nothing was synced (attack round 50a)", async () => {
		const other = join(dir, "bad-settings");
		const plugin = join(other, ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(plugin, { recursive: true });
		writeFileSync(join(plugin, "data.json"), JSON.stringify({ version: 2, projects: [{ path: project, enabled: "yes" }] }));
		const client = await connect([mcp, "mcp", "--vault", other]);
		try {
			const answer = await client.callTool({ name: "search_sessions", arguments: { query: "cache" } });
			expect(answer.isError).toBe(true);
			expect(textOf(answer)).toMatch(/the settings in .*data\.json are not valid: .*; fix the file, the recall tools answer once it is/);
			expect(textOf(answer)).not.toContain("synced");
		} finally {
			await client.close();
		}
	});

	it("answers a line that is not JSON-RPC with an error and goes on, a request too long too; exits when its input closes", async () => {
		const child = spawn(process.execPath, [mcp, "mcp", "--vault", vault], { cwd: project, stdio: ["pipe", "pipe", "pipe"] });
		let out = "";
		child.stdout.on("data", (b: Buffer) => (out += b.toString("utf8")));
		child.stdin.write("this is not json\n{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"nope\"}\n");
		child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`);
		for (const until = Date.now() + 10_000; !out.includes('"id":1') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
		expect(out).toContain('"serverInfo":{"name":"ai-memory"');
		expect(out).toMatch(/"id":7[^\n]*-32601|-32601[^\n]*"id":7/);
		expect(out).toContain('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not JSON"}}');
		// Over 10 MiB the SDK closed its transport and the server ended without a word.
		child.stdin.write(`${"x".repeat(11 * 1024 * 1024)}\n${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" })}\n`);
		for (const until = Date.now() + 10_000; !out.includes('"id":8') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
		expect(out).toContain("a request longer than 4 MiB is not read");
		expect(out).toMatch(/"result":\{\},"jsonrpc":"2.0","id":8|"id":8,"result":\{\}/);
		child.stdin.end();
		const code = await new Promise<number | null>((done) => child.on("exit", done));
		expect(code).toBe(0);
	});

	it("refuses to start without a vault, saying why on stderr", () => {
		const none = spawnSync(process.execPath, [cli, "mcp"], { encoding: "utf8" });
		expect(none.status).not.toBe(0);
		expect(none.stderr).toContain("mcp needs --vault <dir>");
		const missing = spawnSync(process.execPath, [mcp, "mcp", "--vault", join(dir, "nowhere")], { encoding: "utf8" });
		expect(missing.status).toBe(2);
		expect(missing.stderr).toContain("does not exist");
		expect(missing.stdout).toBe("");
	});
});
