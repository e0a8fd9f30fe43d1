import { digestSession, type SessionDigest } from "../digest/session-digest";
import { termOccurrences, topicSignals, type TermOccurrence, type TopicSignal } from "../digest/topic-tags";
import { baseName, safeFileName } from "../notes/note-name";
import type { SessionModel } from "../transcript/session-model";
import { promptsOf } from "../transcript/session-queries";
import { factQuotes, type FactQuote } from "../memory/propose-facts";

/** The per-session work that needs only the session itself: done as soon as it is read. */
export interface PreparedSession {
	/** The `summary` title it was made with (a later one means doing it again). */
	summaryTitle: string | undefined;
	digest: SessionDigest;
	terms: readonly TermOccurrence[];
	/** The project name the signals were worked out for. */
	project: string;
	signals: readonly TopicSignal[];
	/** Of each typed prompt in order, `factQuotes` (made where a whole session is read, every prompt of it new). */
	factQuotes?: readonly (readonly FactQuote[])[];
}

/**
 * @param projectDir the transcript's folder, naming the project when the session has no cwd.
 * @param agents the session's sub-agent models, whose files count as the session's work.
 */
export function prepareSession(model: SessionModel, summaryTitle: string | undefined, projectDir: string, agents: readonly SessionModel[] = []): PreparedSession {
	const digest = digestSession(model, summaryTitle, agents);
	const project = projectName(digest.projectPath, projectDir);
	return { summaryTitle, digest, terms: termOccurrences(promptText(model)), project, signals: signalsOf(project, digest) };
}

/**
 * The same session with its sub-agents' work joined: a worker digests a session alone, the
 * sub-agents are known only once every file is read. The prompt terms (the costly part) stay.
 */
export function withSubagents(ready: PreparedSession, model: SessionModel, agents: readonly SessionModel[]): PreparedSession {
	const digest = digestSession(model, ready.summaryTitle, agents);
	return { ...ready, digest, signals: signalsOf(ready.project, digest) };
}

function signalsOf(project: string, digest: SessionDigest): TopicSignal[] {
	return topicSignals({ project, files: [...digest.filesTouched, ...digest.filesRead], filesRead: onlyRead(digest), tools: digest.tools, commands: digest.commands });
}

/** The files a session read and never wrote nor edited. */
export function onlyRead(digest: Pick<SessionDigest, "filesTouched" | "filesRead">): string[] {
	const touched = new Set(digest.filesTouched);
	return digest.filesRead.filter((file) => !touched.has(file));
}

/** The project's folder name in the vault: the last part of its path. */
function projectName(projectPath: string | undefined, projectDir: string): string {
	return safeFileName(baseName(projectPath ?? projectDir), "Unknown project");
}

/** `factQuotes` of each typed prompt, in order (what `planProposals` weighs). */
export function promptFactQuotes(model: SessionModel): FactQuote[][] {
	return promptsOf(model)
		.filter((p) => p.kind === "prompt")
		.map((p) => factQuotes(p.text));
}

/**
 * What the user typed, as keyword material: the start of each prompt, a bounded amount in all (pasted logs are not topics).
 * A slash command's arguments count when they are a request in words (`/review-pr check the retry logic`), not a
 * setting (`/model opus`): a custom command is often how the whole task is asked.
 */
export function promptText(model: SessionModel): string[] {
	const texts: string[] = [];
	let budget = 6_000;
	for (const p of promptsOf(model)) {
		const typed = p.kind === "prompt" ? p.text : p.kind === "command" ? commandRequest(p.text) : undefined;
		if (typed === undefined || budget <= 0) continue;
		const text = typed.slice(0, Math.min(1_000, budget));
		budget -= text.length;
		texts.push(text);
	}
	return texts;
}

/** Words after a slash command's name that make a request: three words or more. */
function commandRequest(command: string): string | undefined {
	const name = /\s/.exec(command);
	const args = name === null ? "" : command.slice(name.index).trim();
	return args.split(/\s+/, 3).length === 3 ? args : undefined;
}
