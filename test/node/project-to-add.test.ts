import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, parse } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkProjectToAdd } from "../../src/node/project-to-add";

let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "project-to-add-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("checkProjectToAdd", () => {
	it("takes a folder that is there, normalized", async () => {
		expect(await checkProjectToAdd(`${dir}//.//`, [])).toEqual({ path: dir, root: expect.any(String) as string });
	});

	it("refuses the file system's root: every session would be its own, and its CLAUDE.md theirs", async () => {
		const root = parse(dir).root;
		const checked = await checkProjectToAdd(root, []);
		expect(checked).toEqual({ error: `${root} is the file system's root, not a project: add a repository's folder` });
		expect(await checkProjectToAdd(`${root}.`, [])).toEqual(checked);
	});

	it("names a very long path by its start and end, not whole", async () => {
		const long = join(dir, "x".repeat(10_000));
		const checked = await checkProjectToAdd(long, []);
		expect("error" in checked && checked.error).toBe(`no folder at ${long.slice(0, 120)}…${long.slice(-120)}`);
	});

	it("says why a folder whose name is not UTF-8 opens nothing, rather than that it is not there", async () => {
		const name = Buffer.concat([Buffer.from(join(dir, "caf")), Buffer.from([0xe9])]);
		await mkdir(name);
		// What Node's arguments make of the 0xE9 byte.
		const checked = await checkProjectToAdd(name.toString(), []);
		expect("error" in checked && checked.error).toContain("not UTF-8");
	});
});
