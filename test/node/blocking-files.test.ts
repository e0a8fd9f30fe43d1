import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateSettings } from "../../src/core/settings";
import { writeFileReplacing } from "../../src/node/atomic-write";
import { blockOnFiles, mayBlockOnFiles, outOfFiles } from "../../src/node/blocking-files";
import { readPlainBytes, readPlainFileIfThere } from "../../src/node/confined-path";
import { list } from "../../src/node/transcript-scanner";
import { VaultFolder } from "../../src/node/vault-folder";
import { VaultSync } from "../../src/node/vault-sync";

/** Every file under `dir` with its bytes, by path below it; temporary names would differ by run, and are none left. */
function tree(dir: string): Map<string, string> {
	const out = new Map<string, string>();
	for (const rel of readdirSync(dir, { recursive: true }) as string[]) {
		const path = join(dir, rel);
		if (statSync(path).isFile()) out.set(rel, readFileSync(path, "utf8"));
	}
	return out;
}

let root: string;
beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), "blocking-files-"));
	cpSync(join(__dirname, "..", "..", "examples", "claude-projects"), join(root, "claude", "projects"), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const syncInto = (vault: string) => new VaultSync(join(root, "claude", "projects"), join(vault, ".state"), new VaultFolder(vault), { vaultPath: vault }).run(migrateSettings({}).settings);

// One file, one module state: the sync without blocking runs first, then the rest with it.
describe("blocking on the sync's files (the CLI)", () => {
	it("writes the same vault and state as the sync that waits on promises", async () => {
		expect(mayBlockOnFiles()).toBe(false);
		const waited = join(root, "waited");
		const blocked = join(root, "blocked");
		const first = await syncInto(waited);
		blockOnFiles();
		expect(mayBlockOnFiles()).toBe(true);
		const second = await syncInto(blocked);
		expect(second.notesWritten.length).toBe(first.notesWritten.length);
		expect(first.notesWritten.length).toBeGreaterThan(0);
		const a = tree(waited);
		const b = tree(blocked);
		// The state's files are named and stamped by the run; the notes are the same, byte for byte, and the state as many files.
		const notes = (t: Map<string, string>) => [...t.keys()].filter((rel) => !rel.startsWith(".state")).sort();
		expect(notes(b)).toEqual(notes(a));
		for (const rel of notes(a)) expect(b.get(rel), rel).toBe(a.get(rel));
		expect(b.size).toBe(a.size);
		// A second sync with nothing changed writes nothing, blocking too.
		expect((await syncInto(blocked)).notesWritten).toEqual([]);
	});

	it("writes a file before the promise is awaited, whole, with the mode asked", async () => {
		const path = join(root, "now", "state.json");
		const writing = writeFileReplacing(path, '{"a":1}', 0o600);
		// Blocking: done in the call, no thread-pool round trip.
		expect(readFileSync(path, "utf8")).toBe('{"a":1}');
		await writing;
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(readdirSync(join(root, "now"))).toEqual(["state.json"]);
	});

	it("still refuses a FIFO instead of waiting on it, and says a missing file is missing", async () => {
		const fifo = join(root, "fifo");
		execFileSync("mkfifo", [fifo]);
		await expect(readPlainBytes(fifo)).rejects.toThrow(/not a plain file/);
		await expect(readPlainBytes(join(root, "absent"))).rejects.toMatchObject({ code: "ENOENT" });
		expect(await readPlainFileIfThere(join(root, "absent"))).toBeNull();
	});

	it("lists a folder, and names one it cannot list", async () => {
		const passed: { path: string; reason: string }[] = [];
		expect((await list(join(root, "claude", "projects"), passed)).length).toBeGreaterThan(0);
		expect(await list(join(root, "absent"), passed)).toEqual([]);
		expect(existsSync(join(root, "absent"))).toBe(false);
	});

	it("tells running out of file descriptors from other failures", () => {
		expect(outOfFiles(Object.assign(new Error("x"), { code: "EMFILE" }))).toBe(true);
		expect(outOfFiles(Object.assign(new Error("x"), { code: "ENFILE" }))).toBe(true);
		expect(outOfFiles(Object.assign(new Error("x"), { code: "ENOENT" }))).toBe(false);
		expect(outOfFiles(undefined)).toBe(false);
	});
});
