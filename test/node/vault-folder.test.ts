import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { VaultFolder } from "../../src/node/vault-folder";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "vault-folder-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("VaultFolder: nothing outside the vault, no hang", () => {
	it("refuses a note or a folder that links out of the vault, and reads a FIFO never", async () => {
		const vault = join(dir, "vault");
		const outside = join(dir, "outside");
		await mkdir(join(vault, "AI Conversations", "p"), { recursive: true });
		await mkdir(outside);
		await writeFile(join(outside, "secret.md"), "theirs\n");
		await symlink(join(outside, "secret.md"), join(vault, "AI Conversations", "p", "a.md"));
		const store = new VaultFolder(vault);
		await expect(store.read("AI Conversations/p/a.md")).rejects.toThrow(/outside/);
		await expect(store.write("AI Conversations/p/a.md", "ours", "theirs\n")).rejects.toThrow(/outside/);
		expect(await readFile(join(outside, "secret.md"), "utf8")).toBe("theirs\n");
		await symlink(outside, join(vault, "AI Conversations", "linked"));
		await expect(store.write("AI Conversations/linked/new.md", "ours", null)).rejects.toThrow(/outside/);
		// Named by its folder, checked once for all its notes: never by another note's name.
		await expect(store.write("AI Conversations/linked/other.md", "ours", null)).rejects.toThrow(/^The folder AI Conversations\/linked: its folder leads to .*outside/);
		expect(await readdir(outside)).toEqual(["secret.md"]);
		// Nor listed: what is outside is not the vault's (an empty listing would read as facts deleted).
		await expect(store.list("AI Conversations/linked")).rejects.toThrow(/leads to .*outside/);
		// A link or FIFO among a folder's files is listed, to be refused when read, never left out unsaid.
		expect(await store.list("AI Conversations/p")).toEqual(["AI Conversations/p/a.md"]);
		// A FIFO among the notes: refused at once; the folder's other notes are read and written as ever.
		expect(spawnSync("mkfifo", [join(vault, "AI Conversations", "p", "b.md")]).status).toBe(0);
		await expect(store.read("AI Conversations/p/b.md")).rejects.toThrow(/FIFO/);
		expect(await store.write("AI Conversations/p/c.md", "c", null)).toBe(true);
		expect(await store.read("AI Conversations/p/c.md")).toBe("c");
		// A note saved as Latin-1: refused, its bytes kept (decoded, it would be written back with U+FFFD).
		const latin1 = Buffer.from("caf\xe9\n", "latin1");
		await writeFile(join(vault, "AI Conversations", "p", "d.md"), latin1);
		await expect(store.read("AI Conversations/p/d.md")).rejects.toThrow(/d\.md is not UTF-8/);
		await expect(store.write("AI Conversations/p/d.md", "ours", "caf\ufffd\n")).rejects.toThrow(/not UTF-8/);
		expect((await readFile(join(vault, "AI Conversations", "p", "d.md"))).equals(latin1)).toBe(true);
	});
});

describe("VaultFolder: a vault inside the vault", () => {
	it("leaves out of the whole vault's listing a folder that is a vault of its own, with its notes", async () => {
		const vault = join(dir, "Notes");
		await mkdir(join(vault, ".obsidian"), { recursive: true });
		await mkdir(join(vault, "AI Conversations", "app"), { recursive: true });
		await writeFile(join(vault, "AI Conversations", "app", "mine.md"), "mine\n");
		// ~/Notes/Work opened as a vault too: its own sync writes its notes, session ids and all.
		await mkdir(join(vault, "Work", ".obsidian"), { recursive: true });
		await mkdir(join(vault, "Work", "AI Conversations", "app"), { recursive: true });
		await writeFile(join(vault, "Work", "AI Conversations", "app", "theirs.md"), "theirs\n");
		await writeFile(join(vault, "Work", "plan.md"), "a plan\n");
		const store = new VaultFolder(vault);
		expect(await store.listTree("")).toEqual(["AI Conversations/app/mine.md"]);
		// Listed as a vault of its own, it is whole.
		expect(await new VaultFolder(join(vault, "Work")).listTree("")).toEqual(["AI Conversations/app/theirs.md", "plan.md"]);
	});
});

describe("VaultFolder: a note made read-only", () => {
	it("is left as it is, with a sentence, not replaced and made writable", async () => {
		const vault = join(dir, "vault");
		await mkdir(join(vault, "n"), { recursive: true });
		await writeFile(join(vault, "n", "a.md"), "mine\n");
		await chmod(join(vault, "n", "a.md"), 0o444);
		const store = new VaultFolder(vault);
		await expect(store.write("n/a.md", "ours\n", "mine\n")).rejects.toThrow(/n\/a\.md is read-only; it is left as it is/);
		expect(await readFile(join(vault, "n", "a.md"), "utf8")).toBe("mine\n");
		expect((await stat(join(vault, "n", "a.md"))).mode & 0o777).toBe(0o444);
	});
});

describe("VaultFolder: a note's mode", () => {
	it("is kept by a rewrite, whatever mode the umask would give a new file", async () => {
		const vault = join(dir, "vault");
		await mkdir(join(vault, "n"), { recursive: true });
		await writeFile(join(vault, "n", "a.md"), "first\n");
		// A mode no umask gives a new file (0604: others may read, the group not): the user's own.
		await chmod(join(vault, "n", "a.md"), 0o604);
		const store = new VaultFolder(vault);
		expect(await store.write("n/a.md", "second\n", "first\n")).toBe(true);
		expect(await readFile(join(vault, "n", "a.md"), "utf8")).toBe("second\n");
		expect((await stat(join(vault, "n", "a.md"))).mode & 0o777).toBe(0o604);
	});
});

describe("VaultFolder: a folder that is none", () => {
	it("lists a folder not made yet as empty, and refuses a file, a FIFO or a dangling link in its place", async () => {
		const vault = join(dir, "vault");
		await mkdir(join(vault, "AI Memory"), { recursive: true });
		const store = new VaultFolder(vault);
		expect(await store.list("AI Memory/app")).toEqual([]);
		await writeFile(join(vault, "AI Memory", "app"), "x\n");
		await expect(store.list("AI Memory/app")).rejects.toThrow(/The folder AI Memory\/app is a file; make it a folder again/);
		await rm(join(vault, "AI Memory", "app"));
		expect(spawnSync("mkfifo", [join(vault, "AI Memory", "app")]).status).toBe(0);
		await expect(store.list("AI Memory/app")).rejects.toThrow(/is a FIFO/);
		await rm(join(vault, "AI Memory", "app"));
		await symlink("nothere", join(vault, "AI Memory", "app"));
		await expect(store.list("AI Memory/app")).rejects.toThrow(/is a link to .*nothere, which is not there; make it a folder again/);
	});
});

describe("VaultFolder: what a killed sync leaves", () => {
	it("removes temporary files of processes that are gone, and only those", async () => {
		const folder = join(dir, "AI Conversations", "p");
		await mkdir(folder, { recursive: true });
		const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
		await writeFile(join(folder, `a.md.${dead}-0.3.tmp`), "half a note");
		await writeFile(join(folder, `b.md.${process.pid}-0.1.tmp`), "being written");
		await writeFile(join(folder, "notes.tmp"), "the user's");
		const store = new VaultFolder(dir);
		expect(await store.write("AI Conversations/p/c.md", "c", null)).toBe(true);
		expect((await readdir(folder)).sort()).toEqual([`b.md.${process.pid}-0.1.tmp`, "c.md", "notes.tmp"]);
	});

	it("removes them when the folder is first listed by `list` too (a sync lists its notes folders first), and lists none of them", async () => {
		const folder = join(dir, "AI Conversations", "p");
		await mkdir(folder, { recursive: true });
		const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
		await writeFile(join(folder, `a.md.${dead}-0.3.tmp`), "half a note");
		await writeFile(join(folder, "a.md"), "a");
		const store = new VaultFolder(dir);
		expect(await store.list("AI Conversations/p")).toEqual(["AI Conversations/p/a.md"]);
		expect(await store.write("AI Conversations/p/c.md", "c", null)).toBe(true);
		expect((await readdir(folder)).sort()).toEqual(["a.md", "c.md"]);
		// A dry run's store removes nothing, and lists none the same.
		await writeFile(join(folder, `b.md.${dead}-0.4.tmp`), "half a note");
		expect(await new VaultFolder(dir, { removeLeftovers: false }).list("AI Conversations/p")).toEqual(["AI Conversations/p/a.md", "AI Conversations/p/c.md"]);
		expect((await readdir(folder)).sort()).toEqual(["a.md", `b.md.${dead}-0.4.tmp`, "c.md"]);
	});
});

describe("VaultFolder: a person typing meanwhile", () => {
	it("loses no line typed into a note while hundreds of syncs rewrite it", async () => {
		const store = new VaultFolder(dir);
		await store.write("AI Conversations/p/n.md", "generated 0\n", null);
		const target = join(dir, "AI Conversations", "p", "n.md");
		const TYPIST = `const fs = require("node:fs"); const [, path, n] = process.argv; let i = 0;
			const next = () => { if (i >= Number(n)) return; fs.appendFileSync(path, "typed " + i++ + "\\n"); setImmediate(next); }; next();`;
		const typist = spawn(process.execPath, ["-e", TYPIST, target, "700"], { stdio: "ignore" });
		let running = true;
		const done = once(typist, "exit").then(() => (running = false));
		for (let round = 1; running || round < 300; round++) {
			const text = (await store.read("AI Conversations/p/n.md"))!;
			await store.write("AI Conversations/p/n.md", text.replace(/^generated \d+\n/, `generated ${round}\n`), text);
			if (!running && round >= 300) break;
		}
		await done;
		const final = await readFile(target, "utf8");
		expect(final.match(/^typed \d+$/gm)).toHaveLength(700);
	}, 60_000);
});

describe("VaultFolder: Obsidian saving a note meanwhile", () => {
	it("loses no edit saved in place (Obsidian truncates a note and writes it whole) while hundreds of syncs rewrite the note", async () => {
		const store = new VaultFolder(dir);
		await store.write("AI Conversations/p/n.md", "generated 0\n## Mine\n", null);
		const target = join(dir, "AI Conversations", "p", "n.md");
		const EDITOR = `const fs = require("node:fs"); const [, path, n] = process.argv; let i = 0;
			const next = () => { if (i >= Number(n)) return; const text = fs.readFileSync(path, "utf8").replace("## Mine\\n", "## Mine\\nedit " + i++ + "\\n");
				const fd = fs.openSync(path, "r+"); fs.ftruncateSync(fd, 0); fs.writeSync(fd, text, 0); fs.closeSync(fd); setTimeout(next, 50); }; next();`;
		const editor = spawn(process.execPath, ["-e", EDITOR, target, "150"], { stdio: "ignore" });
		let running = true;
		const done = once(editor, "exit").then(() => (running = false));
		for (let round = 1; running || round < 200; round++) {
			const text = (await store.read("AI Conversations/p/n.md"))!;
			// A torn read (the editor's save half done) has no generated line: nothing to update.
			if (/^generated \d+\n/.test(text)) await store.write("AI Conversations/p/n.md", text.replace(/^generated \d+\n/, `generated ${round}\n`), text);
			if (!running && round >= 200) break;
		}
		await done;
		const final = await readFile(target, "utf8");
		for (let i = 0; i < 150; i++) expect(final).toContain(`edit ${i}\n`);
		expect(final.match(/^generated \d+$/gm)).toHaveLength(1);
	}, 60_000);
});

describe("VaultFolder", () => {
	it("writes only over what was read, lists a folder's files, and refuses paths outside the vault", async () => {
		const vault = new VaultFolder(dir);
		expect(await vault.write("AI Memory/p/a.md", "a", null)).toBe(true);
		expect(await vault.write("AI Memory/p/a.md", "a2", "not what it holds")).toBe(false);
		await vault.write("AI Memory/p/_inbox/x.md", "x", null);
		expect(await vault.list("AI Memory/p")).toEqual(["AI Memory/p/a.md"]);
		expect(await vault.list("AI Memory/missing")).toEqual([]);
		await expect(vault.write("../outside.md", "x", null)).rejects.toThrow(/outside the vault/);
	});

	it("moves a removed note to the vault's .trash, as Obsidian does, keeping both of two with one name", async () => {
		const vault = new VaultFolder(dir);
		await vault.write("AI Memory/p/a.md", "first", null);
		expect(await vault.remove("AI Memory/p/a.md", "changed meanwhile")).toBe(false);
		expect(await vault.remove("AI Memory/p/a.md", "first")).toBe(true);
		await vault.write("AI Memory/p/a.md", "second", null);
		expect(await vault.remove("AI Memory/p/a.md", "second")).toBe(true);
		expect(await vault.read("AI Memory/p/a.md")).toBeNull();
		expect((await readdir(join(dir, ".trash"))).sort()).toEqual(["a 1.md", "a.md"]);
		expect(await readFile(join(dir, ".trash", "a 1.md"), "utf8")).toBe("second");
	});

	it("a note renamed by a move: links by its old name follow it, unless another note still has that name or two renamed notes had it", async () => {
		const vault = new VaultFolder(dir);
		await vault.write("AI Conversations/p/2025-03-10 Use ghp_x.md", "a", null);
		await vault.write("AI Conversations/q/Same.md", "b", null);
		await vault.write("AI Conversations/r/Same.md", "c", null);
		await vault.write("AI Conversations/s/Kept.md", "d", null);
		await vault.write("Elsewhere/Kept.md", "e", null);
		await vault.write("Daily/today.md", "[[2025-03-10 Use ghp_x]] [[Same]] [[Kept]]", null);
		await vault.move([
			{ from: "AI Conversations/p/2025-03-10 Use ghp_x.md", to: "AI Conversations/p/2025-03-10 Use.md" },
			{ from: "AI Conversations/q/Same.md", to: "AI Conversations/q/Same one.md" },
			{ from: "AI Conversations/r/Same.md", to: "AI Conversations/r/Same two.md" },
			{ from: "AI Conversations/s/Kept.md", to: "AI Conversations/s/Kept one.md" },
		]);
		expect(await vault.read("Daily/today.md")).toBe("[[2025-03-10 Use]] [[Same]] [[Kept]]");
	});

	it("never carries a note out of the vault: a .trash that links out refuses the removal, a folder that links out refuses a move", async () => {
		const root = join(dir, "vault");
		const outside = join(dir, "outside");
		await mkdir(outside);
		await mkdir(root);
		await symlink(outside, join(root, ".trash"));
		const vault = new VaultFolder(root);
		await vault.write("AI Memory/p/a.md", "fact", null);
		await expect(vault.remove("AI Memory/p/a.md", "fact")).rejects.toThrow(/trash folder \.trash: its folder leads to .*outside, outside .*vault; nothing was read or written/);
		expect(await vault.read("AI Memory/p/a.md")).toBe("fact");
		expect(await readdir(outside)).toEqual([]);
		await symlink(outside, join(root, "Elsewhere"));
		expect(await vault.move([{ from: "AI Memory/p/a.md", to: "Elsewhere/a.md" }])).toEqual([]);
		expect(await vault.read("AI Memory/p/a.md")).toBe("fact");
		expect(await readdir(outside)).toEqual([]);
	});
});
