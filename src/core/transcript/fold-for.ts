import { agentOf } from "./agents";
import { aiderSessionStart, foldAiderLines } from "./aider-fold";
import { foldCodexLines } from "./codex-fold";
import { foldCopilotLines } from "./copilot-fold";
import { foldLines } from "./fold";
import { endGeminiRead, foldGeminiLines } from "./gemini-fold";
import { endOpencodeRead, foldOpencodeLines } from "./opencode-fold";
import type { RawLine } from "./jsonl-lines";
import { isoOfMs } from "./parse-line";
import { noteFolder } from "./session-folder";
import { compactLists, createSession, type SessionModel } from "./session-model";
import type { TranscriptFile } from "./transcript-files";

/** Folds a batch of a transcript's lines into its model, the way its agent writes them. */
export type LineFold = (model: SessionModel, lines: readonly RawLine[]) => void;

/**
 * A record cannot have been written after its file was last written: a time later than the
 * file's stamp (`mtimeMs`), by more than a day of clock skew between the machine that wrote it and
 * this one, is no time of the session (a line stamped 2999 made a session of today end then, and
 * one that began then head its project's index). For every agent, here where each gets its file.
 */
export const CLOCK_SKEW_MS = 86_400_000;

/** The latest time a record of the file can have, as an ISO string; none for a file of no stamp. */
export function timesUntil(file: Pick<TranscriptFile, "mtimeMs">): string | undefined {
	const ms = file.mtimeMs + CLOCK_SKEW_MS;
	return file.mtimeMs > 0 && Number.isFinite(ms) && ms < 8.64e15 ? isoOfMs(ms) : undefined;
}

/** The fold for a file's agent, its times bounded by the file's stamp (see `timesUntil`). */
export function foldFor(file: Pick<TranscriptFile, "agent" | "mtimeMs">): LineFold {
	const fold = agentFold(file);
	const until = timesUntil(file);
	return (model, lines) => {
		model.index.timesUntil = until;
		fold(model, lines);
	};
}

function agentFold(file: Pick<TranscriptFile, "agent">): LineFold {
	switch (agentOf(file)) {
		case "codex":
			return foldCodexLines;
		case "gemini-cli":
			return foldGeminiLines;
		case "copilot-cli":
			return foldCopilotLines;
		case "aider":
			return foldAiderLines;
		case "opencode":
			return foldOpencodeLines;
		default:
			return foldLines;
	}
}

/** A file's read is done (all its lines folded): what its fold kept beside the model for the read goes. */
export function endRead(model: SessionModel): void {
	const agent = agentOf(model);
	if (agent === "gemini-cli") endGeminiRead(model);
	else if (agent === "opencode") endOpencodeRead(model);
	compactLists(model);
}

/**
 * Gemini CLI's later lines change what earlier ones meant (see `gemini-fold.ts`), and opencode
 * updates its rows in place (see `opencode-fold.ts`): their sessions are read whole each time.
 */
export function readsWhole(file: Pick<TranscriptFile, "agent">): boolean {
	const agent = agentOf(file);
	return agent === "gemini-cli" || agent === "opencode";
}

/** Folds the lines of a batch from `from` to `to` (not included) into a model. */
export type RangeFold = (model: SessionModel, lines: readonly RawLine[], from: number, to: number) => void;

/**
 * The fold for a file that holds several sessions (`kind: "sessions"`), each session's part of a
 * batch folded where it is: a copy of each part was most of what a read of a file of thousands
 * of short sessions made besides its lines.
 */
export function foldRangeFor(file: Pick<TranscriptFile, "agent" | "mtimeMs">): RangeFold {
	if (agentOf(file) === "aider") {
		const until = timesUntil(file);
		return (model, lines, from, to) => {
			model.index.timesUntil = until;
			foldAiderLines(model, lines, from, to);
		};
	}
	const fold = foldFor(file);
	return (model, lines, from, to) => fold(model, from === 0 && to === lines.length ? lines : lines.slice(from, to));
}

/**
 * For a file that holds several sessions (`kind: "sessions"`, Aider's chat history): the key of
 * the session a line starts (its start as written), else undefined. Undefined for other files.
 */
export function sessionStartFor(file: Pick<TranscriptFile, "agent">): ((line: RawLine) => string | undefined) | undefined {
	return agentOf(file) === "aider" ? aiderSessionStart : undefined;
}

/** An empty model for a file, its agent recorded (and its folder, when the agent keeps that beside the file). */
export function sessionFor(file: Pick<TranscriptFile, "fileId" | "agentId" | "agent" | "cwd">, copyClips = true): SessionModel {
	const model = createSession(file.fileId, file.agentId, copyClips, file.agent);
	noteFolder(model, file.cwd);
	return model;
}
