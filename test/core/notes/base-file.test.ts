import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { renderSessionsBase, sessionsBasePath } from "../../../src/core/notes/base-file";

/**
 * The Bases file checked against what Obsidian documents for 1.10+ (help: Bases syntax, Views,
 * Functions; obsidian.d.ts: BasesConfigFile, BasesConfigFileView, BasesSortConfig, BasesPropertyId).
 */
const TOP_LEVEL = ["filters", "formulas", "properties", "summaries", "views"];
const VIEW_KEYS = ["type", "name", "limit", "filters", "groupBy", "order", "summaries", "sort"];
const VIEW_TYPES = ["table", "cards", "list", "map"];
/** `BasesPropertyId`: `${'note' | 'formula' | 'file'}.${string}`; file properties as documented. */
const FILE_PROPERTIES = ["backlinks", "ctime", "embeds", "ext", "file", "folder", "links", "mtime", "name", "path", "properties", "size", "tags"];
/** Functions the filter and formula use, each one documented (Functions: File, String, List). */
const DOCUMENTED_CALLS = ["file.inFolder", "file.hasProperty", "file.hasTag", "file.hasLink", ".filter", ".startsWith", ".contains"];

interface View {
	[key: string]: unknown;
	type: string;
	name: string;
	groupBy?: { property: string; direction: string };
	order?: string[];
	sort?: { property: string; direction: string }[];
}
interface Base {
	filters: { and: string[] };
	formulas: Record<string, string>;
	properties: Record<string, { displayName: string }>;
	views: View[];
}

const base = parse(renderSessionsBase("AI Conversations", "ai/")) as Base;

function checkPropertyId(id: string, formulas: Record<string, string>): void {
	const [kind, ...rest] = id.split(".");
	const name = rest.join(".");
	expect(["note", "file", "formula"], id).toContain(kind);
	if (kind === "file") expect(FILE_PROPERTIES, id).toContain(name);
	if (kind === "formula") expect(Object.keys(formulas), id).toContain(name);
}

function calls(expression: string): string[] {
	return [...expression.matchAll(/((?:file)?\.[A-Za-z]+)\(/g)].map((m) => m[1]!);
}

describe("the sessions Bases file", () => {
	it("goes in the notes folder, named for its last part: a nested folder's in it, not in a copy of its path", () => {
		expect(sessionsBasePath("AI Conversations")).toBe("AI Conversations/AI Conversations.base");
		expect(sessionsBasePath("Work/AI notes")).toBe("Work/AI notes/AI notes.base");
		expect(sessionsBasePath("Work/AI notes/")).toBe("Work/AI notes/AI notes.base");
		expect(sessionsBasePath("x/./y")).toBe("x/y/y.base");
		expect(sessionsBasePath("/")).toBe("AI Conversations.base");
		expect(sessionsBasePath("./")).toBe("AI Conversations.base");
		expect(renderSessionsBase("x/./y/")).toContain(`'file.inFolder("x/y")'`);
	});

	it("has only documented keys, view types and property ids", () => {
		expect(Object.keys(base).every((k) => TOP_LEVEL.includes(k))).toBe(true);
		for (const id of Object.keys(base.properties)) checkPropertyId(id, base.formulas);
		for (const view of base.views) {
			expect(Object.keys(view).filter((k) => !VIEW_KEYS.includes(k))).toEqual([]);
			expect(VIEW_TYPES).toContain(view.type);
			for (const id of view.order ?? []) checkPropertyId(id, base.formulas);
			for (const s of view.sort ?? []) {
				checkPropertyId(s.property, base.formulas);
				expect(["ASC", "DESC"]).toContain(s.direction);
			}
			if (view.groupBy) {
				expect(Object.keys(view.groupBy).sort()).toEqual(["direction", "property"]);
				checkPropertyId(view.groupBy.property, base.formulas);
			}
		}
	});

	it("picks session notes with file.hasProperty, in the notes folder, and calls only documented functions", () => {
		expect(base.filters).toEqual({ and: ['file.inFolder("AI Conversations")', 'file.hasProperty("session_id")'] });
		for (const expression of [...base.filters.and, ...Object.values(base.formulas)]) for (const call of calls(expression)) expect(DOCUMENTED_CALLS).toContain(call);
	});

	it("groups by one topic a session: its first tag after the project tag, with the vault's tag prefix", () => {
		expect(base.views.map((v) => [v.name, v.groupBy?.property])).toEqual([
			["By date", undefined],
			["By project", "note.project"],
			["By agent", "note.agent"],
			["By topic", "formula.topic"],
		]);
		expect(base.formulas.topic).toBe('note.tags.filter(!value.startsWith("ai/project/"))[0]');
		// Another prefix, one with a quote in it: still one valid YAML string and one Bases string literal.
		const other = parse(renderSessionsBase("Sessions", "it's/")) as Base;
		expect(other.formulas.topic).toBe('note.tags.filter(!value.startsWith("it\'s/project/"))[0]');
		expect(other.filters.and[0]).toBe('file.inFolder("Sessions")');
	});

	it("keeps a notes folder YAML would read otherwise (a colon and blank, a blank and #, quotes) as one filter", () => {
		for (const folder of ["AI: Chats", "Notes #ai", "it's \"here\"", "- dash"]) {
			const filters = (parse(renderSessionsBase(folder, "ai/")) as Base).filters.and;
			expect(filters[0]).toBe(`file.inFolder(${JSON.stringify(folder)})`);
			expect(filters[1]).toBe('file.hasProperty("session_id")');
		}
	});
});
