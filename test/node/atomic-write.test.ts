import { appendFileSync, closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { underFileLimit } from "../fixtures/file-limit";
import { mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { replaceKeepingAppends, writeFileReplacingSync } from "../../src/node/atomic-write";

let dir: string;
let path: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "atomic-write-"));
	path = join(dir, "n.md");
	await writeFile(path, "generated 0\nmine\n");
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

const text = (bytes: Buffer) => bytes.toString("utf8");

describe("replaceKeepingAppends: another program writing to the replaced file", () => {
	it("carries lines appended to the old file after the rename into the new one", async () => {
		// A typist who opened the file before the rename appends to the old one.
		const typist = openSync(path, "a");
		const written = await replaceKeepingAppends(path, "generated 0\nmine\n", text, async () => {
			writeFileReplacingSync(path, "generated 1\nmine\n");
			setTimeout(() => writeSync(typist, "typed\n"), 1);
		}, "generated 1\nmine\n");
		closeSync(typist);
		expect(written).toBe(true);
		expect(await readFile(path, "utf8")).toBe("generated 1\nmine\ntyped\n");
	});

	it("puts a line that reached the old file before a line appended to the new one, as they were written", async () => {
		// A script appends with `>>`, one open per line: line 1 opened the old file before the rename
		// and writes after it; line 2 opens the new file. Appended after line 2, line 1 came out of order.
		const first = openSync(path, "a");
		const written = await replaceKeepingAppends(path, "generated 0\nmine\n", text, async () => {
			writeFileReplacingSync(path, "generated 1\nmine\n");
			writeSync(first, "line 1\n");
			closeSync(first);
			appendFileSync(path, "line 2\n");
		}, "generated 1\nmine\n");
		expect(written).toBe(true);
		expect(await readFile(path, "utf8")).toBe("generated 1\nmine\nline 1\nline 2\n");
	});

	it("waits out an editor paused between truncating the old file and writing it: the note is theirs, never empty", async () => {
		let editor = Promise.resolve();
		const written = await replaceKeepingAppends(path, "generated 0\nmine\n", text, async () => {
			// The editor's save began before the rename (truncated), and its write comes 300 ms later.
			const save = openSync(path, "r+");
			ftruncateSync(save, 0);
			writeFileReplacingSync(path, "generated 1\nmine\n");
			editor = sleep(300).then(() => {
				writeSync(save, "generated 0\nmine\nedited\n", 0);
				closeSync(save);
			});
		}, "generated 1\nmine\n");
		await editor;
		expect(written).toBe(false);
		expect(await readFile(path, "utf8")).toBe("generated 0\nmine\nedited\n");
	});

	it("waits out an editor paused after truncating the file before it was read: read empty, its text comes later and is kept", async () => {
		// The save truncated the file, then the sync read it empty (its block alone to write) and
		// replaced it; the save's write came 300 ms later, to the old file. Watched a few rounds, it was lost (the race suite's edit 101).
		const save = openSync(path, "r+");
		ftruncateSync(save, 0);
		let editor = Promise.resolve();
		const written = await replaceKeepingAppends(path, "", text, async () => {
			writeFileReplacingSync(path, "block\n");
			editor = sleep(300).then(() => {
				writeSync(save, "generated 0\nmine\nedited\n", 0);
				closeSync(save);
			});
		}, "block\n");
		await editor;
		expect(written).toBe(false);
		expect(await readFile(path, "utf8")).toBe("generated 0\nmine\nedited\n");
	});

	it("does not wait on a file that has been empty a long time", async () => {
		await writeFile(path, "");
		const long = new Date(Date.now() - 60_000);
		await utimes(path, long, long);
		const start = Date.now();
		expect(await replaceKeepingAppends(path, "", text, () => writeFileReplacingSync(path, "block\n"), "block\n")).toBe(true);
		expect(Date.now() - start).toBeLessThan(1_500);
		expect(await readFile(path, "utf8")).toBe("block\n");
	});

	it("yields to a file the user emptied in place once it has stayed empty", async () => {
		const written = await replaceKeepingAppends(path, "generated 0\nmine\n", text, async () => {
			const save = openSync(path, "r+");
			ftruncateSync(save, 0);
			closeSync(save);
			writeFileReplacingSync(path, "generated 1\nmine\n");
		}, "generated 1\nmine\n");
		expect(written).toBe(false);
		expect(await readFile(path, "utf8")).toBe("");
	});
});

describe("writes under a low limit of open files", () => {
	it("60 files written at once under `ulimit -n 32` are all written: a write refused for want of a descriptor waits for one (it stopped every sync with EMFILE)", async () => {
		const out = await underFileLimit(dir, `
			import { writeFileReplacing } from ${JSON.stringify(join(__dirname, "..", "..", "src", "node", "atomic-write.ts"))};
			const names = Array.from({ length: 60 }, (_, i) => ${JSON.stringify(dir)} + "/w" + i + ".json");
			Promise.all(names.map((name, i) => writeFileReplacing(name, "x".repeat(i)))).then(() => console.log("written"), (e) => console.log("failed " + e.code));
		`);
		expect(out).toBe("written");
		expect(await readFile(join(dir, "w59.json"), "utf8")).toBe("x".repeat(59));
	});
});
