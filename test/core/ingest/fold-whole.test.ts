import { describe, expect, it } from "vitest";
import { foldWholeTranscript, storedJson, storedJsonParts } from "../../../src/core/ingest/fold-whole";
import { splitCompleteLines } from "../../../src/core/transcript/jsonl-lines";
import type { TranscriptFile } from "../../../src/core/transcript/transcript-files";
import { assistant, jsonl, text, toolResult, toolUse, userText } from "../../fixtures/lines";

const file: TranscriptFile = { path: "/p/s.jsonl", projectDir: "p", fileId: "s", kind: "session", size: 0, mtimeMs: 0, ino: 1 };

async function folded(records: readonly unknown[]) {
	const bytes = Buffer.from(jsonl(records));
	return foldWholeTranscript(file, undefined, async (onLines) => {
		onLines(splitCompleteLines(bytes, 1).lines);
		return { cursor: { offset: bytes.length, nextLineNo: records.length + 1, ino: 1, head: "" }, bytesRead: bytes.length };
	});
}

describe("storedJsonParts", () => {
	it("parses to the stored form storedJson writes, events and all, whatever their characters", async () => {
		const { model, cursor } = await folded([
			userText("Fix the parser — it drops \"quoted\" lines \u00e9\ud83d\ude00 and a lone \ud800 half"),
			assistant(text("Reading it.\n\tWith a tab"), { messageId: "m1" }),
			assistant(toolUse("t1", "Read", { file_path: "/p/a.ts" }), { messageId: "m1" }),
			toolResult("t1", "line 1\nline 2 \u2028 separator"),
			assistant(text("Done."), { messageId: "m2" }),
		]);
		expect(model.events.length).toBeGreaterThan(3);
		const meta = { agentType: "Explore", description: "look \u00e9" };
		for (const m of [undefined, meta]) {
			const parts = storedJsonParts(file, cursor, model, m, "key");
			expect(parts.length).toBeGreaterThan(model.events.length);
			expect(JSON.parse(parts.join(""))).toEqual(JSON.parse(storedJson(file, cursor, JSON.stringify(model), m, "key")));
		}
	});

	it("a model with no events and one with no other fields are stored whole too", async () => {
		const { model, cursor } = await folded([]);
		expect(model.events).toEqual([]);
		expect((JSON.parse(storedJsonParts(file, cursor, model, undefined, "").join("")) as { model: unknown }).model).toEqual(JSON.parse(JSON.stringify(model)));
		const bare = { events: [{ kind: "text", text: "x" }] } as unknown as typeof model;
		expect((JSON.parse(storedJsonParts(file, cursor, bare, undefined, "").join("")) as { model: unknown }).model).toEqual(bare);
	});
});
