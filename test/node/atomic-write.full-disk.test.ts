import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeDurably, writeFileReplacing, writeFileReplacingSync } from "../../src/node/atomic-write";
import { makeFolder } from "../../src/node/make-folder";
import { acquireSyncLock } from "../../src/node/sync-lock";
import { canMountTmpfs } from "../fixtures/tmpfs";

/**
 * Folders and files made on a full disk: a tmpfs out of inodes (four), and one out of room, which
 * mounting needs root for (this machine's CI runs as root); elsewhere the cases are skipped, and
 * say so in their names.
 */
let dir: string;
let full: string;
const canMount = canMountTmpfs();

beforeAll(() => {
	if (!canMount) return;
	dir = mkdtempSync(join(tmpdir(), "make-folder-"));
	expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k,nr_inodes=4", "tmpfs", dir]).status).toBe(0);
	// The root and two files: one inode left, for no folder and the file in it.
	for (const name of ["a", "b"]) writeFileSync(join(dir, name), "");
	full = mkdtempSync(join(tmpdir(), "full-disk-"));
	expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", full]).status).toBe(0);
	spawnSync("dd", ["if=/dev/zero", `of=${join(full, "filler")}`, "bs=1k", "count=64"]);
});
afterAll(() => {
	for (const folder of [dir, full]) {
		if (!folder) continue;
		spawnSync("umount", [folder]);
		rmSync(folder, { recursive: true, force: true });
	}
});

describe.skipIf(!canMount)(`folders and files on a full disk${canMount ? "" : " (skipped: mounting a tmpfs needs root on Linux)"}`, () => {
	it("say the disk is full, not that a folder does not exist (Node's promise mkdir said ENOENT)", async () => {
		await expect(makeFolder(join(dir, "state", "hooks", "x"))).rejects.toMatchObject({ code: "ENOSPC" });
		await expect(writeFileReplacing(join(dir, "state", "hooks", "p.json"), "{}")).rejects.toMatchObject({ code: "ENOSPC" });
	});

	it("name the file a write was for, not the temporary file it went through", async () => {
		await expect(writeFileReplacing(join(dir, "sync-state.json"), "{}")).rejects.toMatchObject({ code: "ENOSPC", path: join(dir, "sync-state.json") });
		expect(() => writeFileReplacingSync(join(dir, "pack.bin"), "x")).toThrow(expect.objectContaining({ code: "ENOSPC", path: join(dir, "pack.bin") }));
		await expect(writeDurably(join(dir, "CLAUDE.md"), "x", undefined)).rejects.toMatchObject({ code: "ENOSPC", path: join(dir, "CLAUDE.md") });
	});

	it("name the file a write through a handle was for (Node names none)", async () => {
		const settings = join(full, "settings.json");
		await expect(writeDurably(settings, "x".repeat(100_000), undefined)).rejects.toMatchObject({ code: "ENOSPC", path: settings });
		const lock = join(full, "data.json.lock");
		await expect(acquireSyncLock(lock, { tool: "cli", waitMs: 0 })).rejects.toMatchObject({ code: "ENOSPC", path: lock });
	});
});
