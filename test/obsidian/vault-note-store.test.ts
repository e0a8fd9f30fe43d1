import { describe, expect, it } from "vitest";
import { VaultNoteStore } from "../../src/obsidian/vault-note-store";
import { FileManager, Vault } from "../stubs/obsidian";

const store = (vault: Vault) => new VaultNoteStore(vault as never, (file) => new FileManager(vault).trashFile(file), (file, to) => new FileManager(vault).renameFile(file, to));

describe("VaultNoteStore", () => {
	it("creates notes with their folders, and reads them back", async () => {
		const vault = new Vault();
		expect(await store(vault).write("AI Conversations/p/a.md", "one", null)).toBe(true);
		expect(await store(vault).read("AI Conversations/p/a.md")).toBe("one");
		expect(vault.getFolderByPath("AI Conversations/p")).not.toBeNull();
	});

	it("replaces a note only if it still holds what was read", async () => {
		const vault = new Vault();
		await store(vault).write("n.md", "v1", null);
		expect(await store(vault).write("n.md", "v2", "v1")).toBe(true);
		expect(await store(vault).write("n.md", "v3", "v1")).toBe(false);
		expect(await store(vault).read("n.md")).toBe("v2");
		expect(await store(vault).write("n.md", "v4", null)).toBe(false);
		expect(await store(vault).write("new.md", "x", "something")).toBe(false);
	});

	it("finds a note whose name is in NFD where the vault keeps it: read, replaced, moved and trashed there, never taken for gone (attack round 49a)", async () => {
		const vault = new Vault();
		await vault.createFolder("AI Conversations");
		const nfd = "AI Conversations/Re\u0301sume\u0301 parser.md";
		await vault.create(nfd, "v1");
		expect(nfd.normalize("NFC")).not.toBe(nfd);
		expect(await store(vault).read(nfd)).toBe("v1");
		expect(await store(vault).write(nfd, "v2", "v1")).toBe(true);
		expect(vault.getFiles().map((f) => f.path)).toEqual([nfd]);
		expect(vault.cachedText(nfd)).toBe("v2");
		expect(await store(vault).move([{ from: nfd, to: "AI Conversations/parser.md" }])).toHaveLength(1);
		expect(await store(vault).remove("AI Conversations/parser.md", "v2")).toBe(true);
		expect(vault.getFiles()).toEqual([]);
	});

	it("copes with two writes making the same folder at once", async () => {
		const vault = new Vault();
		const results = await Promise.all([store(vault).write("f/a.md", "a", null), store(vault).write("f/b.md", "b", null)]);
		expect(results).toEqual([true, true]);
		expect(vault.getFiles().map((f) => f.path).sort()).toEqual(["f/a.md", "f/b.md"]);
	});

	it("names the file that stands where a folder of a note's path should be (Obsidian says \"Folder already exists.\")", async () => {
		const vault = new Vault();
		await vault.create("Notes", "mine");
		await expect(store(vault).write("Notes/p/a.md", "a", null)).rejects.toThrow('the file "Notes" stands where a folder of the path should be');
		expect(await store(vault).read("Notes")).toBe("mine");
	});

	it("a folder where a note goes is neither read nor written: said in words, not Obsidian's \"File already exists.\"", async () => {
		const vault = new Vault();
		await vault.createFolder("AI Conversations");
		await vault.createFolder("AI Conversations/p.md");
		await expect(store(vault).read("AI Conversations/p.md")).rejects.toThrow("The note AI Conversations/p.md is not a plain file (a folder); it is neither read nor written");
	});

	it("lists a folder's files and trashes a note only if it still holds what was read", async () => {
		const vault = new Vault();
		const s = store(vault);
		await s.write("AI Memory/p/b.md", "b", null);
		await s.write("AI Memory/p/a.md", "a", null);
		await s.write("AI Memory/p/_inbox/c.md", "c", null);
		expect(await s.list("AI Memory/p")).toEqual(["AI Memory/p/a.md", "AI Memory/p/b.md"]);
		expect(await s.list("AI Memory/none")).toEqual([]);
		expect(await s.remove("AI Memory/p/a.md", "changed meanwhile")).toBe(false);
		expect(await s.remove("AI Memory/p/a.md", "a")).toBe(true);
		expect(await s.list("AI Memory/p")).toEqual(["AI Memory/p/b.md"]);
	});
});
