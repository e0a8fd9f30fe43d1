import { spawnSync } from "node:child_process";
import { underFileLimit } from "../fixtures/file-limit";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkpointFromTranscript } from "../../src/node/checkpoints";
import { confinedFile, confinedFolder, readPlainBytesSync, readPlainFile, readPlainFileIfThere, readPlainHeadAndStatSync } from "../../src/node/confined-path";
import { readMeta } from "../../src/node/subagent-meta";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "confined-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const fifo = async (name: string) => {
	const path = join(dir, name);
	expect(spawnSync("mkfifo", [path]).status).toBe(0);
	return path;
};

describe("never a hang on a FIFO", () => {
	it("a sub-agent's meta.json, a hook's transcript_path or any file read is refused at once when it is a FIFO", async () => {
		await expect(readPlainFile(await fifo("agent-a.meta.json"))).rejects.toThrow(/not a plain file \(a FIFO\)/);
		expect(await readMeta(join(dir, "agent-a.meta.json"))).toBeUndefined();
		await expect(checkpointFromTranscript(await fifo("session.jsonl"), "2026-01-01T00:00:00Z")).rejects.toThrow(/FIFO/);
		expect(() => readPlainBytesSync(join(dir, "agent-a.meta.json"))).toThrow(/FIFO/);
		await expect(readPlainFileIfThere(join(dir, "session.jsonl"))).rejects.toThrow(/FIFO/);
		expect(await readPlainFileIfThere(join(dir, "none.json"))).toBeNull();
		await writeFile(join(dir, "plain.json"), "{}");
		expect(await readPlainFile(join(dir, "plain.json"))).toBe("{}");
		expect(readPlainBytesSync(join(dir, "plain.json")).toString()).toBe("{}");
	});
});

describe("a socket in a file's place", () => {
	it("is refused in words, as a FIFO is (its open fails, and only ENXIO was said)", async () => {
		const path = join(dir, "data.json");
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(path, resolve));
		try {
			await expect(readPlainFile(path)).rejects.toThrow(/data\.json is not a plain file \(a socket\)/);
			await expect(readPlainFileIfThere(path)).rejects.toThrow(/a socket/);
			expect(() => readPlainBytesSync(path)).toThrow(/data\.json is not a plain file \(a socket\)/);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe("paths confined to a root", () => {
	it("follows links, its own and its folders', and names where they lead", async () => {
		const root = join(dir, "root");
		await mkdir(join(root, "sub"), { recursive: true });
		await writeFile(join(root, "sub", "a.md"), "a");
		await symlink("sub/a.md", join(root, "inside.md"));
		expect(await confinedFile(root, join(root, "inside.md"), "inside.md")).toBe(join(await realpath(root), "sub", "a.md"));
		expect(await confinedFile(root, join(root, "new.md"), "new.md")).toBeUndefined();
		await symlink(dir, join(root, "up"));
		await expect(confinedFile(root, join(root, "up", "x.md"), "x.md")).rejects.toThrow(/outside/);
		await expect(confinedFolder(root, join(root, "up", "deeper", "still"), "x")).rejects.toThrow(/outside/);
		await expect(confinedFolder(root, join(root, "sub", "new", "folder"), "x")).resolves.toBeUndefined();
	});
});

describe("readPlainHeadAndStatSync", () => {
	it("reads a file's first bytes into a larger buffer at the place given, and gives a view of just them", async () => {
		const path = join(dir, "a.jsonl");
		await writeFile(path, "hello world\n");
		const slab = Buffer.alloc(64, 0x2e);
		const { head, stats } = readPlainHeadAndStatSync(path, 32, slab, 10);
		expect(head.toString()).toBe("hello world\n");
		expect(head.buffer).toBe(slab.buffer);
		expect(slab.toString("latin1", 0, 10)).toBe("..........");
		expect(slab.toString("latin1", 10, 22)).toBe("hello world\n");
		expect(slab[22]).toBe(0x2e);
		expect(stats.size).toBe(12);
		// At most `bytes`, and a buffer of its own without one.
		expect(readPlainHeadAndStatSync(path, 5, slab, 40).head.toString()).toBe("hello");
		expect(readPlainHeadAndStatSync(path, 5).head.toString()).toBe("hello");
		expect(readPlainHeadAndStatSync(path, 100).head.toString()).toBe("hello world\n");
	});
});

describe("reads under a low limit of open files", () => {
	it("60 files read at once under `ulimit -n 32` are all read: an open refused for want of a descriptor waits for one (it stopped every sync with EMFILE)", async () => {
		for (let i = 0; i < 60; i++) await writeFile(join(dir, `f${i}.json`), `{"n":${i}}`);
		const out = await underFileLimit(dir, `
			import { readPlainFile } from ${JSON.stringify(join(__dirname, "..", "..", "src", "node", "confined-path.ts"))};
			const names = Array.from({ length: 60 }, (_, i) => ${JSON.stringify(dir)} + "/f" + i + ".json");
			Promise.all(names.map((name) => readPlainFile(name))).then((texts) => console.log(texts.length + " read"), (e) => console.log("failed " + e.code));
		`);
		expect(out).toBe("60 read");
	});
});

describe("a link out names the place to point it in", () => {
	it("a vault note linked out is told to point inside the vault, not 'the project' (round 46a)", async () => {
		const base = await realpath(await mkdtemp(join(tmpdir(), "confined-msg-")));
		try {
			await mkdir(join(base, "vault"));
			await writeFile(join(base, "outside.md"), "x");
			await symlink(join(base, "outside.md"), join(base, "vault", "n.md"));
			const error = await confinedFile(join(base, "vault"), join(base, "vault", "n.md"), "The note n.md").catch((e: Error) => e);
			expect(String(error)).toContain(`(point it inside ${join(base, "vault")}, or remove the link)`);
			expect(String(error)).not.toContain("inside the project");
		} finally {
			await rm(base, { recursive: true, force: true });
		}
	});
});
