import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistant, jsonl, text, userText } from "../fixtures/lines";

/** The built CLI against names and files a hostile repository or an unlucky machine gives it, in real processes. */
const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
let dir: string;

beforeAll(() => {
	const build = spawnSync(process.execPath, [join(repo, "esbuild.config.mjs"), "cli"], { cwd: repo, encoding: "utf8" });
	if (build.status !== 0 || !existsSync(cli)) throw new Error(build.stderr);
	dir = mkdtempSync(join(tmpdir(), "cli-hostile-"));
});
afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** A Claude Code transcript of one session in `project`, under `<root>/claude`. */
function session(root: string, project: string, id = "11111111-2222-4333-8444-555555555555"): void {
	const folder = join(root, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
	mkdirSync(folder, { recursive: true });
	const env = { cwd: project, sessionId: id };
	writeFileSync(join(folder, `${id}.jsonl`), jsonl([userText("Add pagination to the orders list", env), assistant(text("Added pagination to the orders list."), { ...env, timestamp: "2026-11-20T10:00:09.000Z" })]));
}

describe("ai-memory sync on hostile names", () => {
	it("writes the notes of a project whose folder name is 255 bytes of CJK (a name capped by characters alone is too long for the file system)", () => {
		const root = join(dir, "long-name");
		// 85 three-byte characters: the longest folder name ext4 allows.
		const project = join(root, "頁".repeat(85));
		mkdirSync(project, { recursive: true });
		mkdirSync(join(root, "vault"));
		session(root, project);
		const r = spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--json"], { encoding: "utf8" });
		expect(r.stderr).toBe("");
		expect(JSON.parse(r.stdout).errors).toEqual([]);
		expect(r.status).toBe(0);
		const [folder] = readdirSync(join(root, "vault", "AI Conversations")).filter((f) => !f.endsWith(".base"));
		expect(Buffer.byteLength(folder!)).toBeLessThanOrEqual(180);
		const notes = readdirSync(join(root, "vault", "AI Conversations", folder!));
		expect(notes.some((n) => n.startsWith("2026-11-20 Add pagination"))).toBe(true);
		expect(notes).toContain(`${folder}.md`);
	});

	it("refuses a state folder, or a folder of it, that is a link out of the plugin's folder; the plugin's folder itself may be a link", () => {
		const root = join(dir, "state-link");
		const project = join(root, "app");
		mkdirSync(project, { recursive: true });
		session(root, project);
		const plugin = join(root, "vault", ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(plugin, { recursive: true });
		const outside = join(root, "home");
		mkdirSync(outside);
		const sync = () => spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude")], { encoding: "utf8" });
		symlinkSync(outside, join(plugin, "state"));
		let r = sync();
		expect(r.status).toBe(1);
		expect(r.stderr).toMatch(/The state folder .*state: its folder leads to .*home, outside .*ai-conversation-memory; nothing was read or written/);
		expect(readdirSync(outside)).toEqual([]);
		rmSync(join(plugin, "state"));
		mkdirSync(join(plugin, "state"));
		symlinkSync(outside, join(plugin, "state", "hooks"));
		r = sync();
		expect(r.status).toBe(1);
		expect(r.stderr).toMatch(/The state folder .*state\/hooks: its folder leads to .*home/);
		expect(readdirSync(outside)).toEqual([]);
		// A developer's checkout linked in as the plugin's folder: its state is its own.
		rmSync(plugin, { recursive: true });
		const checkout = join(root, "checkout");
		mkdirSync(checkout);
		symlinkSync(checkout, plugin);
		r = sync();
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		expect(readdirSync(join(checkout, "state"))).toContain("sync-state.json");
	});
});
