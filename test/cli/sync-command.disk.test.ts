import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";
import { canMountTmpfs } from "../fixtures/tmpfs";

/**
 * An unlucky disk, for real: the vault on a small tmpfs that fills up during the sync, and a notes
 * folder mounted read-only. Mounting needs root (this machine's CI runs as root); elsewhere the
 * cases are skipped, and say so in their names.
 */
const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
let dir: string;
const canMount = canMountTmpfs();

const sh = (command: string, ...args: string[]) => {
	const r = spawnSync(command, args, { encoding: "utf8" });
	if (r.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${r.stderr}`);
};
const sync = (vault: string) => spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(dir, "claude")], { encoding: "utf8" });

/** Every file under `root`, by relative path: its bytes. */
function tree(root: string): Map<string, string> {
	const out = new Map<string, string>();
	for (const f of readdirSync(root, { recursive: true }) as string[]) if (statSync(join(root, f)).isFile()) out.set(f, readFileSync(join(root, f), "utf8"));
	return out;
}
const notesOf = (vault: string) => tree(join(vault, "AI Conversations"));
const temporaries = (vault: string) => [...tree(vault).keys()].filter((f) => f.endsWith(".tmp"));

beforeAll(() => {
	if (!canMount) return;
	buildCli();
	dir = mkdtempSync(join(tmpdir(), "cli-disk-"));
	cpSync(join(repo, "examples", "claude-projects"), join(dir, "claude", "projects"), { recursive: true });
	mkdirSync(join(dir, "reference"));
	expect(sync(join(dir, "reference")).status).toBe(0);
});
afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!canMount)(`ai-memory sync on an unlucky disk${canMount ? "" : " (skipped: mounting a tmpfs needs root on Linux)"}`, () => {
	it("on a disk that fills up, stops with a sentence, leaves no partial file, and the next sync with room finishes the job", () => {
		// Ever larger disks, until one holds it all: the disk fills at every point on the way (stored
		// models, notes, the state).
		let filled = 0;
		for (let kb = 32; kb <= 512; kb += 8) {
			const vault = join(dir, `small-${kb}`);
			mkdirSync(vault);
			sh("mount", "-t", "tmpfs", "-o", `size=${kb}k`, "tmpfs", vault);
			try {
				const first = sync(vault);
				if (first.status === 0) break;
				filled++;
				expect(first.status, `${kb}k`).toBe(1);
				expect(first.stderr).toMatch(/the disk is full \(ENOSPC\)/);
				expect(first.stderr).not.toMatch(/\n\s+at /);
				expect(temporaries(vault), `${kb}k`).toEqual([]);
				// What was written is whole: each session note is the reference's, byte for byte
				// (the index may list fewer sessions).
				const reference = notesOf(join(dir, "reference"));
				if (existsSync(join(vault, "AI Conversations"))) for (const [path, text] of notesOf(vault)) expect(reference.get(path) === text || path.endsWith("shop-api.md"), `${kb}k: ${path}`).toBe(true);
				sh("mount", "-o", "remount,size=10m", vault);
				expect(sync(vault).status, `${kb}k`).toBe(0);
				expect(notesOf(vault)).toEqual(reference);
			} finally {
				sh("umount", vault);
			}
		}
		expect(filled).toBeGreaterThanOrEqual(3);
	}, 120_000);

	it("with a read-only notes folder, says which notes were not written, goes on, and writes them once the folder is writable", () => {
		const vault = join(dir, "read-only");
		mkdirSync(vault);
		const claude = join(dir, "claude");
		const projects = join(claude, "projects", "-tmp-ai-memory-demo-shop-api");
		// The first sync without the last session, so that the next one has notes to write.
		const held = join(dir, "held");
		mkdirSync(held);
		const last = readdirSync(projects).filter((f) => f.endsWith(".jsonl")).sort().pop()!;
		cpSync(join(projects, last), join(held, last));
		rmSync(join(projects, last));
		try {
			expect(sync(vault).status).toBe(0);
		} finally {
			cpSync(join(held, last), join(projects, last));
		}
		const folder = join(vault, "AI Conversations", "shop-api");
		sh("mount", "--bind", folder, folder);
		try {
			sh("mount", "-o", "remount,ro,bind", folder);
			const blocked = sync(vault);
			expect(blocked.status).toBe(1);
			expect(blocked.stderr).toMatch(/not written, the file system is read-only \(EROFS\); the next sync tries again/);
			expect(blocked.stdout).toMatch(/^Synced 1 transcript:/);
		} finally {
			sh("umount", folder);
		}
		expect(sync(vault).status).toBe(0);
		expect(notesOf(vault)).toEqual(notesOf(join(dir, "reference")));
	}, 60_000);
});
