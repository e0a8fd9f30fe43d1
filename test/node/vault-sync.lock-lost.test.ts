import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_PROJECT, migrateSettings, type Settings } from "../../src/core/settings";
import { SyncLockLostError, syncLockPath } from "../../src/node/sync-lock";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";
import { assistant, jsonl, resetIds, text, userText } from "../fixtures/lines";

/**
 * A sync stopped while it held the lock (SIGSTOP, a suspended laptop) past the lock's stale time
 * finds, once resumed, another sync holding it. Attack round 47b: it went on writing beside that
 * one, and the state it flushed removed the session files the other's state listed, so every later
 * sync stopped on "the state lists it, and it is gone".
 */

const A = "aaaaaaaa-1111-4000-8000-000000000001";
let root: string;
let projects: string;
let projectPath: string;
let state: string;

function settings(): Settings {
	return { ...migrateSettings({}).settings, projects: [{ path: projectPath, ...DEFAULT_PROJECT }] };
}

/** Another sync's lock, as one that broke ours as stale and took it writes it. */
function takeOver(): string {
	const other = `${JSON.stringify({ pid: process.pid + 1, host: hostname(), tool: "cli", since: new Date().toISOString(), token: "other" })}\n`;
	writeFileSync(syncLockPath(state), other);
	return other;
}

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "lock-lost-"));
	projects = join(root, "claude", "projects");
	projectPath = join(root, "shop-api");
	state = join(root, "state");
	await mkdir(join(projects, "-home-dev-shop-api"), { recursive: true });
	await mkdir(projectPath);
	await writeFile(join(projectPath, "CLAUDE.md"), "# Shop API\n");
	const at = "2026-11-20T10:00:00.000Z";
	await writeFile(join(projects, "-home-dev-shop-api", `${A}.jsonl`), jsonl([userText("Add a health endpoint", { sessionId: A, cwd: projectPath, timestamp: at }), assistant(text("Added GET /health."), { sessionId: A, cwd: projectPath, timestamp: at, messageId: "m1" })]));
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("a sync whose lock another sync took meanwhile", () => {
	it("writes no note, no CLAUDE.md block and no state once it finds the lock another's, and leaves the other's lock", async () => {
		const notes = new MemoryNotes();
		let other: string | undefined;
		// The moment between its reads and its writes: where a SIGSTOP past the stale time left it.
		const list = notes.list.bind(notes);
		notes.list = async (folder) => {
			other ??= takeOver();
			return list(folder);
		};
		const sync = new VaultSync(projects, state, notes, { lock: { tool: "cli", waitMs: 0 } });
		await expect(sync.run(settings())).rejects.toBeInstanceOf(SyncLockLostError);
		expect(other).toBeDefined();
		expect(notes.files.size).toBe(0);
		expect(await readFile(join(projectPath, "CLAUDE.md"), "utf8")).toBe("# Shop API\n");
		expect(existsSync(join(state, "sync-state.json"))).toBe(false);
		expect(readFileSync(syncLockPath(state), "utf8")).toBe(other);
	});

	it("removes none of the state files the other sync wrote", async () => {
		const notes = new MemoryNotes();
		await new VaultSync(projects, state, notes, { lock: { tool: "cli", waitMs: 0 } }).run(settings());
		const stateText = readFileSync(join(state, "sync-state.json"), "utf8");
		// The other sync's session file, which its state lists and this one's does not.
		const listed = JSON.parse(stateText) as Record<string, unknown>;
		await mkdir(join(state, "sessions"), { recursive: true });
		writeFileSync(join(state, "sessions", "zzzzzzzzzzz-zzzzzzzzz.json"), "{}");
		await writeFile(join(projects, "-home-dev-shop-api", `${A}.jsonl`), "\n", { flag: "a" });
		const list = notes.list.bind(notes);
		let taken = false;
		notes.list = async (folder) => {
			if (!taken) takeOver();
			taken = true;
			return list(folder);
		};
		await expect(new VaultSync(projects, state, notes, { lock: { tool: "cli", waitMs: 0 } }).run(settings(), { rebuild: true })).rejects.toBeInstanceOf(SyncLockLostError);
		expect(existsSync(join(state, "sessions", "zzzzzzzzzzz-zzzzzzzzz.json"))).toBe(true);
		expect(JSON.parse(readFileSync(join(state, "sync-state.json"), "utf8"))).toEqual(listed);
	});
});
