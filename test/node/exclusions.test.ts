import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exclusionsHere } from "../../src/node/exclusions";

let root: string;
let home: string;
let real: string;
beforeEach(() => {
	root = realpathSync(mkdtempSync(join(tmpdir(), "exclusions-")));
	home = join(root, "home");
	real = join(root, "data", "code");
	mkdirSync(join(real, "secret"), { recursive: true });
	mkdirSync(home);
	symlinkSync(real, join(home, "code"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("exclusionsHere", () => {
	it("adds the home folder for `~` and the real folder of a path through a link, keeping the pattern as written", () => {
		expect(exclusionsHere(["~/code/secret"], home)).toEqual(["~/code/secret", join(home, "code", "secret"), join(real, "secret")]);
	});

	it("resolves a folder not made yet through the link above it, and a glob's folders before its first star", () => {
		expect(exclusionsHere([join(home, "code", "later")], home)).toContain(join(real, "later"));
		expect(exclusionsHere(["~/code/*/private"], home)).toContain(`${real}/*/private`);
		// A link the star itself matches: the folder it leads to.
		expect(exclusionsHere(["~/c*/secret"], home)).toContain(join(real, "secret"));
	});

	it("leaves patterns of no real folder as they are", () => {
		expect(exclusionsHere(["**/secret-*", "/nowhere/at/all"], home)).toEqual(["**/secret-*", "/nowhere/at/all"]);
	});
});
