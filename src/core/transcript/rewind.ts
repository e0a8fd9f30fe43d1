import { pushEvent } from "./model-building";
import type { SessionModel } from "./session-model";

/**
 * Claude Code's rewind (Esc Esc, or an earlier prompt edited and sent again) leaves the branch it
 * turns from in the file, and gives the new prompt the parent of the prompt it replaces. What
 * followed that prompt is not what happened: its events give way to one `rewound` event that keeps
 * the left prompts' text (the person typed them), so the tasks, the digest and the CLAUDE.md block
 * follow the branch kept, as Gemini CLI's `$rewindTo` does.
 *
 * Only a prompt whose parent is not the record just before it is looked into (`lastUuid`; after a
 * restore, the first prompt is): a scan of the events per prompt would grow with the square.
 */
export function leaveBranchFor(model: SessionModel, parentUuid: string | null | undefined, timestamp: string | undefined): void {
	if (!parentUuid || parentUuid === model.index.lastUuid) return;
	const events = model.events;
	let at = -1;
	for (let i = events.length - 1; i >= 0; i--) {
		const event = events[i]!;
		// A slash command the client runs itself (`/status`) is not in the chain: the next prompt shares its parent.
		if (event.kind === "prompt" && event.promptKind === "prompt" && event.parent === parentUuid) at = i;
	}
	if (at < 0) return;
	// Rewound again at the same point: one list of what was left there.
	if (at > 0 && events[at - 1]!.kind === "rewound") at--;
	const left: string[] = [];
	for (let i = at; i < events.length; i++) {
		const event = events[i]!;
		if (event.kind === "prompt") {
			// Counted as the turns the note shows, as Gemini CLI's are.
			if (event.promptKind === "command") model.counts.slashCommands--;
			else model.counts.prompts--;
			if (event.text !== "") left.push(event.text);
		} else if (event.kind === "rewound") left.push(...event.prompts);
	}
	events.length = at;
	if (model.interruptedAt !== undefined && model.interruptedAt > at) model.interruptedAt = undefined;
	// The new event takes a place redaction may have passed: it is redacted with the next ones.
	model.index.redactedEvents = Math.min(model.index.redactedEvents, at);
	pushEvent(model, { kind: "rewound", prompts: left, timestamp });
}
