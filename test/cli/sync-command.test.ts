import { spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";
import { acquireSyncLock, syncLockPath } from "../../src/node/sync-lock";

/** The built CLI on the bundled examples: what `npm run demo` does, checked. */
const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
let dir: string;

function run(...args: string[]) {
	return spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
}

beforeAll(() => {
	buildCli();
	dir = mkdtempSync(join(tmpdir(), "cli-sync-"));
	const project = join(dir, "shop-api");
	mkdirSync(project);
	mkdirSync(join(dir, "vault"));
	const target = join(dir, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
	cpSync(join(repo, "examples", "claude-projects", "-tmp-ai-memory-demo-shop-api"), target, { recursive: true });
	for (const f of readdirSync(target, { recursive: true }) as string[]) {
		const p = join(target, f);
		if (statSync(p).isFile()) writeFileSync(p, readFileSync(p, "utf8").split("/tmp/ai-memory-demo/shop-api").join(project));
	}
	writeFileSync(join(project, "CLAUDE.md"), "# shop-api\r\nHand-written.  \r\n");
});
afterAll(() => {
	chmodSync(join(dir, "shop-api", "CLAUDE.md"), 0o644);
	rmSync(dir, { recursive: true, force: true });
});

describe("ai-memory sync", () => {
	it("refuses a --wait that is no number of seconds, a --config-dir that leaves the vault and a --project that is not there, before anything starts", () => {
		const vault = join(dir, "vault");
		for (const wait of ["abc", "1e12", "-1", "", "0x10", "1e1", "Infinity", "3601"]) {
			const r = run("sync", "--vault", vault, "--claude-dir", join(dir, "claude"), "--wait", wait);
			expect(r.status).not.toBe(0);
			expect(r.stderr).toContain("give a number of seconds from 0 to 3600");
		}
		const r = run("sync", "--vault", vault, "--claude-dir", join(dir, "claude"), "--config-dir", "../..");
		expect(r.status).toBe(1);
		expect(r.stderr).toContain("--config-dir must be the name of a folder inside the vault");
		expect(existsSync(join(dir, "plugins"))).toBe(false);
		const missing = run("sync", "--vault", vault, "--claude-dir", join(dir, "claude"), "--project", join(dir, "no-such-project"));
		expect(missing.status).not.toBe(0);
		expect(missing.stderr).toContain(`project folder ${join(dir, "no-such-project")} does not exist; nothing was synced`);
		expect(existsSync(join(vault, "AI Conversations"))).toBe(false);
		// A dozen runs of the CLI, each a process of its own: seconds on a loaded machine.
	}, 30_000);

	it("prints the plan on a dry run and writes nothing: no note, no CLAUDE.md, no state", () => {
		const r = run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"), "--dry-run");
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		const lines = r.stdout.trim().split("\n");
		expect(lines.filter((l) => l.startsWith("would create AI Conversations/shop-api/"))).toHaveLength(5); // 4 sessions, the index
		expect(lines).toContain("would create AI Conversations/AI Conversations.base");
		expect(lines).toContain(`would update ${join(dir, "shop-api")}/CLAUDE.md`);
		expect(lines.at(-1)).toMatch(/^Dry run: 5 transcripts read, \d+ changes planned; nothing written\.$/);
		expect(readdirSync(join(dir, "vault"), { recursive: true }).filter((f) => !String(f).startsWith(".obsidian"))).toEqual([]);
		expect(existsSync(join(dir, "vault", ".obsidian", "plugins", "ai-conversation-memory", "state"))).toBe(false);
		expect(readFileSync(join(dir, "shop-api", "CLAUDE.md"), "utf8")).toBe("# shop-api\r\nHand-written.  \r\n");
	});

	it("writes a note per session and the block into CLAUDE.md, keeping the hand-written bytes", () => {
		const r = run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"), "--json");
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		const result = JSON.parse(r.stdout) as { notesWritten: string[]; contextWritten: string[] };
		expect(result.notesWritten).toHaveLength(6); // 4 sessions, the project index, the base
		expect(result.contextWritten).toHaveLength(1);
		const claudeMd = readFileSync(join(dir, "shop-api", "CLAUDE.md"), "utf8");
		expect(claudeMd.startsWith("# shop-api\r\nHand-written.  \r\n\r\n<!-- AUTO-CONTEXT:BEGIN -->\r\n")).toBe(true);
		expect(claudeMd).toContain("Add a GET /products/:id endpoint to the shop API");
		expect(claudeMd).toContain("주문 목록 API에 페이지네이션을 추가해 줘");
		const notes = readdirSync(join(dir, "vault", "AI Conversations", "shop-api"));
		expect(notes).toHaveLength(5);
		const note = readFileSync(join(dir, "vault", "AI Conversations", "shop-api", notes.find((n) => n.startsWith("2026-11-29 Refactor"))!), "utf8");
		expect(note).toMatch(/^---\nsession_id: 5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d03\nagent: claude-code\nproject: shop-api\n/);
		expect(note).toContain("- Find product validation (Explore)");
		expect(note).toContain("Sub-agent Explore: Find product validation");
	});

	it("writes nothing the second time", () => {
		// Files only: the sync lock comes and goes in the state folder, which touches the folder itself.
		const mtimes = () => readdirSync(join(dir, "vault"), { recursive: true }).map((f) => statSync(join(dir, "vault", String(f)))).filter((s) => s.isFile()).map((s) => s.mtimeMs);
		const before = mtimes();
		const r = run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"), "--json");
		expect(JSON.parse(r.stdout)).toMatchObject({ transcriptsRead: 0, notesWritten: [], contextWritten: [], errors: [] });
		const after = mtimes();
		expect(after).toEqual(before);
		// And says so, in words.
		const words = run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"));
		expect(words.stdout).toBe("Nothing to sync: no transcript changed since the last sync, nothing written.\n");
		expect(run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"), "--dry-run").stdout).toBe("Dry run: 0 transcripts read, nothing to do; nothing written.\n");
		// Not even the removal of what a killed run left: a dry run writes nothing; the next sync removes it.
		const left = join(dir, "vault", "AI Conversations", "shop-api", "x.md.999999999-0.1.tmp");
		writeFileSync(left, "half");
		expect(run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"), "--dry-run", "--full").status).toBe(0);
		expect(existsSync(left)).toBe(true);
		expect(run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"), "--full").status).toBe(0);
		expect(existsSync(left)).toBe(false);
	});

	it("a lazy project's sync with nothing to do says so too: its context packet, checked at every sync, is no note unchanged", () => {
		// A project and a vault of its own: the other vault writes shop-api's block.
		const home = join(dir, "lazy");
		const project = join(home, "shop-api");
		const vault = join(home, "vault");
		const claude = join(home, "claude");
		const sessions = join(claude, "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		mkdirSync(project, { recursive: true });
		mkdirSync(vault);
		cpSync(join(repo, "examples", "claude-projects", "-tmp-ai-memory-demo-shop-api"), sessions, { recursive: true });
		for (const f of readdirSync(sessions)) if (f.endsWith(".jsonl")) writeFileSync(join(sessions, f), readFileSync(join(sessions, f), "utf8").split("/tmp/ai-memory-demo/shop-api").join(project));
		expect(run("projects", "add", project, "--vault", vault, "--mode", "lazy").status).toBe(0);
		const first = run("sync", "--vault", vault, "--claude-dir", claude, "--json");
		expect((JSON.parse(first.stdout) as { notesWritten: string[] }).notesWritten).toContain("AI Conversations/shop-api/shop-api context.md");
		const again = run("sync", "--vault", vault, "--claude-dir", claude);
		expect([again.stdout, again.stderr]).toEqual(["Nothing to sync: no transcript changed since the last sync, nothing written.\n", ""]);
		// Deleted, the packet is written again (the facade points at it).
		rmSync(join(vault, "AI Conversations", "shop-api", "shop-api context.md"));
		expect(run("sync", "--vault", vault, "--claude-dir", claude).stdout).toBe("Synced: 1 note written.\n");
		expect(existsSync(join(vault, "AI Conversations", "shop-api", "shop-api context.md"))).toBe(true);
	});

	it("--version prints the package's version", () => {
		const version = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string }).version;
		expect(run("--version")).toMatchObject({ status: 0, stdout: `${version}\n` });
	});

	it("fails clearly on a missing vault, and on a read-only CLAUDE.md without touching it", () => {
		const missing = run("sync", "--vault", join(dir, "nope"), "--claude-dir", join(dir, "claude"));
		expect(missing.status).toBe(2);
		expect(missing.stderr).toBe(`ai-memory: vault folder ${join(dir, "nope")} does not exist\n`);
		// No agent's folder anywhere: each is named, Aider's (the enabled projects: none) left out.
		const none = run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "no-claude"));
		expect(none.status).toBe(2);
		expect(none.stderr).toMatch(/^ai-memory: no transcripts: none of these folders exists: .*no-claude\/projects \(Claude Code\), .* \(opencode\)\n$/);
		// Every agent turned off, or misspelt (`["claude"]`): the setting is named, not an empty list of folders.
		for (const agents of [[], ["claude"], ["aider"]]) {
			const vault = join(dir, `vault-agents-${agents.length}${agents[0] ?? ""}`);
			mkdirSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory"), { recursive: true });
			writeFileSync(join(vault, ".obsidian", "plugins", "ai-conversation-memory", "data.json"), JSON.stringify({ version: 2, agents }));
			const off = run("sync", "--vault", vault, "--claude-dir", join(dir, "no-claude"));
			expect(off.status).toBe(2);
			expect(off.stderr).toMatch(agents[0] === "aider" ? /^ai-memory: no agent's sessions to read: Aider's histories are read in the enabled projects, and none is enabled; nothing was synced\n$/ : /^ai-memory: no agent's sessions to read: "agents" in .*data\.json turns on none of claude-code, codex, .*; nothing was synced\n$/);
		}
		writeFileSync(join(dir, "a-file"), "");
		expect(run("sync", "--vault", join(dir, "a-file"), "--claude-dir", join(dir, "claude")).stderr).toBe(`ai-memory: vault folder ${join(dir, "a-file")} is a file, not a folder\n`);

		const claudeMd = join(dir, "shop-api", "CLAUDE.md");
		writeFileSync(claudeMd, "# changed by hand\n");
		chmodSync(claudeMd, 0o444);
		const r = run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--project", join(dir, "shop-api"));
		expect(readFileSync(claudeMd, "utf8")).toBe("# changed by hand\n");
		expect(r.status).toBe(1);
		expect(r.stderr).toBe(`ai-memory: CLAUDE.md in ${join(dir, "shop-api")}: not written, ${claudeMd} is read-only; the next sync tries again\n`);
	});

	it("waits while another sync holds the lock, then says who holds it and writes nothing", async () => {
		const stateDir = join(dir, "vault", ".obsidian", "plugins", "ai-conversation-memory", "state");
		const lock = await acquireSyncLock(syncLockPath(stateDir), { tool: "plugin" });
		try {
			const r = await new Promise<{ status: number | null; stderr: string }>((done) => {
				const child = spawn(process.execPath, [cli, "sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--wait", "0.3"]);
				let stderr = "";
				child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
				child.on("close", (status) => done({ status, stderr }));
			});
			expect(r.status).toBe(3);
			expect(r.stderr).toMatch(new RegExp(`^ai-memory: another sync is running \\(the Obsidian plugin, pid ${process.pid}, since \\d\\d:\\d\\d:\\d\\d\\); waited 0.3 s, try again when it is done\\n$`));
		} finally {
			await lock.release();
		}
		expect(run("sync", "--vault", join(dir, "vault"), "--claude-dir", join(dir, "claude"), "--wait", "0.3").status).not.toBe(3);
	});

	it("writes the same bytes as the plugin: the notes the golden test (and the built main.js) expect", () => {
		const t = mkdtempSync(join(tmpdir(), "cli-golden-"));
		try {
			cpSync(join(repo, "examples", "claude-projects"), join(t, "claude", "projects"), { recursive: true });
			mkdirSync(join(t, "vault"));
			expect(run("sync", "--vault", join(t, "vault"), "--claude-dir", join(t, "claude")).status).toBe(0);
			const folder = join(t, "vault", "AI Conversations", "shop-api");
			const note = (part: string) => readFileSync(join(folder, readdirSync(folder).find((f) => f.includes(part))!), "utf8").split(join(t, "claude")).join("<claude-dir>");
			const golden = (name: string) => readFileSync(join(repo, "test", "golden", "notes", name), "utf8");
			expect(note("Add a GET")).toBe(golden("add-endpoint.md"));
			expect(note("The cart total")).toBe(golden("bug-fix-thinking.md"));
			expect(note("Refactor")).toBe(golden("refactor-subagent.md"));
			expect(note("주문 목록")).toBe(golden("korean-pagination.md"));
			expect(note("shop-api.md")).toBe(golden("project-index.md"));
		} finally {
			rmSync(t, { recursive: true, force: true });
		}
	});
});
