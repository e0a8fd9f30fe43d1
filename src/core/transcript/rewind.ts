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
 * restore, the first prompt is), and the prompts are found by their parent in a map the events
 * are added to once (`firstPromptWith`): a file whose every prompt names another parent made a
 * scan of all the events per prompt, which grows with the square.
 */
export function leaveBranchFor(model: SessionModel, parentUuid: string | null | undefined, timestamp: string | undefined): void {
	if (!parentUuid || parentUuid === model.index.lastUuid) return;
	const events = model.events;
	const at = firstPromptWith(model, parentUuid);
	if (at < 0) return;
	// Rewound again at the same point: one list of what was left there, added to in place (copied
	// each time, a file rewound 100,000 times at one point copied the list as often).
	const prior = at > 0 ? events[at - 1] : undefined;
	const into = prior?.kind === "rewound" ? prior : undefined;
	const left = into ? into.prompts : [];
	for (let i = at; i < events.length; i++) {
		const event = events[i]!;
		if (event.kind === "prompt") {
			// Counted as the turns the note shows, as Gemini CLI's are.
			if (event.promptKind === "command") model.counts.slashCommands--;
			else model.counts.prompts--;
			if (event.text !== "") left.push(event.text);
		} else if (event.kind === "rewound") for (const text of event.prompts) left.push(text);
	}
	events.length = at;
	if (model.index.promptParents) model.index.promptParents.to = Math.min(model.index.promptParents.to, at);
	if (model.interruptedAt !== undefined && model.interruptedAt > at) model.interruptedAt = undefined;
	// The list's event takes a place redaction may have passed: it is redacted with the next ones.
	model.index.redactedEvents = Math.min(model.index.redactedEvents, into ? at - 1 : at);
	if (into) into.timestamp = timestamp;
	else pushEvent(model, { kind: "rewound", prompts: left, timestamp });
}

/**
 * The place of the first typed prompt (a slash command the client runs itself, `/status`, is not
 * in the chain: the next prompt shares its parent) whose parent is `parent`, or -1. The map holds
 * the first place of each parent in the events up to `to`; one the events no longer hold there
 * (cut by a rewind) gives way to the next prompt added with that parent.
 */
function firstPromptWith(model: SessionModel, parent: string): number {
	const events = model.events;
	let scan = model.index.promptParents;
	if (scan === undefined || scan.events !== events) scan = model.index.promptParents = { events, at: new Map(), to: 0 };
	for (let i = Math.min(scan.to, events.length); i < events.length; i++) {
		const event = events[i]!;
		if (event.kind !== "prompt" || event.promptKind !== "prompt" || event.parent === undefined) continue;
		const known = scan.at.get(event.parent);
		if (known === undefined || !isPromptWith(events, known, event.parent)) scan.at.set(event.parent, i);
	}
	scan.to = events.length;
	const at = scan.at.get(parent);
	return at !== undefined && isPromptWith(events, at, parent) ? at : -1;
}

function isPromptWith(events: SessionModel["events"], at: number, parent: string): boolean {
	const event = events[at];
	return event !== undefined && event.kind === "prompt" && event.promptKind === "prompt" && event.parent === parent;
}
