import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { upsertMarkedBlock } from "../../src/core/text/marked-block";
import { chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProjectFolderFiles } from "../../src/node/project-files";

let dir: string;
const files = new ProjectFolderFiles();
// Root ignores permission bits; for root the folder is made immutable instead (ext4), where chattr works.
const asRoot = process.getuid?.() === 0;
const lock = (folder: string, on: boolean) => (asRoot ? spawnSync("chattr", [on ? "+i" : "-i", folder]).status === 0 : (spawnSync("chmod", [on ? "555" : "755", folder]), true));

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "project-files-"));
});
afterEach(async () => {
	await chmod(dir, 0o755).catch(() => undefined);
	await rm(dir, { recursive: true, force: true });
});

describe("ProjectFolderFiles: nothing outside the project", () => {
	it("refuses a CLAUDE.md that links outside the project: the outside file is neither read nor written", async () => {
		const project = join(dir, "repo");
		await mkdir(project);
		const bashrc = join(dir, "bashrc");
		await writeFile(bashrc, "export PATH=$PATH\n");
		await symlink(bashrc, join(project, "CLAUDE.md"));
		await expect(files.read(project, "CLAUDE.md")).rejects.toThrow(/link to .*bashrc, outside/);
		await expect(files.write(project, "CLAUDE.md", "block\n", null)).rejects.toThrow(/outside/);
		expect(await readFile(bashrc, "utf8")).toBe("export PATH=$PATH\n");
		// Relative links and links through a linked folder are followed the same way.
		await rm(join(project, "CLAUDE.md"));
		await symlink("../bashrc", join(project, "CLAUDE.md"));
		await expect(files.write(project, "CLAUDE.md", "block\n", "export PATH=$PATH\n")).rejects.toThrow(/outside/);
		expect(await readFile(bashrc, "utf8")).toBe("export PATH=$PATH\n");
	});

	it("writes through a link inside the project (CLAUDE.md → AGENTS.md), which stays a link", async () => {
		const project = join(dir, "repo");
		await mkdir(project);
		await writeFile(join(project, "AGENTS.md"), "# Agents\n");
		await symlink("AGENTS.md", join(project, "CLAUDE.md"));
		expect(await files.read(project, "CLAUDE.md")).toBe("# Agents\n");
		expect(await files.write(project, "CLAUDE.md", "# Agents\nblock\n", "# Agents\n")).toBe(true);
		expect(await readFile(join(project, "AGENTS.md"), "utf8")).toBe("# Agents\nblock\n");
		expect((await lstat(join(project, "CLAUDE.md"))).isSymbolicLink()).toBe(true);
	});

	it("refuses a link inside the project to what is no Markdown file of its own (git's config, the vault's settings)", async () => {
		const project = join(dir, "repo");
		await mkdir(join(project, ".git"), { recursive: true });
		await mkdir(join(project, "vault", ".obsidian"), { recursive: true });
		await writeFile(join(project, ".git", "config"), "[core]\n");
		await writeFile(join(project, ".git", "notes.md"), "# git's\n");
		await writeFile(join(project, "vault", ".obsidian", "data.json"), "{}\n");
		for (const target of [".git/config", ".git/notes.md", "vault/.obsidian/data.json"]) {
			await rm(join(project, "AGENTS.md"), { force: true });
			await symlink(target, join(project, "AGENTS.md"));
			await expect(files.read(project, "AGENTS.md"), target).rejects.toThrow(/no Markdown file of the project's own; nothing was read or written/);
			await expect(files.write(project, "AGENTS.md", "block\n", null), target).rejects.toThrow(/no Markdown file/);
		}
		expect(await readFile(join(project, ".git", "config"), "utf8")).toBe("[core]\n");
		expect(await readFile(join(project, "vault", ".obsidian", "data.json"), "utf8")).toBe("{}\n");
	});

	it("never opens a FIFO, a folder or a dangling link: a clear error instead of a hang", async () => {
		const project = join(dir, "repo");
		await mkdir(project);
		expect(spawnSync("mkfifo", [join(project, "CLAUDE.md")]).status).toBe(0);
		await expect(files.read(project, "CLAUDE.md")).rejects.toThrow(/not a plain file \(a FIFO\)/);
		await rm(join(project, "CLAUDE.md"));
		await mkdir(join(project, "CLAUDE.md"));
		await expect(files.read(project, "CLAUDE.md")).rejects.toThrow(/a folder/);
		await rm(join(project, "CLAUDE.md"), { recursive: true });
		await symlink(join(dir, "gone"), join(project, "CLAUDE.md"));
		await expect(files.write(project, "CLAUDE.md", "x\n", null)).rejects.toThrow(/link to nowhere/);
		expect((await lstat(join(project, "CLAUDE.md"))).isSymbolicLink()).toBe(true);
	});
});

describe("ProjectFolderFiles: only UTF-8 is read or written", () => {
	it("refuses a CLAUDE.md in UTF-16LE with BOM, Latin-1 or CESU-8, and keeps its bytes exactly", async () => {
		const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("# Notes\r\n", "utf16le")]);
		const latin1 = Buffer.from("Caf\xe9 notes\n", "latin1");
		const cesu8 = Buffer.from([0x23, 0x20, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, 0x0a]);
		for (const [bytes, guess] of [[utf16, /UTF-16LE/], [latin1, /Latin-1/], [cesu8, /CESU-8/]] as const) {
			await writeFile(join(dir, "CLAUDE.md"), bytes);
			await expect(files.read(dir, "CLAUDE.md")).rejects.toThrow(guess);
			await expect(files.write(dir, "CLAUDE.md", "block\n", "whatever")).rejects.toThrow(/not UTF-8/);
			expect(await readFile(join(dir, "CLAUDE.md"))).toEqual(bytes);
		}
	});
});

describe("ProjectFolderFiles: a file too large to read whole", () => {
	it("refuses a CLAUDE.md over 64 MiB with a sentence (600 MB gave V8's string-length error at every sync), and leaves it as it is", async () => {
		const path = join(dir, "CLAUDE.md");
		await writeFile(path, "# Notes\n");
		await truncate(path, 65 * 1024 * 1024);
		const before = await stat(path);
		await expect(files.read(dir, "CLAUDE.md")).rejects.toThrow(/CLAUDE\.md is 65 MiB, more than the 64 MiB a file read whole may hold; it is left as it is/);
		const after = await stat(path);
		expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
	});
});

describe("ProjectFolderFiles: other writers", () => {
	it("loses no byte of programs appending to CLAUDE.md while hundreds of syncs rewrite its block, nor their order", async () => {
		const target = join(dir, "CLAUDE.md");
		await writeFile(target, "# Project\n");
		const APPENDER = `const fs = require("node:fs"); const [, path, tag, n] = process.argv; let i = 0;
			const next = () => { if (i >= Number(n)) return; fs.appendFileSync(path, tag + " line " + i++ + "\\n"); setImmediate(next); }; next();`;
		const children = ["a", "b"].map((tag) => spawn(process.execPath, ["-e", APPENDER, target, tag, "400"], { stdio: "ignore" }));
		const done = Promise.all(children.map((c) => once(c, "exit")));
		let running = true;
		void done.then(() => (running = false));
		let syncs = 0;
		for (let round = 0; running || round < 300; round++) {
			const text = (await files.read(dir, "CLAUDE.md"))!;
			const next = upsertMarkedBlock(text, `sync ${round}`);
			if (next.ok && next.changed && (await files.write(dir, "CLAUDE.md", next.text, text))) syncs++;
			if (!running && round >= 300) break;
		}
		await done;
		const final = await readFile(target, "utf8");
		for (const tag of ["a", "b"]) for (let i = 0; i < 400; i++) expect(final).toContain(`${tag} line ${i}\n`);
		expect(final.match(/ line \d+\n/g)).toHaveLength(800);
		// And each program's lines in the order it wrote them (a line that reached the old file was appended after newer ones).
		for (const tag of ["a", "b"]) expect([...final.matchAll(new RegExp(`${tag} line (\\d+)\\n`, "g"))].map((m) => Number(m[1]))).toEqual([...Array(400).keys()]);
		expect(syncs).toBeGreaterThan(200);
	}, 60_000);
});

describe("ProjectFolderFiles: an editor saving in place", () => {
	it("loses no edit of an editor that saves CLAUDE.md in place (truncate, write whole: VS Code, vim) while hundreds of syncs rewrite its block, and never doubles the block", async () => {
		const target = join(dir, "CLAUDE.md");
		await writeFile(target, "# Project\n");
		// Each save reads the file, adds a line under the title (outside the block), truncates it and writes it whole, by its path.
		const EDITOR = `const fs = require("node:fs"); const [, path, n] = process.argv; let i = 0;
			const next = () => { if (i >= Number(n)) return; const lines = fs.readFileSync(path, "utf8").split("\\n"); lines.splice(lines.indexOf("# Project") + 1, 0, "edit " + i++);
				const fd = fs.openSync(path, "r+"); fs.ftruncateSync(fd, 0); fs.writeSync(fd, lines.join("\\n"), 0); fs.closeSync(fd); setTimeout(next, 50); }; next();`;
		const editor = spawn(process.execPath, ["-e", EDITOR, target, "150"], { stdio: "ignore" });
		let running = true;
		const done = once(editor, "exit").then(() => (running = false));
		let syncs = 0;
		for (let round = 0; running || round < 200; round++) {
			const text = await files.read(dir, "CLAUDE.md");
			const next = upsertMarkedBlock(text ?? "", `sync ${round}`);
			if (next.ok && next.changed && (await files.write(dir, "CLAUDE.md", next.text, text))) syncs++;
			if (!running && round >= 200) break;
		}
		await done;
		const final = await readFile(target, "utf8");
		for (let i = 0; i < 150; i++) expect(final).toContain(`edit ${i}\n`);
		expect(final.split("<!-- AUTO-CONTEXT:BEGIN -->").length).toBeLessThanOrEqual(2);
		expect(syncs).toBeGreaterThan(50);
	}, 60_000);
});

describe("ProjectFolderFiles", () => {
	it("creates a missing file, replaces one that still holds what was read, and keeps its mode", async () => {
		expect(await files.read(dir, "CLAUDE.md")).toBeNull();
		expect(await files.write(dir, "CLAUDE.md", "one\r\n", null)).toBe(true);
		await chmod(join(dir, "CLAUDE.md"), 0o640);
		expect(await files.write(dir, "CLAUDE.md", "two\r\n", "one\r\n")).toBe(true);
		expect(await readFile(join(dir, "CLAUDE.md"), "utf8")).toBe("two\r\n");
		expect((await stat(join(dir, "CLAUDE.md"))).mode & 0o777).toBe(0o640);
	});

	it("refuses to overwrite a file that changed since it was read", async () => {
		await writeFile(join(dir, "CLAUDE.md"), "edited by the user meanwhile\n");
		expect(await files.write(dir, "CLAUDE.md", "ours\n", "what we read\n")).toBe(false);
		expect(await files.write(dir, "CLAUDE.local.md", "ours\n", "it existed when we read\n")).toBe(false);
		expect(await readFile(join(dir, "CLAUDE.md"), "utf8")).toBe("edited by the user meanwhile\n");
	});

	it("says so when the file is read-only, and leaves it", async () => {
		await writeFile(join(dir, "CLAUDE.md"), "locked\n");
		await chmod(join(dir, "CLAUDE.md"), 0o444);
		await expect(files.write(dir, "CLAUDE.md", "ours\n", "locked\n")).rejects.toThrow(`${join(dir, "CLAUDE.md")} is read-only`);
		expect(await readFile(join(dir, "CLAUDE.md"), "utf8")).toBe("locked\n");
	});

	it("says so when the project folder is missing", async () => {
		await expect(files.write(join(dir, "gone"), "CLAUDE.md", "ours\n", null)).rejects.toThrow(`the project folder ${join(dir, "gone")} does not exist`);
	});

	it("says so when the folder is read-only, and leaves nothing behind", async (context) => {
		const locked = join(dir, "locked");
		await mkdir(locked);
		if (!lock(locked, true)) context.skip();
		try {
			await expect(files.write(locked, "CLAUDE.md", "ours\n", null)).rejects.toThrow(/cannot write in .*locked: the folder is read-only \(E(ACCES|PERM)\)/);
		} finally {
			lock(locked, false);
		}
		expect(await files.read(locked, "CLAUDE.md")).toBeNull();
	});
});
