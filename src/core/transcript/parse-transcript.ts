import { foldLines } from "./fold";
import { splitCompleteLines } from "./jsonl-lines";
import { createSession, type SessionModel } from "./session-model";

/**
 * Folds a whole transcript held in memory. A last line without `\n` counts here, since the text
 * is complete (Entire's copies of transcripts drop the final newline); the tail reader, which
 * reads live files, waits for it instead.
 */
export function parseTranscript(bytes: Uint8Array | string, fileId: string, agentId?: string): SessionModel {
	const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
	const model = createSession(fileId, agentId);
	const split = splitCompleteLines(data, 1);
	foldLines(model, split.lines);
	if (split.consumed < data.length) {
		const rest = new Uint8Array(data.length - split.consumed + 1);
		rest.set(data.subarray(split.consumed));
		rest[rest.length - 1] = 0x0a;
		foldLines(model, splitCompleteLines(rest, split.lines.length + 1).lines);
	}
	return model;
}
