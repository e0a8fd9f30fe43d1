import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NOTE_MARKERS } from "../../../src/core/notes/note-regions";
import { deviceIdOf, migrateSettings, type Settings } from "../../../src/core/settings";
import type { SyncReport } from "../../../src/core/sync/sync-engine";
import { SYNC_STATE_VERSION } from "../../../src/core/sync/sync-state";
import { VaultFolder } from "../../../src/node/vault-folder";
import { VaultSync } from "../../../src/node/vault-sync";

/**
 * The vault release 0.1.0 wrote (test/fixtures/vault-0.1, see its README): five repositories called
 * `cli` in one folder, two enabled `api` repositories sharing a folder, a memory folder and facts.
 * The first sync of this release moves it to one folder per repository, losing nothing.
 */
const FIXTURE = join(__dirname, "..", "..", "fixtures", "vault-0.1");
const ROOT = "/tmp/ai-memory-fixture-v0.1";
const VAULT = join(ROOT, "vault");
const STATE = join(VAULT, ".obsidian", "plugins", "ai-conversation-memory", "state");
const CLAUDE = join(ROOT, "claude");
const NOTES = join(VAULT, "AI Conversations");
const WORK = join(ROOT, "work", "api");
const OSS = join(ROOT, "oss", "api");
const memoryOf = (repo: string) => join(CLAUDE, "projects", repo.replace(/[^a-zA-Z0-9]/g, "-"), "memory");

let settings: Settings;
let before: Map<string, string>;
let first: SyncReport;

/** Every Markdown file of the vault (hidden folders left out), by vault path. */
function vaultFiles(): Map<string, string> {
	const files = new Map<string, string>();
	const walk = (dir: string) => {
		for (const e of readdirSync(dir, { withFileTypes: true })) {
			if (e.name.startsWith(".")) continue;
			const full = join(dir, e.name);
			if (e.isDirectory()) walk(full);
			else if (e.name.endsWith(".md")) files.set(relative(VAULT, full).split("\\").join("/"), readFileSync(full, "utf8"));
		}
	};
	walk(VAULT);
	return files;
}

const sync = () => new VaultSync(join(CLAUDE, "projects"), STATE, new VaultFolder(VAULT), { vaultPath: VAULT }).run(settings);
const sessionNotes = (files: Map<string, string>, id: string) => [...files].filter(([, text]) => text.includes(`session_id: ${id}`));
const folderOf = (path: string) => path.split("/").slice(0, -1).join("/");

beforeAll(async () => {
	rmSync(ROOT, { recursive: true, force: true });
	cpSync(join(FIXTURE, "claude"), CLAUDE, { recursive: true });
	cpSync(join(FIXTURE, "vault"), VAULT, { recursive: true });
	cpSync(join(FIXTURE, "projects"), ROOT, { recursive: true });
	for (const repo of [WORK, OSS]) execFileSync("git", ["init", "-q", repo]);
	const raw = JSON.parse(readFileSync(join(VAULT, ".obsidian", "plugins", "ai-conversation-memory", "data.json"), "utf8")) as { devices: Record<string, unknown> };
	// 0.1.0 keys projects by host name: the fixture was made on `fixture-host`.
	raw.devices[deviceIdOf(hostname())] = raw.devices["fixture-host"];
	settings = migrateSettings(raw, hostname()).settings;
	before = vaultFiles();
	first = await sync();
});

describe("a vault written by 0.1.0, on its first sync", () => {
	it("gives each of the five `cli` repositories its own folder and index, the first one keeping the old folder", () => {
		expect(first.errors).toEqual([]);
		const folders = readdirSync(NOTES).filter((n) => n.startsWith("cli")).sort();
		expect(folders).toEqual(["cli", "cli (devenv)", "cli (pat)", "cli (src)", "cli (tools)"]);
		for (const folder of folders) {
			const notes = readdirSync(join(NOTES, folder)).filter((n) => /^\d{4}-/.test(n));
			expect(notes).toHaveLength(1);
			const index = readFileSync(join(NOTES, folder, `${folder}.md`), "utf8");
			expect(index).toContain("sessions: 1");
			// No Previous/Next link to a session of another repository.
			const note = readFileSync(join(NOTES, folder, notes[0]!), "utf8");
			expect(note).not.toMatch(/Previous|Next/);
		}
		expect(readFileSync(join(NOTES, "cli", "cli.md"), "utf8")).toContain("/Users/alex/workspace/cli");
		expect(readFileSync(join(NOTES, "cli (pat)", "cli (pat).md"), "utf8")).toContain("C:\\Users\\pat\\cli");
	});

	it("moves notes with the user's words byte for byte, duplicates nothing, and rewrites links to them", () => {
		const after = vaultFiles();
		for (const [path, text] of before) {
			const id = /session_id: (\S+)/.exec(text)?.[1];
			if (!id) continue;
			const found = sessionNotes(after, id);
			expect(found, path).toHaveLength(1);
			const end = text.indexOf(NOTE_MARKERS.end);
			// What follows the generated region is the user's.
			expect(found[0]![1].slice(found[0]![1].indexOf(NOTE_MARKERS.end))).toBe(text.slice(end));
		}
		const soph = sessionNotes(after, [...before].find(([p]) => p.includes("2025-03-10"))![1].match(/session_id: (\S+)/)![1]!)[0]!;
		expect(folderOf(soph[0])).toBe("AI Conversations/cli (devenv)");
		expect(soph[1]).toContain("My notes");
		expect(after.get("Notes/CLI tools.md")).toBe(before.get("Notes/CLI tools.md")!.replace("[[AI Conversations/cli/", "[[AI Conversations/cli (devenv)/"));
		expect(first.notesMoved).toHaveLength(4 + 2);
	});

	it("splits the two enabled `api` repositories: notes, index, packet and memory folder each their own", () => {
		const after = vaultFiles();
		const index = (folder: string) => after.get(`AI Conversations/${folder}/${folder}.md`) ?? "";
		expect(index("api")).toContain("sessions: 2");
		expect(index("api")).toContain(WORK);
		expect(index("api (oss)")).toContain("sessions: 2");
		expect(index("api (oss)")).toContain(OSS);
		expect(after.has("AI Conversations/api (oss)/api (oss) context.md")).toBe(true);
		// The user's link into work's notes still resolves: work kept the folder.
		for (const link of after.get("Notes/API work log.md")!.matchAll(/\[\[([^\]|#]+)/g)) expect(after.has(`${link[1]}.md`), link[1]).toBe(true);
		// oss's facts come from its own Claude Code memory into its own folder.
		const oss = [...after.keys()].filter((p) => p.startsWith("AI Memory/api (oss)/")).map((p) => p.split("/").pop()).sort();
		expect(oss).toContain("license-header.md");
		const state = JSON.parse(readFileSync(join(STATE, "sync-state.json"), "utf8")) as { version: number; projects: Record<string, { folder: string }> };
		expect(state.version).toBe(SYNC_STATE_VERSION);
		expect(state.projects[WORK]?.folder).toBe("api");
		expect(state.projects[OSS]?.folder).toBe("api (oss)");
	});

	it("is stable: the next sync writes nothing", async () => {
		const again = await sync();
		expect(again.errors).toEqual([]);
		expect(again.notesWritten).toEqual([]);
		expect(again.memoryWritten).toEqual([]);
		expect(again.contextWritten).toEqual([]);
		expect(again.notesMoved).toEqual([]);
	});

	it("never lets a fact cross again: a deletion in one repository leaves the other's copy alone", async () => {
		const workFacts = readdirSync(memoryOf(WORK)).sort();
		// oss holds a stray copy of work's orders-schema fact, from 0.1.0: the user deletes it there.
		const stray = join(VAULT, "AI Memory", "api (oss)", "orders-schema.md");
		expect(existsSync(stray)).toBe(true);
		unlinkSync(stray);
		writeFileSync(join(VAULT, "AI Memory", "api", "deploy-window.md"), "---\nname: deploy-window\ndescription: Deploys only on Tuesdays\nmetadata:\n  type: project\n---\n\nDeploys only on Tuesdays.\n");
		const report = await sync();
		expect(report.errors).toEqual([]);
		expect(existsSync(join(memoryOf(OSS), "orders-schema.md"))).toBe(false);
		expect(existsSync(join(VAULT, "AI Memory", "api", "orders-schema.md"))).toBe(true);
		expect(existsSync(join(memoryOf(WORK), "project_orders_schema.md"))).toBe(true);
		// A new fact of work's goes to work's Claude Code memory only.
		expect(readdirSync(memoryOf(WORK)).sort()).toEqual([...workFacts, "deploy-window.md"].sort());
		expect(existsSync(join(memoryOf(OSS), "deploy-window.md"))).toBe(false);
	});
});
