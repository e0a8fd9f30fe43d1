import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateSettings } from "../../src/core/settings";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";

/**
 * The bundled examples (real transcripts of Claude Code 2.1.332) rendered to notes and compared
 * with the committed files in test/golden/notes/. A missing or different file fails under CI
 * (vitest never writes snapshots when CI is set); `npx vitest run -u test/golden` rewrites them
 * locally, and the diff is then read before committing.
 */
const repo = resolve(__dirname, "..", "..");
let dir: string;
const notes = new MemoryNotes();

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "golden-"));
	cpSync(join(repo, "examples", "claude-projects"), join(dir, "projects"), { recursive: true });
	const settings = migrateSettings({}).settings;
	await new VaultSync(join(dir, "projects"), join(dir, "state"), notes).run(settings);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("golden notes from the bundled real transcripts", () => {
	it("renders the expected set of files", () => {
		expect([...notes.files.keys()].sort()).toMatchSnapshot();
	});

	it.each([
		["Add a GET", "add-endpoint.md"],
		["The cart total", "bug-fix-thinking.md"],
		["Refactor", "refactor-subagent.md"],
		["주문 목록", "korean-pagination.md"],
		["shop-api/shop-api.md", "project-index.md"],
		[".base", "sessions.base"],
	])("%s renders as test/golden/notes/%s", async (part, golden) => {
		const path = [...notes.files.keys()].find((k) => k.includes(part));
		expect(path).toBeDefined();
		const text = notes.files.get(path!)!.split(dir).join("<claude-dir>");
		await expect(text).toMatchFileSnapshot(join("notes", golden));
	});
});
