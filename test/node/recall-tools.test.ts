import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecallIndex } from "../../src/core/memory/recall";
import { DEFAULT_PROJECT, DEFAULT_SETTINGS } from "../../src/core/settings";
import { hookContextPath, pluginFolder } from "../../src/node/plugin-paths";
import { RecallTools } from "../../src/node/recall-tools";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "recall-tools-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** A vault whose last sync prepared each project's facts (one fact a project, named after it). */
function vaultWith(projects: string[]): { tools: RecallTools; contextOf: (project: string) => string } {
	const vault = join(dir, "vault");
	const state = join(pluginFolder(vault), "state");
	mkdirSync(join(state, "hooks"), { recursive: true });
	for (const project of projects) {
		const word = project.split("/").pop()!;
		const facts = [{ file: "parser.md", name: `${word} parser`, description: `the parser decision of ${word}` }];
		const context = { version: 1, projectPath: project, mode: "lazy", facade: "", packet: "", packetPath: "", recall: RecallIndex.build(facts).serialize(), bodies: { "parser.md": `${word} uses a Pratt table.` } };
		writeFileSync(hookContextPath(state, project), JSON.stringify(context));
	}
	const settings = { ...DEFAULT_SETTINGS, projects: projects.map((path) => ({ ...DEFAULT_PROJECT, path })) };
	return { tools: new RecallTools({ vault, cwd: projects[0], loadSettings: () => Promise.resolve(settings) }), contextOf: (project) => hookContextPath(state, project) };
}

describe("recall_facts", () => {
	it("over every project, answers from the others when one project's prepared facts cannot be read, and says which", async () => {
		const [alpha, bravo, charlie] = ["/code/alpha", "/code/bravo", "/code/charlie"];
		const { tools, contextOf } = vaultWith([alpha, bravo, charlie]);
		writeFileSync(contextOf(bravo), '{"version":1,"facade":"');
		const text = await tools.recallFacts({ query: "parser decision", project: "all" });
		expect(text).toContain("alpha uses a Pratt table.");
		expect(text).toContain("charlie uses a Pratt table.");
		expect(text).toContain('The facts prepared for "/code/bravo" cannot be read: the next sync writes them again.');
		// Asked for that project alone, its own failure is the answer.
		await expect(tools.recallFacts({ query: "parser decision", project: bravo })).rejects.toThrow(/is not a hook context this version reads/);
	});

	it("names an unreadable project whose path holds what a replacement pattern would take (`$&`, `` $` ``) as it is", async () => {
		const [alpha, odd] = ["/code/alpha", "/code/$&-$`"];
		const { tools, contextOf } = vaultWith([alpha, odd]);
		writeFileSync(contextOf(odd), '{"version":1,"facade":"');
		const text = await tools.recallFacts({ query: "parser decision", project: "all" });
		expect(text).toContain('The facts prepared for "/code/$&-$`" cannot be read');
		expect(text.split("From AI Conversation Memory")).toHaveLength(2);
	});

	it("stays within 10,000 characters when the redaction of now makes an answer longer than the sync left it", async () => {
		const [alpha] = ["/code/alpha"];
		const vault = join(dir, "vault");
		const state = join(pluginFolder(vault), "state");
		mkdirSync(join(state, "hooks"), { recursive: true });
		const packet = `# alpha: context packet\n\n${`- codes ${"ZQ1 ".repeat(20)}\n`.repeat(110)}`;
		writeFileSync(hookContextPath(state, alpha), JSON.stringify({ version: 1, projectPath: alpha, mode: "lazy", facade: "", packet, packetPath: "", recall: RecallIndex.build([]).serialize(), bodies: {} }));
		const settings = { ...DEFAULT_SETTINGS, redaction: { enabled: true, extraPatterns: ["ZQ[0-9]"] }, projects: [{ ...DEFAULT_PROJECT, path: alpha }] };
		const tools = new RecallTools({ vault, cwd: alpha, loadSettings: () => Promise.resolve(settings) });
		const text = await tools.projectContext({});
		expect(text).toContain("[redacted");
		expect(text).not.toContain("ZQ1");
		expect(text.length).toBeLessThanOrEqual(10_000);
		expect(text.endsWith("… (cut here)\n")).toBe(true);
	});
});
