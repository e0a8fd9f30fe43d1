import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isAbsentFolder } from "../../src/node/absent-folder";
import { scanAider } from "../../src/node/agent-scanners";
import { blockOnFiles } from "../../src/node/blocking-files";
import { ClaudeMemoryFolder } from "../../src/node/claude-memory-folder";
import { confinedFolder } from "../../src/node/confined-path";
import { ProjectFolderFiles } from "../../src/node/project-files";
import { VaultFolder } from "../../src/node/vault-folder";

// The CLI tells a folder not there by a blocking lstat before it lists (thousands of enabled
// projects have no memory yet). The same refusals must hold on that path: this file's module state
// blocks from the start, as the CLI's sync does.
let dir: string;
beforeAll(() => blockOnFiles());
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "absent-blocking-"));
	await mkdir(join(dir, "outside"), { recursive: true });
	await writeFile(join(dir, "outside", "mine.md"), "mine\n");
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const mkfifo = (path: string) => expect(spawnSync("mkfifo", [path]).status).toBe(0);

describe("isAbsentFolder, blocking", () => {
	it("is true for nothing there or a file above it, false for a file, a FIFO or a dangling link in its place", async () => {
		expect(await isAbsentFolder(join(dir, "gone"))).toBe(true);
		await writeFile(join(dir, "file"), "x");
		expect(await isAbsentFolder(join(dir, "file", "below"))).toBe(true);
		expect(await isAbsentFolder(join(dir, "file"))).toBe(false);
		mkfifo(join(dir, "fifo"));
		expect(await isAbsentFolder(join(dir, "fifo"))).toBe(false);
		await symlink(join(dir, "nowhere"), join(dir, "dangling"));
		expect(await isAbsentFolder(join(dir, "dangling"))).toBe(false);
	});
});

describe("ClaudeMemoryFolder.list, blocking", () => {
	it("lists a folder not made yet as empty, refuses what stands in its place, and a link out of Claude Code's folder", async () => {
		const projects = join(dir, "claude", "projects");
		const memory = join(projects, "-work-app", "memory");
		await mkdir(projects, { recursive: true });
		const folder = new ClaudeMemoryFolder(memory, projects);
		expect(await folder.list()).toEqual(new Map());
		await mkdir(join(projects, "-work-app"));
		await writeFile(memory, "x\n");
		await expect(folder.list()).rejects.toThrow(/is a file; make it a folder again/);
		await rm(memory);
		mkfifo(memory);
		await expect(folder.list()).rejects.toThrow(/is a FIFO/);
		await rm(memory);
		await symlink(join(projects, "-work-app", "gone"), memory);
		await expect(folder.list()).rejects.toThrow(/is a link to .*gone, which is not there/);
		await rm(memory);
		await symlink(join(dir, "outside"), memory);
		await expect(folder.list()).rejects.toThrow(/leads to .*outside.*nothing was read or written/);
		expect(await readdir(join(dir, "outside"))).toEqual(["mine.md"]);
	});

	it("refuses a folder not made yet whose parent is a link out (its facts would be written there)", async () => {
		const projects = join(dir, "claude", "projects");
		await mkdir(projects, { recursive: true });
		await symlink(join(dir, "outside"), join(projects, "-work-app"));
		const folder = new ClaudeMemoryFolder(join(projects, "-work-app", "memory"), projects);
		// Nothing to list is nothing read; the write, which would make the folder out there, is refused.
		expect(await folder.list()).toEqual(new Map());
		await expect(folder.write("fact.md", "x\n", null)).rejects.toThrow(/outside/);
		expect(await readdir(join(dir, "outside"))).toEqual(["mine.md"]);
	});
});

describe("VaultFolder.list, blocking", () => {
	it("lists a folder not made yet as empty, refuses a file in its place and a link out of the vault", async () => {
		const vault = join(dir, "vault");
		await mkdir(join(vault, "AI Memory"), { recursive: true });
		const notes = new VaultFolder(vault);
		expect(await notes.list("AI Memory/app")).toEqual([]);
		await writeFile(join(vault, "AI Memory", "file"), "x");
		await expect(notes.list("AI Memory/file")).rejects.toThrow(/is a file; make it a folder again/);
		await symlink(join(dir, "outside"), join(vault, "AI Memory", "out"));
		await expect(notes.list("AI Memory/out")).rejects.toThrow(/leads to .*outside/);
	});
});

describe("confinedFolder, blocking", () => {
	it("walks up past folders not there to the nearest one, and refuses it when it leads out", async () => {
		const root = join(dir, "root");
		await mkdir(root);
		await symlink(join(dir, "outside"), join(root, "up"));
		await expect(confinedFolder(root, join(root, "up", "not", "there"), "x")).rejects.toThrow(/outside/);
		await expect(confinedFolder(root, join(root, "new", "not", "there"), "x")).resolves.toBeUndefined();
		// A dangling link on the way is no folder: the walk goes on above it.
		await symlink(join(dir, "nowhere"), join(root, "dangling"));
		await expect(confinedFolder(root, join(root, "dangling", "below"), "x")).resolves.toBeUndefined();
	});
});

describe("ProjectFolderFiles, blocking", () => {
	it("reads nothing of a project folder not there, and a write still asks the disk", async () => {
		const project = join(dir, "app");
		const files = new ProjectFolderFiles();
		expect(await files.read(project, "CLAUDE.md")).toBeNull();
		expect(await files.realPath(project, "CLAUDE.md")).toBeUndefined();
		await expect(files.write(project, "CLAUDE.md", "x\n", null)).rejects.toThrow(/does not exist/);
		await mkdir(project);
		expect(await files.write(project, "CLAUDE.md", "x\n", null)).toBe(true);
		// The next sync's instance sees it.
		expect(await new ProjectFolderFiles().read(project, "CLAUDE.md")).toBe("x\n");
	});
});

describe("scanAider, blocking", () => {
	it("finds no history in a project folder not there, and still finds it in one that is", async () => {
		const project = join(dir, "app");
		await mkdir(project);
		await writeFile(join(project, ".aider.chat.history.md"), "# aider chat started at 2026-12-01 10:00:00\n\n#### hi\n");
		await writeFile(join(dir, "file"), "x");
		// Not there, below a file (ENOTDIR), and there: only the last has a history, and the others stop nothing.
		const found = await scanAider([join(dir, "gone"), join(dir, "file", "app"), project], join(dir, "home"));
		expect(found.map((f) => f.path)).toEqual([join(project, ".aider.chat.history.md")]);
	});
});
