import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PromptInput, proposeFacts, sentencesOf, storedKey } from "../../src/core/memory/propose-facts";
import { parseTranscript } from "../fixtures/parse-transcript";
import type { SessionModel } from "../../src/core/transcript/session-model";
import { promptsOf } from "../../src/core/transcript/session-queries";

/** The real transcripts in ../shared (never copied into this repo). */
const ROOT = join(__dirname, "..", "..", "..", "shared", "corpus", "claude-transcripts");
const present = existsSync(ROOT);

/**
 * Every proposal over the corpus, each judged by hand as a fact worth keeping (docs/proposed-facts.md).
 * [file, prompt index, type, description]. A new row here means a new proposal to judge first.
 */
const PROPOSED: [file: string, prompt: number, type: string, description: string][] = [
	// "I'm working on linear ENT-98. keep our working documentation in linear." A lasting pointer: good.
	["entireio__cli/8e/0a64736bc7/0/full.jsonl", 1, "reference", "Keep our working documentation in linear"],
];

/**
 * Sentences of the corpus's prompts that hold a trigger word but state no rule: a question, a
 * feature description, a one-off reminder, a pasted manual page and a pasted plan. Checked by hand.
 */
const NOT_FACTS: [file: string, fragment: string][] = [
	["daaain__claude-code-log/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl", "so that we hide the group instead of all items"],
	["daaain__claude-code-log/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl", "It is strongly recommended never to mutate a tool environment manually"],
	["daaain__claude-code-log/-Users-dain-workspace-coderabbit-review-helper/cb2e607c-c758-415a-8b45-c49e4631906a.jsonl", "tools are always run isolated from the project"],
	["entireio__cli/10/a740e118e0/0/full.jsonl", "remember also you have LSP tool access"],
	["entireio__cli/1e/868c83dbb7/0/full.jsonl", "would always warn at the beginnig of a second session"],
	["entireio__cli/91/b42542f24f/1/full.jsonl", "so we can always initialize logging"],
];

function files(): string[] {
	return (readdirSync(ROOT, { recursive: true }) as string[])
		.filter((f) => f.endsWith(".jsonl"))
		.map((f) => f.split("\\").join("/"))
		.sort();
}

function load(file: string): SessionModel {
	const name = file.split("/").pop() ?? "";
	const agentId = name.startsWith("agent-") ? name.slice(6, -6) : undefined;
	return parseTranscript(readFileSync(join(ROOT, file)), name.slice(0, -6), agentId);
}

/** What a caller passes: the prompts a person typed (no slash command, no `!` shell line), indexed as in the session. */
function typedPrompts(model: SessionModel): PromptInput[] {
	return promptsOf(model)
		.map((p, index) => ({ kind: p.kind, text: p.text, timestamp: p.timestamp, index }))
		.filter((p) => p.kind === "prompt")
		.map(({ text, timestamp, index }) => ({ text, timestamp, index }));
}

/** Sessions a person drove; a sub-agent's prompts were written by Claude. */
function isSubagent(file: string, model: SessionModel): boolean {
	return model.agentId !== undefined || file.includes("/subagents/");
}

describe.skipIf(!present)(`proposed facts over the real transcripts of ../shared/corpus${present ? "" : " (skipped: ../shared/corpus is not beside this clone)"}`, () => {
	it("proposes exactly the facts judged good by hand, and nothing else", () => {
		const found: [string, number, string, string][] = [];
		for (const file of files()) {
			const model = load(file);
			if (isSubagent(file, model)) continue;
			for (const fact of proposeFacts(typedPrompts(model), [])) found.push([file, fact.prompt, fact.type, fact.description]);
		}
		expect(found).toEqual(PROPOSED);
	});

	it("proposes none of the look-alikes, each of which is in the corpus", () => {
		for (const [file, fragment] of NOT_FACTS) {
			const prompts = typedPrompts(load(file));
			expect(prompts.some((p) => p.text.includes(fragment))).toBe(true);
			expect(proposeFacts(prompts, []).filter((f) => f.quote.includes(fragment))).toEqual([]);
		}
	});

	it("proposes nothing from what Claude wrote: its replies, its thinking, its prompts to sub-agents", () => {
		const found: string[] = [];
		let sentences = 0;
		for (const file of files()) {
			const model = load(file);
			const texts = model.events.flatMap((e) => (e.kind === "text" || e.kind === "thinking" || (e.kind === "prompt" && isSubagent(file, model)) ? [e.text] : []));
			sentences += texts.reduce((n, text) => n + sentencesOf(text).length, 0);
			found.push(...proposeFacts(texts.map((text, index) => ({ text, index })), []).map((f) => `${file}: ${f.quote}`));
		}
		expect(sentences).toBeGreaterThan(3000);
		expect(found).toEqual([]);
	});

	it("dedupes the corpus's proposal against the fact it would create", () => {
		const file = PROPOSED[0]?.[0] ?? "";
		const [fact] = proposeFacts(typedPrompts(load(file)), []);
		expect(fact).toBeDefined();
		if (!fact) return;
		expect(proposeFacts(typedPrompts(load(file)), [{ name: fact.name, description: fact.description, body: fact.body }])).toEqual([]);
		expect(proposeFacts(typedPrompts(load(file)), [], new Set([storedKey(fact.key)]))).toEqual([]);
	});
});
