/**
 * Real Claude Code sessions synced by the built CLI into a temporary vault: each note holds the
 * right prompt, answer, files and tags, the project's CLAUDE.md gets the block, and a second sync
 * writes nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureClaudeCode, makeTempDir, runClaude, startStub, text, toolUse, type Stub, buildCli } from "./harness/index.js";

const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");

describe("session notes from real Claude Code sessions", () => {
	let stub: Stub;
	let root: string;
	beforeAll(async () => {
		ensureClaudeCode();
		buildCli();
		stub = await startStub();
		root = makeTempDir("cc-notes-");
	});
	afterAll(async () => {
		await stub?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	it("writes one note per session with prompt, answer, files and tags", async () => {
		const home = join(root, "home");
		const cwd = join(root, "work", "billing-api");
		const vault = join(root, "vault");
		mkdirSync(cwd, { recursive: true });
		mkdirSync(vault);
		writeFileSync(join(cwd, "CLAUDE.md"), "# billing-api\n\nUse TypeScript strict mode.\n");
		stub.setScript({
			rules: [
				{
					match: "Add a Dockerfile",
					steps: [
						[text("Writing the Dockerfile and a typed invoice module."), toolUse("Write", { file_path: join(cwd, "Dockerfile"), content: "FROM node:20-alpine\nCOPY . .\nCMD [\"node\", \"dist/server.js\"]\n" })],
						[toolUse("Write", { file_path: join(cwd, "src", "invoice.ts"), content: "export interface Invoice { id: string; total: number }\n" })],
						[toolUse("Bash", { command: "ls src", description: "List sources" })],
						"Added a Dockerfile for Node 20 and src/invoice.ts with the Invoice type.",
					],
				},
				{
					match: "청구서 합계",
					steps: [
						[toolUse("Write", { file_path: join(cwd, "scripts", "total.py"), content: "def total(items):\n    return sum(i['amount'] for i in items)\n" })],
						"청구서 합계를 계산하는 scripts/total.py를 추가했습니다.",
					],
				},
			],
		});
		const first = await runClaude({ home, cwd, stub, prompt: "Add a Dockerfile and an Invoice type for the billing service" });
		expect(first.exitCode, first.stderr).toBe(0);
		const second = await runClaude({ home, cwd, stub, prompt: "청구서 합계를 계산하는 파이썬 스크립트를 추가해 줘" });
		expect(second.exitCode, second.stderr).toBe(0);

		const sync = spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(home, ".claude"), "--project", cwd, "--json"], { encoding: "utf8" });
		expect(sync.status, sync.stderr).toBe(0);
		const report = JSON.parse(sync.stdout) as { notesWritten: string[]; contextWritten: string[] };
		expect(report.contextWritten).toEqual([`${cwd}/CLAUDE.md`]);

		const folder = join(vault, "AI Conversations", "billing-api");
		const notes = readdirSync(folder).filter((n) => n !== "billing-api.md");
		expect(notes).toHaveLength(2);
		const english = readFileSync(join(folder, notes.find((n) => n.includes("Add a Dockerfile"))!), "utf8");
		expect(english).toContain(`session_id: ${first.sessionId}`);
		expect(english).toContain("### You · 1\n\nAdd a Dockerfile and an Invoice type for the billing service");
		expect(english).toContain("**Tasks:**\n1. Add a Dockerfile and an Invoice type for the billing service\n    - Added a Dockerfile for Node 20 and src/invoice.ts with the Invoice type.");
		// Paths in the body are the project's own.
		expect(english).toContain("**Files touched:**\n- `Dockerfile`\n- `src/invoice.ts`");
		expect(english).toContain("- `ls src`");
		const englishTags = /tags:\n((?: {2}- .*\n)+)/.exec(english)?.[1] ?? "";
		for (const tag of ["ai/project/billing-api", "docker", "typescript"]) expect(englishTags).toContain(tag);

		const korean = readFileSync(join(folder, notes.find((n) => n.includes("청구서"))!), "utf8");
		expect(korean).toContain(`session_id: ${second.sessionId}`);
		expect(korean).toContain("청구서 합계를 계산하는 파이썬 스크립트를 추가해 줘");
		expect(korean).toContain("    - 청구서 합계를 계산하는 scripts/total.py를 추가했습니다.");
		const koreanTags = /tags:\n((?: {2}- .*\n)+)/.exec(korean)?.[1] ?? "";
		expect(koreanTags).toContain("python");
		// "청구서 합계" is said once, in one sentence of one session: no evidence for a keyword tag (docs/topic-tags.md).
		expect(koreanTags).not.toMatch(/청구서|합계/);
		expect(koreanTags).not.toMatch(/추가해|줘/);

		const claudeMd = readFileSync(join(cwd, "CLAUDE.md"), "utf8");
		expect(claudeMd.startsWith("# billing-api\n\nUse TypeScript strict mode.\n\n<!-- AUTO-CONTEXT:BEGIN -->\n")).toBe(true);

		// Files only: the sync lock comes and goes in the state folder, which touches the folder itself.
		const mtimes = () => readdirSync(vault, { recursive: true }).map((f) => statSync(join(vault, String(f)))).filter((s) => s.isFile()).map((s) => s.mtimeMs);
		const before = mtimes();
		const again = spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(home, ".claude"), "--project", cwd, "--json"], { encoding: "utf8" });
		expect(JSON.parse(again.stdout)).toMatchObject({ transcriptsRead: 0, notesWritten: [], contextWritten: [] });
		expect(mtimes()).toEqual(before);
	});
});
