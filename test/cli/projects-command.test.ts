import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runProjectsAdd, runProjectsList, runProjectsRemove } from "../../src/cli/projects-command";
import { loadSettings } from "../../src/cli/sync-command";
import { DEFAULT_PROJECT, migrateSettings } from "../../src/core/settings";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";
import { assistant, jsonl, text, userText } from "../fixtures/lines";

const HOST = "laptop";
let dir: string;
let vault: string;
let dataJson: string;
let out: string;
let err: string;

beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "cli-projects-"));
	vault = join(dir, "vault");
	dataJson = join(vault, ".obsidian", "plugins", "ai-conversation-memory", "data.json");
	mkdirSync(join(dir, "api"), { recursive: true });
	mkdirSync(join(dir, "web"), { recursive: true });
	mkdirSync(vault);
	out = "";
	err = "";
	vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((out += String(chunk)), true));
	vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((err += String(chunk)), true));
});
afterEach(() => {
	vi.restoreAllMocks();
	rmSync(dir, { recursive: true, force: true });
});

const opts = (more: object = {}) => ({ vault, host: HOST, ...more });
const loadSettingsProjects = () => (JSON.parse(readFileSync(dataJson, "utf8")) as { devices: Record<string, { projects: { path: string }[] }> }).devices[HOST]!.projects.map((p) => p.path);

describe("ai-memory projects", () => {
	it("add says whether the project has sessions to write its context from", async () => {
		const claudeDir = join(dir, "claude");
		mkdirSync(join(dataJson, ".."), { recursive: true });
		writeFileSync(dataJson, JSON.stringify({ version: 2, devices: { [HOST]: { claudeDir, projects: [] } } }));
		expect(await runProjectsAdd(join(dir, "api"), opts({ also: ["AGENTS.md"] }))).toBe(0);
		expect(out).toBe(`Added ${join(dir, "api")}: enabled, eager mode, context in CLAUDE.md and AGENTS.md. No session of it is known yet (none in the vault's last sync, no Claude Code transcripts for it in ${join(claudeDir, "projects")}): CLAUDE.md and AGENTS.md get the context block with its first session.\n`);
		// A session started in a subfolder of it: Claude Code names its folder after that cwd.
		mkdirSync(join(claudeDir, "projects", `${join(dir, "web", "src").replace(/[^A-Za-z0-9]/g, "-")}`), { recursive: true });
		out = "";
		expect(await runProjectsAdd(join(dir, "web"), opts())).toBe(0);
		expect(out).toBe(`Added ${join(dir, "web")}: enabled, eager mode, context in CLAUDE.md. The next sync reads its sessions and writes its context.\n`);
	});

	it("add counts none of the sessions of the repository that had the path before another was made there", async () => {
		const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd, stdio: "ignore" });
		const repository = (path: string, message: string) => {
			mkdirSync(path, { recursive: true });
			git(path, "init", "-q");
			git(path, "commit", "-q", "--allow-empty", "-m", message);
		};
		const claudeDir = join(dir, "claude");
		const app = join(dir, "code", "app");
		const session = (id: string, prompt: string, cwd: string) => {
			const folder = join(claudeDir, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
			mkdirSync(folder, { recursive: true });
			writeFileSync(join(folder, `${id}.jsonl`), jsonl([userText(prompt, { sessionId: id, cwd, timestamp: "2026-11-29T10:00:00.000Z" }), assistant(text("Done."), { sessionId: id, cwd, timestamp: "2026-11-29T10:00:00.000Z", messageId: `msg_${id}` })]));
		};
		const sync = () => new VaultSync(join(claudeDir, "projects"), join(dataJson, "..", "state"), new MemoryNotes()).run({ ...migrateSettings({}).settings, projects: [{ path: app, ...DEFAULT_PROJECT }] });
		repository(app, "app begins");
		session("11111111-1111-4111-8111-111111111111", "Original app: roadmap work", app);
		session("44444444-4444-4444-8444-444444444444", "Original app: more roadmap work", app);
		expect((await sync()).errors).toEqual([]);
		mkdirSync(join(dataJson, ".."), { recursive: true });
		writeFileSync(dataJson, JSON.stringify({ version: 2, devices: { [HOST]: { claudeDir: join(dir, "elsewhere"), projects: [] } } }));
		expect(await runProjectsAdd(app, opts())).toBe(0);
		expect(out).toMatch(/The next sync writes its context from its 2 sessions\.\n$/);
		// Moved away, and another repository made where it was: its two sessions are not the newcomer's.
		mkdirSync(join(dir, "src"));
		renameSync(app, join(dir, "src", "app"));
		repository(app, "newcomer begins");
		writeFileSync(dataJson, JSON.stringify({ version: 2, devices: { [HOST]: { claudeDir: join(dir, "elsewhere"), projects: [] } } }));
		out = "";
		expect(await runProjectsAdd(app, opts())).toBe(0);
		expect(out).toContain("No session of it is known yet");
		// Once a sync set them aside for the newcomer, its one session is counted, and still none of theirs.
		session("22222222-2222-4222-8222-222222222222", "Newcomer repo: cleanup", app);
		expect((await sync()).errors).toEqual([]);
		out = "";
		expect(await runProjectsAdd(app, opts())).toBe(0);
		expect(out).toMatch(/The next sync writes its context from its session\.\n$/);
	});

	it("add says when its CLAUDE.md is above other projects' folders: Claude Code loads it in their sessions too", async () => {
		const claudeDir = join(dir, "claude");
		const code = join(dir, "code");
		const session = (id: string, cwd: string) => {
			mkdirSync(cwd, { recursive: true });
			const folder = join(claudeDir, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-"));
			mkdirSync(folder, { recursive: true });
			writeFileSync(join(folder, `${id}.jsonl`), jsonl([userText("Fix the build", { sessionId: id, cwd, timestamp: "2026-11-29T10:00:00.000Z" }), assistant(text("Done."), { sessionId: id, cwd, timestamp: "2026-11-29T10:00:00.000Z", messageId: `msg_${id}` })]));
		};
		session("11111111-1111-4111-8111-111111111111", join(code, "app"));
		session("22222222-2222-4222-8222-222222222222", join(code, "site"));
		session("33333333-3333-4333-8333-333333333333", code);
		// `app` and `site` are repositories of their own (other projects); `notes` is a folder of `code`'s.
		for (const repo of ["app", "site"]) execFileSync("git", ["init", "-q"], { cwd: join(code, repo), stdio: "ignore" });
		session("44444444-4444-4444-8444-444444444444", join(code, "notes"));
		const sync = () => new VaultSync(join(claudeDir, "projects"), join(dataJson, "..", "state"), new MemoryNotes()).run(migrateSettings({}).settings);
		expect((await sync()).errors).toEqual([]);
		mkdirSync(join(dataJson, ".."), { recursive: true });
		writeFileSync(dataJson, JSON.stringify({ version: 2, devices: { [HOST]: { claudeDir, projects: [] } } }));
		expect(await runProjectsAdd(code, opts())).toBe(0);
		expect(out).toContain("The next sync writes its context from its 2 sessions.");
		expect(out).toContain(`Note: Claude Code loads CLAUDE.md from the folders above a session's too, so this project's block will reach the sessions of 2 other projects under it (${join(code, "app")}, ${join(code, "site")}).`);
		// A project with no other under it: nothing to say.
		out = "";
		expect(await runProjectsAdd(join(code, "app"), opts())).toBe(0);
		expect(out).not.toContain("Note:");
	});

	it("add, list and remove edit this device's projects, keeping every other key", async () => {
		mkdirSync(join(dataJson, ".."), { recursive: true });
		const before = {
			version: 2,
			notesFolder: "Sessions",
			futureKey: { kept: true },
			devices: {
				desktop: { projects: [{ path: "/desktop/app", enabled: true }], claudeDir: "/d/.claude" },
				[HOST]: { claudeDir: "/l/.claude", gadget: 1, projects: [{ path: join(dir, "web"), enabled: false, mode: "eager", triggers: { intents: ["ADR"] }, newerKey: "x" }] },
			},
		};
		writeFileSync(dataJson, JSON.stringify(before));

		expect(await runProjectsAdd(join(dir, "api"), opts({ mode: "lazy", target: "CLAUDE.local.md" }))).toBe(0);
		expect(out).toBe(`Added ${join(dir, "api")}: enabled, lazy mode, context in CLAUDE.local.md. No session of it is known yet (none in the vault's last sync, no Claude Code transcripts for it in /l/.claude/projects): CLAUDE.local.md gets the context block with its first session.\n`);
		expect(await runProjectsAdd(join(dir, "web"), opts())).toBe(0);
		const data = JSON.parse(readFileSync(dataJson, "utf8")) as typeof before & { devices: Record<string, { projects: Array<Record<string, unknown>> }> };
		expect(data.notesFolder).toBe("Sessions");
		expect(data.futureKey).toEqual({ kept: true });
		expect(data.devices.desktop).toEqual(before.devices.desktop);
		expect(data.devices[HOST]).toMatchObject({ claudeDir: "/l/.claude", gadget: 1 });
		expect(data.devices[HOST].projects).toEqual([
			expect.objectContaining({ path: join(dir, "web"), enabled: true, mode: "eager", triggers: { intents: ["ADR"] }, newerKey: "x" }),
			expect.objectContaining({ path: join(dir, "api"), enabled: true, mode: "lazy", target: "CLAUDE.local.md" }),
		]);
		// What the CLI's sync (and the plugin) read back.
		expect((await loadSettings(dataJson, [], HOST)).projects.map((p) => [p.path, p.enabled, p.mode, p.target])).toEqual([
			[join(dir, "web"), true, "eager", "CLAUDE.md"],
			[join(dir, "api"), true, "lazy", "CLAUDE.local.md"],
		]);

		out = "";
		expect(await runProjectsList(opts())).toBe(0);
		expect(out).toBe(`on   eager  CLAUDE.md        ${join(dir, "web")}\non   lazy   CLAUDE.local.md  ${join(dir, "api")}\n`);
		out = "";
		expect(await runProjectsList(opts({ json: true }))).toBe(0);
		expect((JSON.parse(out) as Array<{ path: string }>).map((p) => p.path)).toEqual([join(dir, "web"), join(dir, "api")]);

		expect(await runProjectsRemove(join(dir, "web"), opts())).toBe(0);
		const after = JSON.parse(readFileSync(dataJson, "utf8")) as typeof data;
		expect(after.devices[HOST].projects.map((p) => p.path)).toEqual([join(dir, "api")]);
		expect(after.devices.desktop).toEqual(before.devices.desktop);
		expect(readFileSync(dataJson, "utf8")).toMatch(/^\{\n {2}"version": 2,\n/);
	});

	it.skipIf(process.platform === "win32")("a project added through a link is removed by its real path, and the other way round", async () => {
		mkdirSync(join(dir, "real", "web"), { recursive: true });
		mkdirSync(join(dir, "real", "api"), { recursive: true });
		symlinkSync(join(dir, "real"), join(dir, "linked"));
		expect(await runProjectsAdd(join(dir, "linked", "web"), opts())).toBe(0);
		expect(await runProjectsAdd(join(dir, "real", "api"), opts())).toBe(0);
		const paths = () => (JSON.parse(readFileSync(dataJson, "utf8")) as { devices: Record<string, { projects: Array<{ path: string }> }> }).devices[HOST]!.projects.map((p) => p.path);
		expect(paths()).toEqual([join(dir, "linked", "web"), join(dir, "real", "api")]);
		out = "";
		expect(await runProjectsRemove(join(dir, "real", "web"), opts())).toBe(0);
		expect(out).toContain(`Removed ${join(dir, "linked", "web")} from this device's projects.`);
		expect(await runProjectsRemove(join(dir, "linked", "api"), opts())).toBe(0);
		expect(paths()).toEqual([]);
	});

	it("a version 1 file: its projects become this device's", async () => {
		mkdirSync(join(dataJson, ".."), { recursive: true });
		writeFileSync(dataJson, JSON.stringify({ notesFolder: "Old", projects: [{ path: join(dir, "web"), enabled: true }] }));
		expect(await runProjectsAdd(join(dir, "api"), opts())).toBe(0);
		const data = JSON.parse(readFileSync(dataJson, "utf8")) as { version: number; notesFolder: string; projects?: unknown; devices: Record<string, { projects: Array<{ path: string }> }> };
		expect(data).toMatchObject({ version: 2, notesFolder: "Old" });
		expect(data.projects).toBeUndefined();
		expect(data.devices[HOST]!.projects.map((p) => p.path)).toEqual([join(dir, "web"), join(dir, "api")]);
	});

	it("a data.json a newer release wrote is not stored again in this release's form: add and remove stop with a sentence, the file as it was (attack round 34)", async () => {
		mkdirSync(join(dataJson, ".."), { recursive: true });
		const text = `${JSON.stringify({ version: 5, detail: "outline", devices: { [HOST]: { projects: [{ path: join(dir, "web"), enabled: true }] } } }, null, 1)}\n`;
		writeFileSync(dataJson, text);
		expect(await runProjectsAdd(join(dir, "api"), opts())).toBe(2);
		expect(err).toContain("were written by a newer release of AI Conversation Memory (settings version 5, this one knows 2)");
		expect(err).toMatch(/update it here too; nothing was changed/);
		expect(await runProjectsRemove(join(dir, "web"), opts())).toBe(2);
		expect(readFileSync(dataJson, "utf8")).toBe(text);
	});

	it("never writes the settings through a data.json that links out of the plugin's folder", async () => {
		mkdirSync(join(dataJson, ".."), { recursive: true });
		writeFileSync(join(dir, "outside.json"), "{}\n");
		symlinkSync(join(dir, "outside.json"), dataJson);
		expect(await runProjectsAdd(join(dir, "api"), opts())).toBe(2);
		expect(err).toMatch(/data\.json\) is a link to .*outside\.json, outside .*ai-conversation-memory; it is neither read nor written/);
		expect(readFileSync(join(dir, "outside.json"), "utf8")).toBe("{}\n");
	});

	it("edits made at once take turns: each says Added and each is kept (both passed the compare before the rename, and one was lost)", async () => {
		const folders = ["a", "b", "c", "d", "e", "f"].map((name) => join(dir, name));
		for (const folder of folders) mkdirSync(folder);
		expect(await Promise.all(folders.map((folder) => runProjectsAdd(folder, opts())))).toEqual(folders.map(() => 0));
		expect(loadSettingsProjects().sort()).toEqual(folders);
		expect(readdirSync(join(dataJson, ".."))).toEqual(["data.json"]);
	});

	it("no data.json yet: made, with the plugin folder", async () => {
		expect(await runProjectsAdd(join(dir, "api"), opts())).toBe(0);
		expect((await loadSettings(dataJson, [], HOST)).projects.map((p) => p.path)).toEqual([join(dir, "api")]);
	});

	it("refuses a second project in the same repository: a worktree or subfolder of one is that one", async () => {
		execFileSync("git", ["init", "-q", join(dir, "api")]);
		mkdirSync(join(dir, "api", "packages", "core"), { recursive: true });
		expect(await runProjectsAdd(join(dir, "api"), opts())).toBe(0);
		expect(await runProjectsAdd(join(dir, "api", "packages", "core"), opts())).toBe(2);
		expect(err).toBe(`ai-memory: ${join(dir, "api", "packages", "core")} is in the same repository as ${join(dir, "api")}, which is a project already: its sessions go there\n`);
		expect(loadSettingsProjects()).toEqual([join(dir, "api")]);
	});

	it("errors: a broken data.json (left alone), a missing folder or vault, an unknown project", async () => {
		mkdirSync(join(dataJson, ".."), { recursive: true });
		writeFileSync(dataJson, "{ broken");
		expect(await runProjectsAdd(join(dir, "api"), opts())).toBe(2);
		expect(err).toMatch(/data\.json are not valid JSON .*; fix or remove the file\n$/);
		expect(readFileSync(dataJson, "utf8")).toBe("{ broken");
		expect(await runProjectsList(opts())).toBe(2);
		// A wrong type is not the default: listed as on, then written back as true by the next edit.
		const odd = JSON.stringify({ version: 2, devices: { [HOST]: { projects: [{ path: join(dir, "web"), enabled: "false" }] } } });
		writeFileSync(dataJson, odd);
		err = "";
		expect(await runProjectsList(opts())).toBe(2);
		expect(await runProjectsAdd(join(dir, "api"), opts())).toBe(2);
		expect(err).toMatch(/are not valid: the project ".*web": "enabled" is "false", not true or false \(without quotes\); fix the file, nothing was changed\n$/);
		expect(readFileSync(dataJson, "utf8")).toBe(odd);
		rmSync(dataJson);
		err = "";
		expect(await runProjectsAdd(join(dir, "nope"), opts())).toBe(2);
		expect(err).toBe(`ai-memory: no folder at ${join(dir, "nope")}\n`);
		err = "";
		expect(await runProjectsRemove(join(dir, "api"), opts())).toBe(1);
		expect(err).toContain("is not one of this device's projects");
		expect(await runProjectsList({ vault: join(dir, "no-vault"), host: HOST })).toBe(2);
	});

	it.skipIf(process.platform === "win32")("a bare CR in a project's path is shown as ␍ by add and list: it cannot send the cursor back and overwrite the line", async () => {
		const crossed = join(dir, "evil\rAdded elsewhere");
		mkdirSync(crossed);
		expect(await runProjectsAdd(crossed, opts())).toBe(0);
		expect(await runProjectsList(opts())).toBe(0);
		expect(out).not.toContain("\r");
		expect(out).toContain(`${join(dir, "evil")}\u240dAdded elsewhere`);
		expect(loadSettingsProjects()).toEqual([crossed]);
	});
});

describe("ai-memory projects and a data.json it cannot take as it is", () => {
	const plugin = () => join(dataJson, "..");
	it("a data.json that is a FIFO or a folder is unreadable, not missing: it stops with a sentence, at once, and nothing replaces it", async () => {
		mkdirSync(plugin(), { recursive: true });
		execFileSync("mkfifo", [dataJson]);
		expect(await runProjectsAdd(join(dir, "api"), opts())).not.toBe(0);
		expect(err).toMatch(/data\.json cannot be read .*FIFO.*nothing was changed/);
		expect(await runProjectsList(opts())).not.toBe(0);
		rmSync(dataJson);
		mkdirSync(dataJson);
		err = "";
		expect(await runProjectsAdd(join(dir, "api"), opts())).not.toBe(0);
		expect(err).toMatch(/data\.json cannot be read .*folder/);
	});

	it("a data.json the user made read-only is left as it is", async () => {
		mkdirSync(plugin(), { recursive: true });
		const before = JSON.stringify({ version: 2, notesFolder: "Mine", devices: { [HOST]: { projects: [] } } });
		writeFileSync(dataJson, before, { mode: 0o444 });
		expect(await runProjectsAdd(join(dir, "api"), opts())).not.toBe(0);
		expect(err).toMatch(/read-only; nothing was changed/);
		expect(readFileSync(dataJson, "utf8")).toBe(before);
	});

});
