import type { RawLine } from "../transcript/jsonl-lines";
import { foldLines } from "../transcript/fold";
import { createSession, serializeSession, type SerializedSession } from "../transcript/session-model";
import type { TailCursor, TranscriptFile } from "../transcript/transcript-files";

export interface FoldedWhole {
	cursor: TailCursor;
	bytesRead: number;
	model: SerializedSession;
}

/**
 * What a worker thread does for a new transcript: fold every line into a fresh model and hand
 * back its plain form (structured clone carries it across). Redaction and storage happen on the
 * calling thread, which has time for them while the workers parse.
 */
export async function foldWholeTranscript(
	file: TranscriptFile,
	read: (onLines: (lines: RawLine[]) => void, onRestart: () => void) => Promise<{ cursor: TailCursor; bytesRead: number }>,
): Promise<FoldedWhole> {
	let model = createSession(file.fileId, file.agentId);
	const result = await read(
		(lines) => foldLines(model, lines),
		() => {
			model = createSession(file.fileId, file.agentId);
		},
	);
	return { cursor: result.cursor, bytesRead: result.bytesRead, model: serializeSession(model) };
}
