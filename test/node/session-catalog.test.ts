import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_PROJECT, migrateSettings, type Settings } from "../../src/core/settings";
import { summarizeUsage } from "../../src/core/usage/usage-summary";
import { SessionCatalog } from "../../src/node/session-catalog";
import { VaultSync } from "../../src/node/vault-sync";
import { MemoryNotes } from "../fakes/memory-notes";
import { assistant, jsonl, resetIds, text, userText } from "../fixtures/lines";

const A = "aaaaaaaa-1111-4000-8000-000000000001";
/** A session opened and left: Claude Code 2.0 warmed the cache for it, and never wrote its transcript. */
const LEFT = "cccccccc-3333-4000-8000-000000000003";
let root: string;
let projects: string;
let projectPath: string;
let notes: MemoryNotes;

const folder = () => join(projects, "-home-dev-shop-api");
const state = () => join(root, "state");
const sync = (extra: Partial<Settings> = {}) => new VaultSync(projects, state(), notes).run({ ...migrateSettings({}).settings, projects: [{ path: projectPath, ...DEFAULT_PROJECT }], ...extra });
const usage = (input: number) => ({ input_tokens: input, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 2000 });

function session(id: string, prompt: string, at: string): string {
	return jsonl([userText(prompt, { sessionId: id, cwd: projectPath, timestamp: at }), assistant(text("Done."), { sessionId: id, cwd: projectPath, timestamp: at, messageId: `msg_${id}`, usage: usage(100) })]);
}

/** The warmup agent Claude Code 2.0 starts with a session: prompt "Warmup", one reply that writes the cache. */
function warmup(parent: string, agentId: string, at: string): string {
	const env = { sessionId: parent, cwd: projectPath, timestamp: at, isSidechain: true, agentId };
	return jsonl([userText("Warmup", env), assistant(text("Ready to help."), { ...env, messageId: `msg_${agentId}`, model: "claude-haiku-4-5", usage: usage(3) })]);
}

const total = (u: { input: number; output: number; cacheRead: number; cacheWrite: number }[]) => u.reduce((n, d) => n + d.input + d.output + d.cacheRead + d.cacheWrite, 0);

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "session-catalog-"));
	projects = join(root, "claude", "projects");
	projectPath = join(root, "shop-api");
	await mkdir(folder(), { recursive: true });
	await mkdir(projectPath);
	await writeFile(join(projectPath, "CLAUDE.md"), "# Shop API\n");
	await writeFile(join(folder(), `${A}.jsonl`), session(A, "Add a health endpoint", "2026-11-20T10:00:00.000Z"));
	notes = new MemoryNotes();
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("SessionCatalog: usage no session holds", () => {
	it("a warmup of a session never written counts in the tokens and the cost, and nowhere else: no note, row, index line or CLAUDE.md line", async () => {
		await writeFile(join(folder(), "agent-0000beef.jsonl"), warmup(LEFT, "0000beef", "2026-11-21T09:00:00.000Z"));
		const report = await sync();
		expect(report.errors).toEqual([]);
		const { sessions, usageOnly } = await new SessionCatalog(state()).rows();
		expect(sessions.map((r) => r.title)).toEqual(["Add a health endpoint"]);
		expect(usageOnly).toEqual([{ id: join(folder(), "agent-0000beef.jsonl"), project: "shop-api", agent: "claude-code", day: "2026-11-21", usage: [{ day: "2026-11-21", model: "claude-haiku-4-5", input: 3, output: 1, cacheRead: 0, cacheWrite: 2000 }] }]);
		// Nothing in the vault or CLAUDE.md says a thing about it.
		expect([...notes.files.keys()].sort()).toEqual(["AI Conversations/AI Conversations.base", "AI Conversations/shop-api/2026-11-20 Add a health endpoint.md", "AI Conversations/shop-api/shop-api.md"]);
		for (const text of [...notes.files.values(), await readFile(join(projectPath, "CLAUDE.md"), "utf8")]) expect(text).not.toMatch(/warmup|2026-11-21|0000beef/i);

		const summary = summarizeUsage(sessions, { "claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, "claude-opus-4-7": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 } }, usageOnly);
		expect(summary.tokens.map((t) => [t.day, t.model, total([t])])).toEqual([["2026-11-20", "claude-opus-4-7", 2101], ["2026-11-21", "claude-haiku-4-5", 2004]]);
		expect(summary.activity.map((a) => [a.day, a.sessions])).toEqual([["2026-11-20", 1]]);
		expect(summary.costByDay.map((c) => c.label)).toEqual(["2026-11-20", "2026-11-21"]);
		expect(summary.costBySession.map((c) => c.label)).toEqual(["2026-11-20 Add a health endpoint"]);
		expect(summary.costByProject).toEqual([{ label: "shop-api", value: summary.totalCost }]);

		// A sync with nothing new keeps it as it is.
		expect((await sync()).transcriptsRead).toBe(0);
		expect((await new SessionCatalog(state()).rows()).usageOnly).toEqual(usageOnly);
	});

	it("once the warmup's session is written after all, its tokens join that session's usage, and are counted once", async () => {
		await writeFile(join(folder(), "agent-0000beef.jsonl"), warmup(LEFT, "0000beef", "2026-11-21T09:00:00.000Z"));
		await sync();
		const before = await new SessionCatalog(state()).rows();
		const all = (rows: typeof before) => total(summarizeUsage(rows.sessions, {}, rows.usageOnly).tokens);
		expect(all(before)).toBe(2101 + 2004);

		await writeFile(join(folder(), `${LEFT}.jsonl`), session(LEFT, "Fix the cart total", "2026-11-21T09:00:05.000Z"));
		await sync();
		const after = await new SessionCatalog(state()).rows();
		expect(after.usageOnly).toEqual([]);
		const left = after.sessions.find((r) => r.title === "Fix the cart total")!;
		expect(left.usage.map((u) => [u.model, total([u])])).toEqual([["claude-haiku-4-5", 2004], ["claude-opus-4-7", 2101]]);
		expect(all(after)).toBe(2101 + 2101 + 2004);
		// The warmup stays out of the session's note: it is usage, not work.
		expect(notes.files.get(left.notePath)).not.toMatch(/warmup|Ready to help/i);
	});

	it("a warmup whose session holds nothing keeps its own usage; an excluded project's goes", async () => {
		// Written, but with nothing in it (a session file with no prompt): no session, so no record to hold the tokens.
		await writeFile(join(folder(), `${LEFT}.jsonl`), jsonl([{ type: "file-history-snapshot", messageId: "m", snapshot: {}, isSnapshotUpdate: false }]));
		await writeFile(join(folder(), "agent-0000beef.jsonl"), warmup(LEFT, "0000beef", "2026-11-21T09:00:00.000Z"));
		await sync();
		expect((await new SessionCatalog(state()).rows()).usageOnly.map((r) => total(r.usage))).toEqual([2004]);
		await sync({ excludedProjects: [projectPath] });
		const rows = await new SessionCatalog(state()).rows();
		expect([rows.sessions, rows.usageOnly]).toEqual([[], []]);
	});

	it("a sync of one project leaves another project's warmup for the next sync", async () => {
		const other = join(root, "billing");
		await mkdir(other);
		const dir = join(projects, "-home-dev-billing");
		await mkdir(dir);
		await writeFile(join(dir, "agent-0000cafe.jsonl"), warmup(LEFT, "0000cafe", "2026-11-21T09:00:00.000Z").replaceAll(JSON.stringify(projectPath).slice(1, -1), JSON.stringify(other).slice(1, -1)));
		await new VaultSync(projects, state(), notes).run({ ...migrateSettings({}).settings, projects: [{ path: projectPath, ...DEFAULT_PROJECT }] }, { project: projectPath });
		expect((await new SessionCatalog(state()).rows()).usageOnly).toEqual([]);
		await sync();
		expect((await new SessionCatalog(state()).rows()).usageOnly.map((r) => [r.project, total(r.usage)])).toEqual([["billing", 2004]]);
	});
});
