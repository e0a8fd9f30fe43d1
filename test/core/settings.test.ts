import { describe, expect, it } from "vitest";
import {
	DEFAULT_PROJECT,
	DEFAULT_SETTINGS,
	deviceIdOf,
	formatKeywordRules,
	isExcluded,
	migrateSettings,
	parseKeywordRules,
	parseLines,
	parsePatterns,
	SETTINGS_VERSION,
	type Settings,
	storeSettings,
} from "../../src/core/settings";
import { contextFilesOf, foldersProblem, newerSettingsProblem } from "../../src/core/settings";

const project = (path: string, extra: object = {}) => ({ path, ...DEFAULT_PROJECT, ...extra });

/** data.json as the plugin's first version wrote it. */
const V1 = {
	version: 1,
	notesFolder: "Claude/Sessions",
	memoryFolder: "Claude/Memory",
	detail: "conversation",
	tagPrefix: "cc/",
	keywordRules: [{ keyword: "invoice", tag: "billing" }],
	redaction: { enabled: false, extraPatterns: ["ACME-[0-9]{6}"] },
	excludedProjects: ["/home/me/secret/**"],
	projects: [{ path: "/home/me/shop-api", enabled: true, target: "CLAUDE.local.md", mode: "lazy", sessions: 8, budget: 1500, memorySharing: false, redaction: true }],
};

describe("settings version 2", () => {
	it("defaults: everything readable from nothing", () => {
		for (const raw of [undefined, null, 42, "text", [], {}]) {
			const { settings, migrated } = migrateSettings(raw, "laptop");
			expect(settings).toEqual({ ...DEFAULT_SETTINGS, redaction: { enabled: true, extraPatterns: [] } });
			expect(settings.version).toBe(2);
			expect(settings.watch).toBe(true);
			expect(settings.debounceMs).toBe(2000);
			expect(settings.claudeDir).toBeUndefined();
			expect(migrated).toBe(true);
		}
	});

	it("migrates version 1: shared values kept, its projects become this device's", () => {
		const { settings, migrated } = migrateSettings(V1, "laptop");
		expect(migrated).toBe(true);
		expect(settings).toEqual({
			version: SETTINGS_VERSION,
			notesFolder: "Claude/Sessions",
			memoryFolder: "Claude/Memory",
			detail: "conversation",
			tagPrefix: "cc/",
			keywordRules: [{ keyword: "invoice", tag: "billing" }],
			redaction: { enabled: false, extraPatterns: ["ACME-[0-9]{6}"] },
			excludedProjects: ["/home/me/secret/**"],
			watch: true,
			debounceMs: 2000,
			agents: ["claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "aider"],
			prices: {},
			projects: [V1.projects[0]],
		});

		const stored = storeSettings(settings, V1, "laptop");
		expect(stored).toEqual({
			version: 2,
			notesFolder: "Claude/Sessions",
			memoryFolder: "Claude/Memory",
			detail: "conversation",
			tagPrefix: "cc/",
			keywordRules: [{ keyword: "invoice", tag: "billing" }],
			redaction: { enabled: false, extraPatterns: ["ACME-[0-9]{6}"] },
			excludedProjects: ["/home/me/secret/**"],
			watch: true,
			debounceMs: 2000,
			agents: ["claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "aider"],
			devices: { laptop: { projects: [V1.projects[0]] } },
		});
		// Once stored, another machine reading the file gets the shared values and none of the paths.
		const elsewhere = migrateSettings(stored, "desktop");
		expect(elsewhere.migrated).toBe(false);
		expect(elsewhere.settings.projects).toEqual([]);
		expect(elsewhere.settings.notesFolder).toBe("Claude/Sessions");
		expect(migrateSettings(stored, "laptop")).toEqual({ settings, migrated: false });
	});

	it("a file without a version is version 1", () => {
		const { settings } = migrateSettings({ projects: [{ path: "/p" }] }, "laptop");
		expect(settings.projects).toEqual([project("/p")]);
	});

	it("round trip: what is stored reads back the same, and storing again changes nothing", () => {
		const settings: Settings = {
			...migrateSettings({}, "laptop").settings,
			notesFolder: "Sessions",
			detail: "digest",
			keywordRules: [{ keyword: "결제", tag: "billing" }],
			watch: false,
			debounceMs: 5000,
			claudeDir: "/Users/me/.claude-work",
			projects: [project("/Users/me/api", { mode: "lazy" }), project("/Users/me/web", { enabled: false })],
		};
		const stored = storeSettings(settings, undefined, "laptop");
		const json = JSON.parse(JSON.stringify(stored)) as unknown;
		expect(migrateSettings(json, "laptop")).toEqual({ settings, migrated: false });
		expect(storeSettings(migrateSettings(json, "laptop").settings, json, "laptop")).toEqual(stored);
		expect(JSON.stringify(storeSettings(settings, json, "laptop"))).toBe(JSON.stringify(stored));
	});

	it("two devices in one file do not touch each other's paths", () => {
		let file: unknown = undefined;
		const laptop = { ...migrateSettings(file, "laptop").settings, claudeDir: "/Users/me/.claude", projects: [project("/Users/me/api")] };
		file = JSON.parse(JSON.stringify(storeSettings(laptop, file, "laptop")));
		const desktop = { ...migrateSettings(file, "desktop").settings, projects: [project("/home/me/api", { target: "CLAUDE.local.md" })] };
		expect(desktop.claudeDir).toBeUndefined();
		file = JSON.parse(JSON.stringify(storeSettings({ ...desktop, tagPrefix: "work/" }, file, "desktop")));

		const onLaptop = migrateSettings(file, "laptop").settings;
		expect(onLaptop.projects).toEqual([project("/Users/me/api")]);
		expect(onLaptop.claudeDir).toBe("/Users/me/.claude");
		// Shared values are shared: the desktop's new prefix reaches the laptop.
		expect(onLaptop.tagPrefix).toBe("work/");
		const onDesktop = migrateSettings(file, "desktop").settings;
		expect(onDesktop.projects).toEqual([project("/home/me/api", { target: "CLAUDE.local.md" })]);
		expect(onDesktop.claudeDir).toBeUndefined();

		// The laptop removes its projects: the desktop's stay.
		file = storeSettings({ ...onLaptop, projects: [] }, file, "laptop");
		expect(migrateSettings(file, "desktop").settings.projects).toHaveLength(1);
		expect(Object.keys((file as { devices: object }).devices)).toEqual(["desktop", "laptop"]);
	});

	it("keys a device by its host name without case or domain, and never by an inherited property", () => {
		expect(deviceIdOf("Studio.local")).toBe("studio");
		expect(deviceIdOf(" studio ")).toBe("studio");
		expect(deviceIdOf("")).toBe("unknown-host");
		const file = storeSettings({ ...DEFAULT_SETTINGS, projects: [project("/a")] }, undefined, "Studio.local");
		expect(Object.keys((file as { devices: object }).devices)).toEqual(["studio"]);
		expect(migrateSettings(file, "studio").settings.projects).toEqual([project("/a")]);
		expect(migrateSettings(file, "constructor").settings.projects).toEqual([]);
		expect(migrateSettings({ version: 2, devices: { ["__proto__"]: { projects: [{ path: "/x" }] } } }, "toString").settings.projects).toEqual([]);
	});

	it("other devices' entries are kept byte for byte, even ones this version cannot read", () => {
		const raw = { version: 2, devices: { desktop: { projects: "garbage", futureKey: [1, 2] }, phone: 7, laptop: { projects: [], hotkeys: "keep me" } } };
		const stored = storeSettings({ ...DEFAULT_SETTINGS, projects: [project("/p")] }, raw, "laptop") as { devices: Record<string, unknown> };
		expect(stored.devices.desktop).toBe(raw.devices.desktop);
		expect(stored.devices.phone).toBe(7);
		// This device's entry is replaced; a key this version does not know stays.
		expect(stored.devices.laptop).toEqual({ hotkeys: "keep me", projects: [project("/p")] });
	});

	it("unknown and garbage values fall back to defaults, one by one", () => {
		const { settings } = migrateSettings(
			{
				version: 2,
				notesFolder: "   ",
				memoryFolder: 5,
				detail: "everything",
				tagPrefix: null,
				keywordRules: [{ keyword: "a", tag: "b" }, { keyword: "a", tag: "b" }, { keyword: "", tag: "x" }, "rule", { keyword: 1, tag: "x" }],
				redaction: { enabled: "yes", extraPatterns: ["ok", 3, "", "[bad"] },
				excludedProjects: ["", " /tmp/x ", 4],
				watch: "false",
				debounceMs: "3000",
				devices: {
					laptop: {
						claudeDir: "   ",
						projects: [
							{ path: "/a", target: "README.md", mode: "fast", sessions: 0, budget: 99999, enabled: "on", memorySharing: 1 },
							{ path: "/a", enabled: false },
							{ path: "" },
							{ enabled: true },
							"string",
						],
					},
				},
			},
			"laptop",
		);
		expect(settings).toEqual({ ...DEFAULT_SETTINGS, redaction: { enabled: true, extraPatterns: ["ok", "[bad"] }, keywordRules: [{ keyword: "a", tag: "b" }], excludedProjects: ["/tmp/x"], projects: [project("/a")] });
	});

	it("clamps the debounce to 250–60000 ms and rounds it", () => {
		const debounce = (value: unknown) => migrateSettings({ version: 2, debounceMs: value }, "h").settings.debounceMs;
		expect(debounce(10)).toBe(250);
		expect(debounce(-5)).toBe(250);
		expect(debounce(1e9)).toBe(60_000);
		expect(debounce(1234.6)).toBe(1235);
		expect(debounce(Number.NaN)).toBe(2000);
		expect(debounce(Number.POSITIVE_INFINITY)).toBe(2000);
	});

	it("a newer version: keeps what is readable, and storing keeps what it does not know", () => {
		const v3 = {
			version: 3,
			notesFolder: "Notes",
			detail: "digest",
			theme: { accent: "red" },
			devices: { laptop: { claudeDir: "/c", projects: [{ path: "/a", mode: "lazy", colour: "blue" }], remote: true } },
		};
		const { settings, migrated } = migrateSettings(v3, "laptop");
		expect(migrated).toBe(true);
		expect(settings).toMatchObject({ notesFolder: "Notes", detail: "digest", claudeDir: "/c", projects: [project("/a", { mode: "lazy" })] });
		const stored = storeSettings(settings, v3, "laptop");
		expect(stored).toMatchObject({ version: 2, theme: { accent: "red" }, devices: { laptop: { remote: true, claudeDir: "/c" } } });
		// A version 3 file without devices (say its layout changed again): shared values only.
		expect(migrateSettings({ version: 3, notesFolder: "N", projects: [{ path: "/x" }] }, "laptop").settings).toMatchObject({ notesFolder: "N", projects: [] });
	});

	it("a newer version is named as one not to store again; this version, an older one or none is not (attack round 34)", () => {
		expect(newerSettingsProblem({ version: 3 })).toMatch(/^they were written by a newer release of AI Conversation Memory \(settings version 3, this one knows 2\)/);
		for (const raw of [{ version: 2 }, { version: 1 }, {}, { version: "9" }, null, undefined, []]) expect(newerSettingsProblem(raw)).toBeUndefined();
	});

	it("a version 2 file's top-level projects are nobody's: a device's own list is what counts", () => {
		expect(migrateSettings({ version: 2, projects: [{ path: "/a" }] }, "laptop").settings.projects).toEqual([]);
		const stored = storeSettings(migrateSettings({ version: 2, projects: [{ path: "/a" }], claudeDir: "/c" }, "laptop").settings, { version: 2, projects: [{ path: "/a" }] }, "laptop");
		expect(stored).not.toHaveProperty("projects");
		expect(stored).not.toHaveProperty("claudeDir");
	});

	it("without a host name (tests, defaults) a version 2 file gives only the shared values", () => {
		const stored = storeSettings({ ...DEFAULT_SETTINGS, notesFolder: "N", projects: [project("/a")] }, undefined, "laptop");
		expect(migrateSettings(stored).settings).toMatchObject({ notesFolder: "N", projects: [] });
		expect(migrateSettings(V1).settings.projects).toHaveLength(1);
	});
});

describe("the text forms of the settings tab", () => {
	it("keyword rules: one `keyword: tag` per line, normalized, errors by line", () => {
		expect(parseKeywordRules("  Payment   gateway :  #Billing \n\n결제: billing\nC++: cpp\nhttp://x: web\n결제：billing")).toEqual({
			rules: [
				{ keyword: "Payment gateway", tag: "billing" },
				{ keyword: "결제", tag: "billing" },
				{ keyword: "C++", tag: "cpp" },
				{ keyword: "http://x", tag: "web" },
			],
			errors: [],
		});
		expect(parseKeywordRules("no colon\n: tag\nkey:\nyear: 2024").errors).toEqual([
			'Line 1: write it as "keyword: tag".',
			'Line 2: write it as "keyword: tag".',
			'Line 3: write it as "keyword: tag".',
			'Line 4: "2024" cannot be a tag (it needs a letter).',
		]);
		const { rules } = parseKeywordRules("stripe : Payments/Stripe");
		expect(formatKeywordRules(rules)).toBe("stripe: payments/stripe");
		expect(parseKeywordRules(formatKeywordRules(rules)).rules).toEqual(rules);
	});

	it("patterns: one regular expression per line, compiled as the redactor does", () => {
		expect(parsePatterns("ACME-[0-9]{6}\n\n  \n(?<id>x+)\nACME-[0-9]{6}")).toEqual({ patterns: ["ACME-[0-9]{6}", "(?<id>x+)"], errors: [] });
		const { patterns, errors } = parsePatterns("ok\n[unclosed\n(?<=a)b\n*\nACME-\\d{6}(?!\\d)\n(a)\\1");
		// RE2 takes no lookaround and no backreference: a JavaScript RegExp did, and the redactor then left the pattern out.
		expect(patterns).toEqual(["ok"]);
		expect(errors.map((e) => e.slice(0, 8))).toEqual(["Line 2: ", "Line 3: ", "Line 4: ", "Line 5: ", "Line 6: "]);
		expect(errors[1]).toMatch(/lookaround and backreferences are not supported/);
		expect(errors[4]).toMatch(/lookaround and backreferences are not supported/);
	});

	it("lines: trimmed, each once", () => {
		expect(parseLines(" /a \n\n/b\n/a")).toEqual(["/a", "/b"]);
	});
});

describe("project exclusion", () => {
	it("matches paths, folders above them and globs", () => {
		expect(isExcluded("/home/me/secret/api", ["/home/me/secret"])).toBe(true);
		expect(isExcluded("/home/me/secretive", ["/home/me/secret"])).toBe(false);
		expect(isExcluded("/home/me/secret/api", ["/"])).toBe(true);
		expect(isExcluded("/", [" / "])).toBe(true);
		expect(isExcluded("/home/me/a/b/c", ["/home/me/**/c"])).toBe(true);
		expect(isExcluded("/home/me/a/b", ["/home/me/*"])).toBe(true);
		expect(isExcluded("C:\\work\\x", ["C:/work/"])).toBe(true);
	});

	it("reads `//`, `.` and `..` in a path as the system does (a cwd spelled otherwise is still the project)", () => {
		for (const cwd of ["/home/me//secret", "/home/me/./secret", "/home/me/x/../secret", "/home/me/secret/", "//home/me/secret/api", "/home/me/secret/./a/../b"]) {
			expect(isExcluded(cwd, ["/home/me/secret"])).toBe(true);
			expect(isExcluded(cwd, ["/home/**/secret"])).toBe(true);
		}
		expect(isExcluded("/home/me/secret", ["/home/me/x/../secret/"])).toBe(true);
		expect(isExcluded("/home/me/secret/../public", ["/home/me/secret"])).toBe(false);
		expect(isExcluded("/../../home/me/secret", ["/home/me/secret"])).toBe(true);
		expect(isExcluded("C:\\work\\.\\x\\..\\secret", ["c:/work/secret"])).toBe(true);
	});

	it("takes a folder recorded decomposed for the one typed composed, and the other way round (attack round 38)", () => {
		// macOS may record "Cafe" with its accent as a separate mark; the exclusion typed with "é" in one piece let its prompts into notes and state.
		const composed = "/Users/me/Caf\u00e9/secret";
		const decomposed = "/Users/me/Cafe\u0301/secret";
		expect(isExcluded(`${decomposed}/api`, [composed])).toBe(true);
		expect(isExcluded(composed, [decomposed])).toBe(true);
		expect(isExcluded("/Users/me/Cafe\u0301s/x", ["/Users/me/Caf\u00e9/**"])).toBe(false);
		expect(isExcluded("/p/\u0395\u039b\u039b\u0391\u03a3", ["/p/\u03b5\u03bb\u03bb\u03b1\u03c3"])).toBe(true);
	});

	it("takes a folder WSL recorded for the one Windows names, and the other way round (attack round 25c)", () => {
		// Excluded as Windows names it, the sessions Claude Code ran in it under WSL were stored.
		expect(isExcluded("/mnt/c/Users/a/code/secret", ["C:\\Users\\a\\code\\secret"])).toBe(true);
		expect(isExcluded("/mnt/c/users/B/private/x", ["C:\\Users\\*\\private"])).toBe(true);
		expect(isExcluded("c:\\users\\a\\code\\secret\\sub", ["/mnt/c/Users/a/code/secret"])).toBe(true);
		expect(isExcluded("\\\\wsl$\\Ubuntu\\home\\a\\secret", ["/home/a/secret"])).toBe(true);
		expect(isExcluded("/home/a/secret/x", ["\\\\wsl.localhost\\Ubuntu\\home\\a\\secret"])).toBe(true);
		expect(isExcluded("/mnt/d/code/secret", ["C:\\code\\secret"])).toBe(false);
		expect(isExcluded("/mnt/cdrom/secret", ["c:/"])).toBe(false);
		expect(isExcluded("/mnt/c/x", ["/"])).toBe(true);
		expect(isExcluded("/home/a/public", ["\\\\wsl$\\Ubuntu\\home\\a\\secret"])).toBe(false);
	});
});

describe("recall triggers per project", () => {
	it("are kept through migrate and store, and dropped when unusable", () => {
		const raw = { version: 2, devices: { box: { projects: [{ path: "/p", triggers: { enabled: false, intents: ["weiter", 3], complexity: "no" } }, { path: "/q", triggers: "x" }] } } };
		const { settings } = migrateSettings(raw, "box");
		expect(settings.projects[0]?.triggers).toEqual({ enabled: false, intents: ["weiter"] });
		expect(settings.projects[1]).not.toHaveProperty("triggers");
		expect(migrateSettings(storeSettings(settings, raw, "box"), "box").settings.projects[0]?.triggers).toEqual({ enabled: false, intents: ["weiter"] });
	});

	it("reads which agents to read, and each one's folder per device", () => {
		const raw = { version: 2, agents: ["codex", "nobody", "codex", "claude-code"], devices: { laptop: { agentDirs: { codex: " /home/me/.codex-work ", "claude-code": "/x", nobody: "/y", "gemini-cli": "" } } } };
		const { settings } = migrateSettings(raw, "laptop");
		expect(settings.agents).toEqual(["codex", "claude-code"]);
		expect(settings.agentDirs).toEqual({ codex: "/home/me/.codex-work" });
		expect(migrateSettings(raw, "desktop").settings.agentDirs).toBeUndefined();
		const stored = storeSettings(settings, raw, "laptop") as { agents: unknown; devices: Record<string, { agentDirs?: unknown }> };
		expect(stored.agents).toEqual(["codex", "claude-code"]);
		expect(stored.devices.laptop?.agentDirs).toEqual({ codex: "/home/me/.codex-work" });
	});

	it("reads the other agents' files a project's block goes into, known names only, each once", () => {
		const raw = { version: 2, devices: { laptop: { projects: [{ path: "/p", alsoWriteTo: ["GEMINI.md", "AGENTS.md", "GEMINI.md", "../x.md"] }, { path: "/q", alsoWriteTo: "AGENTS.md" }] } } };
		const [p, q] = migrateSettings(raw, "laptop").settings.projects;
		expect(p?.alsoWriteTo).toEqual(["GEMINI.md", "AGENTS.md"]);
		expect(contextFilesOf(p!)).toEqual(["CLAUDE.md", "GEMINI.md", "AGENTS.md"]);
		expect(q?.alsoWriteTo).toBeUndefined();
		expect(contextFilesOf(q!)).toEqual(["CLAUDE.md"]);
	});
});

describe("price overrides", () => {
	it("keeps entries with an input and an output price, cache prices defaulting to 0, and drops the rest", () => {
		const { settings } = migrateSettings({ version: 2, prices: { "claude-opus-4-8": { input: 5, output: 25, cacheRead: 0.5 }, bad: { input: -1, output: 2 }, "": { input: 1, output: 1 }, text: "x" } });
		expect(settings.prices).toEqual({ "claude-opus-4-8": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 0 } });
		const stored = storeSettings(settings, {}, "laptop");
		expect(migrateSettings(stored, "laptop").settings.prices).toEqual(settings.prices);
	});
});

describe("foldersProblem", () => {
	it("refuses a folder out of the vault, one hidden from Obsidian, and one folder for both; takes the rest", () => {
		const ok = { notesFolder: "AI Conversations", memoryFolder: "AI Memory" };
		expect(foldersProblem(ok)).toBeUndefined();
		expect(foldersProblem({ ...ok, notesFolder: "Work/./AI notes" })).toBeUndefined();
		expect(foldersProblem({ ...ok, notesFolder: "a/b..c/d" })).toBeUndefined();
		expect(foldersProblem({ ...ok, notesFolder: "../x" })).toMatch(/^the notes folder "..\/x" leads out of the vault/);
		expect(foldersProblem({ ...ok, memoryFolder: "a\\..\\..\\b" })).toMatch(/^the memory folder .* leads out of the vault/);
		expect(foldersProblem({ ...ok, memoryFolder: ".obsidian" })).toMatch(/^the memory folder ".obsidian" is hidden/);
		expect(foldersProblem({ ...ok, notesFolder: "notes/.trash" })).toMatch(/is hidden/);
		expect(foldersProblem({ notesFolder: "Same", memoryFolder: "same" })).toBe("the notes folder and the memory folder must differ");
		// Spelled two ways, one folder was taken for two: the notes' and the facts' index notes were one file, and every sync after the first failed.
		expect(foldersProblem({ notesFolder: "AI Conversations", memoryFolder: "./AI Conversations" })).toBe('the notes folder and the memory folder must differ ("AI Conversations" and "./AI Conversations" are one folder)');
		expect(foldersProblem({ notesFolder: "AI Memory/", memoryFolder: "ai memory" })).toMatch(/must differ/);
		expect(foldersProblem({ notesFolder: "/", memoryFolder: "./" })).toMatch(/must differ/);
		expect(foldersProblem({ notesFolder: "AI Conversations", memoryFolder: "AI Conversations/AI Memory" })).toBeUndefined();
		expect(foldersProblem({ ...ok, notesFolder: "a\u0000b" })).toBe("the notes folder holds a NUL character, which no folder name can hold: set another");
		// An absolute path was written inside the vault without a word (vault/tmp/x); `/` alone is the vault's top, as before.
		expect(foldersProblem({ ...ok, notesFolder: "/tmp/x" })).toBe('the notes folder "/tmp/x" is an absolute path, but it can only be a folder of the vault (it would be "tmp/x" in it): set one inside it');
		expect(foldersProblem({ ...ok, memoryFolder: "C:\\notes" })).toBe('the memory folder "C:\\notes" is an absolute path, but it can only be a folder of the vault (it would be "C:/notes" in it): set one inside it');
		expect(foldersProblem({ ...ok, memoryFolder: "\\\\server\\share" })).toMatch(/is an absolute path/);
		expect(foldersProblem({ ...ok, notesFolder: "/" })).toBeUndefined();
		expect(foldersProblem({ ...ok, notesFolder: "Work/C:x" })).toMatch(/cannot be a folder on Windows \(it holds ":"\)/);
		expect(foldersProblem({ ...ok, notesFolder: "X: notes" })).toMatch(/cannot be a folder on Windows/);
		expect(foldersProblem({ ...ok, notesFolder: "D:" })).toMatch(/is an absolute path/);
	});

	it("refuses a folder as a person pastes it carelessly: link characters, `~`, quotes, a line break, a name too long", () => {
		const ok = { notesFolder: "AI Conversations", memoryFolder: "AI Memory" };
		// Every link to a note in it was broken: `[[Work #ai/shop-api/…]]` is a heading of "Work".
		expect(foldersProblem({ ...ok, notesFolder: "Work #ai" })).toBe('the notes folder "Work #ai" holds "#", which Obsidian\'s links cannot hold (no link to its notes would work): set another');
		for (const folder of ["AI|Chats", "AI [chats]", "AI^x"]) expect(foldersProblem({ ...ok, memoryFolder: folder })).toMatch(/^the memory folder .* which Obsidian's links cannot hold/);
		expect(foldersProblem({ ...ok, notesFolder: "~/notes" })).toBe('the notes folder "~/notes" starts with "~", the home folder, but it can only be a folder of the vault: set one inside it');
		expect(foldersProblem({ ...ok, notesFolder: "~" })).toMatch(/starts with "~"/);
		expect(foldersProblem({ ...ok, notesFolder: '"AI Notes"' })).toBe('the notes folder "AI Notes" is in quotes: set it without them');
		expect(foldersProblem({ ...ok, notesFolder: "'AI Notes'" })).toMatch(/is in quotes/);
		expect(foldersProblem({ ...ok, notesFolder: "AI\nNotes" })).toBe("the notes folder holds a line break or another control character: set it without");
		expect(foldersProblem({ ...ok, notesFolder: "AI\tNotes" })).toMatch(/control character/);
		expect(foldersProblem({ ...ok, notesFolder: "x".repeat(10_000) })).toBe("the notes folder has a folder name longer than a file system takes (255 bytes): set a shorter one");
		expect(foldersProblem({ ...ok, notesFolder: "가".repeat(86) })).toMatch(/longer than a file system takes/);
		for (const folder of ["가".repeat(85), "Notes ~ old", "it's mine", "x/".repeat(5_000), "AI Conversations/", "a/b..c/d", "Console", "nul_"]) expect(foldersProblem({ ...ok, notesFolder: folder })).toBeUndefined();
	});

	it("refuses a folder a vault kept on Windows could not hold, naming why (attack round 25c)", () => {
		const ok = { notesFolder: "AI Conversations", memoryFolder: "AI Memory" };
		// A Linux device wrote its notes into these; the vault's copy on Windows could hold none of them.
		expect(foldersProblem({ ...ok, notesFolder: "x:y" })).toBe('the notes folder "x:y" cannot be a folder on Windows (it holds ":"): a vault kept or synced there could not hold its notes; set another');
		expect(foldersProblem({ ...ok, notesFolder: 'Say "hi"' })).toMatch(/it holds """/);
		for (const c of ["<", ">", "?", "*"]) expect(foldersProblem({ ...ok, memoryFolder: `AI${c}Memory` })).toMatch(/^the memory folder .* cannot be a folder on Windows/);
		expect(foldersProblem({ ...ok, notesFolder: "AI Conversations." })).toBe('the notes folder "AI Conversations." cannot be a folder on Windows ("AI Conversations." ends in a dot or a space): a vault kept or synced there could not hold its notes; set another');
		expect(foldersProblem({ ...ok, notesFolder: "Work /notes" })).toMatch(/"Work " ends in a dot or a space/);
		expect(foldersProblem({ ...ok, notesFolder: "CON" })).toMatch(/\("CON" is a device's name there\)/);
		expect(foldersProblem({ ...ok, notesFolder: "a/nul.txt/b" })).toMatch(/"nul.txt" is a device's name there/);
		expect(foldersProblem({ ...ok, memoryFolder: "aux" })).toMatch(/^the memory folder "aux" cannot be a folder on Windows/);
	});
});
