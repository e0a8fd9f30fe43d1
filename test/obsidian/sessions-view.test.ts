// @vitest-environment happy-dom
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Notice, Vault } from "../stubs/obsidian";
import { stubApp } from "../stubs/app";
import manifest from "../../manifest.json";
import AiConversationMemoryPlugin from "../../src/main";
import { SESSIONS_VIEW_TYPE, SessionsView, type SessionsSource } from "../../src/obsidian/sessions-view";
import type { SessionRow, UsageOnlyRow } from "../../src/core/usage/session-rows";
import type { SearchDoc } from "../../src/core/search/conversation-index";
import { SessionCatalog } from "../../src/node/session-catalog";

const repo = resolve(__dirname, "..", "..");
let claudeDir: string;
let vaultDir: string;
let saved: string | undefined;

beforeEach(() => {
	claudeDir = mkdtempSync(join(tmpdir(), "view-claude-"));
	vaultDir = mkdtempSync(join(tmpdir(), "view-vault-"));
	cpSync(join(repo, "examples", "claude-projects"), join(claudeDir, "projects"), { recursive: true });
	saved = process.env.CLAUDE_CONFIG_DIR;
	process.env.CLAUDE_CONFIG_DIR = claudeDir;
});
afterEach(() => {
	if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
	else process.env.CLAUDE_CONFIG_DIR = saved;
	rmSync(claudeDir, { recursive: true, force: true });
	rmSync(vaultDir, { recursive: true, force: true });
	document.body.replaceChildren();
});

async function waitFor(done: () => boolean, ms = 5_000): Promise<void> {
	for (let i = 0; i < ms / 10 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
	expect(done()).toBe(true);
}

function key(target: EventTarget, k: string): void {
	target.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
}

function type(input: HTMLInputElement, text: string): void {
	input.value = text;
	input.dispatchEvent(new Event("input", { bubbles: true }));
}

function rowsShown(view: SessionsView): HTMLElement[] {
	return Array.from(view.contentEl.querySelectorAll<HTMLElement>(".acm-session-row"));
}

function selectedTitle(view: SessionsView): string | undefined {
	return view.contentEl.querySelector('.acm-session-row[aria-selected="true"] .acm-session-title')?.textContent ?? undefined;
}

/** The real plugin on the bundled examples: synced, then the view opened by its command. */
async function openOnExamples() {
	const vault = new Vault();
	const app = stubApp(vault, vaultDir);
	const plugin = new AiConversationMemoryPlugin(app as never, { ...manifest, dir: ".obsidian/plugins/ai-conversation-memory" });
	plugin.load();
	app.workspace.ready();
	const inside = plugin as unknown as { started?: Promise<void>; controller: { idle(): Promise<void> } };
	await inside.started;
	await new Promise((r) => setTimeout(r, 0));
	await inside.controller.idle();
	const commands = (plugin as unknown as { commands: { id: string; callback?: () => unknown }[] }).commands;
	const run = async (id: string) => {
		await commands.find((c) => c.id === id)!.callback!();
	};
	// The command starts opening the view and returns, as commands do: wait until it lists something.
	await run("open-sessions-view");
	await waitFor(() => app.workspace.getLeavesOfType(SESSIONS_VIEW_TYPE)[0]?.view.containerEl.querySelector(".acm-sessions-status")?.textContent !== "");
	const leaf = app.workspace.getLeavesOfType(SESSIONS_VIEW_TYPE)[0]!;
	const view = leaf.view as unknown as SessionsView;
	await view.indexed;
	return { app, vault, plugin, view, leaf, run };
}

describe("the Sessions view on synced sessions", () => {
	it("opens from its command and its ribbon icon, once, listing the sessions newest first", async () => {
		const { app, view, plugin } = await openOnExamples();
		expect(view.getViewType()).toBe(SESSIONS_VIEW_TYPE);
		const titles = rowsShown(view).map((r) => r.querySelector(".acm-session-title")!.textContent);
		expect(titles).toHaveLength(4);
		expect(view.contentEl.querySelector(".acm-sessions-status")!.textContent).toBe("4 of 4 sessions");
		expect(rowsShown(view)[0]!.querySelector(".acm-session-meta")!.textContent).toContain("shop-api · Claude Code");
		const ribbon = (plugin as unknown as { ribbonIcons: { title: string; el: HTMLElement }[] }).ribbonIcons.find((r) => r.title === "Open AI sessions")!;
		ribbon.el.click();
		await new Promise((r) => setTimeout(r, 0));
		expect(app.workspace.getLeavesOfType(SESSIONS_VIEW_TYPE)).toHaveLength(1);
	});

	it("search finds a prompt's words and Enter opens the note at that turn's heading", async () => {
		const { app, vault, view } = await openOnExamples();
		const search = view.contentEl.querySelector<HTMLInputElement>(".acm-sessions-search")!;
		type(search, "404 when the product");
		const shown = rowsShown(view);
		expect(shown).toHaveLength(1);
		expect(shown[0]!.querySelector(".acm-session-snippet")!.textContent).toMatch(/^turn 2: .*404/);
		key(search, "Enter");
		await new Promise((r) => setTimeout(r, 0));
		const path = app.workspace.opened.at(-1)!.path;
		expect(path).toMatch(/^AI Conversations\/shop-api\/2026-11-29 .*\.md$/);
		expect(app.workspace.openedSubpaths.at(-1)).toBe("#You · 2");
		// The heading is in the note, and the turn under it holds the words searched for.
		const text = vault.cachedText(path)!;
		const turn = text.split("### You · 2\n")[1]!.split("### You · 3")[0]!;
		expect(turn).toContain("Return a 404 when the product does not exist.");
		expect(app.workspace.activeFile?.path).toBe(path);
	});

	it("finds words of replies and digests too; Escape clears the search", async () => {
		const { view } = await openOnExamples();
		const search = view.contentEl.querySelector<HTMLInputElement>(".acm-sessions-search")!;
		type(search, "ignores line.quantity");
		expect(rowsShown(view)).toHaveLength(1);
		type(search, "nothing-matches-this");
		expect(rowsShown(view)).toHaveLength(0);
		expect(view.contentEl.querySelector(".acm-sessions-status")!.textContent).toBe("0 found");
		key(search, "Escape");
		expect(search.value).toBe("");
		expect(rowsShown(view)).toHaveLength(4);
	});

	it("keyboard: arrows, End and Home move the selection; Enter opens the selected session's note", async () => {
		const { app, vault, view } = await openOnExamples();
		const list = view.contentEl.querySelector<HTMLElement>(".acm-sessions-list")!;
		const titles = rowsShown(view).map((r) => r.querySelector(".acm-session-title")!.textContent);
		expect(selectedTitle(view)).toBe(titles[0]);
		key(list, "ArrowDown");
		expect(selectedTitle(view)).toBe(titles[1]);
		key(list, "End");
		expect(selectedTitle(view)).toBe(titles[3]);
		key(list, "ArrowDown");
		expect(selectedTitle(view)).toBe(titles[3]);
		key(list, "Home");
		key(list, "ArrowUp");
		expect(selectedTitle(view)).toBe(titles[0]);
		key(list, "ArrowDown");
		key(list, "Enter");
		await new Promise((r) => setTimeout(r, 0));
		expect(app.workspace.openedSubpaths.at(-1)).toBe("");
		// File names swap some characters for look-alikes; the note names its title in its aliases.
		expect(app.workspace.activeFile).not.toBeNull();
		expect(vault.cachedText(app.workspace.activeFile!.path)).toContain(titles[1]!);
	});

	it("opens a session's own note when the person renamed it with a \"#\" (read in a link as a heading of another note)", async () => {
		const { app, vault, view, plugin } = await openOnExamples();
		const first = rowsShown(view)[0]!;
		const note = vault.getFiles().find((f) => f.path.endsWith(".md") && f.basename.includes(first.querySelector(".acm-session-title")!.textContent.slice(0, 20)))!;
		await vault.createFolder("Archive");
		await vault.create("Archive/Q.md", "Another note.\n");
		await app.fileManager.renameFile(note, "Archive/Q#1.md");
		// The sync follows the rename; the view reads what it prepared.
		await (plugin as unknown as { syncNow(): Promise<void> }).syncNow();
		await view.refresh();
		key(view.contentEl.querySelector(".acm-sessions-list")!, "Enter");
		await new Promise((r) => setTimeout(r, 0));
		expect(app.workspace.activeFile?.path).toBe("Archive/Q#1.md");
	});

	it("a session whose note was deleted says so instead of opening nothing", async () => {
		const { app, vault, view } = await openOnExamples();
		const first = rowsShown(view)[0]!;
		const note = vault.getFiles().find((f) => f.path.endsWith(".md") && f.basename.includes(first.querySelector(".acm-session-title")!.textContent.slice(0, 20)))!;
		await app.fileManager.trashFile(note);
		const before = app.workspace.opened.length;
		key(view.contentEl.querySelector(".acm-sessions-list")!, "Enter");
		await new Promise((r) => setTimeout(r, 0));
		expect(app.workspace.opened.length).toBe(before);
		expect(Notice.shown.at(-1)).toMatch(/was deleted or moved away/);
	});

	it("the dashboard over a file where its pictures' folder goes: a notice says it was not updated", async () => {
		const { vault, run } = await openOnExamples();
		await vault.create("AI Conversations/Dashboard", "my own file\n");
		await run("update-sessions-dashboard");
		expect(Notice.shown.at(-1)).toBe('Dashboard not updated: the file "AI Conversations/Dashboard" stands where a folder of the path should be');
		expect(vault.cachedText("AI Conversations/Dashboard")).toBe("my own file\n");
	});

	it("pictures: 14 charts of the sessions; the dashboard note and its SVG files, written once", async () => {
		const { vault, view, run } = await openOnExamples();
		view.contentEl.querySelector<HTMLElement>('[data-tab="pictures"]')!.click();
		const svgs = view.contentEl.querySelectorAll(".acm-sessions-pictures svg");
		expect(svgs).toHaveLength(14);
		expect(view.contentEl.querySelector(".acm-sessions-pictures style")).toBeNull();
		await run("update-sessions-dashboard");
		const note = vault.cachedText("AI Conversations/Sessions dashboard.md")!;
		expect(note).toContain("4 sessions from 2026-11-29 to 2026-11-29");
		expect(note).toContain("an estimate from list prices as of");
		expect(note).toContain("![[AI Conversations/Dashboard/heatmap.svg]]");
		const heatmap = vault.cachedText("AI Conversations/Dashboard/heatmap.svg")!;
		expect(heatmap.startsWith("<svg ")).toBe(true);
		await run("update-sessions-dashboard");
		expect(Notice.shown.at(-1)).toBe("The dashboard is up to date.");
		// The user's own words below the generated part stay.
		const file = vault.getFileByPath("AI Conversations/Sessions dashboard.md")!;
		await vault.process(file, (t) => `${t}\nMy notes.\n`);
		await run("update-sessions-dashboard");
		expect(vault.cachedText(file.path)).toContain("My notes.");
	});
});

/** Generated sessions: three projects, two agents, tags, a day each, for the filters and the virtual list. */
function generated(n: number): SessionRow[] {
	return Array.from({ length: n }, (_, i) => {
		const day = new Date(Date.UTC(2026, 0, 1) + (n - 1 - i) * 3_600_000 * 6).toISOString().slice(0, 10);
		return {
			id: `/t/${i}.jsonl`,
			title: `Session ${i}`,
			project: ["api", "web", "cli"][i % 3]!,
			agent: i % 5 === 0 ? "codex" : "claude-code",
			started: `${day}T12:00:00.000Z`,
			day,
			activeMinutes: 10,
			prompts: 1,
			tags: i % 2 === 0 ? ["ai/auth"] : ["ai/ui"],
			files: [],
			notePath: `AI Conversations/${i}.md`,
			deleted: false,
			usage: [{ day, model: "claude-sonnet-4-5", input: 10, output: 10, cacheRead: 0, cacheWrite: 0 }],
			tokens: 20,
		} satisfies SessionRow;
	});
}

async function openOn(rows: SessionRow[], docs: (id: string) => SearchDoc | undefined = () => undefined, usageOnly: UsageOnlyRow[] = []) {
	const app = stubApp(new Vault(), vaultDir);
	const source: SessionsSource = { rows: async () => ({ sessions: rows, usageOnly }), searchDoc: async (id) => docs(id) };
	const leaf = app.workspace.getLeaf();
	const view = new SessionsView(leaf as never, { source: () => source, prices: () => ({}), writeDashboard: async () => "" });
	await (view as unknown as { open(parent: Node): Promise<void> }).open(document.body);
	await view.indexed;
	return view;
}

function choose(view: SessionsView, label: string, value: string): void {
	const el = view.contentEl.querySelector<HTMLSelectElement | HTMLInputElement>(`[aria-label="${label}"]`)!;
	// A menu is filled when it gets the focus, as a person opening it gives it.
	el.dispatchEvent(new Event("focus"));
	el.value = value;
	el.dispatchEvent(new Event("change"));
}

describe("the Sessions view's filters and list", () => {
	it("shows the latest read of the sessions when an older, slower one answers after it", async () => {
		const all = generated(3);
		let synced = 1;
		const delays = [0, 200, 0];
		let reads = 0;
		const source: SessionsSource = {
			rows: async () => {
				const now = synced;
				await new Promise((r) => setTimeout(r, delays[reads++] ?? 0));
				return { sessions: all.slice(0, now), usageOnly: [] };
			},
			searchDoc: async () => undefined,
		};
		const view = new SessionsView(stubApp(new Vault(), vaultDir).workspace.getLeaf() as never, { source: () => source, prices: () => ({}), writeDashboard: async () => "" });
		await (view as unknown as { open(parent: Node): Promise<void> }).open(document.body);
		synced = 2;
		const slow = view.refresh();
		synced = 3;
		await Promise.all([slow, view.refresh()]);
		expect(view.visibleItems).toBe(3);
	});

	it("filters by project, agent, tag and date range, together", async () => {
		const rows = generated(300);
		const view = await openOn(rows);
		const status = () => view.contentEl.querySelector(".acm-sessions-status")!.textContent;
		expect(status()).toBe("300 of 300 sessions");
		choose(view, "Project", "api");
		expect(view.visibleItems).toBe(100);
		choose(view, "Agent", "codex");
		expect(view.visibleItems).toBe(rows.filter((r) => r.project === "api" && r.agent === "codex").length);
		choose(view, "Agent", "");
		choose(view, "Tag", "ai/ui");
		expect(view.visibleItems).toBe(rows.filter((r) => r.project === "api" && r.tags.includes("ai/ui")).length);
		choose(view, "Tag", "");
		choose(view, "From", "2026-01-10");
		choose(view, "To", "2026-01-20");
		const expected = rows.filter((r) => r.project === "api" && r.day! >= "2026-01-10" && r.day! <= "2026-01-20");
		expect(view.visibleItems).toBe(expected.length);
		expect(rowsShown(view)[0]!.querySelector(".acm-session-title")!.textContent).toBe(expected[0]!.title);
		// The menus list what the sessions have, once opened.
		view.contentEl.querySelector('[aria-label="Agent"]')!.dispatchEvent(new Event("focus"));
		const options = Array.from(view.contentEl.querySelectorAll<HTMLOptionElement>('[aria-label="Agent"] option')).map((o) => o.textContent);
		expect(options).toEqual(["All agents", "Claude Code", "Codex"]);
	});

	it("search keeps to the filters", async () => {
		const rows = generated(30);
		const view = await openOn(rows, (id) => ({ id, turns: [{ turn: 1, text: `refresh the token in ${id}` }] }));
		const search = view.contentEl.querySelector<HTMLInputElement>(".acm-sessions-search")!;
		type(search, "token");
		expect(view.visibleItems).toBe(30);
		choose(view, "Project", "web");
		expect(view.visibleItems).toBe(10);
		expect(rowsShown(view).every((r) => r.querySelector(".acm-session-meta")!.textContent.startsWith("web"))).toBe(true);
	});

	it("usage no session holds is in the pictures and nowhere else: not listed, counted, offered in a menu or searched", async () => {
		const rows = generated(30);
		const warmup: UsageOnlyRow = { id: "/t/agent-0000beef.jsonl", project: "billing", agent: "claude-code", day: rows[0]!.day, usage: [{ day: rows[0]!.day!, model: "claude-haiku-4-5", input: 3, output: 1, cacheRead: 0, cacheWrite: 2000 }] };
		const asked: string[] = [];
		const docs = (id: string) => {
			asked.push(id);
			return { id, turns: [{ turn: 1, text: `Warmup in ${id}` }] };
		};
		const charts = (view: SessionsView) => new Map(Array.from(view.contentEl.querySelectorAll<HTMLElement>(".acm-chart-slot")).map((s) => [s.dataset.chart!, s.innerHTML]));
		const plain = await openOn(rows);
		plain.contentEl.querySelector<HTMLElement>('[data-tab="pictures"]')!.click();
		const without = charts(plain);
		document.body.replaceChildren();

		const view = await openOn(rows, docs, [warmup]);
		expect(view.contentEl.querySelector(".acm-sessions-status")!.textContent).toBe("30 of 30 sessions");
		expect(view.visibleItems).toBe(30);
		expect(asked.sort()).toEqual(rows.map((r) => r.id).sort());
		type(view.contentEl.querySelector<HTMLInputElement>(".acm-sessions-search")!, "agent-0000beef");
		expect(view.visibleItems).toBe(0);
		type(view.contentEl.querySelector<HTMLInputElement>(".acm-sessions-search")!, "");
		const menu = view.contentEl.querySelector<HTMLSelectElement>('[aria-label="Project"]')!;
		menu.dispatchEvent(new Event("focus"));
		expect(Array.from(menu.options).map((o) => o.value)).toEqual(["", "api", "cli", "web"]);
		view.contentEl.querySelector<HTMLElement>('[data-tab="pictures"]')!.click();
		const withWarmup = charts(view);
		const changed = [...withWarmup.keys()].filter((id) => withWarmup.get(id) !== without.get(id)).sort();
		// Its tokens, by model (a new one), and its project's cost (haiku is priced); no session, activity, file or tag.
		expect(changed).toEqual(["cost-daily", "cost-projects", "tokens-cache-write", "tokens-input", "tokens-output"]);
		expect(withWarmup.get("cost-projects")).toContain("billing");
		// A tag filter leaves it out, as it leaves out every session without the tag.
		choose(view, "Tag", "ai/ui");
		const tagged = charts(view);
		expect(tagged.get("cost-projects")).not.toContain("billing");
	});

	it("10,000 sessions: only the rows in sight are in the DOM; End reaches the last, Page Down a page", async () => {
		const view = await openOn(generated(10_000));
		expect(view.visibleItems).toBe(10_000);
		expect(rowsShown(view).length).toBeLessThan(40);
		const list = view.contentEl.querySelector<HTMLElement>(".acm-sessions-list")!;
		key(list, "PageDown");
		expect(selectedTitle(view)).toMatch(/^Session 1\d$/);
		key(list, "End");
		expect(selectedTitle(view)).toBe("Session 9999");
		expect(rowsShown(view).length).toBeLessThan(40);
		expect(list.scrollTop).toBeGreaterThan(0);
	});

	it("redraws only the pictures whose bytes changed", async () => {
		const view = await openOn(generated(60));
		view.contentEl.querySelector<HTMLElement>('[data-tab="pictures"]')!.click();
		const before = new Map(Array.from(view.contentEl.querySelectorAll<HTMLElement>(".acm-chart-slot")).map((s) => [s.dataset.chart!, s.firstElementChild]));
		view.update();
		const same = Array.from(view.contentEl.querySelectorAll<HTMLElement>(".acm-chart-slot")).filter((s) => before.get(s.dataset.chart!) === s.firstElementChild);
		expect(same).toHaveLength(14);
		choose(view, "Tag", "ai/ui");
		const after = Array.from(view.contentEl.querySelectorAll<HTMLElement>(".acm-chart-slot"));
		const redrawn = after.filter((s) => before.get(s.dataset.chart!) !== s.firstElementChild).map((s) => s.dataset.chart);
		// Half the sessions: their counts and tokens change; no files on either side, so that chart stays.
		expect(redrawn).toContain("heatmap");
		expect(redrawn).toContain("top-tags");
		expect(redrawn).not.toContain("top-files");
	});
});

describe("the Sessions view on a state it cannot wholly read (attack round 50b)", () => {
	function entry(extra: Record<string, unknown> = {}) {
		return { title: "Fix login", project: "api", agent: "claude-code", started: "2026-01-05T10:00:00.000Z", day: "2026-01-05", activeMinutes: 12, prompts: 3, tags: ["ai/auth"], files: ["src/a.ts"], notePath: "AI Conversations/api/a.md", deleted: false, usage: [{ day: "2026-01-05", model: "claude-sonnet-4-5", input: 10, output: 20, cacheRead: 0, cacheWrite: 0 }], tokens: 30, ...extra };
	}

	async function openOnState(entries: Record<string, unknown>, prices = {}) {
		const stateDir = join(vaultDir, "state");
		mkdirSync(join(stateDir, "catalog"), { recursive: true });
		writeFileSync(join(stateDir, "sync-state.json"), JSON.stringify({ version: 3, sessionFiles: ["p-1.json"] }));
		writeFileSync(join(stateDir, "catalog", "p-1.json"), JSON.stringify(entries));
		const errors: string[] = [];
		const onError = (e: Event) => errors.push((e as ErrorEvent).message);
		window.addEventListener("error", onError);
		const view = new SessionsView(stubApp(new Vault(), vaultDir).workspace.getLeaf() as never, { source: () => new SessionCatalog(stateDir), prices: () => prices, writeDashboard: async () => "" });
		await (view as unknown as { open(parent: Node): Promise<void> }).open(document.body);
		await view.indexed;
		view.contentEl.querySelector<HTMLElement>('[data-tab="pictures"]')!.click();
		window.removeEventListener("error", onError);
		return { view, errors };
	}

	it("an entry of another shape is left out and counted; the others are listed and every picture drawn", async () => {
		// A `usage` of 5 (a hand edit, another release) made the pictures throw "row.usage is not iterable", and a day "2026-1-5" "Invalid time value".
		const { view, errors } = await openOnState({ "/t/a.jsonl": entry(), "/t/b.jsonl": entry({ title: "Odd", usage: 5 }), "/t/c.jsonl": entry({ title: "Odd day", day: "2026-1-5" }), "/t/d.jsonl": entry({ title: "Newer agent", agent: "constructor" }) });
		expect(errors).toEqual([]);
		expect(view.contentEl.querySelector(".acm-sessions-status")!.textContent).toBe("2 of 2 sessions · 2 left out: the plugin's state holds them in a shape this version does not read");
		expect(view.contentEl.querySelectorAll(".acm-sessions-pictures svg")).toHaveLength(14);
		// An agent id this release does not know is shown as it is, never as a property of every object (`Object`'s source text).
		const meta = Array.from(view.contentEl.querySelectorAll(".acm-session-meta")).map((m) => m.textContent);
		expect(meta.some((m) => m.startsWith("api · constructor"))).toBe(true);
		view.contentEl.querySelector<HTMLSelectElement>('[aria-label="Agent"]')!.dispatchEvent(new Event("focus"));
		expect(Array.from(view.contentEl.querySelectorAll('[aria-label="Agent"] option')).map((o) => o.textContent)).toEqual(["All agents", "Claude Code", "constructor"]);
	});

	it("the pictures in the view hold the numbers the SVG files hold: never NaN, Infinity or an exponent", async () => {
		const { view } = await openOnState({ "/t/a.jsonl": entry({ usage: [{ day: "2026-01-05", model: "claude-sonnet-4-5", input: Number.MAX_SAFE_INTEGER, output: 1, cacheRead: 0, cacheWrite: 0 }] }) }, { "claude-sonnet-4-5": { input: 1e308, output: 1, cacheRead: 0, cacheWrite: 0 } });
		const svgs = Array.from(view.contentEl.querySelectorAll(".acm-sessions-pictures svg"));
		expect(svgs).toHaveLength(14);
		for (const el of svgs.flatMap((s) => [s, ...Array.from(s.querySelectorAll("*"))])) {
			for (const a of Array.from(el.attributes)) expect(`${a.name}=${a.value}`).not.toMatch(/NaN|Infinity|\de[+-]\d/);
			if (el.children.length === 0) expect(el.textContent).not.toMatch(/NaN|Infinity|\de[+-]\d/);
		}
	});
});
