import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "../../src/cli/sync-command";
import { readDataJson } from "../../src/cli/cli-common";
import { DEFAULT_PROJECT, migrateSettings, storeSettings } from "../../src/core/settings";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "cli-settings-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the CLI's settings", () => {
	it("an unreadable data.json stops the sync with a message: unreadable is not missing; a FIFO is never opened", async () => {
		const folder = join(dir, "as-folder.json");
		mkdirSync(folder);
		await expect(loadSettings(folder, [])).rejects.toThrow(/cannot be read/);
		const fifo = join(dir, "fifo.json");
		expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
		await expect(loadSettings(fifo, [])).rejects.toThrow(/cannot be read/);
		if (process.getuid?.() !== 0) {
			const locked = join(dir, "locked.json");
			writeFileSync(locked, "{}");
			chmodSync(locked, 0o000);
			await expect(loadSettings(locked, [])).rejects.toThrow(/cannot be read \(EACCES\)/);
		}
		expect((await loadSettings(join(dir, "missing.json"), [])).projects).toEqual([]);
	});

	it("names the folder above data.json that is none: `.obsidian` a file, or a link to nothing", async () => {
		writeFileSync(join(dir, ".obsidian"), "");
		const path = join(dir, ".obsidian", "plugins", "ai-conversation-memory", "data.json");
		await expect(loadSettings(path, [])).rejects.toThrow(`${join(dir, ".obsidian")} is a file, not a folder; make it a folder again`);
		await expect(readDataJson(path)).rejects.toThrow(/\.obsidian is a file, not a folder.*nothing was changed/);
		rmSync(join(dir, ".obsidian"));
		symlinkSync(join(dir, "gone"), join(dir, ".obsidian"));
		await expect(loadSettings(path, [])).rejects.toThrow(`is a link to ${join(dir, "gone")}, which is not there`);
		// No `.obsidian` at all is a vault never opened in Obsidian: the defaults.
		rmSync(join(dir, ".obsidian"));
		expect((await loadSettings(path, [])).projects).toEqual([]);
	});

	it("reads the plugin's data.json as this machine sees it: its own projects and folder only", async () => {
		const path = join(dir, "data.json");
		let data: unknown = undefined;
		data = storeSettings({ ...migrateSettings(data, "other-machine").settings, projects: [{ path: "/elsewhere/api", ...DEFAULT_PROJECT }] }, data, "other-machine");
		data = storeSettings({ ...migrateSettings(data, hostname()).settings, notesFolder: "Sessions", claudeDir: "/mine/.claude", projects: [{ path: "/mine/api", ...DEFAULT_PROJECT, enabled: false }] }, data, hostname());
		writeFileSync(path, JSON.stringify(data));

		const settings = await loadSettings(path, []);
		expect(settings.notesFolder).toBe("Sessions");
		expect(settings.claudeDir).toBe("/mine/.claude");
		expect(settings.projects.map((p) => [p.path, p.enabled])).toEqual([["/mine/api", false]]);
		expect((await loadSettings(path, [], "other-machine")).projects.map((p) => p.path)).toEqual(["/elsewhere/api"]);

		// --project turns a project on for this run, or adds it.
		const run = await loadSettings(path, ["/mine/api", "/mine/web"]);
		expect(run.projects.map((p) => [p.path, p.enabled])).toEqual([["/mine/api", true], ["/mine/web", true]]);
	});

	it("refuses a data.json that gives a key twice, naming it: JSON.parse kept the last, and an exclusion written first was synced", async () => {
		const path = join(dir, "data.json");
		writeFileSync(path, '{"excludedProjects": ["/mine/secret"], "notesFolder": "Sessions", "excludedProjects": []}');
		await expect(loadSettings(path, [])).rejects.toThrow(/the key "excludedProjects" is given twice.*; fix or remove the file/);
		await expect(readDataJson(path)).rejects.toThrow(/the key "excludedProjects" is given twice/);
		writeFileSync(path, `\ufeff{"devices": {"pc": {"projects": [], "projects": [{"path": "/mine/api"}]}}}`);
		await expect(loadSettings(path, [])).rejects.toThrow(/the key "projects" \(in "pc" in "devices"\) is given twice/);
	});

	it("reads a data.json saved on Windows: a byte order mark, CRLF, the Windows device's paths (attack round 25c)", async () => {
		// Notepad (before Windows 10 1903) saves UTF-8 with a BOM: JSON.parse refused it, and the sync stopped on an invisible character.
		let data: unknown = storeSettings({ ...migrateSettings(undefined, "win-pc").settings, claudeDir: "C:\\Users\\a\\.claude", projects: [{ path: "C:\\Users\\a\\app", ...DEFAULT_PROJECT }] }, undefined, "win-pc");
		data = storeSettings({ ...migrateSettings(data, hostname()).settings, notesFolder: "Sessions", projects: [{ path: "/mine/api", ...DEFAULT_PROJECT }] }, data, hostname());
		const path = join(dir, "data.json");
		writeFileSync(path, `\ufeff${JSON.stringify(data, null, 2).replace(/\n/g, "\r\n")}\r\n`);
		const settings = await loadSettings(path, []);
		expect([settings.notesFolder, settings.projects.map((p) => p.path)]).toEqual(["Sessions", ["/mine/api"]]);
		expect((await loadSettings(path, [], "win-pc")).projects.map((p) => p.path)).toEqual(["C:\\Users\\a\\app"]);
		// `projects` reads it the same way (and writes it back without the mark).
		expect(await readDataJson(path)).toEqual(data);
	});

	it("a missing data.json gives the defaults; a broken one is an error, not an empty file", async () => {
		expect((await loadSettings(join(dir, "none.json"), ["/p"])).projects.map((p) => p.path)).toEqual(["/p"]);
		expect((await loadSettings(join(dir, "none.json"), [])).notesFolder).toBe("AI Conversations");
		writeFileSync(join(dir, "broken.json"), "{");
		await expect(loadSettings(join(dir, "broken.json"), [])).rejects.toThrow(/broken\.json are not valid JSON/);
	});

	it("a broken data.json is told by the place of its fault, never by V8's quote of the text there (a redaction pattern is a secret word)", async () => {
		writeFileSync(join(dir, "broken.json"), '{"redaction":{"enabled":true,"extraPatterns":["Qv9TopSecretWord8Hz", ]}}');
		const error = await loadSettings(join(dir, "broken.json"), []).then(() => "", (e: Error) => e.message);
		expect(error).toMatch(/are not valid JSON \(Unexpected token '\]' at line 1, column 70\); fix or remove the file$/);
		expect(error).not.toMatch(/Word8|RET/);
	});

	it("JSON that is not the settings, or a wrong type in what keeps things out, is an error, not the defaults", async () => {
		const cases: [string, RegExp][] = [
			["null", /holds null/],
			["[]", /holds a list/],
			["42", /holds a number/],
			['{"excludedProjects": "/home/me/secret"}', /"excludedProjects" is not a list of paths/],
			// Read as the default, these sent the notes and facts where the user never said.
			['{"notesFolder": ["Work notes"]}', /"notesFolder" is not a folder's name in the vault \("AI Conversations"\)/],
			['{"memoryFolder": 7}', /"memoryFolder" is not a folder's name in the vault \("AI Memory"\)/],
			['{"redaction": {"extraPatterns": "ACME-[0-9]+"}}', /"extraPatterns" is not a list of patterns/],
			['{"redaction": {"enabled": "yes"}}', /"enabled" is not true or false/],
			['{"projects": "/home/me/app"}', /"projects" is not a list of projects/],
			// Read as the default, these turned on every agent, so sessions of an agent turned off were synced.
			['{"agents": "claude-code"}', /"agents" is not a list of agents/],
			['{"agents": {"claude-code": true, "codex": false}}', /"agents" is not a list of agents/],
			['{"agents": null}', /"agents" is not a list of agents/],
			['{"agents": ["claude-code", 2]}', /"agents" is not a list of agents/],
			// Read as the default, "false" enabled the project and shared its facts.
			['{"projects": [{"path": "/p", "enabled": "false"}]}', /the project "\/p": "enabled" is "false", not true or false \(without quotes\)/],
			['{"devices": {"laptop": {"projects": [{"path": "/p", "memorySharing": "false"}]}}}', /"memorySharing" is "false", not true or false/],
			['{"devices": {"laptop": {"projects": [{"path": "/p", "redaction": 0}]}}}', /"redaction" is 0, not true or false/],
			['{"devices": {"laptop": {"projects": [{"path": "/p", "mode": "lazzy"}]}}}', /"mode" is "lazzy", not "eager" or "lazy"/],
			['{"devices": {"laptop": {"projects": [{"path": "/p", "target": "AGENTS.md"}]}}}', /"target" is "AGENTS.md"/],
			['{"devices": {"laptop": {"projects": "/p"}}}', /a device's "projects" is not a list of projects/],
			// Passed over, these were not synced, and nothing said why (attack round 50a).
			['{"devices": {"laptop": {"projects": ["/home/me/app"]}}}', /a project is "\/home\/me\/app", not an object with its "path"/],
			['{"projects": [null]}', /a project is null, not an object with its "path"/],
			['{"projects": [{"path": 42, "enabled": true}]}', /the project 42: its path is not a folder's path/],
			['{"devices": {"laptop": {"projects": [{"path": ["/p"]}]}}}', /the project \["\/p"\]: its path is not a folder's path/],
			// Resolved, it was wherever the sync ran: a SessionEnd hook's sync wrote CLAUDE.md into `<session folder>/app`.
			['{"devices": {"laptop": {"projects": [{"path": "app"}]}}}', /the project "app": its path is not absolute \(read from wherever the sync runs, it named another folder each time\): write the folder's whole path/],
			['{"devices": {"laptop": {"projects": [{"path": "./code/app"}]}}}', /the project "\.\/code\/app": its path is not absolute/],
			['{"projects": [{"path": "~/code/app"}]}', /the project "~\/code\/app": its path is not absolute/],
			// Taken as written, the sync made `<where it ran>/$HOME/.claude/projects/…/memory` and copied the facts there.
			['{"devices": {"laptop": {"claudeDir": "$HOME/.claude"}}}', /"claudeDir" is "\$HOME\/\.claude", not a folder's whole path/],
			['{"devices": {"laptop": {"claudeDir": ".claude"}}}', /"claudeDir" is "\.claude", not a folder's whole path/],
			['{"devices": {"other": {"claudeDir": "~root/.claude"}}}', /"claudeDir" is "~root\/\.claude"/],
			['{"devices": {"laptop": {"agentDirs": {"codex": "codex-home"}}}}', /"agentDirs"\."codex" is "codex-home", not a folder's whole path/],
			// Read as unset, these synced the agent's default folder instead of the one named.
			['{"devices": {"laptop": {"agentDirs": {"codex": 5}}}}', /"agentDirs"\."codex" is 5, not a folder's whole path/],
			['{"devices": {"laptop": {"agentDirs": "/data/codex"}}}', /"agentDirs" is "\/data\/codex", not an object of each agent's folder/],
			['{"devices": {"laptop": {"claudeDir": ["/data/claude"]}}}', /"claudeDir" is \["\/data\/claude"\], not a folder's whole path/],
			['{"devices": {"laptop": "/data/claude"}}', /a device's entry is "\/data\/claude", not an object/],
			['{"claudeDir": 7}', /"claudeDir" is 7, not a folder's whole path/],
		];
		for (const [text, problem] of cases) {
			writeFileSync(join(dir, "odd.json"), text);
			await expect(loadSettings(join(dir, "odd.json"), []), text).rejects.toThrow(problem);
		}
		writeFileSync(join(dir, "paths.json"), '{"devices": {"laptop": {"projects": [{"path": "/home/me/app"}, {"path": "C:\\\\Users\\\\me\\\\app"}, {"path": "\\\\\\\\server\\\\share\\\\app"}]}}}');
		expect((await loadSettings(join(dir, "paths.json"), [], "laptop")).projects.map((p) => p.path)).toEqual(["/home/me/app", "C:\\Users\\me\\app", "\\\\server\\share\\app"]);
		writeFileSync(join(dir, "homes.json"), '{"devices": {"laptop": {"claudeDir": " ~/.claude ", "agentDirs": {"codex": "~", "gemini-cli": "C:\\\\Users\\\\me\\\\.gemini"}}}}');
		expect((await loadSettings(join(dir, "homes.json"), [], "laptop")).claudeDir).toBe("~/.claude");
		writeFileSync(join(dir, "fine.json"), '{"excludedProjects": ["/home/me/secret"], "redaction": {"enabled": false, "extraPatterns": []}}');
		expect((await loadSettings(join(dir, "fine.json"), [])).excludedProjects).toEqual(["/home/me/secret"]);
	});
});
