import { readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { replaceKeepingAppends, tempName, writeDurably, writeFileReplacing, writeFileReplacingSync } from "../../src/node/atomic-write";

// Round 46a: what stands under a temporary file's name, and a file renamed over ours meanwhile.
let dir: string;
let path: string;
let victim: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "atomic-links-"));
	path = join(dir, "n.md");
	victim = join(dir, "outside.txt");
	await writeFile(path, "old\n");
	await writeFile(victim, "ORIGINAL\n");
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** Links to the victim under the next `n` temporary names of `target` (the counter is the module's). */
function plantLinks(target: string, n = 5): void {
	const probe = tempName(target);
	const [, head, count] = /^(.*\.)(\d+)\.tmp$/.exec(probe)!;
	for (let i = 1; i <= n; i++) symlinkSync(victim, `${head}${Number(count) + i}.tmp`);
}

describe("a link under a temporary file's name", () => {
	const writers: [string, (target: string, text: string) => Promise<void> | void][] = [
		["writeFileReplacing", (target, text) => writeFileReplacing(target, text)],
		["writeFileReplacingSync", (target, text) => writeFileReplacingSync(target, text)],
		["writeFileReplacingSync (parts)", (target, text) => writeFileReplacingSync(target, [Buffer.from(text)])],
		["writeDurably", (target, text) => writeDurably(target, text, undefined)],
	];
	it.each(writers)("%s writes the file, never through the link (it wrote the victim outside)", async (_, write) => {
		plantLinks(path);
		await write(path, "new\n");
		expect(readFileSync(victim, "utf8")).toBe("ORIGINAL\n");
		expect(await readFile(path, "utf8")).toBe("new\n");
	});
});

describe("a file renamed over ours between the read and the rename (an editor saving by rename)", () => {
	it("is kept, and the write counts as not done", async () => {
		const editorSaves = () => {
			writeFileSync(`${path}.swp`, "old\ntheirs\n");
			renameSync(`${path}.swp`, path);
		};
		const writers: ((unchanged: () => boolean) => Promise<void> | void)[] = [
			(unchanged) => writeFileReplacing(path, "ours\n", undefined, unchanged),
			(unchanged) => writeFileReplacingSync(path, "ours\n", undefined, unchanged),
			(unchanged) => writeDurably(path, "ours\n", undefined, unchanged),
		];
		for (const write of writers) {
			await writeFile(path, "old\n");
			const written = await replaceKeepingAppends(path, "old\n", (b) => b.toString("utf8"), async (unchanged) => {
				editorSaves();
				await write(unchanged);
			}, "ours\n");
			expect(written).toBe(false);
			expect(await readFile(path, "utf8")).toBe("old\ntheirs\n");
		}
	});

	it("a file still absent is written; one made meanwhile is kept", async () => {
		const fresh = join(dir, "fresh.md");
		expect(await replaceKeepingAppends(fresh, null, (b) => b.toString("utf8"), (unchanged) => writeFileReplacingSync(fresh, "ours\n", undefined, unchanged))).toBe(true);
		expect(await readFile(fresh, "utf8")).toBe("ours\n");
		const other = join(dir, "other.md");
		const written = await replaceKeepingAppends(other, null, (b) => b.toString("utf8"), (unchanged) => {
			writeFileSync(other, "theirs\n");
			writeFileReplacingSync(other, "ours\n", undefined, unchanged);
		});
		expect(written).toBe(false);
		expect(await readFile(other, "utf8")).toBe("theirs\n");
	});
});
