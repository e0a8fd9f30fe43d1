import { beforeEach, describe, expect, it, vi } from "vitest";
import { migrateSettings } from "../../../src/core/settings";
import { runSync } from "../../../src/core/sync/sync-engine";
import { emptySyncState, type SyncState } from "../../../src/core/sync/sync-state";
import { TranscriptIndex } from "../../../src/core/ingest/transcript-index";
import { MemoryNotes } from "../../fakes/memory-notes";
import { MemoryProjects } from "../../fakes/memory-projects";
import { MemoryTranscripts } from "../../fakes/memory-transcripts";
import { assistant, jsonl, resetIds, text, userText } from "../../fixtures/lines";

// A fault in the digest, as a bug met by hostile text would be: the session whose prompt names it throws.
let faulty = true;
let faultyTags = false;
vi.mock("../../../src/core/ingest/prepare-session", async (original) => {
	const real = await original<typeof import("../../../src/core/ingest/prepare-session")>();
	return {
		...real,
		prepareSession: (...args: Parameters<typeof real.prepareSession>) => {
			if (faulty && args[0].events.some((e) => e.kind === "prompt" && e.text.includes("FAULT"))) throw new TypeError("function is not iterable");
			return real.prepareSession(...args);
		},
	};
});

vi.mock("../../../src/core/digest/tags/topic-tags", async (original) => {
	const real = await original<typeof import("../../../src/core/digest/tags/topic-tags")>();
	return {
		...real,
		topicTags: (...args: Parameters<typeof real.topicTags>) => {
			if (faultyTags && args[0].prompts.some((p) => p.includes("FAULT"))) throw new RangeError("Maximum call stack size exceeded");
			return real.topicTags(...args);
		},
	};
});

let transcripts: MemoryTranscripts;
let notes: MemoryNotes;
let state: SyncState;
let index: TranscriptIndex;

beforeEach(() => {
	resetIds();
	faulty = true;
	faultyTags = false;
	transcripts = new MemoryTranscripts();
	notes = new MemoryNotes();
	state = emptySyncState();
	index = new TranscriptIndex(transcripts);
});

function session(n: number, prompt: string): string {
	const id = `00000000-dddd-4000-8000-00000000000${n}`;
	const env = { sessionId: id, cwd: "/r/app", timestamp: `2026-05-0${n}T10:00:00.000Z` };
	return transcripts.put("-r-app", id, jsonl([userText(prompt, env), assistant(text(`Done: ${prompt}`), { ...env, messageId: `msg_${n}` })]));
}

const deps = () => ({ index, settings: migrateSettings({}).settings, state, notes, projects: new MemoryProjects(), resolve: () => undefined });

describe("a session whose digest fails", () => {
	it("is said and left out; the others sync; the next sync tries it again and writes it once it can", async () => {
		session(1, "Add the parser");
		const bad = session(2, "Run the FAULT case");
		session(3, "Write the docs");
		const first = await runSync(deps());
		expect(first.errors).toEqual([expect.stringContaining(`${bad}: not summed up, so not synced (function is not iterable)`)]);
		const written = () => [...notes.files.keys()].filter((p) => /\/2026-/.test(p));
		expect(written().map((p) => p.replace(/^.*\//, "")).sort()).toEqual(["2026-05-01 Add the parser.md", "2026-05-03 Write the docs.md"]);
		// Still failing: said again, not lost.
		expect((await runSync(deps())).errors.join("\n")).toContain(`${bad}: not summed up`);
		faulty = false;
		const fixed = await runSync(deps());
		expect(fixed.errors).toEqual([]);
		expect(written().some((p) => p.endsWith("Run the FAULT case.md"))).toBe(true);
	});

	it("whose tags fail when its note is written: the note waits and is said, the others are written", async () => {
		faulty = false;
		faultyTags = true;
		session(1, "Add the parser");
		const bad = session(2, "Run the FAULT case");
		const report = await runSync(deps());
		expect(report.errors).toEqual([expect.stringContaining(`${bad}: not summed up, so its note is not written (Maximum call stack size exceeded)`)]);
		const written = () => [...notes.files.keys()].filter((p) => /\/2026-/.test(p)).map((p) => p.replace(/^.*\//, ""));
		expect(written()).toEqual(["2026-05-01 Add the parser.md"]);
		faultyTags = false;
		expect((await runSync(deps())).errors).toEqual([]);
		expect(written().sort()).toEqual(["2026-05-01 Add the parser.md", "2026-05-02 Run the FAULT case.md"]);
	});
});
