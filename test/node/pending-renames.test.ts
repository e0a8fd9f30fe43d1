import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readPendingRenames, writePendingRenames } from "../../src/node/pending-renames";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pending-renames-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the renames waiting for a sync, kept in the state folder", () => {
	it("are written at once, read back, and the file goes when none wait; what is not a rename is left out", async () => {
		const state = join(dir, "plugin", "state");
		mkdirSync(join(dir, "plugin"));
		writePendingRenames(state, [{ from: "a.md", to: "b.md" }]);
		expect(await readPendingRenames(state)).toEqual([{ from: "a.md", to: "b.md" }]);
		writeFileSync(join(state, "renames.json"), JSON.stringify([{ from: "a.md", to: "b.md" }, { from: 1 }, "x", null]));
		expect(await readPendingRenames(state)).toEqual([{ from: "a.md", to: "b.md" }]);
		writePendingRenames(state, []);
		expect(existsSync(join(state, "renames.json"))).toBe(false);
	});

	it("a state folder that links out of the plugin's folder is neither read nor written", async () => {
		const outside = join(dir, "outside");
		mkdirSync(outside);
		writeFileSync(join(outside, "renames.json"), JSON.stringify([{ from: "x.md", to: "y.md" }]));
		mkdirSync(join(dir, "plugin"));
		symlinkSync(outside, join(dir, "plugin", "state"));
		expect(await readPendingRenames(join(dir, "plugin", "state"))).toEqual([]);
		expect(() => writePendingRenames(join(dir, "plugin", "state"), [{ from: "a.md", to: "b.md" }])).toThrow(/leads out of the plugin's folder/);
		expect(readdirSync(outside)).toEqual(["renames.json"]);
	});
});
