import type { SubagentMeta } from "../transcript/link-subagents";
import type { RawLine } from "../transcript/jsonl-lines";
import { endRead, foldFor, sessionFor } from "../transcript/fold-for";
import { serializeSession, type SerializedSession, type SessionEvent, type SessionModel } from "../transcript/session-model";
import { renderConversation } from "../notes/render-session-note";
import type { ConversationText } from "../notes/conversation-text";
import { printable } from "../text/printable";
import type { DetailLevel } from "../settings";
import type { TailCursor, TranscriptFile } from "../transcript/transcript-files";
import { prepareSession, promptFactQuotes, type PreparedSession } from "./prepare-session";
import { redactModelInPlace } from "./redact-model";
import { redactorFor, type RedactionSpec } from "./redaction-policy";

export interface FoldedWhole {
	cursor: TailCursor;
	bytesRead: number;
	/**
	 * The redacted model's plain form. It crosses threads as a structured clone: the other side
	 * gets the objects built, with no JSON string to hold and parse (measured: that string was a
	 * fifth of the main thread's heap at its peak, in the large-object space, and the parse cost
	 * more than the clone).
	 */
	model: SerializedSession;
	/** Digest and prompt terms of a session (not of a sub-agent), made with no summary title. */
	prepared?: PreparedSession;
	/** Set when the stored form was written by the folding thread (with this meta in it), and where. */
	saved?: { meta: SubagentMeta | undefined; at?: PackedAt };
	/** The session's conversation section at the detail asked for (`renderConversation`, no sub-agents). */
	conversation?: ConversationText;
	/** Set when `model` is the partial form (`partialModel`): the whole one is in the store. */
	partial?: true;
}

/**
 * What a sync reads of a session's model once its digest and conversation are made: everything
 * but its events, of which only the prompts (facts, keywords) and its first reply (whether it is
 * empty) are kept. Sent instead of the whole model by a worker that stored it (measured on the
 * bench tree: the clone of the whole models was a tenth of the workers' time, and the models
 * most of the calling thread's heap).
 */
export function partialModel(model: SerializedSession): SerializedSession {
	const events: SessionEvent[] = [];
	let reply = false;
	for (const e of model.events) {
		if (e.kind === "prompt") events.push(e);
		else if (!reply && e.kind === "text" && e.sidechain === undefined) {
			events.push(e);
			reply = true;
		}
	}
	return { ...model, events };
}

/** Where a stored form was appended: a pack file (by name, in the store's folder for them), its bytes from `offset`. */
export interface PackedAt {
	pack: string;
	offset: number;
	length: number;
	/** The redaction the packed model went through (`redactionKey`). */
	redaction?: string;
}

/** The stored form (`StoredTranscript`) as JSON, around a model that is JSON already. */
export function storedJson(file: TranscriptFile, cursor: TailCursor, modelJson: string, meta: SubagentMeta | undefined, redaction: string): string {
	return `${storedHead(file, cursor)}${modelJson}${storedTail(meta, redaction)}`;
}

/**
 * The stored form as JSON in parts, to be written one after another: the model's events one part
 * each (and its other fields before them). A long `JSON.stringify` result is a rope of pieces that
 * whatever reads it first must flatten, which cost as much again as the stringify (measured on
 * the bench tree's 25 MiB of models per thread: 64 ms to stringify, 150–250 ms more to encode
 * the result; in parts, both together took half as long). Parsed, it is the stored form.
 */
export function storedJsonParts(file: TranscriptFile, cursor: TailCursor, model: SerializedSession, meta: SubagentMeta | undefined, redaction: string): string[] {
	const { events, ...rest } = model;
	const fields = JSON.stringify(rest);
	const parts = [storedHead(file, cursor), fields.length > 2 ? `${fields.slice(0, -1)},"events":[` : '{"events":['];
	for (let i = 0; i < events.length; i++) {
		if (i > 0) parts.push(",");
		parts.push(JSON.stringify(events[i]));
	}
	parts.push("]}", storedTail(meta, redaction));
	return parts;
}

function storedHead(file: TranscriptFile, cursor: TailCursor): string {
	return `{"file":${JSON.stringify(file)},"cursor":${JSON.stringify(cursor)},"model":`;
}

function storedTail(meta: SubagentMeta | undefined, redaction: string): string {
	return `${meta === undefined ? "" : `,"meta":${JSON.stringify(meta)}`},"redaction":${JSON.stringify(redaction)}}`;
}

/**
 * What a worker thread does for a new transcript: fold every line into a fresh model, redact it,
 * work out its digest and prompt terms, and give its plain form (to store and to send to the
 * calling thread). The calling thread renders every note, so it is left as little as possible
 * (measured: it was the bottleneck).
 * @param detail for a session with no sub-agents, the note detail: its conversation section is rendered here too.
 */
export async function foldWholeTranscript(
	file: TranscriptFile,
	spec: RedactionSpec | undefined,
	read: (onLines: (lines: RawLine[]) => void, onRestart: () => void) => Promise<{ cursor: TailCursor; bytesRead: number }>,
	detail?: DetailLevel,
): Promise<FoldedWhole> {
	// The model is serialized and dropped right after: no need to copy clipped text.
	let model = sessionFor(file, false);
	const fold = foldFor(file);
	const result = await read(
		(lines) => fold(model, lines),
		() => {
			model = sessionFor(file, false);
		},
	);
	endRead(model);
	if (spec) redactModelInPlace(model, redactorFor(spec, model.cwd));
	// Every prompt of a session read whole is new: the sentences that may be facts are found here too.
	const prepared = file.kind === "session" ? preparedAhead(model, file) : undefined;
	// Printable here, where it is made: its bytes may go to the note as they are (see `ConversationText`).
	const conversation = file.kind === "session" && detail !== undefined && detail !== "digest" ? printable(renderConversation({ file, model, subagents: [] }, detail)) : undefined;
	return { cursor: result.cursor, bytesRead: result.bytesRead, model: serializeSession(model), prepared, ...(conversation === undefined ? {} : { conversation }) };
}

/** Its digest made ahead; one that fails is made again when the sync scopes its sessions, which says why and lets it wait (the read itself was good). */
function preparedAhead(model: SessionModel, file: TranscriptFile): (PreparedSession & { factQuotes: ReturnType<typeof promptFactQuotes> }) | undefined {
	try {
		return { ...prepareSession(model, undefined, file.projectDir), factQuotes: promptFactQuotes(model) };
	} catch {
		return undefined;
	}
}
