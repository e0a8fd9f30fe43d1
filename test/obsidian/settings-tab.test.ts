import { join } from "node:path";
// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_PROJECT, migrateSettings, type ProjectSettings, type Settings } from "../../src/core/settings";
import type { DiscoveredProject } from "../../src/core/projects/project-discovery";
import { SettingsTab, type SettingsTabHost, TEXT_SAVE_DELAY_MS } from "../../src/obsidian/settings-tab";
import { Notice, Plugin, type PluginSettingTab } from "../stubs/obsidian";
import { stubApp } from "../stubs/app";

class TestPlugin extends Plugin {}

const project = (path: string, extra: Partial<ProjectSettings> = {}): ProjectSettings => ({ path, ...DEFAULT_PROJECT, ...extra });

const DISCOVERED: DiscoveredProject[] = [
	{ path: "/home/me/shop-api", name: "shop-api", sessions: 4, lastActivity: "2026-11-29T09:30:00Z" },
	{ path: "/home/me/web", name: "web", sessions: 1, lastActivity: "2026-11-25T08:00:00Z" },
];

interface Harness {
	tab: SettingsTab;
	el: HTMLElement;
	saved: Settings[];
	/** The settings as last saved (what the plugin would now hold). */
	current: () => Settings;
	checked: string[];
}

/** The tab on a stub app, its host keeping what is saved; rendered and discovery answered. */
async function open(initial: Partial<Settings> = {}, host: Partial<SettingsTabHost> = {}, problems: Record<string, string> = {}): Promise<Harness> {
	const app = stubApp();
	const plugin = new TestPlugin(app, { id: "ai-conversation-memory", name: "AI Conversation Memory", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
	let settings: Settings = { ...migrateSettings({}, "laptop").settings, ...initial };
	const saved: Settings[] = [];
	const checked: string[] = [];
	const tab = new SettingsTab(app as never, plugin as never, {
		get: () => settings,
		save: async (s) => {
			saved.push(s);
			settings = s;
		},
		discover: async () => DISCOVERED,
		checkClaudeDir: async (path) => {
			checked.push(path);
			return problems[path];
		},
		// Paths of no real folder are added here; the real check has a test of its own.
		checkProject: async (path) => ({ path }),
		...host,
	});
	showTab(tab);
	document.body.appendChild(tab.containerEl);
	await settle();
	return { tab, el: tab.containerEl, saved, current: () => settings, checked };
}

/**
 * What Obsidian does when the user opens the tab. display() is deprecated in the 1.13 typings in
 * favour of declarative definitions, but with minAppVersion 1.8.7 it is how the tab is shown; the
 * test holds the tab as the stub's PluginSettingTab, as the stub app would.
 */
function showTab(tab: SettingsTab): void {
	(tab as unknown as PluginSettingTab).display();
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** The setting row with this name (the first, or the one inside `within`). */
function row(within: HTMLElement, name: string): HTMLElement {
	const found = Array.from(within.querySelectorAll<HTMLElement>(".setting-item")).find((s) => s.querySelector(".setting-item-name")?.textContent === name);
	if (!found) throw new Error(`no setting named ${name}`);
	return found;
}
const input = (el: HTMLElement, name: string) => row(el, name).querySelector<HTMLInputElement>(".setting-item-control input")!;
const area = (el: HTMLElement, name: string) => row(el, name).querySelector<HTMLTextAreaElement>("textarea")!;
const select = (el: HTMLElement, name: string) => row(el, name).querySelector<HTMLSelectElement>("select")!;
const toggle = (el: HTMLElement, name: string) => row(el, name).querySelector<HTMLElement>(".checkbox-container")!;
const button = (el: HTMLElement, name: string, text: string) => Array.from(row(el, name).querySelectorAll("button")).find((b) => b.textContent === text)!;
const error = (el: HTMLElement, name: string) => row(el, name).querySelector(".ai-memory-setting-error")?.textContent ?? "";
const isOn = (t: HTMLElement) => t.classList.contains("is-enabled");

function type(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
	el.value = value;
	el.dispatchEvent(new Event("input"));
}
function choose(el: HTMLSelectElement, value: string): void {
	el.value = value;
	el.dispatchEvent(new Event("change"));
}
function projectBox(el: HTMLElement, path: string): HTMLElement {
	const box = Array.from(el.querySelectorAll<HTMLElement>(".ai-memory-project")).find((b) => b.dataset.path === path);
	if (!box) throw new Error(`no project ${path}`);
	return box;
}
const projectRows = (el: HTMLElement) => Array.from(el.querySelectorAll<HTMLElement>(".ai-memory-project")).map((b) => b.dataset.path);

afterEach(() => {
	document.body.replaceChildren();
	vi.useRealTimers();
});

describe("the settings tab", () => {
	it("shows the settings as they are", async () => {
		const { el } = await open({
			claudeDir: "/Users/me/.claude",
			notesFolder: "Sessions",
			memoryFolder: "Facts",
			detail: "conversation",
			tagPrefix: "cc/",
			keywordRules: [{ keyword: "invoice", tag: "billing" }, { keyword: "결제", tag: "billing" }],
			redaction: { enabled: false, extraPatterns: ["ACME-[0-9]{6}", "tok_[a-z]+"] },
			watch: false,
			debounceMs: 5000,
		});
		expect(Array.from(el.querySelectorAll(".setting-item-heading .setting-item-name"), (h) => h.textContent)).toEqual(["Transcripts", "Notes", "Tags", "Privacy", "Cost estimates", "Projects"]);
		expect(input(el, "Transcripts folder").value).toBe("/Users/me/.claude");
		expect(input(el, "Notes folder").value).toBe("Sessions");
		expect(input(el, "Memory folder").value).toBe("Facts");
		expect(Array.from(select(el, "Detail").options, (o) => [o.value, o.textContent])).toEqual([
			["digest", "Digest"],
			["conversation", "Conversation"],
			["full", "Conversation with tool output"],
		]);
		expect(select(el, "Detail").value).toBe("conversation");
		expect(input(el, "Tag prefix").value).toBe("cc/");
		expect(area(el, "Keyword rules").value).toBe("invoice: billing\n결제: billing");
		expect(isOn(toggle(el, "Redact secrets"))).toBe(false);
		expect(area(el, "Extra patterns").value).toBe("ACME-[0-9]{6}\ntok_[a-z]+");
		expect(isOn(toggle(el, "Sync when transcripts change"))).toBe(false);
		expect(input(el, "Wait after a change (ms)").value).toBe("5000");
		expect(input(el, "Wait after a change (ms)").type).toBe("number");
		// No error shown where nothing is wrong.
		expect(el.querySelectorAll(".ai-memory-setting-error:not(:empty)")).toHaveLength(0);
	});

	it("saves changes typed, picked and toggled, text once typing pauses or the tab closes", async () => {
		const { el, tab, saved, current } = await open();
		type(input(el, "Notes folder"), "  Claude/Sessions/ ");
		type(input(el, "Memory folder"), "Claude/Facts");
		type(input(el, "Tag prefix"), "#Work");
		type(input(el, "Wait after a change (ms)"), "5000");
		expect(saved).toHaveLength(0);
		tab.hide();
		await tab.flush();
		expect(saved).toHaveLength(1);
		expect(current()).toMatchObject({ notesFolder: "Claude/Sessions", memoryFolder: "Claude/Facts", tagPrefix: "work/", debounceMs: 5000 });

		// Leaving a field shows the value as saved.
		input(el, "Tag prefix").dispatchEvent(new Event("blur"));
		expect(input(el, "Tag prefix").value).toBe("work/");
		input(el, "Notes folder").dispatchEvent(new Event("blur"));
		expect(input(el, "Notes folder").value).toBe("Claude/Sessions");

		choose(select(el, "Detail"), "digest");
		await tab.flush();
		expect(current().detail).toBe("digest");
		toggle(el, "Sync when transcripts change").click();
		await tab.flush();
		expect(current().watch).toBe(false);
		toggle(el, "Redact secrets").click();
		await tab.flush();
		expect(current().redaction.enabled).toBe(false);
		expect(saved).toHaveLength(4);
		// Each save is a copy the tab no longer changes.
		expect(saved[1]!.watch).toBe(true);
		expect(saved[1]).not.toBe(saved[2]);
	});

	it("saves text on its own once typing pauses", async () => {
		const { el, tab, saved, current } = await open();
		vi.useFakeTimers();
		type(input(el, "Wait after a change (ms)"), "5");
		vi.advanceTimersByTime(TEXT_SAVE_DELAY_MS - 1);
		type(input(el, "Wait after a change (ms)"), "5000");
		vi.advanceTimersByTime(TEXT_SAVE_DELAY_MS - 1);
		expect(saved).toHaveLength(0);
		vi.advanceTimersByTime(1);
		vi.useRealTimers();
		await settle();
		expect(saved).toHaveLength(1);
		expect(current().debounceMs).toBe(5000);
		await tab.flush();
		expect(saved).toHaveLength(1);
	});

	it("saves a folder or the tag prefix when the field is left or Enter pressed, not at each pause: every note would move", async () => {
		const { el, saved, current } = await open();
		vi.useFakeTimers();
		for (const typed of ["C", "Ch", "Cha", "Chats"]) {
			type(input(el, "Notes folder"), typed);
			vi.advanceTimersByTime(5 * TEXT_SAVE_DELAY_MS);
		}
		type(input(el, "Tag prefix"), "w");
		vi.advanceTimersByTime(5 * TEXT_SAVE_DELAY_MS);
		vi.useRealTimers();
		await settle();
		expect(saved).toHaveLength(0);
		input(el, "Notes folder").dispatchEvent(new Event("blur"));
		await settle();
		expect(saved).toHaveLength(1);
		expect(current()).toMatchObject({ notesFolder: "Chats", tagPrefix: "w/" });
		type(input(el, "Memory folder"), "Facts");
		input(el, "Memory folder").dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
		await settle();
		expect(saved).toHaveLength(2);
		expect(current().memoryFolder).toBe("Facts");
	});

	it("saves a redaction pattern or an excluded project when the field is left, not half typed: \"A\" would redact every A for good, \"/\" exclude every project", async () => {
		const { el, saved, current } = await open();
		vi.useFakeTimers();
		for (const typed of ["A", "AC", "ACME-[0-9]{6}"]) {
			type(area(el, "Extra patterns"), typed);
			vi.advanceTimersByTime(5 * TEXT_SAVE_DELAY_MS);
		}
		for (const typed of ["/", "/home", "/home/me/old"]) {
			type(area(el, "Excluded projects"), typed);
			vi.advanceTimersByTime(5 * TEXT_SAVE_DELAY_MS);
		}
		vi.useRealTimers();
		await settle();
		expect(saved).toHaveLength(0);
		area(el, "Excluded projects").dispatchEvent(new Event("blur"));
		await settle();
		expect(saved).toHaveLength(1);
		expect(current().redaction.extraPatterns).toEqual(["ACME-[0-9]{6}"]);
		expect(current().excludedProjects).toEqual(["/home/me/old"]);
	});

	it("model prices: a line a model, saved over the bundled table; a bad line saves nothing and says which", async () => {
		const { el, tab, current } = await open();
		const prices = area(el, "Model prices");
		type(prices, "claude-opus-4-8: 5 25 0.5 6.25\nmy-model: 1 2");
		await tab.flush();
		expect(current().prices).toEqual({ "claude-opus-4-8": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, "my-model": { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } });
		type(area(el, "Model prices"), "claude-opus-4-8: five");
		await tab.flush();
		expect(current().prices["my-model"]).toBeDefined();
		expect(error(el, "Model prices")).toMatch(/^Line 1: write it as "model: input output cache-read cache-write"/);
	});

	it("keyword rules: parsed, saved and shown back normalized; a bad line saves nothing", async () => {
		const { el, tab, saved, current } = await open();
		const rules = area(el, "Keyword rules");
		type(rules, "  Payment   gateway :  #Billing \n\nstripe: Payments/Stripe\n결제：billing");
		await tab.flush();
		expect(current().keywordRules).toEqual([
			{ keyword: "Payment gateway", tag: "billing" },
			{ keyword: "stripe", tag: "payments/stripe" },
			{ keyword: "결제", tag: "billing" },
		]);
		rules.dispatchEvent(new Event("blur"));
		expect(rules.value).toBe("Payment gateway: billing\nstripe: payments/stripe\n결제: billing");

		type(rules, "stripe: payments\njust a keyword\nyear: 2024");
		await tab.flush();
		expect(error(el, "Keyword rules")).toBe('Line 2: write it as "keyword: tag".\nLine 3: "2024" cannot be a tag (it needs a letter).');
		expect(saved).toHaveLength(1);
		// The text stays as typed, to be fixed.
		rules.dispatchEvent(new Event("blur"));
		expect(rules.value).toBe("stripe: payments\njust a keyword\nyear: 2024");
		type(rules, "stripe: payments");
		await tab.flush();
		expect(error(el, "Keyword rules")).toBe("");
		expect(current().keywordRules).toEqual([{ keyword: "stripe", tag: "payments" }]);
	});

	it("an invalid regular expression shows why and saves nothing", async () => {
		const { el, tab, saved, current } = await open({ redaction: { enabled: true, extraPatterns: ["ACME-[0-9]{6}"] } });
		const patterns = area(el, "Extra patterns");
		type(patterns, "ACME-[0-9]{6}\n[unclosed\ntok_(");
		await tab.flush();
		expect(error(el, "Extra patterns")).toMatch(/^Line 2: .+\nLine 3: .+$/);
		expect(saved).toHaveLength(0);
		expect(current().redaction.extraPatterns).toEqual(["ACME-[0-9]{6}"]);

		type(patterns, "ACME-[0-9]{6}\n\ntok_[a-z]{24}\n");
		await tab.flush();
		expect(error(el, "Extra patterns")).toBe("");
		expect(current().redaction.extraPatterns).toEqual(["ACME-[0-9]{6}", "tok_[a-z]{24}"]);
	});

	it("a transcripts folder that is not one shows what is wrong and saves nothing", async () => {
		const problems = {
			"/nowhere": "/nowhere does not exist.",
			"/Users/me/Documents": "/Users/me/Documents has no projects folder: is it Claude Code's folder?",
			"": "No transcripts at ~/.claude/projects yet.",
		};
		const { el, tab, saved, current, checked } = await open({ claudeDir: "/Users/me/.claude" }, {}, problems);
		expect(checked).toEqual(["/Users/me/.claude"]);
		const folder = input(el, "Transcripts folder");
		type(folder, "/nowhere");
		await tab.flush();
		expect(error(el, "Transcripts folder")).toBe("/nowhere does not exist.");
		type(folder, "/Users/me/Documents");
		await tab.flush();
		expect(error(el, "Transcripts folder")).toBe("/Users/me/Documents has no projects folder: is it Claude Code's folder?");
		expect(saved).toHaveLength(0);

		type(folder, " /Volumes/work/.claude ");
		await tab.flush();
		expect(error(el, "Transcripts folder")).toBe("");
		expect(current().claudeDir).toBe("/Volumes/work/.claude");

		// Empty is the default folder: saved, with a word about the default when it has no transcripts.
		type(folder, "");
		await tab.flush();
		expect(current().claudeDir).toBeUndefined();
		expect("claudeDir" in current()).toBe(false);
		expect(error(el, "Transcripts folder")).toBe("No transcripts at ~/.claude/projects yet.");
		expect(saved).toHaveLength(2);
	});

	it("a transcripts or agent folder that is not a whole path shows what is wrong and saves nothing", async () => {
		// Saved, it stopped every sync: data.json's check refuses it (read from wherever the sync ran, it named another folder each time).
		const { el, tab, saved, current } = await open();
		const whole = "Write the folder's whole path (/Users/you/…, C:\\Users\\you\\…), or start it with ~/ for your home folder.";
		type(input(el, "Transcripts folder"), "$HOME/.claude");
		type(input(el, "Codex folder"), "codex-home");
		await tab.flush();
		expect(error(el, "Transcripts folder")).toBe(whole);
		expect(error(el, "Codex folder")).toBe(whole);
		expect(saved).toHaveLength(0);
		type(input(el, "Codex folder"), "~/.codex-work");
		await tab.flush();
		expect(error(el, "Codex folder")).toBe("");
		expect(current().agentDirs).toEqual({ codex: "~/.codex-work" });
	});

	it("saves a transcripts or agent folder when the field is left: a half-typed one is another folder, read meanwhile", async () => {
		const { el, saved, current } = await open({ claudeDir: "/Users/me/.claude-work" });
		vi.useFakeTimers();
		for (const typed of ["/Users/me/.claude", "/Users/me/.claude-w", "/Volumes/work/.claude"]) {
			type(input(el, "Transcripts folder"), typed);
			await vi.advanceTimersByTimeAsync(5 * TEXT_SAVE_DELAY_MS);
		}
		for (const typed of ["~/.codex", "~/.codex-work"]) {
			type(input(el, "Codex folder"), typed);
			await vi.advanceTimersByTimeAsync(5 * TEXT_SAVE_DELAY_MS);
		}
		vi.useRealTimers();
		await settle();
		expect(saved).toHaveLength(0);
		input(el, "Codex folder").dispatchEvent(new Event("blur"));
		await vi.waitFor(() => expect(saved).toHaveLength(1));
		expect(current()).toMatchObject({ claudeDir: "/Volumes/work/.claude", agentDirs: { codex: "~/.codex-work" } });
	});

	it("shows the current transcripts folder's problem on opening", async () => {
		const { el } = await open({ claudeDir: "/gone" }, {}, { "/gone": "/gone does not exist." });
		expect(error(el, "Transcripts folder")).toBe("/gone does not exist.");
	});

	it("a debounce that is not a whole number within bounds is not saved", async () => {
		const { el, tab, saved, current } = await open();
		const field = input(el, "Wait after a change (ms)");
		for (const bad of ["", "abc", "100", "60001", "1500.5"]) {
			type(field, bad);
			await tab.flush();
			expect(error(el, "Wait after a change (ms)")).toBe("Enter a whole number from 250 to 60000.");
		}
		expect(saved).toHaveLength(0);
		type(field, "250");
		await tab.flush();
		expect(error(el, "Wait after a change (ms)")).toBe("");
		expect(current().debounceMs).toBe(250);
	});

	it("the notes and memory folders must differ", async () => {
		const { el, tab, saved } = await open();
		type(input(el, "Memory folder"), "ai conversations/");
		await tab.flush();
		expect(error(el, "Memory folder")).toBe("The notes folder and the memory folder must differ.");
		expect(saved).toHaveLength(0);
	});

	it("a folder out of the vault or hidden from Obsidian is refused, with why", async () => {
		const { el, tab, saved } = await open();
		type(input(el, "Notes folder"), "../elsewhere");
		await tab.flush();
		expect(error(el, "Memory folder")).toBe('The notes folder "../elsewhere" leads out of the vault: set one inside it.');
		type(input(el, "Notes folder"), ".obsidian/notes");
		await tab.flush();
		expect(error(el, "Memory folder")).toBe('The notes folder ".obsidian/notes" is hidden (a folder whose name starts with a dot): Obsidian would show none of its notes; set another.');
		// Obsidian's normalizePath made it "tmp/x", taken without a word.
		type(input(el, "Notes folder"), "/tmp/x");
		await tab.flush();
		expect(error(el, "Memory folder")).toBe('The notes folder "/tmp/x" is an absolute path, but it can only be a folder of the vault (it would be "tmp/x" in it): set one inside it.');
		expect(saved).toHaveLength(0);
		type(input(el, "Notes folder"), "/");
		await tab.flush();
		expect(error(el, "Memory folder")).toBe("");
	});

	it("a folder typed or pasted carelessly is refused, with why: a link character, `~`, quotes", async () => {
		const { el, tab, saved } = await open();
		type(input(el, "Notes folder"), "Work #ai");
		await tab.flush();
		expect(error(el, "Memory folder")).toBe('The notes folder "Work #ai" holds "#", which Obsidian\'s links cannot hold (no link to its notes would work): set another.');
		type(input(el, "Notes folder"), "~/notes");
		await tab.flush();
		expect(error(el, "Memory folder")).toMatch(/^The notes folder "~\/notes" starts with "~"/);
		type(input(el, "Memory folder"), ' "AI Memory" ');
		await tab.flush();
		expect(error(el, "Memory folder")).toMatch(/is in quotes/);
		expect(saved).toHaveLength(0);
	});

	it("excluded projects: one per line", async () => {
		const { el, tab, current } = await open();
		type(area(el, "Excluded projects"), " /home/me/secret/** \n\n/tmp/x\n/tmp/x");
		await tab.flush();
		expect(current().excludedProjects).toEqual(["/home/me/secret/**", "/tmp/x"]);
	});

	it("lists discovered projects, latest first, and configured ones not seen in the transcripts", async () => {
		const { el } = await open({ projects: [project("/home/me/web", { enabled: false }), project("/srv/legacy")] });
		expect(projectRows(el)).toEqual(["/home/me/shop-api", "/home/me/web", "/srv/legacy"]);
		const shop = projectBox(el, "/home/me/shop-api");
		expect(shop.querySelector(".setting-item-name")?.textContent).toBe("shop-api");
		expect(shop.querySelector(".setting-item-description")?.textContent).toBe("/home/me/shop-api · 4 sessions, last 2026-11-29 09:30");
		expect(projectBox(el, "/home/me/web").querySelector(".setting-item-description")?.textContent).toBe("/home/me/web · 1 session, last 2026-11-25 08:00");
		expect(projectBox(el, "/srv/legacy").querySelector(".setting-item-description")?.textContent).toBe("/srv/legacy · not seen in the transcripts");
		// On or off as configured; options only for projects turned on; Remove only for configured ones.
		expect(isOn(toggle(projectBox(el, "/home/me/shop-api"), "shop-api"))).toBe(false);
		expect(isOn(toggle(projectBox(el, "/home/me/web"), "web"))).toBe(false);
		expect(isOn(toggle(projectBox(el, "/srv/legacy"), "legacy"))).toBe(true);
		expect(projectBox(el, "/home/me/shop-api").querySelector("button")).toBeNull();
		expect(button(projectBox(el, "/home/me/web"), "web", "Remove")).toBeDefined();
		expect(projectBox(el, "/home/me/web").querySelector(".ai-memory-project-options")).toBeNull();
		const legacy = projectBox(el, "/srv/legacy");
		expect(select(legacy, "Write to").value).toBe("CLAUDE.md");
		expect(select(legacy, "Mode").value).toBe("eager");
		expect(input(legacy, "Sessions in the summary").value).toBe("5");
		expect(input(legacy, "Token budget").value).toBe("1000");
		expect(isOn(toggle(legacy, "Share facts with Claude"))).toBe(true);
	});

	it("turns a discovered project on, sets its options, and off again", async () => {
		const { el, tab, current } = await open();
		toggle(projectBox(el, "/home/me/shop-api"), "shop-api").click();
		await tab.flush();
		expect(current().projects).toEqual([project("/home/me/shop-api")]);

		const box = projectBox(el, "/home/me/shop-api");
		choose(select(box, "Write to"), "CLAUDE.local.md");
		choose(select(box, "Mode"), "lazy");
		toggle(box, "Share facts with Claude").click();
		type(input(box, "Sessions in the summary"), "8");
		await tab.flush();
		expect(current().projects).toEqual([project("/home/me/shop-api", { target: "CLAUDE.local.md", mode: "lazy", memorySharing: false, sessions: 8 })]);
		type(input(projectBox(el, "/home/me/shop-api"), "Sessions in the summary"), "51");
		await tab.flush();
		expect(error(projectBox(el, "/home/me/shop-api"), "Sessions in the summary")).toBe("Enter a whole number from 1 to 50.");
		expect(current().projects[0]!.sessions).toBe(8);
		// The token budget of the eager block, within what data.json accepts.
		type(input(projectBox(el, "/home/me/shop-api"), "Token budget"), "99");
		await tab.flush();
		expect(error(projectBox(el, "/home/me/shop-api"), "Token budget")).toBe("Enter a whole number from 100 to 4000.");
		expect(current().projects[0]!.budget).toBe(1000);
		type(input(projectBox(el, "/home/me/shop-api"), "Token budget"), "2500");
		await tab.flush();
		expect(error(projectBox(el, "/home/me/shop-api"), "Token budget")).toBe("");
		expect(current().projects[0]!.budget).toBe(2500);
		type(input(projectBox(el, "/home/me/shop-api"), "Token budget"), "1000");
		await tab.flush();

		// Off keeps its options for next time.
		toggle(projectBox(el, "/home/me/shop-api"), "shop-api").click();
		await tab.flush();
		expect(current().projects).toEqual([project("/home/me/shop-api", { enabled: false, target: "CLAUDE.local.md", mode: "lazy", memorySharing: false, sessions: 8 })]);
		expect(projectBox(el, "/home/me/shop-api").querySelector(".ai-memory-project-options")).toBeNull();
	});

	it("adds a project by path and removes one", async () => {
		const { el, tab, saved, current } = await open({ projects: [project("/home/me/web", { enabled: false })] });
		const path = input(el, "Add project");
		type(path, "code/app");
		button(el, "Add project", "Add").click();
		await tab.flush();
		expect(error(el, "Add project")).toBe("Enter an absolute path, for example /home/me/code/my-app.");
		expect(saved).toHaveLength(0);

		type(path, " /srv/new-app/ ");
		button(el, "Add project", "Add").click();
		await tab.flush();
		expect(error(el, "Add project")).toBe("");
		expect(path.value).toBe("");
		expect(current().projects.map((p) => [p.path, p.enabled])).toEqual([["/home/me/web", false], ["/srv/new-app", true]]);
		expect(projectRows(el)).toEqual(["/home/me/shop-api", "/home/me/web", "/srv/new-app"]);

		// Adding one already there turns it on.
		type(path, "/home/me/web");
		button(el, "Add project", "Add").click();
		await tab.flush();
		expect(current().projects.map((p) => [p.path, p.enabled])).toEqual([["/home/me/web", true], ["/srv/new-app", true]]);

		// Remove: a discovered project stays listed (off); another is gone from the list.
		button(projectBox(el, "/home/me/web"), "web", "Remove").click();
		button(projectBox(el, "/srv/new-app"), "new-app", "Remove").click();
		await tab.flush();
		expect(current().projects).toEqual([]);
		expect(projectRows(el)).toEqual(["/home/me/shop-api", "/home/me/web"]);
		expect(isOn(toggle(projectBox(el, "/home/me/web"), "web"))).toBe(false);

		type(path, "C:\\Users\\me\\app\\");
		button(el, "Add project", "Add").click();
		await tab.flush();
		expect(current().projects.map((p) => p.path)).toEqual(["C:\\Users\\me\\app"]);
	});

	it("checks a project to add as `ai-memory projects add` does: a folder that is there, one project per repository, the path normalized", async () => {
		const { checkProjectToAdd } = await import("../../src/node/project-to-add");
		const { mkdtempSync, mkdirSync } = await import("node:fs");
		const { tmpdir } = await import("node:os");
		const root = mkdtempSync(join(tmpdir(), "tab-add-"));
		const repo = join(root, "repo");
		mkdirSync(join(repo, ".git"), { recursive: true });
		mkdirSync(join(repo, "src"));
		const { el, tab, current } = await open({ projects: [] }, { checkProject: checkProjectToAdd });
		const path = input(el, "Add project");
		const add = async (typed: string) => {
			type(path, typed);
			button(el, "Add project", "Add").click();
			await new Promise((resolve) => setTimeout(resolve, 20));
			await tab.flush();
		};
		await add(`${repo}/.`);
		expect(current().projects.map((p) => p.path)).toEqual([repo]);
		await add(join(repo, "src"));
		expect(error(el, "Add project")).toBe(`Not added: ${join(repo, "src")} is in the same repository as ${repo}, which is a project already: its sessions go there.`);
		await add(join(root, "missing"));
		expect(error(el, "Add project")).toBe(`Not added: no folder at ${join(root, "missing")}.`);
		await add(`${repo}//`);
		expect(current().projects.map((p) => p.path)).toEqual([repo]);
	});

	it("says when there are no projects yet, and when listing them failed", async () => {
		const empty = await open({}, { discover: async () => [] });
		expect(empty.el.querySelector(".ai-memory-projects")?.textContent).toBe("No projects yet: they appear here after the first sync, or add one below.");
		const failed = await open({ projects: [project("/srv/a")] }, { discover: () => Promise.reject(new Error("state unreadable")) });
		expect(failed.el.querySelector(".ai-memory-projects .ai-memory-setting-error")?.textContent).toBe("Could not list the projects in the transcripts: state unreadable");
		expect(projectRows(failed.el)).toEqual(["/srv/a"]);
	});

	it("a failed save is reported, and the next change is saved", async () => {
		let fail = true;
		const saved: Settings[] = [];
		const { el, tab } = await open({}, {
			save: async (s) => {
				if (fail) throw new Error("disk full");
				saved.push(s);
			},
		});
		toggle(el, "Sync when transcripts change").click();
		await tab.flush();
		expect(Notice.shown.at(-1)).toBe("Could not save the settings: disk full");
		fail = false;
		choose(select(el, "Detail"), "digest");
		await tab.flush();
		expect(saved.at(-1)).toMatchObject({ watch: false, detail: "digest" });
	});

	it("opening again shows the saved settings and keeps nothing of the last page", async () => {
		const { el, tab, current } = await open();
		type(input(el, "Notes folder"), "Sessions");
		tab.hide();
		await tab.flush();
		showTab(tab);
		await settle();
		expect(current().notesFolder).toBe("Sessions");
		expect(input(tab.containerEl, "Notes folder").value).toBe("Sessions");
		expect(tab.containerEl.querySelectorAll(".setting-item-heading")).toHaveLength(6);
	});
});
