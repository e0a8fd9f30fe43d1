import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noFolder } from "../../src/node/absent-folder";

/** Runs `test` with a new temporary folder, removed after. */
async function inTempFolder(test: (dir: string) => Promise<void>): Promise<void> {
	const dir = await mkdtemp(join(tmpdir(), "absent-folder-"));
	try {
		await test(dir);
	} finally {
		await rm(dir, { recursive: true, force: true });
	}
}

describe("noFolder", () => {
	it("says a folder is not there, and nothing more when its name is plain", () =>
		inTempFolder(async (dir) => {
			expect(await noFolder("project folder", join(dir, "gone"))).toBe(`project folder ${join(dir, "gone")} does not exist`);
		}));

	it("says why a folder named with a byte that is not UTF-8 opens nothing, though it is there", () =>
		inTempFolder(async (dir) => {
			// A Latin-1 `ü` (0xFC): the folder is made, and its name as Node's arguments give it opens nothing.
			const bytes = Buffer.concat([Buffer.from(join(dir, "m")), Buffer.from([0xfc]), Buffer.from("nchen")]);
			await mkdir(bytes);
			const said = await noFolder("project folder", bytes.toString());
			expect(said).toContain("does not exist");
			expect(said).toContain("not UTF-8");
			expect(said).toContain("rename the folder");
		}));
});
