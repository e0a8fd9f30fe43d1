import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileReplacing } from "../../src/node/atomic-write";
import { checkWriteFence, fencedNotes, withWriteFence } from "../../src/node/write-fence";
import { MemoryNotes } from "../fakes/memory-notes";

class Lost extends Error {}
const lost = () => {
	throw new Lost("the lock is another's");
};

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "write-fence-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("the write fence of a sync", () => {
	it("checks nothing while no sync runs", () => {
		expect(() => checkWriteFence()).not.toThrow();
	});

	it("stops a write committed while the sync runs, leaving the file and no temporary beside it", async () => {
		const path = join(dir, "CLAUDE.md");
		await writeFile(path, "# mine\n");
		await expect(withWriteFence(lost, () => writeFileReplacing(path, "# ours\n"))).rejects.toBeInstanceOf(Lost);
		expect(await readFile(path, "utf8")).toBe("# mine\n");
		expect(readdirSync(dir)).toEqual(["CLAUDE.md"]);
	});

	it("holds across the sync's awaits, and ends with it, thrown or not", async () => {
		const path = join(dir, "a.md");
		await expect(
			withWriteFence(lost, async () => {
				await new Promise((resolve) => setTimeout(resolve, 5));
				await writeFileReplacing(path, "late");
			}),
		).rejects.toBeInstanceOf(Lost);
		expect(existsSync(path)).toBe(false);
		await writeFileReplacing(path, "after");
		expect(await readFile(path, "utf8")).toBe("after");
	});

	it("never holds back a write that gives another program's bytes back", async () => {
		const path = join(dir, "CLAUDE.md");
		await withWriteFence(lost, () => writeFileReplacing(path, "theirs", undefined, undefined, false));
		expect(await readFile(path, "utf8")).toBe("theirs");
	});

	it("checks the note store's writes, removals and moves, not its reads", async () => {
		const notes = new MemoryNotes();
		notes.files.set("n.md", "kept");
		const fenced = fencedNotes(notes);
		await withWriteFence(lost, async () => {
			expect(await fenced.read("n.md")).toBe("kept");
			await expect(fenced.write("n.md", "ours", "kept")).rejects.toBeInstanceOf(Lost);
			await expect(fenced.remove("n.md", "kept")).rejects.toBeInstanceOf(Lost);
			await expect(fenced.move([{ from: "n.md", to: "m.md" }])).rejects.toBeInstanceOf(Lost);
		});
		expect([...notes.files]).toEqual([["n.md", "kept"]]);
	});
});
