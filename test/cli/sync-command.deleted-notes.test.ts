import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";
import { assistant, jsonl, text, userText } from "../fixtures/lines";

/** The built CLI, Obsidian closed: notes the person deleted or moved with a file manager or a shell. */
const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
let dir: string;

beforeAll(() => {
	buildCli();
	dir = mkdtempSync(join(tmpdir(), "cli-deleted-notes-"));
});
afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

describe("ai-memory sync and notes deleted or moved outside Obsidian", () => {
	it("the next sync, with no transcript changed, links past a deleted note and to a moved one, in the notes beside them and the index; the one after writes nothing", () => {
		const project = join(dir, "shop");
		mkdirSync(project);
		const folder = join(dir, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		mkdirSync(folder, { recursive: true });
		const tasks = ["Alpha", "Beta", "Gamma", "Delta"];
		tasks.forEach((task, i) => {
			const id = `11111111-2222-4333-8444-00000000000${i}`;
			const env = { cwd: project, sessionId: id, timestamp: `2026-11-2${i}T10:00:00.000Z` };
			writeFileSync(join(folder, `${id}.jsonl`), jsonl([userText(`${task} task for the orders list`, env), assistant(text(`Done: ${task}.`), { ...env, messageId: `msg_${i}` })]));
		});
		const vault = join(dir, "vault");
		mkdirSync(vault);
		const sync = () => spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(dir, "claude"), "--json"], { encoding: "utf8" });
		expect(sync().status).toBe(0);
		const notes = join(vault, "AI Conversations", "shop");
		const named = (task: string) => readdirSync(notes).find((n) => n.includes(task))!;
		const [alpha, beta, gamma, delta] = tasks.map(named) as [string, string, string, string];
		unlinkSync(join(notes, beta));
		mkdirSync(join(vault, "Kept"));
		renameSync(join(notes, delta), join(vault, "Kept", "delta.md"));
		const r = sync();
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		const report = JSON.parse(r.stdout) as { notesSkipped: string[]; errors: string[] };
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped).toEqual([`AI Conversations/shop/${beta}`]);
		expect(readdirSync(notes).sort()).toEqual([alpha, gamma, "shop.md"].sort());
		const stem = (name: string) => name.replace(/\.md$/, "");
		expect(readFileSync(join(notes, alpha), "utf8")).toContain(`Next: [[AI Conversations/shop/${stem(gamma)}|`);
		expect(readFileSync(join(notes, gamma), "utf8")).toMatch(/Next: \[\[Kept\/delta\|/);
		const index = readFileSync(join(notes, "shop.md"), "utf8");
		expect(index).not.toContain(stem(beta));
		expect(index).toContain("Kept/delta");
		const again = JSON.parse(sync().stdout) as { notesWritten: string[] };
		expect(again.notesWritten).toEqual([]);
	});

	it("a note deleted before or while its project was excluded stays deleted when the exclusion is lifted, and the state folder keeps nothing of its sessions meanwhile", () => {
		const project = join(dir, "quiet-room");
		mkdirSync(project);
		const claude = join(dir, "claude-quiet");
		const folder = join(claude, "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		mkdirSync(folder, { recursive: true });
		const tasks = ["Alpha", "Beta", "Gamma"];
		tasks.forEach((task, i) => {
			const id = `21111111-2222-4333-8444-00000000000${i}`;
			const env = { cwd: project, sessionId: id, timestamp: `2026-11-2${i}T10:00:00.000Z` };
			writeFileSync(join(folder, `${id}.jsonl`), jsonl([userText(`${task} task for the invoice export`, env), assistant(text(`Done: ${task}.`), { ...env, messageId: `msg_${i}` })]));
		});
		const vault = join(dir, "vault-quiet");
		const plugin = join(vault, ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(plugin, { recursive: true });
		const sync = () => JSON.parse(spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", claude, "--json"], { encoding: "utf8" }).stdout) as { notesSkipped: string[]; notesWritten: string[]; errors: string[] };
		const exclude = (paths: string[]) => writeFileSync(join(plugin, "data.json"), JSON.stringify({ excludedProjects: paths }));
		sync();
		const notes = join(vault, "AI Conversations", "quiet-room");
		const [alpha, beta, gamma] = tasks.map((task) => readdirSync(notes).find((n) => n.includes(task))!) as [string, string, string];
		unlinkSync(join(notes, alpha));
		sync();
		exclude([project]);
		sync();
		unlinkSync(join(notes, beta));
		const stored = readdirSync(join(plugin, "state"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
		for (const file of stored) expect(readFileSync(join(file.parentPath, file.name), "utf8")).not.toMatch(/invoice|Alpha|Beta|Gamma/);
		exclude([]);
		const report = sync();
		expect(report.errors).toEqual([]);
		expect(report.notesSkipped.sort()).toEqual([`AI Conversations/quiet-room/${alpha}`, `AI Conversations/quiet-room/${beta}`].sort());
		expect(readdirSync(notes).sort()).toEqual([gamma, "quiet-room.md"].sort());
		expect(sync().notesWritten).toEqual([]);
	});
});
