import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
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
});
