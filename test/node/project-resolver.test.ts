import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveProjectFolder } from "../../src/node/project-resolver";

describe("resolveProjectFolder", () => {
	let root = "";
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	it("finds a folder recorded in the other Unicode spelling of its name", () => {
		root = mkdtempSync(join(tmpdir(), "resolver-"));
		const composed = join(root, "Caf\u00e9");
		mkdirSync(join(composed, "src"), { recursive: true });
		const decomposed = join(root, "Cafe\u0301", "src");
		expect(resolveProjectFolder(decomposed)).toEqual({ root: join(composed, "src"), repository: false });
		expect(resolveProjectFolder(join(root, "Cafe"))).toBeUndefined();
	});
});
