import type { RawLine } from "../transcript/jsonl-lines";
import { foldLines } from "../transcript/fold";
import { createSession, serializeSession } from "../transcript/session-model";
import type { TailCursor, TranscriptFile } from "../transcript/transcript-files";
import { redactModelInPlace } from "./redact-model";
import { prepareSession, type PreparedSession } from "./prepare-session";
import { redactorFor, type RedactionSpec } from "./redaction-policy";

/**
 * What a worker thread does for a new transcript: fold every line into a fresh model, redact it,
 * and hand back its stored form as JSON (a string crosses threads cheaply).
 */
export async function foldWholeTranscript(
	file: TranscriptFile,
	spec: RedactionSpec | undefined,
	read: (onLines: (lines: RawLine[]) => void, onRestart: () => void) => Promise<{ cursor: TailCursor; bytesRead: number }>,
): Promise<{ cursor: TailCursor; bytesRead: number; modelJson: string; prepared?: PreparedSession }> {
	let model = createSession(file.fileId, file.agentId);
	const result = await read(
		(lines) => foldLines(model, lines),
		() => {
			model = createSession(file.fileId, file.agentId);
		},
	);
	if (spec) redactModelInPlace(model, redactorFor(spec, model.cwd));
	// Sub-agents need no digest; a summary title is not known here (the caller redoes those).
	const prepared = file.kind === "session" ? prepareSession(model, undefined) : undefined;
	return { cursor: result.cursor, bytesRead: result.bytesRead, modelJson: JSON.stringify(serializeSession(model)), prepared };
}
