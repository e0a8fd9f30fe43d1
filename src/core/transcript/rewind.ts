import { REDACTION_MARKER } from "../text/redaction-marker";
import { hash53 } from "./hash";
import { pushEvent } from "./model-building";
import type { SessionEvent, SessionModel } from "./session-model";

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
	const at = firstPromptWith(model, originalOf(model, parentUuid));
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
 * Claude Code's compaction writes earlier turns again after its summary (claude-code-log's dag.md,
 * "Compaction replay"): new uuids, each record with its original's parent, time and content. A
 * replayed prompt has a rewind's shape (a second prompt under one parent) and was read as one: the
 * note listed prompts nobody left, the tasks followed the copies. A rewind's prompt is typed anew,
 * with other text or at a later time. A replayed prompt adds nothing, and what is replayed with it
 * neither (`isReplayedMessage`, `isReplayedResults`), until a record that is no copy ends the replay (`index.replaying`,
 * stored with the model: a replay read over two syncs is one). Only the kept branch's prompts are
 * found: their parents are in the map the rewinds use, a root prompt (no parent) under `ROOT`.
 */
export function isReplayedPrompt(model: SessionModel, parentUuid: string | null | undefined, timestamp: string | undefined, text: string): boolean {
	const index = model.index;
	const at = timestamp === undefined || parentUuid === index.lastUuid ? -1 : firstPromptWith(model, originalOf(model, parentUuid) ?? ROOT);
	const original = at < 0 ? undefined : model.events[at];
	const replayed =
		(original?.kind === "prompt" && original.timestamp === timestamp && sameText(original.text, text, at < index.redactedEvents)) ||
		(timestamp !== undefined && index.copiedTurns?.has(promptKey(parentUuid, timestamp)) === true);
	// The copy just before a replayed prompt stands for the prompt's parent: the replay writes the chain in its order.
	if (replayed && index.replaying && index.lastUuid !== undefined && parentUuid) (index.replayedAs ??= new Map()).set(index.lastUuid, parentUuid);
	index.replaying = replayed ? true : undefined;
	return replayed;
}

/**
 * The record a compaction's copy stands for (see `isReplayedPrompt`), or the uuid itself. A rewind
 * after the compaction names the copy of the reply it goes back to (the client holds the copies),
 * while the prompts it leaves hang under the original: it was not seen, and the prompt it replaced
 * stayed told as asked and done.
 */
export function originalOf<T extends string | null | undefined>(model: SessionModel, uuid: T): T | string {
	return (uuid && model.index.replayedAs?.get(uuid)) || uuid;
}

/** While a replay is read, an assistant line of a message already counted, or copied from another session, is a copy; one of another ends the replay. */
export function isReplayedMessage(model: SessionModel, messageId: string | undefined): boolean {
	if (model.index.replaying !== true) return false;
	const known = messageId !== undefined && (model.index.usageByMessage.has(hash53(messageId)) || model.index.copiedTurns?.has(messageKey(messageId)) === true);
	return stillReplaying(model, known);
}

/**
 * A fork's (or an older `--resume`'s) copied turns give way to one `forked` event (forked.ts), so a
 * compaction's replay of them found no prompt to be a copy of: the fork's note told the other
 * session's prompts as its own again, counted its tokens and put its ask in the block once more.
 * What each copied turn is known by is kept instead: a prompt's parent and time, a reply's message.
 */
export function keepCopiedTurns(model: SessionModel, events: readonly SessionEvent[], messageId: string | undefined): void {
	const keys = (model.index.copiedTurns ??= new Set());
	for (const event of events) if (event.kind === "prompt" && event.timestamp !== undefined) keys.add(promptKey(event.parent, event.timestamp));
	if (messageId !== undefined) keys.add(messageKey(messageId));
}

function promptKey(parent: string | null | undefined, timestamp: string): number {
	return hash53(`p\n${parent ?? ROOT}\n${timestamp}`);
}

function messageKey(messageId: string): number {
	return hash53(`m\n${messageId}`);
}

/**
 * While a replay is read, a line of tool results none of whose calls waits for one is a copy; one a
 * call waits for ends the replay. A line of no results is left to the prompt's test.
 */
export function isReplayedResults(model: SessionModel, toolUseIds: readonly string[]): boolean {
	return model.index.replaying === true && toolUseIds.length > 0 && stillReplaying(model, toolUseIds.every((id) => !waitsForResult(model, id)));
}

function stillReplaying(model: SessionModel, copy: boolean): boolean {
	if (!copy) model.index.replaying = undefined;
	return copy;
}

function waitsForResult(model: SessionModel, id: string): boolean {
	const call = model.index.calls.get(id);
	return call !== undefined && (call.elided === true || call.result === undefined);
}

/**
 * The prompt's text as kept (clipped with a "…") is the start of the new one's. Redaction may have
 * changed a kept one since (the fold does not know the rules): one that holds a redaction's marker
 * is not compared, its parent and time (to the millisecond) tell.
 */
function sameText(kept: string, text: string, redacted: boolean): boolean {
	if (kept === text) return true;
	if (kept.endsWith("…") && text.startsWith(kept.slice(0, -1))) return true;
	return redacted && kept.includes(REDACTION_MARKER);
}

/** The key of the prompts with no parent (no uuid is empty). */
const ROOT = "";

/**
 * The place of the first typed prompt (a slash command the client runs itself, `/status`, is not
 * in the chain: the next prompt shares its parent) whose parent is `parent` (`ROOT`: none), or -1.
 * The map holds the first place of each parent in the events up to `to`; one the events no longer
 * hold there (cut by a rewind) gives way to the next prompt added with that parent.
 */
function firstPromptWith(model: SessionModel, parent: string): number {
	const events = model.events;
	let scan = model.index.promptParents;
	if (scan === undefined || scan.events !== events) scan = model.index.promptParents = { events, at: new Map(), to: 0 };
	for (let i = Math.min(scan.to, events.length); i < events.length; i++) {
		const event = events[i]!;
		// A prompt handed over from the queue has neither parent nor uuid: no link of the chain.
		if (event.kind !== "prompt" || event.promptKind !== "prompt" || (event.parent === undefined && event.uuid === undefined)) continue;
		const parent = event.parent ?? ROOT;
		const known = scan.at.get(parent);
		if (known === undefined || !isPromptWith(events, known, parent)) scan.at.set(parent, i);
	}
	scan.to = events.length;
	const at = scan.at.get(parent);
	return at !== undefined && isPromptWith(events, at, parent) ? at : -1;
}

function isPromptWith(events: SessionModel["events"], at: number, parent: string): boolean {
	const event = events[at];
	return event !== undefined && event.kind === "prompt" && event.promptKind === "prompt" && (event.parent ?? ROOT) === parent;
}
