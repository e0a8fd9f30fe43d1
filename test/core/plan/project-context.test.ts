import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProjectFiles } from "../../../src/core/ports";
import { DEFAULT_PROJECT, migrateSettings, type ProjectSettings, type Settings } from "../../../src/core/settings";
import { runSync } from "../../../src/core/sync/sync-engine";
import { recordsByProject } from "../../../src/core/plan/project-context";
import { emptySyncState, type SyncState } from "../../../src/core/sync/sync-state";
import { ProjectFolderFiles } from "../../../src/node/project-files";
import { openTranscriptIndex } from "../../../src/node/transcript-index";
import { MemoryNotes } from "../../fakes/memory-notes";
import { assistant, jsonl, resetIds, text, userText } from "../../fixtures/lines";

/** What the sync writes into a project's CLAUDE.md (and, in lazy mode, the packet), through the engine. */
const A = "aaaaaaaa-1111-4000-8000-000000000001";
const B = "bbbbbbbb-2222-4000-8000-000000000002";
let root: string;
let projects: string;
let projectPath: string;
let notes: MemoryNotes;
let state: SyncState;

function settings(project: Partial<ProjectSettings> = {}, extra: Partial<Settings> = {}): Settings {
	return { ...migrateSettings({}).settings, projects: [{ path: projectPath, ...DEFAULT_PROJECT, ...project }], ...extra };
}

function sync(s: Settings, files: ProjectFiles = new ProjectFolderFiles()) {
	return runSync({ index: openTranscriptIndex(projects), settings: s, state, notes, projects: files, vaultPath: "/vault" });
}

const claudeMd = (name = "CLAUDE.md") => readFile(join(projectPath, name), "utf8").catch(() => null);

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "project-context-"));
	projects = join(root, "projects");
	projectPath = join(root, "shop-api");
	const dir = join(projects, "-shop-api");
	await mkdir(dir, { recursive: true });
	await mkdir(projectPath);
	const env = (id: string, at: string) => ({ sessionId: id, cwd: projectPath, timestamp: at });
	await writeFile(join(dir, `${A}.jsonl`), jsonl([userText("Add rate limiting to checkout", env(A, "2026-11-20T10:00:00.000Z")), assistant(text("Added a token bucket; we still need to tune the limits."), { ...env(A, "2026-11-20T10:05:00.000Z"), messageId: "m1" })]));
	await writeFile(join(dir, `${B}.jsonl`), jsonl([userText("Fix the cart total", env(B, "2026-11-21T10:00:00.000Z")), assistant(text("Fixed the total."), { ...env(B, "2026-11-21T10:05:00.000Z"), messageId: "m2" })]));
	notes = new MemoryNotes();
	state = emptySyncState();
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("the CLAUDE.md block", () => {
	it("is created for an enabled project without one, and never for a disabled project", async () => {
		await sync(settings({ enabled: false }));
		expect(await claudeMd()).toBeNull();
		const r = await sync(settings());
		expect(r.contextWritten).toEqual([`${projectPath}/CLAUDE.md`]);
		const text = (await claudeMd())!;
		expect(text.startsWith("<!-- AUTO-CONTEXT:BEGIN -->\n## Recent sessions\n")).toBe(true);
		expect(text).toContain("### 2026-11-21 — Fix the cart total");
		expect(text).toContain("Session notes are in `/vault/AI Conversations/shop-api/`.");
		expect(text).toContain("- Note: `2026-11-20 Add rate limiting to checkout.md`");
		expect(text.endsWith("<!-- AUTO-CONTEXT:END -->\n")).toBe(true);
	});

	it("tells first the session last active: one begun earlier and resumed in its file later is today's work", async () => {
		await sync(settings({ sessions: 1 }));
		expect(await claudeMd()).toContain("### 2026-11-21 — Fix the cart total");
		// `claude --resume` of A goes on in A's file, after B.
		const env = { sessionId: A, cwd: projectPath, timestamp: "2026-11-25T09:00:00.000Z" };
		await appendFile(join(projects, "-shop-api", `${A}.jsonl`), jsonl([userText("Tune the checkout rate limits", env), assistant(text("Set the limits to 20 a minute."), { ...env, messageId: "m3" })]));
		await sync(settings({ sessions: 1 }));
		const block = (await claudeMd())!;
		expect(block).toContain("### 2026-11-20 — Add rate limiting to checkout");
		expect(block).toContain("Tune the checkout rate limits");
		expect(block).not.toContain("### 2026-11-21 — Fix the cart total");
	});

	it("goes to CLAUDE.local.md when that is the target", async () => {
		await sync(settings({ target: "CLAUDE.local.md" }));
		expect(await claudeMd()).toBeNull();
		expect(await claudeMd("CLAUDE.local.md")).toContain("Add rate limiting to checkout");
	});

	it("reads the file again when it changed between read and write, and keeps the newer text", async () => {
		await writeFile(join(projectPath, "CLAUDE.md"), "# Rules\r\n");
		const real = new ProjectFolderFiles();
		let edits = 0;
		const racing: ProjectFiles = {
			read: (p, f) => real.read(p, f),
			async write(p, f, t, expected) {
				if (edits++ === 0) await writeFile(join(p, f), "# Rules\r\nA line the user saved just now.\r\n");
				return real.write(p, f, t, expected);
			},
		};
		const r = await sync(settings(), racing);
		expect(r.errors).toEqual([]);
		expect(edits).toBe(2);
		const text = (await claudeMd())!;
		expect(text.startsWith("# Rules\r\nA line the user saved just now.\r\n\r\n<!-- AUTO-CONTEXT:BEGIN -->\r\n")).toBe(true);
	});

	it("gives up with a clear error when the file keeps changing, without overwriting it", async () => {
		await writeFile(join(projectPath, "CLAUDE.md"), "# Rules\n");
		const real = new ProjectFolderFiles();
		let n = 0;
		const busy: ProjectFiles = {
			read: (p, f) => real.read(p, f),
			async write(p, f, t, expected) {
				await writeFile(join(p, f), `# Rules\nedit ${++n}\n`);
				return real.write(p, f, t, expected);
			},
		};
		const r = await sync(settings(), busy);
		expect(r.errors).toEqual([`CLAUDE.md in ${projectPath} kept changing while the sync ran; it is left as it is and updated next time`]);
		expect(await claudeMd()).toBe("# Rules\nedit 3\n");
	});

	it("writes nothing when the markers are broken, and says where", async () => {
		const broken = "# Rules\n\n<!-- AUTO-CONTEXT:BEGIN -->\nold\n";
		await writeFile(join(projectPath, "CLAUDE.md"), broken);
		const r = await sync(settings());
		expect(r.errors).toEqual([`CLAUDE.md in ${projectPath} has <!-- AUTO-CONTEXT:BEGIN --> without <!-- AUTO-CONTEXT:END --> at line 3; nothing was written`]);
		expect(await claudeMd()).toBe(broken);
	});

	it("reports a missing project folder and goes on", async () => {
		await rm(projectPath, { recursive: true });
		const r = await sync(settings());
		expect(r.errors.some((e) => e.includes(`the project folder ${projectPath} does not exist`))).toBe(true);
		expect(r.notesWritten.length).toBeGreaterThan(0);
	});

	it.each(["eager", "lazy"] as const)("a project with no session yet gets no block (%s mode): no empty history, no file made", async (mode) => {
		const empty = join(root, "new-app");
		await mkdir(empty);
		const s = { ...settings(), projects: [...settings().projects, { ...DEFAULT_PROJECT, path: empty, mode }] };
		const r = await sync(s);
		expect(r.errors).toEqual([]);
		expect(r.contextWritten).toEqual([join(projectPath, "CLAUDE.md")]);
		expect(await readFile(join(empty, "CLAUDE.md"), "utf8").catch(() => null)).toBeNull();
		expect([...notes.files.keys()].some((p) => p.includes("new-app"))).toBe(false);
		// A file of the user's is left as it is too.
		await writeFile(join(empty, "CLAUDE.md"), "# new-app\n");
		expect((await sync(s)).contextWritten).toEqual([]);
		expect(await readFile(join(empty, "CLAUDE.md"), "utf8")).toBe("# new-app\n");
	});
});

describe("lazy mode", () => {
	it("puts a small facade in CLAUDE.md that points at the context packet in the vault", async () => {
		const r = await sync(settings({ mode: "lazy" }));
		expect(r.errors).toEqual([]);
		const packetPath = "AI Conversations/shop-api/shop-api context.md";
		const packet = notes.files.get(packetPath)!;
		expect(packet).toContain("## Recent sessions");
		expect(packet).toContain("### 2026-11-20 — Add rate limiting to checkout");
		const text = (await claudeMd())!;
		const block = text.slice(text.indexOf("-->") + 4, text.lastIndexOf("<!--"));
		expect(block.length).toBeLessThanOrEqual(600);
		expect(block).toContain("- Latest session: 2026-11-21 Fix the cart total (`bbbbbbbb-2222-4000-8000-000000000002`)");
		expect(block).toContain(`- Full context: \`/vault/${packetPath}\``);

		const writes = notes.writes;
		const again = await sync(settings({ mode: "lazy" }));
		expect(again).toMatchObject({ notesWritten: [], contextWritten: [], errors: [] });
		expect(notes.writes).toBe(writes);
	});

	it("redacts the stored checkpoints, and so the facade's, with today's settings: a pattern added after the hook kept one applies", async () => {
		await sync(settings({ mode: "lazy" }));
		state.checkpoints[B] = { at: "2026-11-21T10:06:00.000Z", text: "Asked: deploy with ACME-123456\nReply: deployed" };
		await sync(settings({ mode: "lazy" }, { redaction: { enabled: true, extraPatterns: ["ACME-[0-9]{6}"] } }));
		const text = (await claudeMd())!;
		expect(text).toContain("- Last checkpoint: 2026-11-21 10:06 UTC Asked: deploy with [redacted:custom]");
		expect(text).not.toContain("ACME-123456");
		expect(state.checkpoints[B]?.text).toBe("Asked: deploy with [redacted:custom]\nReply: deployed");
	});

	it("redacts the stored `summary` lines with today's settings too: one read while redaction was off is not kept whole once it is on", async () => {
		state.summaries["12345"] = "Deploy with ACME-123456";
		await sync(settings({ mode: "lazy" }, { redaction: { enabled: true, extraPatterns: ["ACME-[0-9]{6}"] } }));
		expect(state.summaries["12345"]).toBe("Deploy with [redacted:custom]");
	});

	it("puts no terminal escape of a prompt into CLAUDE.md or the packet, in either mode", async () => {
		const dir = join(projects, "-shop-api");
		const C = "cccccccc-3333-4000-8000-000000000003";
		const env = { sessionId: C, cwd: projectPath, timestamp: "2026-11-22T10:00:00.000Z" };
		await writeFile(join(dir, `${C}.jsonl`), jsonl([userText("Fix \u001b]0;pwned\u0007 the \u001b[2Jcheckout", env), assistant(text("Fixed \u001b[31mit\u001b[0m."), { ...env, messageId: "m3" })]));
		await sync(settings());
		expect(await claudeMd()).toContain("Fix  the checkout");
		const controls = (text: string | null | undefined) => [...(text ?? "")].filter((c) => c === "\u001b" || c === "\u0007");
		expect(controls(await claudeMd())).toEqual([]);
		await sync(settings({ mode: "lazy" }));
		expect(controls(await claudeMd())).toEqual([]);
		expect(controls(notes.files.get("AI Conversations/shop-api/shop-api context.md"))).toEqual([]);
	});

	it("switching modes replaces the block and leaves the rest of the file alone", async () => {
		await writeFile(join(projectPath, "CLAUDE.md"), "# Rules\n\nKeep it simple.\n");
		await sync(settings());
		await sync(settings({ mode: "lazy" }));
		const text = (await claudeMd())!;
		expect(text.startsWith("# Rules\n\nKeep it simple.\n\n<!-- AUTO-CONTEXT:BEGIN -->\n## Project memory\n")).toBe(true);
		expect(text).not.toContain("## Recent sessions");
	});
});

describe("after an upgrade", () => {
	it("digests again the sessions whose stored digest an older release made, without their transcripts changing", async () => {
		const index = openTranscriptIndex(projects);
		const s = settings();
		await runSync({ index, settings: s, state, notes, projects: new ProjectFolderFiles(), vaultPath: "/vault" });
		const [path, record] = Object.entries(state.sessions).find(([, r]) => r.digest.title === "Add rate limiting to checkout")!;
		const original = structuredClone(record.digest);
		// What an older release stored: another shape, narration in it.
		(state.sessions[path] as { digest: unknown }).digest = { ...record.digest, version: undefined, done: [], open: ["Let me update the todo list:"] };
		await writeFile(join(projectPath, "CLAUDE.md"), (await claudeMd())!.replace("tune the limits", "Let me update the todo list:"));
		const r = await runSync({ index, settings: s, state, notes, projects: new ProjectFolderFiles(), vaultPath: "/vault" });
		expect(r.transcriptsRead).toBe(0);
		expect(state.sessions[path]!.digest).toEqual(original);
		expect(await claudeMd()).not.toContain("Let me");
	});

	it("leaves out an old digest it cannot make again (its transcript and model gone), and goes on", async () => {
		const s = settings();
		await sync(s);
		const [, record] = Object.entries(state.sessions)[0]!;
		state.sessions["/gone/old-session.jsonl"] = { ...record, notePath: "AI Conversations/shop-api/old.md", digest: { title: "Old release session", projectPath, startedAt: "2026-11-22T10:00:00.000Z", sessionId: "old", goal: "Let me look", openEnds: [] } as never };
		const r = await sync(s);
		expect(r.errors).toEqual([]);
		expect(await claudeMd()).not.toContain("Old release session");
	});
});

describe("files agents read as instructions", () => {
	const C = "cccccccc-3333-4000-8000-000000000003";
	const blocks = (text: string | null) => (text ?? "").split("<!-- AUTO-CONTEXT:BEGIN -->").length - 1;

	it("quote a prompt's @file mentions as code, so no agent imports those files from the block", async () => {
		const env = { sessionId: C, cwd: projectPath, timestamp: "2026-11-22T10:00:00.000Z" };
		await writeFile(join(projects, "-shop-api", `${C}.jsonl`), jsonl([userText("Review @src/auth.ts and @.env, then mail ops@example.com", env), assistant(text("Reviewed @src/auth.ts: the session check is fine."), { ...env, messageId: "m3" })]));
		const r = await sync(settings({ alsoWriteTo: ["GEMINI.md"] }));
		expect(r.errors).toEqual([]);
		for (const name of ["CLAUDE.md", "GEMINI.md"]) {
			const text = (await claudeMd(name))!;
			expect(text).toContain("Review `@src/auth.ts` and `@.env`, then mail ops@example.com");
			// No mention left that an agent would take for an import: `@` at a line's start or after a space.
			expect(text.replace(/`[^`\n]*`/g, "")).not.toMatch(/(^|\s)@\S/m);
		}
	});

	it("count an @AGENTS.md import only where the agent reads one: not in code, not in the block, not in AGENTS.md", async () => {
		const both = settings({ alsoWriteTo: ["AGENTS.md"] });
		// Documentation of the import, in a fence and in a code span: CLAUDE.md imports nothing, so it keeps its block.
		await writeFile(join(projectPath, "CLAUDE.md"), "# Shop\n\nTo share rules, write `@AGENTS.md` here, like this:\n\n```\n@AGENTS.md\n```\n");
		await sync(both);
		expect(blocks(await claudeMd())).toBe(1);
		expect(blocks(await claudeMd("AGENTS.md"))).toBe(1);
		// AGENTS.md importing CLAUDE.md: Codex follows no import, so AGENTS.md keeps its own block.
		await writeFile(join(projectPath, "AGENTS.md"), `@CLAUDE.md\n\n${(await claudeMd("AGENTS.md"))!}`);
		await sync(both);
		expect(blocks(await claudeMd("AGENTS.md"))).toBe(1);
		expect(blocks(await claudeMd())).toBe(1);
		// A real import in CLAUDE.md: its block goes, AGENTS.md's stays.
		await writeFile(join(projectPath, "CLAUDE.md"), `@AGENTS.md\n\n${(await claudeMd())!}`);
		await sync(both);
		expect(blocks(await claudeMd())).toBe(0);
		expect(blocks(await claudeMd("AGENTS.md"))).toBe(1);
	});

	it("give an importing file its own block when the imported one cannot take it (a folder, its markers doubled)", async () => {
		const both = settings({ alsoWriteTo: ["AGENTS.md"] });
		await writeFile(join(projectPath, "CLAUDE.md"), "@AGENTS.md\n");
		await mkdir(join(projectPath, "AGENTS.md"));
		const r = await sync(both);
		expect(r.errors.join("\n")).toContain("AGENTS.md");
		expect(blocks(await claudeMd())).toBe(1);
		await rm(join(projectPath, "AGENTS.md"), { recursive: true });
		const doubled = "<!-- AUTO-CONTEXT:BEGIN -->\nold\n<!-- AUTO-CONTEXT:END -->\n<!-- AUTO-CONTEXT:BEGIN -->\nold\n<!-- AUTO-CONTEXT:END -->\n";
		await writeFile(join(projectPath, "AGENTS.md"), doubled);
		await writeFile(join(projectPath, "CLAUDE.md"), "@AGENTS.md\n");
		await sync(both);
		expect(blocks(await claudeMd())).toBe(1);
		expect(await claudeMd("AGENTS.md")).toBe(doubled);
	});

	it("keep a file's block when the file it now imports could not be written this time (AGENTS.md read-only)", async () => {
		const both = settings({ alsoWriteTo: ["AGENTS.md"] });
		await sync(both);
		await writeFile(join(projectPath, "AGENTS.md"), "Agents rules\n");
		await writeFile(join(projectPath, "CLAUDE.md"), `@AGENTS.md\n${(await claudeMd())!}`);
		const readOnly = new ProjectFolderFiles();
		const write = readOnly.write.bind(readOnly);
		readOnly.write = async (path, name, text, expected) => {
			if (name === "AGENTS.md") throw Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
			return write(path, name, text, expected);
		};
		const r = await sync(both, readOnly);
		expect(r.errors.join("\n")).toContain("AGENTS.md");
		expect(blocks(await claudeMd())).toBe(1);
		await sync(both);
		expect(blocks(await claudeMd())).toBe(0);
		expect(blocks(await claudeMd("AGENTS.md"))).toBe(1);
	});

	it("give an importing file its own block when the imported one is read-only, at every sync", async () => {
		const both = settings({ alsoWriteTo: ["AGENTS.md"] });
		await writeFile(join(projectPath, "CLAUDE.md"), "@AGENTS.md\n");
		await writeFile(join(projectPath, "AGENTS.md"), "Agents rules\n");
		await chmod(join(projectPath, "AGENTS.md"), 0o444);
		const r = await sync(both);
		expect(r.errors.join("\n")).toContain("read-only");
		expect(blocks(await claudeMd())).toBe(1);
		expect(await claudeMd()).toMatch(/^@AGENTS\.md\n/);
		expect(await claudeMd("AGENTS.md")).toBe("Agents rules\n");
	});

	it("write the block once where two files import each other", async () => {
		await writeFile(join(projectPath, "CLAUDE.md"), "@GEMINI.md\n");
		await writeFile(join(projectPath, "GEMINI.md"), "@CLAUDE.md\n");
		const r = await sync(settings({ alsoWriteTo: ["GEMINI.md"] }));
		expect(r.errors).toEqual([]);
		expect(blocks(await claudeMd()) + blocks(await claudeMd("GEMINI.md"))).toBe(1);
		expect(blocks(await claudeMd("GEMINI.md"))).toBe(1);
	});
});

describe("the records of each project", () => {
	it("are gathered in one pass, in the state's order, by project key; a record of no key (a version 1 state's) is in none", () => {
		const s = emptySyncState();
		const at = (key: string | undefined, note: string) => ({ ...(key === undefined ? {} : { projectKey: key }), project: "p", notePath: note, digest: {} as never, tags: [], keywords: [] });
		s.sessions = { a: at("/w/api", "1.md"), b: at("/w/web", "2.md"), c: at(undefined, "3.md"), d: at("/w/api", "4.md") };
		const byKey = recordsByProject(s);
		expect([...byKey.keys()]).toEqual(["/w/api", "/w/web"]);
		expect(byKey.get("/w/api")!.map((r) => r.notePath)).toEqual(["1.md", "4.md"]);
		expect(byKey.get("/w/web")!.map((r) => r.notePath)).toEqual(["2.md"]);
	});
});
