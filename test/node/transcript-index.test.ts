import { appendFile, mkdir, mkdtemp, rm, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { promptsOf } from "../../src/core/transcript/session-queries";
import { diffScan } from "../../src/core/transcript/transcript-files";
import { claudeConfigDir } from "../../src/node/claude-paths";
import { openTranscriptIndex } from "../../src/node/transcript-index";
import { scanTranscripts } from "../../src/node/transcript-scanner";
import { MemoryTranscriptStore } from "../fakes/memory-transcript-store";
import { assistant, jsonl, resetIds, text, toolResult, toolUse, userText } from "../fixtures/lines";

const PARENT = "aaaaaaaa-0000-4000-8000-000000000001";
const LEGACY = "bbbbbbbb-0000-4000-8000-000000000002";
let root: string;

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "projects-"));
	const project = join(root, "-home-dev-shop-api");
	await mkdir(join(project, PARENT, "subagents"), { recursive: true });
	await mkdir(join(project, "memory"), { recursive: true });
	await writeFile(
		join(project, `${PARENT}.jsonl`),
		jsonl([
			userText("research the cache", { sessionId: PARENT }),
			assistant(toolUse("toolu_A", "Agent", { description: "Cache research", prompt: "Research caches", subagent_type: "Explore" }), { sessionId: PARENT }),
			toolResult("toolu_A", "done", { sessionId: PARENT, toolUseResult: { status: "completed", agentId: "a1234567890abcdef" } }),
		]),
	);
	await writeFile(join(project, PARENT, "subagents", "agent-a1234567890abcdef.jsonl"), jsonl([userText("Research caches", { sessionId: PARENT, isSidechain: true, agentId: "a1234567890abcdef" }), assistant(text("LRU"), { sessionId: PARENT, isSidechain: true })]));
	await writeFile(join(project, PARENT, "subagents", "agent-a1234567890abcdef.meta.json"), JSON.stringify({ agentType: "Explore", description: "Cache research" }));
	await writeFile(
		join(project, `${LEGACY}.jsonl`),
		jsonl([
			userText("old style", { sessionId: LEGACY, version: "2.0.55" }),
			assistant(toolUse("toolu_B", "Task", { description: "d", prompt: "Check it" }), { sessionId: LEGACY }),
			toolResult("toolu_B", "ok", { sessionId: LEGACY, toolUseResult: { agentId: "c8d9b115" } }),
		]),
	);
	await writeFile(join(project, "agent-c8d9b115.jsonl"), jsonl([userText("Check it", { sessionId: LEGACY, isSidechain: true, agentId: "c8d9b115" })]));
	await writeFile(join(project, "agent-3be551df.jsonl"), jsonl([userText("Warmup", { sessionId: LEGACY, isSidechain: true, agentId: "3be551df" })]));
	await writeFile(join(project, "memory", "MEMORY.md"), "- not a transcript\n");
	await writeFile(join(project, "sessions-index.json"), "{}");
	await mkdir(join(root, "-other"), { recursive: true });
	await writeFile(join(root, "-other", "empty.jsonl"), "");
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("scanTranscripts", () => {
	it("finds sessions and both sub-agent layouts by stat, and nothing else", async () => {
		const files = await scanTranscripts(root);
		const shape = files.map((f) => [f.projectDir, f.kind, f.fileId, f.parentSessionId ?? null, f.agentId ?? null, f.metaPath !== undefined]).sort();
		expect(shape).toEqual(
			[
				["-home-dev-shop-api", "session", PARENT, null, null, false],
				["-home-dev-shop-api", "session", LEGACY, null, null, false],
				["-home-dev-shop-api", "subagent", "agent-a1234567890abcdef", PARENT, "a1234567890abcdef", true],
				["-home-dev-shop-api", "subagent", "agent-c8d9b115", null, "c8d9b115", false],
				["-home-dev-shop-api", "subagent", "agent-3be551df", null, "3be551df", false],
				["-other", "session", "empty", null, null, false],
			].sort(),
		);
		expect(files.every((f) => f.size >= 0 && f.mtimeMs > 0 && f.ino > 0)).toBe(true);
	});

	it("gives an empty list for a missing root", async () => {
		expect(await scanTranscripts(join(root, "nope"))).toEqual([]);
	});
});

describe("diffScan", () => {
	it("sorts files into added, changed, unchanged and removed", () => {
		const f = (path: string, size: number) => ({ path, projectDir: "p", kind: "session" as const, fileId: path, size, mtimeMs: 1, ino: 1 });
		const previous = new Map([
			["a", { size: 1, mtimeMs: 1, ino: 1 }],
			["b", { size: 1, mtimeMs: 1, ino: 1 }],
			["gone", { size: 1, mtimeMs: 1, ino: 1 }],
		]);
		const d = diffScan(previous, [f("a", 1), f("b", 2), f("new", 1)]);
		expect([d.added.map((x) => x.path), d.changed.map((x) => x.path), d.unchanged.map((x) => x.path), d.removed]).toEqual([["new"], ["b"], ["a"], ["gone"]]);
	});

	it("tells a file whose sub-agent meta file came or changed since from one unchanged", () => {
		const f = (path: string, metaStamp?: string) => ({ path, projectDir: "p", kind: "subagent" as const, fileId: path, size: 1, mtimeMs: 1, ino: 1, ...(metaStamp === undefined ? {} : { metaStamp }) });
		const previous = new Map([
			["came", { size: 1, mtimeMs: 1, ino: 1 }],
			["changed", { size: 1, mtimeMs: 1, ino: 1, metaStamp: "10:1" }],
			["same", { size: 1, mtimeMs: 1, ino: 1, metaStamp: "10:1" }],
		]);
		const d = diffScan(previous, [f("came", "10:1"), f("changed", "12:2"), f("same", "10:1")]);
		expect([d.metaChanged.map((x) => x.path), d.changed, d.unchanged.map((x) => x.path)]).toEqual([["came", "changed"], [], ["same"]]);
	});
});

describe("TranscriptIndex", () => {
	it("links sub-agents to their parent and call, in both layouts, dropping Warmup agents", async () => {
		const index = openTranscriptIndex(root);
		await index.refresh();
		const sessions = (await index.sessions());
		const parent = sessions.find((s) => s.file.fileId === PARENT);
		expect(parent?.subagents.map((a) => [a.file.agentId, a.toolUseId, a.meta?.agentType])).toEqual([["a1234567890abcdef", "toolu_A", "Explore"]]);
		const legacy = sessions.find((s) => s.file.fileId === LEGACY);
		expect(legacy?.subagents.map((a) => [a.file.agentId, a.toolUseId])).toEqual([["c8d9b115", "toolu_B"]]);
		expect(sessions).toHaveLength(3);
	});

	it("keeps a Warmup agent apart, for its parent's usage only, and makes a sub-agent without its session a session of its own", async () => {
		const project = join(root, "-home-dev-shop-api");
		const GONE = "cccccccc-0000-4000-8000-000000000003";
		await writeFile(join(project, "agent-d00df00d.jsonl"), jsonl([userText("Review the diff", { sessionId: GONE, isSidechain: true, agentId: "d00df00d" }), assistant(text("Looks fine"), { sessionId: GONE, isSidechain: true })]));
		await mkdir(join(project, GONE, "subagents"), { recursive: true });
		await writeFile(join(project, GONE, "subagents", "agent-a99.jsonl"), jsonl([userText("Find the bug", { sessionId: GONE, isSidechain: true, agentId: "a99" })]));
		// A warmup whose session was never written: nothing happened, nothing to note.
		await writeFile(join(project, "agent-0000beef.jsonl"), jsonl([userText("Warmup", { sessionId: GONE, isSidechain: true, agentId: "0000beef" })]));
		const index = openTranscriptIndex(root);
		await index.refresh();
		const sessions = await index.sessions();
		expect(sessions.find((s) => s.file.fileId === LEGACY)?.warmups?.map((w) => w.model.agentId)).toEqual(["3be551df"]);
		expect(sessions.map((s) => s.file.fileId).filter((id) => id.startsWith("agent-")).sort()).toEqual(["agent-a99", "agent-d00df00d"]);
		// Asked for by path, as a sync asks for what changed: the sub-agent alone, not one that has its session.
		const orphan = join(project, GONE, "subagents", "agent-a99.jsonl");
		expect((await index.sessions([orphan])).map((s) => s.file.path)).toEqual([orphan]);
		expect(await index.sessions([join(project, PARENT, "subagents", "agent-a1234567890abcdef.jsonl")])).toEqual([]);
		// Its tokens were spent all the same: asked for on its own, or among all (the one with a session joins it).
		const alone = join(project, "agent-0000beef.jsonl");
		expect((await index.warmupsWithoutSession()).map((w) => w.file.path)).toEqual([alone]);
		expect((await index.warmupsWithoutSession([alone, orphan])).map((w) => w.file.path)).toEqual([alone]);
		expect(await index.warmupsWithoutSession([orphan])).toEqual([]);
	});

	it("reads only what changed: nothing on a quiet re-scan, only appended bytes after a write", async () => {
		const index = openTranscriptIndex(root);
		const first = await index.refresh();
		expect(first.updated).toHaveLength(6);
		const quiet = await index.refresh();
		expect(quiet.updated).toHaveLength(0);
		expect(quiet.bytesRead).toBe(0);
		expect(quiet.unchanged).toBe(6);

		const path = join(root, "-home-dev-shop-api", `${LEGACY}.jsonl`);
		const turn = jsonl([userText("and one more thing", { sessionId: LEGACY })]);
		await appendFile(path, turn);
		const after = await index.refresh();
		expect(after.updated.map((u) => u.file.fileId)).toEqual([LEGACY]);
		expect(after.bytesRead).toBe(Buffer.byteLength(turn));
		expect(promptsOf((await index.get(path))!.model).map((p) => p.text)).toEqual(["old style", "and one more thing"]);
	});

	it("reads a sub-agent's meta file that came after its transcript was read, in a later run too, and only that", async () => {
		const dir = join(root, "-home-dev-shop-api", PARENT, "subagents");
		const agent = join(dir, "agent-a1234567890abcdef.jsonl");
		await unlink(join(dir, "agent-a1234567890abcdef.meta.json"));
		const store = new MemoryTranscriptStore();
		await openTranscriptIndex(root, store).refresh();
		// Claude Code writes the meta file after the transcript: the transcript's own stamp stays.
		await writeFile(join(dir, "agent-a1234567890abcdef.meta.json"), JSON.stringify({ agentType: "Explore", description: "Cache research" }));
		const index = openTranscriptIndex(root, store.reopen());
		const r = await index.refresh();
		expect(r.updated.map((u) => u.file.path)).toEqual([agent]);
		expect(r.bytesRead).toBe(0);
		expect((await index.get(agent))?.meta).toEqual({ agentType: "Explore", description: "Cache research" });
		const parent = (await index.sessions()).find((s) => s.file.fileId === PARENT);
		expect(parent?.subagents.map((a) => a.meta?.description)).toEqual(["Cache research"]);
		// Stamped now: nothing to read again. A meta file rewritten with the same words changes nothing either.
		expect((await openTranscriptIndex(root, store.reopen()).refresh()).updated).toEqual([]);
		const meta = join(dir, "agent-a1234567890abcdef.meta.json");
		await writeFile(meta, JSON.stringify({ description: "Cache research", agentType: "Explore" }));
		await utimes(meta, new Date(), new Date(Date.now() + 5000));
		const same = await openTranscriptIndex(root, store.reopen()).refresh();
		expect([same.updated, same.unchanged]).toEqual([[], 6]);
	});

	it("keeps the model of a transcript that disappeared upstream and reports it removed", async () => {
		const index = openTranscriptIndex(root);
		await index.refresh();
		const path = join(root, "-home-dev-shop-api", `${LEGACY}.jsonl`);
		await unlink(path);
		const r = await index.refresh();
		expect(r.removed).toEqual([path]);
		expect((await index.get(path))?.model.counts.prompts).toBe(1);
	});

	it("folds a rewritten file anew instead of appending to its old model", async () => {
		const index = openTranscriptIndex(root);
		await index.refresh();
		const path = join(root, "-home-dev-shop-api", `${LEGACY}.jsonl`);
		await writeFile(path, jsonl([userText("a different first prompt that is longer than before", { sessionId: LEGACY })]));
		await utimes(path, new Date(), new Date(Date.now() + 5000));
		await index.refresh();
		expect(promptsOf((await index.get(path))!.model).map((p) => p.text)).toEqual(["a different first prompt that is longer than before"]);
	});
});

describe("claudeConfigDir", () => {
	it("prefers CLAUDE_CONFIG_DIR, else ~/.claude", () => {
		expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: "/cfg" }, "/home/u")).toBe("/cfg");
		expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: "/a,/b" }, "/home/u")).toBe("/a");
		expect(claudeConfigDir({}, "/home/u")).toBe(join("/home/u", ".claude"));
	});
});

describe("TranscriptIndex.refreshPaths", () => {
	it("re-reads a named file without a scan, and reports a vanished one", async () => {
		const index = openTranscriptIndex(root);
		await index.refresh();
		const path = join(root, "-home-dev-shop-api", `${LEGACY}.jsonl`);
		expect((await index.refreshPaths([path])).unchanged).toBe(1);
		await appendFile(path, jsonl([userText("more", { sessionId: LEGACY })]));
		const r = await index.refreshPaths([path, join(root, "unknown.jsonl")]);
		expect(r.updated.map((u) => u.file.fileId)).toEqual([LEGACY]);
		expect(promptsOf((await index.get(path))!.model).map((p) => p.text)).toEqual(["old style", "more"]);
		await unlink(path);
		expect((await index.refreshPaths([path])).removed).toEqual([path]);
	});
});
