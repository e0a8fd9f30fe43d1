import { digestSession, type SessionDigest } from "../digest/session-digest";
import { termOccurrences, type TermOccurrence } from "../digest/topic-tags";
import type { SessionModel } from "../transcript/session-model";
import { promptsOf } from "../transcript/session-queries";

/** The per-session work that needs only the session itself: done as soon as it is read. */
export interface PreparedSession {
	/** The `summary` title it was made with (a later one means doing it again). */
	summaryTitle: string | undefined;
	digest: SessionDigest;
	terms: readonly TermOccurrence[];
}

export function prepareSession(model: SessionModel, summaryTitle: string | undefined): PreparedSession {
	return { summaryTitle, digest: digestSession(model, summaryTitle), terms: termOccurrences(promptText(model)) };
}

/** What the user typed, as keyword material: the start of each prompt, a bounded amount in all (pasted logs are not topics). */
export function promptText(model: SessionModel): string[] {
	const texts: string[] = [];
	let budget = 6_000;
	for (const p of promptsOf(model)) {
		if (p.kind !== "prompt" || budget <= 0) continue;
		const text = p.text.slice(0, Math.min(1_000, budget));
		budget -= text.length;
		texts.push(text);
	}
	return texts;
}
