import { cutAtBoundary } from "./clause-cut";
import type { SessionModel } from "../transcript/session-model";

const TITLE_MAX = 60;

/**
 * The session's title: the user's `/rename`, else the heading of the plan the session presented
 * or was handed, else the client's generated title, else the newest `summary` line naming this
 * session, else its first request (greetings and paste already dropped), shortened at a word.
 * `summaryFor` resolves summary lines written into other files of the project.
 */
export function sessionTitle(model: SessionModel, summaryFor?: string, plan?: string, firstAsk?: string): string {
	const chosen = model.customTitle ?? plan ?? model.aiTitle ?? summaryFor ?? firstAsk;
	if (chosen) return shorten(chosen);
	// A command with arguments (`/orchestrator build a TODO app`) says what the session is
	// about; `/clear` or `!ls` at the start does not.
	let fallback: string | undefined;
	for (const event of model.events) {
		if (event.kind !== "prompt" || event.text.trim() === "") continue;
		if (event.promptKind === "prompt" || (event.promptKind === "command" && event.text.includes(" "))) return shorten(firstLine(event.text));
		fallback ??= event.text;
	}
	return fallback ? shorten(fallback) : "Untitled session";
}

function firstLine(text: string): string {
	const line = text.split("\n").find((l) => l.trim() !== "") ?? text;
	return line.replace(/^[#>*\-\s]+/, "");
}

/** At most TITLE_MAX characters, cut at a sentence, clause or word boundary; no closing period. */
export function shorten(text: string, max = TITLE_MAX): string {
	return cutAtBoundary(text, max).replace(/(?<!\.)\.$/, "");
}
