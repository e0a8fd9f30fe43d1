import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClaudeMemoryFolder } from "../../src/node/claude-memory-folder";

// Claude Code's memory folder is written by the model: it can hold links and FIFOs, and be a link itself.
let dir: string;
let projects: string;
let memory: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "claude-memory-"));
	projects = join(dir, "claude", "projects");
	memory = join(projects, "-work-app", "memory");
	await mkdir(join(dir, "outside"), { recursive: true });
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const mkfifo = (path: string) => expect(spawnSync("mkfifo", [path]).status).toBe(0);

describe("ClaudeMemoryFolder", () => {
	it("writes, lists and removes plain fact files", async () => {
		const folder = new ClaudeMemoryFolder(memory, projects);
		expect(await folder.write("a.md", "A\n", null)).toBe(true);
		expect(await folder.list()).toEqual(new Map([["a.md", "A\n"]]));
		expect(await folder.write("a.md", "B\n", "stale")).toBe(false);
		expect(await folder.remove("a.md", "A\n")).toBe(true);
		expect(await readdir(memory)).toEqual([]);
	});

	it("refuses a fact whose file name holds a line break or a control character (it would add lines to MEMORY.md)", async () => {
		await mkdir(memory, { recursive: true });
		await writeFile(join(memory, "x\n<!-- AI-MEMORY:END -->\nINJECTED.md"), "text\n");
		await expect(new ClaudeMemoryFolder(memory, projects).list()).rejects.toThrow(/line break or a control character in its name/);
	});

	it("a memory folder not made yet lists as empty; a file, a FIFO or a dangling link in its place is refused, not taken for one with no fact", async () => {
		const folder = new ClaudeMemoryFolder(memory, projects);
		expect(await folder.list()).toEqual(new Map());
		await mkdir(join(projects, "-work-app"), { recursive: true });
		await writeFile(memory, "x\n");
		await expect(folder.list()).rejects.toThrow(/memory folder .* is a file; make it a folder again/);
		await rm(memory);
		mkfifo(memory);
		await expect(folder.list()).rejects.toThrow(/is a FIFO/);
		await rm(memory);
		await symlink(join(projects, "-work-app", "gone"), memory);
		await expect(folder.list()).rejects.toThrow(/is a link to .*gone, which is not there; make it a folder again/);
	});

	it("a memory folder that is a link out of Claude Code's projects folder is neither listed nor written", async () => {
		await mkdir(join(projects, "-work-app"), { recursive: true });
		await writeFile(join(dir, "outside", "notes.md"), "mine\n");
		await symlink(join(dir, "outside"), memory);
		const folder = new ClaudeMemoryFolder(memory, projects);
		await expect(folder.list()).rejects.toThrow(/leads to .*outside.*nothing was read or written/);
		await expect(folder.write("fact.md", "x\n", null)).rejects.toThrow(/outside/);
		expect(await readdir(join(dir, "outside"))).toEqual(["notes.md"]);
	});

	it("a FIFO named like a fact is refused at once, never waited on, and stays as it is", async () => {
		await mkdir(memory, { recursive: true });
		mkfifo(join(memory, "fact.md"));
		const folder = new ClaudeMemoryFolder(memory, projects);
		// Refused, not left out: a fact left out would look deleted, and its vault copy would go.
		await expect(folder.list()).rejects.toThrow(/fact\.md is not a plain file/);
		await expect(folder.write("fact.md", "x\n", null)).rejects.toThrow(/not a plain file \(a FIFO\)/);
		await expect(folder.remove("fact.md", "x\n")).rejects.toThrow(/FIFO/);
		expect((await readdir(memory, { withFileTypes: true }))[0]!.isFIFO()).toBe(true);
	});

	it("a fact file that is a link (out, or inside) is neither read through nor written through", async () => {
		await mkdir(memory, { recursive: true });
		await writeFile(join(dir, "outside", "bashrc"), "export A=1\n");
		await symlink(join(dir, "outside", "bashrc"), join(memory, "out.md"));
		await writeFile(join(memory, "real.md"), "R\n");
		await symlink("real.md", join(memory, "alias.md"));
		const folder = new ClaudeMemoryFolder(memory, projects);
		await expect(folder.list()).rejects.toThrow(/alias\.md is a link; it is neither read nor written/);
		await expect(folder.write("out.md", "x\n", null)).rejects.toThrow(/outside/);
		await expect(folder.write("alias.md", "x\n", null)).rejects.toThrow(/is a link/);
		expect(await readFile(join(dir, "outside", "bashrc"), "utf8")).toBe("export A=1\n");
		expect(await readFile(join(memory, "real.md"), "utf8")).toBe("R\n");
	});

	it("refuses a fact or index that is not UTF-8 (Latin-1), keeping its bytes: decoded, it would be shared and written back with U+FFFD", async () => {
		await mkdir(memory, { recursive: true });
		const latin1 = Buffer.from("# Memory index\nNotes for the caf\xe9 team\n", "latin1");
		await writeFile(join(memory, "MEMORY.md"), latin1);
		const folder = new ClaudeMemoryFolder(memory, projects);
		await expect(folder.list()).rejects.toThrow(/MEMORY\.md is not UTF-8 \(perhaps Latin-1 or CESU-8\); it is left as it is/);
		await expect(folder.write("MEMORY.md", "x\n", "# Memory index\nNotes for the caf\ufffd team\n")).rejects.toThrow(/not UTF-8/);
		expect((await readFile(join(memory, "MEMORY.md"))).equals(latin1)).toBe(true);
	});

	it("a fact made read-only stays as it is, and a rewrite keeps a fact's mode (attack round 51a)", async () => {
		await mkdir(memory, { recursive: true });
		const folder = new ClaudeMemoryFolder(memory, projects);
		await writeFile(join(memory, "private.md"), "A\n", { mode: 0o600 });
		await chmod(join(memory, "private.md"), 0o600);
		expect(await folder.write("private.md", "B\n", "A\n")).toBe(true);
		expect(await readFile(join(memory, "private.md"), "utf8")).toBe("B\n");
		expect((await stat(join(memory, "private.md"))).mode & 0o777).toBe(0o600);
		await writeFile(join(memory, "kept.md"), "A\n");
		await chmod(join(memory, "kept.md"), 0o444);
		await expect(folder.write("kept.md", "B\n", "A\n")).rejects.toThrow(/The memory file .*kept\.md is read-only; it is left as it is/);
		expect(await readFile(join(memory, "kept.md"), "utf8")).toBe("A\n");
		expect((await stat(join(memory, "kept.md"))).mode & 0o777).toBe(0o444);
	});

	it("refuses names that would reach another folder", async () => {
		const folder = new ClaudeMemoryFolder(memory, projects);
		for (const name of ["../x.md", "a/b.md", "..", "", "a\0.md"]) await expect(folder.write(name, "x", null)).rejects.toThrow(/not a plain file name/);
	});
});

describe("ClaudeMemoryFolder and the model writing meanwhile", () => {
	it("loses no line the model appends to a fact while hundreds of syncs rewrite it", async () => {
		const folder = new ClaudeMemoryFolder(memory, projects);
		await folder.write("fact.md", "merged 0\n", null);
		const WRITER = `const fs = require("node:fs"); const [, path, n] = process.argv; let i = 0;
			const next = () => { if (i >= Number(n)) return; fs.appendFileSync(path, "added " + i++ + "\\n"); setImmediate(next); }; next();`;
		const writer = spawn(process.execPath, ["-e", WRITER, join(memory, "fact.md"), "2000"], { stdio: "ignore" });
		let running = true;
		const done = once(writer, "exit").then(() => (running = false));
		for (let round = 1; running || round < 300; round++) {
			const text = (await folder.list()).get("fact.md")!;
			await folder.write("fact.md", text.replace(/^merged \d+\n/, `merged ${round}\n`), text);
			if (!running && round >= 300) break;
		}
		await done;
		expect((await readFile(join(memory, "fact.md"), "utf8")).match(/^added \d+$/gm)).toHaveLength(2000);
	}, 60_000);
});
