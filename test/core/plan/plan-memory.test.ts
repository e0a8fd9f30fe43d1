import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { renderFact } from "../../../src/core/memory/fact-file";
import { withFlatProperties, withoutFlatProperties } from "../../../src/core/memory/fact-properties";
import { planProjectMemory } from "../../../src/core/plan/plan-memory";
import type { SyncPlan } from "../../../src/core/plan/sync-plan";
import { applyPlan } from "../../../src/core/sync/apply-plan";
import { emptySyncState, type SyncState } from "../../../src/core/sync/sync-state";
import { FakeMemoryFolder } from "../../fakes/memory-folder";
import { MemoryNotes } from "../../fakes/memory-notes";

const folder = "AI Memory/shop-api";
const KEY = "/home/dev/shop-api";
let notes: MemoryNotes;
let claude: FakeMemoryFolder;
let state: SyncState;
const fact = (name: string, description: string, body = "Body.\n") => renderFact({ name, description, type: "project" }, body);

/** One memory sync as the engine does it: read both folders, plan, apply. */
async function sync(shared: FakeMemoryFolder | undefined, redact?: (text: string) => string, redaction?: string, real?: string) {
	const vault = new Map<string, string>();
	for (const path of await notes.list(folder)) vault.set(path.slice(folder.length + 1), notes.files.get(path)!);
	const memory = planProjectMemory({ folder, vault, ...(shared ? { claude: { path: shared.path, files: await shared.list(), ...(real === undefined ? {} : { real }) } } : {}) }, state, KEY, "/home/dev/shop-api", redact, redaction);
	const plan: SyncPlan = { moves: [], writes: memory.writes, hookContexts: [], state, unchanged: 0, skipped: [], errors: memory.errors, notices: memory.notices };
	const { report } = await applyPlan(plan, { notes, projects: { read: async () => null, write: async () => true }, claudeMemory: () => shared }, 0);
	return { facts: memory.facts, errors: report.errors, notices: report.notices, written: report.memoryWritten };
}
const run = () => sync(claude);

beforeEach(() => {
	notes = new MemoryNotes();
	claude = new FakeMemoryFolder();
	state = emptySyncState();
});

describe("facts shared with Claude Code", () => {
	it("takes none of the facts a repository that had this path left in Claude Code's folder, and shares the rest", async () => {
		claude.files.set("roadmap.md", fact("roadmap", "The moved repository's plan"));
		claude.files.set("tabs.md", fact("tabs", "Ours"));
		state.projects[`${KEY}@aaaaaaaaaaaa`] = { folder: "shop-api", replacedAt: KEY, leftFacts: { folder: claude.path, names: ["roadmap.md"] } };
		state.projects[KEY] = { folder: "shop-api (dev)" };
		expect((await run()).errors).toEqual([]);
		expect([...notes.files.keys()].sort()).toEqual([`${folder}/MEMORY.md`, `${folder}/tabs.md`]);
		expect(claude.files.get("roadmap.md")).toBe(fact("roadmap", "The moved repository's plan"));
		// Where it is no longer the project left behind (another Claude Code folder), it is shared as any.
		state.projects[`${KEY}@aaaaaaaaaaaa`]!.leftFacts = { folder: "/elsewhere/memory", names: ["roadmap.md"] };
		await run();
		expect(notes.files.has(`${folder}/roadmap.md`)).toBe(true);
	});

	it("a memory folder whose path leads to another folder this time (swapped for a link) is met as for the first time: no fact of the vault goes (attack round 51a)", async () => {
		state.projects[KEY] = { folder: "shop-api" };
		claude.files.set("tabs.md", fact("tabs", "Ours"));
		await sync(claude, undefined, undefined, "/claude/projects/-home-dev-shop-api/memory");
		expect(notes.files.has(`${folder}/tabs.md`)).toBe(true);
		// The same path, now a link to another project's memory folder, which holds other facts.
		claude.files.clear();
		claude.files.set("other.md", fact("other", "Another project's"));
		const { notices, errors } = await sync(claude, undefined, undefined, "/claude/projects/-other/memory");
		expect(errors).toEqual([]);
		expect(notes.files.get(`${folder}/tabs.md`)).toBe(fact("tabs", "Ours"));
		expect(notes.files.has(`${folder}/other.md`)).toBe(true);
		expect(notices.join("\n")).toContain("leads to /claude/projects/-other/memory this time, not /claude/projects/-home-dev-shop-api/memory as last time");
		// Met again where it led last time, it is the same folder: a fact deleted there is deleted in the vault.
		claude.files.delete("tabs.md");
		await sync(claude, undefined, undefined, "/claude/projects/-other/memory");
		expect(notes.files.has(`${folder}/tabs.md`)).toBe(false);
	});

	it("looks only at the projects given as having left facts, not through every project's record (each project's look was quadratic)", async () => {
		claude.files.set("roadmap.md", fact("roadmap", "The moved repository's plan"));
		claude.files.set("tabs.md", fact("tabs", "Ours"));
		const left = `${KEY}@aaaaaaaaaaaa`;
		const records: SyncState["projects"] = { [left]: { folder: "shop-api", replacedAt: KEY, leftFacts: { folder: claude.path, names: ["roadmap.md"] } }, [KEY]: { folder: "shop-api (dev)" } };
		// Thousands of enabled projects: every walk through all the records is a walk per project.
		state.projects = new Proxy(records, {
			ownKeys: () => {
				throw new Error("walked every project's record");
			},
		});
		const memory = planProjectMemory({ folder, vault: new Map(), claude: { path: claude.path, files: await claude.list() } }, state, KEY, KEY, undefined, undefined, [left]);
		expect(memory.errors).toEqual([]);
		expect(memory.facts.map((f) => f.file)).toEqual(["tabs.md"]);
	});

	it("redacts a fact's name and description as YAML reads them: an escape is a secret again once read, a control character a character", async () => {
		const token = `ghp${"_"}A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8`;
		const escaped = token.replace("g", "\\x67");
		claude.files.set("ci.md", `---\nname: "ci-key-${escaped}"\ndescription: "deploy key ${escaped} \\e]0;title\\a and \\u202e"\nmetadata:\n  type: project\n---\nBody.\n`);
		const vault = new Map<string, string>();
		const memory = planProjectMemory({ folder, vault, claude: { path: claude.path, files: await claude.list() } }, state, KEY, "/home/dev/shop-api", (t) => createRedactor().redact(t));
		const shown = memory.facts.map((f) => `${f.name}\n${f.description}`).join("\n");
		expect(shown).not.toContain(token.slice(4, 14));
		expect(shown).toContain("[redacted:github-token]");
		for (const c of ["\u001b", "\u0007", "\u202e"]) expect(shown).not.toContain(c);
		const index = memory.writes.find((w) => w.kind === "note" && w.path === `${folder}/MEMORY.md`);
		expect(index && "text" in index ? index.text : "").not.toContain(token.slice(4, 14));
	});

	describe("a Claude Code file whose name holds a secret", () => {
		const token = `ghp${"_"}Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2`;
		const file = `reference_${token}.md`;
		const redact = (t: string) => createRedactor().redact(t);
		const stateText = () => JSON.stringify(state);

		it("is kept in the state by a hash, met again at every sync, and reported by its redacted name", async () => {
			claude.files.set(file, fact("staging", "The staging host"));
			expect((await sync(claude, redact)).errors).toEqual([]);
			expect(stateText()).not.toContain(token.slice(4, 20));
			expect(notes.files.has(`${folder}/staging.md`)).toBe(true);
			// Met again: nothing to do, nothing deleted on either side.
			const again = await sync(claude, redact);
			expect(again.written).toEqual([]);
			expect(claude.files.has(file)).toBe(true);
			// An edit in the vault goes to Claude Code's own file, under its own name; the report names it without the token.
			notes.files.set(`${folder}/staging.md`, notes.files.get(`${folder}/staging.md`)!.replace("Body.", "Body, edited."));
			const edited = await sync(claude, redact);
			expect(claude.files.get(file)).toContain("Body, edited.");
			expect(edited.written.join("\n")).toContain("reference_[redacted:github-token].md");
			expect(edited.written.join("\n")).not.toContain(token.slice(4, 20));
			expect(stateText()).not.toContain(token.slice(4, 20));
			expect([...claude.files.keys()].sort()).toEqual(["MEMORY.md", file]);
		});

		it("is hashed in a state an older release wrote by name, and its pair stays: no fact copied twice or deleted", async () => {
			claude.files.set(file, fact("staging", "The staging host"));
			await sync(claude, (t) => t);
			expect(stateText()).toContain(token);
			const before = new Map(notes.files);
			const { written } = await sync(claude, redact);
			expect(stateText()).not.toContain(token.slice(4, 20));
			expect(written).toEqual([]);
			expect(notes.files).toEqual(before);
			expect(claude.files.has(file)).toBe(true);
			// Redaction turned off again: the hash still finds the file, nothing is deleted or copied again.
			expect((await sync(claude, (t) => t)).written).toEqual([]);
			expect(claude.files.has(file)).toBe(true);
			expect(notes.files).toEqual(before);
		});

		it("deleted by Claude Code while the vault's copy was edited: written again under a name of the vault's, without the secret", async () => {
			claude.files.set(file, fact("staging", "The staging host"));
			await sync(claude, redact);
			claude.files.delete(file);
			notes.files.set(`${folder}/staging.md`, notes.files.get(`${folder}/staging.md`)!.replace("Body.", "Body, edited."));
			await sync(claude, redact);
			expect(claude.files.get("staging.md")).toContain("Body, edited.");
			expect([...claude.files.keys()].join("\n")).not.toContain(token.slice(4, 20));
			// Paired under that name from then on: nothing more to do.
			expect((await sync(claude, redact)).written).toEqual([]);
		});

		it("is hashed among the names a replaced repository left, which stay left", async () => {
			claude.files.set(file, fact("left", "The moved repository's fact"));
			state.projects[`${KEY}@aaaaaaaaaaaa`] = { folder: "shop-api", replacedAt: KEY, leftFacts: { folder: claude.path, names: [file] } };
			state.projects[KEY] = { folder: "shop-api (dev)" };
			await sync(claude, redact);
			expect(stateText()).not.toContain(token.slice(4, 20));
			expect([...notes.files.keys()].filter((p) => !p.endsWith("MEMORY.md"))).toEqual([]);
			await sync(claude, (t) => t);
			expect([...notes.files.keys()].filter((p) => !p.endsWith("MEMORY.md"))).toEqual([]);
		});
	});

	it("names a Claude Code fact's vault file after its redacted name, and never after a file name redaction would change: a file's name is shown as its text is", async () => {
		const token = `ghp${"_"}A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8`;
		claude.files.set("db.md", fact("db password=Kq8vZz9xWw", "The staging database"));
		// No `name`: the file's name names it; and one whose slug the vault has already, which kept Claude Code's file name.
		claude.files.set(`${token}.md`, "---\ndescription: The CI key\nmetadata:\n  type: project\n---\nBody.\n");
		claude.files.set(`ci ${token}.md`, fact("redacted-github-token", "Another"));
		const vault = new Map<string, string>();
		const memory = planProjectMemory({ folder, vault, claude: { path: claude.path, files: await claude.list() } }, state, KEY, "/home/dev/shop-api", (t) => createRedactor().redact(t));
		const names = memory.writes.flatMap((w) => (w.kind === "note" ? [w.path] : []));
		expect(names.join("\n")).not.toMatch(/kq8vzz9xww|Kq8vZz9xWw/i);
		expect(names.join("\n").toLowerCase()).not.toContain(token.slice(4, 14).toLowerCase());
		expect(names).toContain(`${folder}/db-password-redacted-password.md`);
	});

	it("redacts a vault copy made while redaction was off, or before a pattern knew its secret, once it knows: the vault keeps only its own secrets", async () => {
		const withPattern = (t: string) => createRedactor({ extraPatterns: ["ACME-[0-9]{6}"] }).redact(t);
		state.projects[KEY] = { folder: "shop-api" };
		claude.files.set("deploy.md", fact("deploy", "Deploy key ACME-123456", "Deploy with ACME-654321.\n"));
		await sync(claude, (t) => createRedactor().redact(t), "on:rules:[]");
		const path = `${folder}/deploy.md`;
		expect(notes.files.get(path)).toContain("ACME-654321");
		// The user's own secret, typed in the vault copy, stays there.
		notes.files.set(path, notes.files.get(path)!.replace("Deploy with", "Mine: ACME-111111.\nDeploy with"));
		expect((await sync(claude, withPattern, 'on:rules:["ACME-[0-9]{6}"]')).errors).toEqual([]);
		const copy = notes.files.get(path)!;
		expect(copy).not.toMatch(/ACME-123456|ACME-654321/);
		expect(copy).toContain("Deploy with [redacted:custom].");
		expect(copy).toContain("Mine: ACME-111111.");
		// Claude Code's file keeps its secrets, and gets the user's line.
		expect(claude.files.get("deploy.md")).toContain("Deploy with ACME-654321.");
		expect(claude.files.get("deploy.md")).toContain("Mine: ACME-111111.");
		// And then it is quiet, the user's line too (Claude Code's copy holds it now).
		expect((await sync(claude, withPattern, 'on:rules:["ACME-[0-9]{6}"]')).written).toEqual([]);
		expect(notes.files.get(path)).toContain("Mine: ACME-111111.");
	});

	it("shares a vault fact whose file name holds a line break under that name without it: Claude Code's folder refuses such a name, and no fact was shared again", async () => {
		notes.files.set(`${folder}/x\n# Injected\u202e.md`, fact("split", "hello"));
		expect((await run()).errors).toEqual([]);
		expect([...claude.files.keys()].sort()).toEqual(["MEMORY.md", "x # Injected .md"]);
		expect(claude.files.get("MEMORY.md")).toContain("- [Split](x%20%23%20Injected%20.md) — hello\n");
		// Paired: an edit in the vault goes to the same file, and nothing is copied twice.
		notes.files.set(`${folder}/x\n# Injected\u202e.md`, fact("split", "hello again"));
		expect((await run()).errors).toEqual([]);
		expect(claude.files.get("x # Injected .md")).toContain("hello again");
		expect(claude.files.size).toBe(2);
	});

	it("brings Claude Code's facts into the vault with an index, and adds nothing to Claude Code's own index lines", async () => {
		claude.files.set("project_db.md", fact("payments-db", "Payments use Postgres 16"));
		claude.files.set("MEMORY.md", "- [Payments DB](project_db.md) — Postgres 16\n");
		const r = await run();
		expect(r.errors).toEqual([]);
		// Named after its `name` in the vault, so that `[[payments-db]]` links to it there too.
		// Claude Code's bytes, and its `metadata.type` flat too for Obsidian's Properties view.
		expect(notes.files.get(`${folder}/payments-db.md`)).toBe(withFlatProperties(claude.files.get("project_db.md")!));
		expect(notes.files.get(`${folder}/payments-db.md`)).toContain("metadata:\n  type: project\ntype: project\n---\n");
		expect(notes.files.get(`${folder}/MEMORY.md`)).toContain("- [Payments db](payments-db.md) — Payments use Postgres 16");
		expect(claude.files.get("MEMORY.md")).toBe("- [Payments DB](project_db.md) — Postgres 16\n");
		expect(r.facts.map((f) => f.name)).toEqual(["payments-db"]);
	});

	it("copies Claude Code's real files byte for byte (with the flat copies of type and modified), named so that their [[name]] links resolve in Obsidian", async () => {
		const dir = join(__dirname, "..", "..", "fixtures", "claude-memory");
		for (const f of readdirSync(dir).filter((n) => n.endsWith(".md") && n !== "README.md")) claude.files.set(f, readFileSync(join(dir, f), "utf8"));
		const index = claude.files.get("MEMORY.md");
		const r = await run();
		expect(r.errors).toEqual([]);
		expect((await notes.list(folder)).map((p) => p.slice(folder.length + 1))).toEqual(["MEMORY.md", "deploy-target.md", "staging-dashboard.md", "use-pnpm.md", "user-backend-dev.md"]);
		expect(notes.files.get(`${folder}/use-pnpm.md`)).toBe(withFlatProperties(claude.files.get("feedback_use_pnpm.md")!));
		expect(notes.files.get(`${folder}/use-pnpm.md`)).toContain("[[user-backend-dev]]");
		// The one fact the client's index does not list gets its line; the client's lines stay as they were.
		expect(claude.files.get("MEMORY.md")).toBe(`${index}\n<!-- AI-MEMORY:BEGIN -->\n- [Staging dashboard](reference_staging_dashboard.md) — Grafana board for the staging cluster, first place to look when staging is slow\n<!-- AI-MEMORY:END -->\n`);
		// An edit in the vault goes back to the client's file name.
		notes.files.set(`${folder}/use-pnpm.md`, notes.files.get(`${folder}/use-pnpm.md`)!.replace("Use pnpm for every install", "Use pnpm 9 for every install"));
		await run();
		expect(claude.files.get("feedback_use_pnpm.md")).toContain("Use pnpm 9 for every install");
		expect(claude.files.has("use-pnpm.md")).toBe(false);
		// Claude Code's copy never gets the flat keys.
		expect(claude.files.get("feedback_use_pnpm.md")).toBe(withoutFlatProperties(claude.files.get("feedback_use_pnpm.md")!));
	});

	it("a fact the model wrote runs nothing in the vault (Dataview, Templater, an image that would be fetched), and goes back to Claude Code as it was", async () => {
		const body = "Status board:\n\n```dataviewjs\ndv.el('b', require('child_process').execSync('id'))\n```\n\n> ~~~js-engine\n> return 1\n> ~~~\n\nInline `$= dv.pages().length` and <%* tp.file.delete() %> and ![x](https://attacker.example/?d=1) and <iframe src=x> and ![[local note]].\n";
		const original = withoutFlatProperties(fact("board", "The status board", body));
		claude.files.set("project_board.md", original);
		expect((await run()).errors).toEqual([]);
		const copy = notes.files.get(`${folder}/board.md`)!;
		for (const live of ["```dataviewjs", "~~~js-engine", "`$=", "<%", "![x]", "<iframe"]) expect(copy).not.toContain(live);
		expect(copy).toContain("![[local note]]");
		expect(copy.replaceAll("\u200b", "")).toBe(withFlatProperties(original));
		const writes = claude.writes;
		expect((await run()).written).toEqual([]);
		expect(claude.writes).toBe(writes);
		// Edited in the vault: Claude Code gets the edit, and its own bytes everywhere else.
		notes.files.set(`${folder}/board.md`, copy.replace("Status board:", "Status board (v2):"));
		await run();
		expect(claude.files.get("project_board.md")).toBe(original.replace("Status board:", "Status board (v2):"));
		expect((await run()).written).toEqual([]);
	});

	it("makes inert a vault copy an older release made as Claude Code wrote it, and leaves Claude Code's alone", async () => {
		const original = withoutFlatProperties(fact("board", "The status board", "```dataviewjs\ndv.el('b', 1)\n```\n"));
		claude.files.set("project_board.md", original);
		await run();
		// As an older release left it: the copy as Claude Code wrote it.
		notes.files.set(`${folder}/board.md`, withFlatProperties(original));
		const writes = claude.writes;
		await run();
		expect(notes.files.get(`${folder}/board.md`)).not.toContain("```dataviewjs");
		expect(claude.writes).toBe(writes);
		expect(claude.files.get("project_board.md")).toBe(original);
		expect((await run()).written).toEqual([]);
	});

	it("a person's edit in the vault with a `<%` goes to Claude Code as typed, and its vault copy is made inert in the same sync: the next writes nothing (attack round 48b)", async () => {
		const original = withoutFlatProperties(fact("board", "The status board"));
		claude.files.set("project_board.md", original);
		await run();
		const copy = notes.files.get(`${folder}/board.md`)!;
		notes.files.set(`${folder}/board.md`, copy.replace("Body.", "Body, and <% tp.date.now() %> of mine."));
		await run();
		expect(claude.files.get("project_board.md")).toBe(original.replace("Body.", "Body, and <% tp.date.now() %> of mine."));
		expect(notes.files.get(`${folder}/board.md`)).toContain("<\u200b% tp.date.now() %>");
		// The second sync after the edit changed the vault's file alone.
		expect((await run()).written).toEqual([]);
		// With a property of theirs between ours and the flat ones, which the vault's copy puts after them: in the same write.
		const edited = notes.files.get(`${folder}/board.md`)!.replace("\ntype: project\n", "\nmine: 1\ntype: project\n").replace("of mine.", "of mine, <% again %>.");
		notes.files.set(`${folder}/board.md`, edited);
		await run();
		expect(notes.files.get(`${folder}/board.md`)).toContain("<\u200b% again %>");
		expect((await run()).written).toEqual([]);
	});

	it("keeps Claude Code's bytes of a fact whose properties mix line endings: the second sync writes nothing (attack round 48b)", async () => {
		const mixed = "---\r\nname: board\ndescription: The board\r\nmetadata:\n  type: project\r\n  modified: 2026-11-30T00:45:01.905Z\n---\nBody.\r\n";
		claude.files.set("project_board.md", mixed);
		await run();
		expect(withoutFlatProperties(notes.files.get(`${folder}/board.md`)!)).toBe(mixed);
		const writes = claude.writes;
		expect((await run()).written).toEqual([]);
		expect(claude.writes).toBe(writes);
		expect(claude.files.get("project_board.md")).toBe(mixed);
	});

	it("a type changed in Obsidian's Properties view (the flat one) reaches Claude Code's metadata.type", async () => {
		claude.files.set("project_db.md", "---\nname: payments-db\ndescription: Payments use Postgres 16\nmetadata:\n  node_type: memory\n  type: project\n  modified: 2026-11-30T00:45:01.905Z\n---\nBody.\n");
		await run();
		const vaultCopy = notes.files.get(`${folder}/payments-db.md`)!;
		expect(vaultCopy).toBe("---\nname: payments-db\ndescription: Payments use Postgres 16\nmetadata:\n  node_type: memory\n  type: project\n  modified: 2026-11-30T00:45:01.905Z\ntype: project\nmodified: 2026-11-30T00:45:01.905Z\n---\nBody.\n");
		const writes = claude.writes;
		expect((await run()).errors).toEqual([]);
		expect(claude.writes).toBe(writes);
		notes.files.set(`${folder}/payments-db.md`, vaultCopy.replace("\ntype: project\n", "\ntype: reference\n"));
		await run();
		expect(claude.files.get("project_db.md")).toBe("---\nname: payments-db\ndescription: Payments use Postgres 16\nmetadata:\n  node_type: memory\n  type: reference\n  modified: 2026-11-30T00:45:01.905Z\n---\nBody.\n");
		expect(notes.files.get(`${folder}/payments-db.md`)).toContain("  type: reference\n  modified: 2026-11-30T00:45:01.905Z\ntype: reference\n");
	});

	it("sends a fact written in the vault to Claude Code, with its line in Claude Code's index", async () => {
		claude.files.set("MEMORY.md", "# Memory\n");
		notes.files.set(`${folder}/use-pnpm.md`, fact("use-pnpm", "Install with pnpm, never npm"));
		await run();
		expect(claude.files.get("use-pnpm.md")).toBe(withoutFlatProperties(notes.files.get(`${folder}/use-pnpm.md`)!));
		expect(claude.files.get("MEMORY.md")).toBe("# Memory\n\n<!-- AI-MEMORY:BEGIN -->\n- [Use pnpm](use-pnpm.md) — Install with pnpm, never npm\n<!-- AI-MEMORY:END -->\n");
	});

	it("shares two Claude Code facts whose names differ only in case (Linux has both) as two: the second was never shared, and never said", async () => {
		claude.files.set("style.md", fact("style", "Tabs"));
		expect((await run()).errors).toEqual([]);
		claude.files.set("Style.md", fact("style", "Spaces"));
		const r = await run();
		expect(r.errors).toEqual([]);
		const inVault = [...notes.files.entries()].filter(([p]) => p.startsWith(`${folder}/`) && !p.endsWith("MEMORY.md"));
		expect(inVault.map(([, t]) => /description: (\w+)/.exec(t)?.[1]).sort()).toEqual(["Spaces", "Tabs"]);
		expect([...claude.files.keys()].filter((n) => n.toLowerCase() === "style.md").sort()).toEqual(["Style.md", "style.md"]);
	});

	it("names a fact Claude Code's folder could not take by its place there, not as a file of the project", async () => {
		notes.files.set(`${folder}/tabs.md`, fact("tabs", "Use tabs"));
		claude.write = async () => {
			throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
		};
		const { errors } = await run();
		expect(errors).toContain(`${claude.path}/tabs.md: not written, the disk is full (ENOSPC); the next sync tries again`);
	});

	it("shares two vault facts whose names differ only in case or normalization (Linux has both) as two, under names of their own", async () => {
		notes.files.set(`${folder}/Tone.md`, fact("Tone", "Formal"));
		notes.files.set(`${folder}/na\u00efve.md`, fact("naive", "Composed"));
		expect((await run()).errors).toEqual([]);
		notes.files.set(`${folder}/tone.md`, fact("tone", "Casual"));
		notes.files.set(`${folder}/nai\u0308ve.md`, fact("naive", "Decomposed"));
		expect((await run()).errors).toEqual([]);
		await run();
		const shared = [...claude.files.values()].map((t) => /description: (\w+)/.exec(t)?.[1]).filter(Boolean).sort();
		expect(shared).toEqual(["Casual", "Composed", "Decomposed", "Formal"]);
		// No two of Claude Code's names are one file on macOS.
		const keys = [...claude.files.keys()].map((n) => n.normalize("NFC").toLowerCase());
		expect(new Set(keys).size).toBe(keys.length);
		expect(notes.files.get(`${folder}/tone.md`)).toBe(fact("tone", "Casual"));
	});

	it("gives a new vault fact no name in Claude Code's folder that one of its files has without case (on macOS it would be that file)", async () => {
		claude.files.set("Deploy.md", fact("deploy", "Theirs"));
		notes.files.set(`${folder}/deploy.md`, fact("deploy", "Ours"));
		expect((await run()).errors).toEqual([]);
		expect(claude.files.get("Deploy.md")).toBe(fact("deploy", "Theirs"));
		expect(claude.files.has("deploy.md")).toBe(false);
		expect(claude.files.get("deploy 2.md")).toContain("description: Ours");
	});

	it("gives a new vault fact no name in Claude Code's folder that one of its files has in another Unicode normalization (on macOS it would be that file)", async () => {
		claude.files.set("nai\u0308ve.md", fact("naive", "Theirs"));
		notes.files.set(`${folder}/na\u00efve.md`, fact("naive", "Ours"));
		expect((await run()).errors).toEqual([]);
		expect(claude.files.get("nai\u0308ve.md")).toBe(fact("naive", "Theirs"));
		expect(claude.files.has("na\u00efve.md")).toBe(false);
		expect(claude.files.get("na\u00efve 2.md")).toContain("description: Ours");
		expect([...notes.files.keys()].filter((p) => p.normalize("NFC") === `${folder}/na\u00efve.md`)).toEqual([`${folder}/na\u00efve.md`]);
	});

	it("keeps a Claude Code fact named `MEMORY` (its slug is the index's name): it stays on both sides, sync after sync", async () => {
		claude.files.set("project_memory.md", fact("MEMORY", "Where memory lives", "Kept.\n"));
		expect((await run()).errors).toEqual([]);
		expect(notes.files.get(`${folder}/memory-fact.md`)).toContain("Kept.");
		await run();
		await run();
		expect(claude.files.get("project_memory.md")).toBe(fact("MEMORY", "Where memory lives", "Kept.\n"));
		expect(notes.files.get(`${folder}/memory-fact.md`)).toContain("Kept.");
	});

	it("names no vault fact after a Windows device name (Obsidian on Windows cannot make `con.md`)", async () => {
		claude.files.set("project_con.md", fact("con", "Console"));
		claude.files.set("project_lpt.md", fact("LPT1", "Printer"));
		expect((await run()).errors).toEqual([]);
		const names = [...notes.files.keys()].map((p) => p.slice(folder.length + 1)).filter((n) => n !== "MEMORY.md").sort();
		expect(names).toEqual(["con-fact.md", "lpt1-fact.md"]);
	});

	it("takes no session note the user moved into the memory folder for a fact: not indexed, not copied to Claude Code, and a copy made before goes", async () => {
		const note = "---\nsession_id: 5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d93\nproject: shop-api\n---\n%% AI Conversation Memory: generated from here %%\n## Conversation\nthe whole talk\n%% AI Conversation Memory: generated up to here; write your own notes below %%\n";
		notes.files.set(`${folder}/2026-12-03 Task.md`, note);
		notes.files.set(`${folder}/deploy.md`, fact("deploy", "Deploy with the script"));
		// Shared by a release without the rule: the copy in Claude Code's folder is taken back.
		claude.files.set("2026-12-03 Task.md", note);
		state.memory[KEY] = { "2026-12-03 Task.md": { vault: "2026-12-03 Task.md", base: note } };
		expect((await run()).errors).toEqual([]);
		expect(claude.files.has("2026-12-03 Task.md")).toBe(false);
		expect([...claude.files.keys()].sort()).toEqual(["MEMORY.md", "deploy.md"]);
		expect(notes.files.get(`${folder}/MEMORY.md`)).not.toContain("Task");
		expect(notes.files.get(`${folder}/2026-12-03 Task.md`)).toBe(note);
	});

	it("writes nothing when nothing changed", async () => {
		claude.files.set("a.md", fact("a", "Fact a"));
		notes.files.set(`${folder}/b.md`, fact("b", "Fact b"));
		await run();
		const [vaultWrites, claudeWrites] = [notes.writes, claude.writes];
		const again = await run();
		expect(again.written).toEqual([]);
		expect([notes.writes, claude.writes]).toEqual([vaultWrites, claudeWrites]);
	});

	it("meets its facts again as one each after the state is lost: Claude Code's file and the vault's copy of it are paired by their text, not copied across as second facts (attack round 38)", async () => {
		claude.files.set("feedback_testing.md", fact("Testing feedback", "Run the suite first"));
		claude.files.set("reference_board.md", fact("Status board", "Grafana, staging"));
		notes.files.set(`${folder}/tone.md`, fact("tone", "Plain words"));
		await run();
		const vaultNames = () => [...notes.files.keys()].sort();
		const claudeNames = () => [...claude.files.keys()].sort();
		const [inVault, inClaude] = [vaultNames(), claudeNames()];
		// The state moved away, as a sync says to do with a damaged one; one copy edited meanwhile stays a fact of its own.
		state = emptySyncState();
		notes.files.set(`${folder}/status-board.md`, notes.files.get(`${folder}/status-board.md`)!.replace("Grafana", "Grafana 11"));
		const r = await run();
		expect(r.errors).toEqual([]);
		expect(vaultNames()).toEqual([...inVault, `${folder}/reference_board.md`].sort());
		expect(claudeNames()).toEqual([...inClaude, "status-board.md"].sort());
		expect(claude.files.get("feedback_testing.md")).toBe(fact("Testing feedback", "Run the suite first"));
		expect((await run()).written).toEqual([]);
	});

	it("names thousands of Claude Code facts of one name in the vault in linear time (each looked for a free number from 2 again)", async () => {
		for (let i = 0; i < 8000; i++) claude.files.set(`f${i}.md`, fact("Same name", `Fact ${i}`));
		const started = performance.now();
		await run();
		expect(performance.now() - started).toBeLessThan(20_000);
		expect(notes.files.has(`${folder}/same-name 8000.md`)).toBe(true);
	});

	it("follows edits and deletions either way", async () => {
		claude.files.set("a.md", fact("a", "Fact a"));
		claude.files.set("b.md", fact("b", "Fact b"));
		await run();
		notes.files.set(`${folder}/a.md`, fact("a", "Fact a, edited in Obsidian"));
		claude.files.delete("b.md");
		await run();
		expect(claude.files.get("a.md")).toContain("edited in Obsidian");
		expect(notes.files.has(`${folder}/b.md`)).toBe(false);
		expect(notes.files.get(`${folder}/MEMORY.md`)).not.toContain("b.md");
	});

	it("keeps both versions when both sides changed a fact, and says so", async () => {
		claude.files.set("a.md", fact("a", "Fact a"));
		await run();
		notes.files.set(`${folder}/a.md`, fact("a", "Vault wording"));
		claude.files.set("a.md", fact("a", "Claude wording"));
		const r = await run();
		expect(notes.files.get(`${folder}/a.md`)).toContain("Vault wording");
		expect(claude.files.get("a.md")).toContain("Vault wording");
		expect(notes.files.get(`${folder}/a.conflict-claude.md`)).toContain("Claude wording");
		expect(r.notices).toEqual([`${folder}/a.md was changed in the vault and by Claude Code: the vault's version is kept, Claude Code's is in ${folder}/a.conflict-claude.md`]);
		expect(claude.files.has("a.conflict-claude.md")).toBe(false);
		expect((await run()).written).toEqual([]);
	});

	it("leaves Claude Code's edit in its file when the conflict copy that would keep it cannot be written (a full vault)", async () => {
		claude.files.set("a.md", fact("a", "Fact a"));
		await run();
		notes.files.set(`${folder}/a.md`, fact("a", "Vault wording"));
		claude.files.set("a.md", fact("a", "Claude wording"));
		const write = notes.write.bind(notes);
		notes.write = async (path, text, expected) => {
			if (path.includes("conflict-claude")) throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
			return write(path, text, expected);
		};
		const r = await run();
		expect(r.errors.join("\n")).toContain("the disk is full");
		// Replaced, Claude Code's wording was nowhere.
		expect(claude.files.get("a.md")).toContain("Claude wording");
		notes.write = write;
		await run();
		expect(notes.files.get(`${folder}/a.conflict-claude.md`)).toContain("Claude wording");
		expect(claude.files.get("a.md")).toContain("Vault wording");
	});

	it("never replaces a conflict copy the user has not dealt with: a second conflict gets a copy of its own", async () => {
		claude.files.set("a.md", fact("a", "Fact a"));
		await run();
		notes.files.set(`${folder}/a.md`, fact("a", "Vault wording"));
		claude.files.set("a.md", fact("a", "Claude edit A"));
		await run();
		notes.files.set(`${folder}/a.md`, fact("a", "Vault wording, again"));
		claude.files.set("a.md", fact("a", "Claude edit B"));
		const r = await run();
		expect(notes.files.get(`${folder}/a.conflict-claude.md`)).toContain("Claude edit A");
		expect(notes.files.get(`${folder}/a.conflict-claude 2.md`)).toContain("Claude edit B");
		expect(r.notices).toEqual([`${folder}/a.md was changed in the vault and by Claude Code: the vault's version is kept, Claude Code's is in ${folder}/a.conflict-claude 2.md`]);
		expect([...claude.files.keys()].sort()).toEqual(["MEMORY.md", "a.md"]);
		expect((await run()).written).toEqual([]);
	});

	it("leaves a fact that changes during the sync for the next one", async () => {
		notes.files.set(`${folder}/a.md`, fact("a", "Fact a"));
		const real = claude.write.bind(claude);
		claude.write = async (name, text, expected) => {
			if (name === "a.md") claude.files.set("a.md", fact("a", "Claude wrote this meanwhile"));
			return real(name, text, expected);
		};
		const r = await run();
		expect(r.errors).toEqual([`${claude.path}/a.md: it changed while the sync ran; it is left as it is and merged next time`]);
		expect(claude.files.get("a.md")).toContain("meanwhile");
		expect(state.memory?.[KEY]?.["a.md"]).toBeUndefined();
	});

	it("keeps the vault index without sharing, and never syncs the inbox, conflict copies or the index as facts", async () => {
		notes.files.set(`${folder}/a.md`, fact("a", "Fact a"));
		notes.files.set(`${folder}/a.conflict-claude.md`, fact("a", "old conflict"));
		notes.files.set(`${folder}/_inbox/p.md`, fact("p", "Proposed"));
		const r = await sync(undefined);
		expect(r.facts.map((f) => f.file)).toEqual(["a.md"]);
		expect(notes.files.get(`${folder}/MEMORY.md`)).toBe("<!-- AI-MEMORY:BEGIN -->\n- [A](a.md) — Fact a\n<!-- AI-MEMORY:END -->\n");
		await run();
		expect([...claude.files.keys()].sort()).toEqual(["MEMORY.md", "a.md"]);
	});
});
