import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeDirSlip } from "../../src/node/claude-paths";

const root = mkdtempSync(join(tmpdir(), "claude-slip-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("claudeDirSlip", () => {
	it("refuses the transcripts folder given for Claude Code's own, and names the folder above it", async () => {
		const config = join(root, "home", ".claude");
		mkdirSync(join(config, "projects", "-home-me-app"), { recursive: true });
		const said = await claudeDirSlip(join(config, "projects"));
		expect(said).toContain("transcripts folder");
		expect(said).toContain(config);
		expect(await claudeDirSlip(config)).toBeUndefined();
	});

	it("takes a folder named projects that Claude Code has used as its own (it holds projects/), and one not made yet", async () => {
		const used = join(root, "work", "projects");
		mkdirSync(join(used, "projects"), { recursive: true });
		expect(await claudeDirSlip(used)).toBeUndefined();
		expect(await claudeDirSlip(join(root, "fresh", "projects"))).toBeUndefined();
	});

	it("refuses a relative folder, which names another one from each place a command runs", async () => {
		expect(await claudeDirSlip("rel/claude")).toContain("not a whole path");
		expect(await claudeDirSlip(".claude")).toContain("not a whole path");
	});
});
