import type { StoredDigest } from "../digest/session-digest";
import type { SessionEvent } from "../transcript/session-model";
import type { SearchDoc, SearchTurn } from "./conversation-index";

/**
 * What search reads of a session: turn 0 its digest (title, requests, outcomes, open items,
 * decisions, tags, files), then each prompt with the assistant's words that answer it, numbered
 * as the note numbers its `### You · n` headings (every prompt event counts), with the prompts a
 * rewind left. Tool input and output and thinking stay out: they are the note's folded parts, not
 * what a person remembers.
 * @param events the session's events, from its stored (redacted) model; none: the digest alone.
 */
export function conversationDoc(id: string, digest: StoredDigest, tags: readonly string[], events: readonly SessionEvent[] = []): SearchDoc {
	const turns: SearchTurn[] = [];
	// Each line once; the title is left out when it is the first request cut short.
	const lines = [...new Set([digest.title, ...digest.asked, ...digest.tasks.flatMap((t) => t.result), ...digest.done, ...digest.open, ...digest.decisions, ...tags, ...digest.filesTouched])];
	const cut = digest.title.replace(/…$/, "");
	const digestText = (digest.asked.some((a) => a !== digest.title && a.startsWith(cut)) ? lines.slice(1) : lines).join("\n");
	turns.push({ turn: 0, text: digestText });
	let turn = 0;
	let parts: string[] = [];
	const flush = () => {
		if (turn > 0 && parts.length > 0) turns.push({ turn, text: parts.join("\n\n") });
		parts = [];
	};
	for (const event of events) {
		if (event.kind === "prompt") {
			flush();
			turn++;
			parts.push(event.text);
		} else if (event.kind === "text" && !event.sidechain && turn > 0) {
			parts.push(event.text);
		} else if (event.kind === "rewound") {
			// What the person typed on a branch a rewind left: shown folded after this turn, found with it.
			if (turn > 0) parts.push(...event.prompts);
			else turns[0]!.text += `\n${event.prompts.join("\n")}`;
		}
	}
	flush();
	return { id, turns };
}
