import type { RawLine } from "../transcript/jsonl-lines";
import type { SubagentMeta } from "../transcript/link-subagents";
import { foldLines } from "../transcript/fold";
import { createSession, serializeSession } from "../transcript/session-model";
import type { TailCursor, TranscriptFile } from "../transcript/transcript-files";
import { prepareSession, type PreparedSession } from "./prepare-session";
import { redactModelInPlace } from "./redact-model";
import { redactorFor, type RedactionSpec } from "./redaction-policy";

export interface FoldedWhole {
	cursor: TailCursor;
	bytesRead: number;
	/** The redacted model's plain form, as JSON: what is stored, and what crosses threads. */
	modelJson: string;
	/** Digest and prompt terms of a session (not of a sub-agent), made with no summary title. */
	prepared?: PreparedSession;
	/** Set when the stored form was written by the folding thread (with this meta in it). */
	saved?: { meta: SubagentMeta | undefined };
}

/** The stored form (`StoredTranscript`) as JSON, around a model that is JSON already. */
export function storedJson(file: TranscriptFile, cursor: TailCursor, modelJson: string, meta: SubagentMeta | undefined): string {
	const metaPart = meta === undefined ? "" : `,"meta":${JSON.stringify(meta)}`;
	return `{"file":${JSON.stringify(file)},"cursor":${JSON.stringify(cursor)},"model":${modelJson}${metaPart}}`;
}

/**
 * What a worker thread does for a new transcript: fold every line into a fresh model, redact it,
 * work out its digest and prompt terms, and serialize it once, for both the state file and the
 * calling thread (a string crosses threads as a flat copy). The calling thread renders every
 * note, so it is left as little as possible (measured: it was the bottleneck).
 */
export async function foldWholeTranscript(
	file: TranscriptFile,
	spec: RedactionSpec | undefined,
	read: (onLines: (lines: RawLine[]) => void, onRestart: () => void) => Promise<{ cursor: TailCursor; bytesRead: number }>,
): Promise<FoldedWhole> {
	// The model is serialized and dropped right after: no need to copy clipped text.
	let model = createSession(file.fileId, file.agentId, false);
	const result = await read(
		(lines) => foldLines(model, lines),
		() => {
			model = createSession(file.fileId, file.agentId, false);
		},
	);
	if (spec) redactModelInPlace(model, redactorFor(spec, model.cwd));
	const prepared = file.kind === "session" ? prepareSession(model, undefined, file.projectDir) : undefined;
	return { cursor: result.cursor, bytesRead: result.bytesRead, modelJson: JSON.stringify(serializeSession(model)), prepared };
}
