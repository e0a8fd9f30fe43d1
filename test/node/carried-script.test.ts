import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeCarriedScript } from "../../src/node/carried-script";

let dir: string;

beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "ai-memory-carried-"));
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** A loader that prints its bundle file's text, as the real loaders run theirs. */
const loader = (hash: string) => `process.stdout.write(require("fs").readFileSync(__dirname + "/ai-memory.${hash}.js", "utf8"));`;

describe("writeCarriedScript", () => {
	it("writes the loader and its bundle beside it, named by the hash, and the loader runs it", async () => {
		const path = join(dir, "ai-memory.cjs");
		await writeCarriedScript(path, { loader: loader("00000000000000aa"), hash: "00000000000000aa", bundle: "bundle a" });
		expect((await readdir(dir)).sort()).toEqual(["ai-memory.00000000000000aa.js", "ai-memory.cjs"]);
		expect(spawnSync(process.execPath, [path], { encoding: "utf8" }).stdout).toBe("bundle a");
	});

	it("a new build replaces the old one's bundle, and leaves the other scripts' bundles alone", async () => {
		const path = join(dir, "ai-memory.cjs");
		await writeCarriedScript(path, { loader: loader("00000000000000aa"), hash: "00000000000000aa", bundle: "bundle a" });
		await writeFile(join(dir, "ai-memory-hook.00000000000000aa.js"), "the hook's");
		await writeFile(join(dir, "ai-memory.notes.js"), "not a bundle");
		await writeCarriedScript(path, { loader: loader("00000000000000bb"), hash: "00000000000000bb", bundle: "bundle b" });
		expect((await readdir(dir)).sort()).toEqual(["ai-memory-hook.00000000000000aa.js", "ai-memory.00000000000000bb.js", "ai-memory.cjs", "ai-memory.notes.js"]);
		expect(spawnSync(process.execPath, [path], { encoding: "utf8" }).stdout).toBe("bundle b");
	});

	it("a script split in two: its rest is written too, and a new build's replaces the old one's", async () => {
		const path = join(dir, "ai-memory-hook.cjs");
		const restLoader = (hash: string, rest: string) => `const fs = require("fs"); process.stdout.write(fs.readFileSync(__dirname + "/ai-memory-hook.${hash}.js", "utf8") + fs.readFileSync(__dirname + "/ai-memory-hook.rest.${rest}.js", "utf8"));`;
		await writeCarriedScript(path, { loader: restLoader("00000000000000aa", "00000000000000a1"), hash: "00000000000000aa", bundle: "first a,", rest: { hash: "00000000000000a1", bundle: " rest a" } });
		expect(spawnSync(process.execPath, [path], { encoding: "utf8" }).stdout).toBe("first a, rest a");
		await writeCarriedScript(path, { loader: restLoader("00000000000000bb", "00000000000000b1"), hash: "00000000000000bb", bundle: "first b,", rest: { hash: "00000000000000b1", bundle: " rest b" } });
		expect((await readdir(dir)).sort()).toEqual(["ai-memory-hook.00000000000000bb.js", "ai-memory-hook.cjs", "ai-memory-hook.rest.00000000000000b1.js"]);
		expect(spawnSync(process.execPath, [path], { encoding: "utf8" }).stdout).toBe("first b, rest b");
	});

	it("a script whole in its loader is written alone", async () => {
		const path = join(dir, "ai-memory.cjs");
		await writeCarriedScript(path, { loader: "process.stdout.write('whole')" });
		expect(await readdir(dir)).toEqual(["ai-memory.cjs"]);
		expect(await readFile(path, "utf8")).toBe("process.stdout.write('whole')");
	});
});
