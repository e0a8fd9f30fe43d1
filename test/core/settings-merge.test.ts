import { describe, expect, it } from "vitest";
import { DEFAULT_PROJECT, DEFAULT_SETTINGS, type ProjectSettings, type Settings } from "../../src/core/settings";
import { mergeSettings } from "../../src/core/settings-merge";

const project = (path: string, more: Partial<ProjectSettings> = {}): ProjectSettings => ({ ...DEFAULT_PROJECT, path, ...more });
const settings = (more: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, projects: [], ...more });
const paths = (s: Settings) => s.projects.map((p) => p.path);

describe("settings saved over a data.json another program changed since they were read", () => {
	const before = settings({ projects: [project("/code/a"), project("/code/b")] });

	it("keeps a project added there beside one changed here", () => {
		const mine = settings({ projects: [project("/code/a", { enabled: false }), project("/code/b")] });
		const theirs = settings({ projects: [project("/code/a"), project("/code/b"), project("/code/c")] });
		const merged = mergeSettings(before, mine, theirs);
		expect(paths(merged)).toEqual(["/code/a", "/code/b", "/code/c"]);
		expect(merged.projects[0]!.enabled).toBe(false);
	});

	it("keeps a project added there when only a setting changed here, and that setting", () => {
		const mine = { ...before, notesFolder: "Chats" };
		const theirs = settings({ projects: [...before.projects, project("/code/c")] });
		const merged = mergeSettings(before, mine, theirs);
		expect(merged.notesFolder).toBe("Chats");
		expect(paths(merged)).toEqual(["/code/a", "/code/b", "/code/c"]);
	});

	it("takes a setting changed there and not here, and the one changed here where both changed", () => {
		const mine = { ...before, debounceMs: 5000, tagPrefix: "mine/" };
		const theirs = { ...before, debounceMs: 9000, detail: "digest" as const };
		const merged = mergeSettings(before, mine, theirs);
		expect(merged.detail).toBe("digest");
		expect(merged.debounceMs).toBe(5000);
		expect(merged.tagPrefix).toBe("mine/");
	});

	it("removes what either side removed, unless the other side changed it", () => {
		const mine = settings({ projects: [project("/code/a", { mode: "lazy" })] });
		const theirs = settings({ projects: [project("/code/b")] });
		// b removed here (unchanged there), a removed there but changed here: a stays as the person set it.
		expect(mergeSettings(before, mine, theirs).projects).toEqual([project("/code/a", { mode: "lazy" })]);
		// Removed here, changed there: theirs stays.
		const changedThere = settings({ projects: [project("/code/a"), project("/code/b", { budget: 900 })] });
		expect(mergeSettings(before, settings({ projects: [project("/code/a")] }), changedThere).projects).toEqual(changedThere.projects);
	});

	it("is what was saved here when nothing changed there", () => {
		const mine = settings({ notesFolder: "Chats", projects: [project("/code/b"), project("/code/d")] });
		expect(mergeSettings(before, mine, before)).toEqual(mine);
	});
});
