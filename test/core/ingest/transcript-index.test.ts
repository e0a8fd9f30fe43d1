import { describe, expect, it } from "vitest";
import { TranscriptIndex } from "../../../src/core/ingest/transcript-index";
import type { RedactionSpec } from "../../../src/core/ingest/redaction-policy";
import { MemoryTranscriptStore } from "../../fakes/memory-transcript-store";
import { MemoryTranscripts } from "../../fakes/memory-transcripts";
import { assistant, jsonl, system, text, toolResult, toolUse, userText } from "../../fixtures/lines";
import { redactMeta } from "../../../src/core/ingest/redact-model";
import { redactorFor } from "../../../src/core/ingest/redaction-policy";

const id = "00000000-eeee-4000-8000-000000000001";
const env = { sessionId: id, cwd: "/r/app", timestamp: "2026-10-01T10:00:00.000Z" };
const spec = (extraPatterns: string[]): RedactionSpec => ({ enabled: true, extraPatterns, offFor: [] });
const stored = (store: MemoryTranscriptStore) => [...store.shelf.models.values()].join("\n");

describe("the transcript index and redaction", () => {
	it("a pattern added later redacts what is stored already, in the model and on the shelf", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Close ticket-4711 for me", env), assistant(text("Closed ticket-4711."), { ...env, messageId: "msg_1" })]));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		expect(stored(store)).toContain("ticket-4711");

		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec(["ticket-[0-9]+"]));
		await later.refresh();
		const entry = await later.get(path);
		expect(JSON.stringify(entry!.model.events)).not.toContain("ticket-4711");
		expect(JSON.stringify(entry!.model.events)).toContain("[redacted:custom]");
		expect(stored(store)).not.toContain("ticket-4711");
	});

	it("a compaction summary read in a later sync than its boundary is redacted too", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Start", env), system("compact_boundary", { compactMetadata: { trigger: "auto", preTokens: 1000 } }, env)]));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		transcripts.append(path, jsonl([{ ...userText("The key was sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA and the work went on", env), isCompactSummary: true }]));
		await index.refresh();
		const compaction = (await index.get(path))!.model.events.find((e) => e.kind === "compaction");
		expect(compaction).toBeDefined();
		expect(JSON.stringify(compaction)).toContain("went on");
		expect(JSON.stringify(compaction)).not.toContain("sk-ant-api03");
	});

	it("an excluded project's sessions are folded for the run, and never stored", async () => {
		const transcripts = new MemoryTranscripts();
		const secret = "the whole conversation of a private project";
		const path = transcripts.put("-r-private", id, jsonl([userText(secret, { ...env, cwd: "/r/private" })]));
		transcripts.put("-r-app", "00000000-eeee-4000-8000-000000000002", jsonl([userText("a public one", env)]));
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => ({ ...spec([]), excluded: ["/r/private"] }));
		await index.refresh();
		expect(JSON.stringify((await index.get(path))!.model.events)).toContain(secret);
		expect(stored(store)).not.toContain(secret);
		expect(stored(store)).toContain("a public one");
	});

	it("names the transcript gives are redacted too: the branch, file paths and PR links", async () => {
		const token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij";
		const transcripts = new MemoryTranscripts();
		const branch = { ...env, gitBranch: `fix/${token}` };
		const path = transcripts.put(
			"-r-app",
			id,
			jsonl([
				userText("Read the notes", branch),
				assistant(toolUse("toolu_1", "Read", { file_path: `/r/app/tmp/${token}.txt` }), { ...branch, messageId: "msg_1" }),
				toolResult("toolu_1", "done", branch),
				{ type: "pr-link", sessionId: id, prNumber: 7, prUrl: `https://github.com/acme/app/pull/7?token=${token}`, prRepository: "acme/app", timestamp: env.timestamp },
			]),
		);
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => spec([]));
		await index.refresh();
		const model = (await index.get(path))!.model;
		expect(model.files.read).toHaveLength(1);
		for (const value of [model.gitBranch, ...model.branches, ...model.files.read, ...model.prLinks]) {
			expect(value).toContain("[redacted:");
			expect(value).not.toContain(token);
		}
		expect(stored(store)).not.toContain(token);
	});

	it("a sub-agent's meta.json description is redacted", () => {
		const meta = redactMeta({ agentType: "general-purpose", description: "Log in with sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }, redactorFor(spec([]), "/r/app"));
		expect(meta?.description).toBe("Log in with [redacted:anthropic-api-key]");
		expect(meta?.agentType).toBe("general-purpose");
	});
});
