import { clip } from "./model-building";
import { keepCopiedTurns } from "./rewind";
import type { SessionModel } from "./session-model";

/**
 * `claude --resume A --fork-session` (and the client's other forks) writes a new session file that
 * starts with A's history copied in, the same uuids under the new session id, each copied reply
 * naming A (`requestSessionId`). Those prompts are A's, in A's note: here they give way to one
 * `forked` event that names A and counts them, so the fork's note, title and digest start where
 * the fork does. The copied replies' tokens were A's and are not counted again.
 *
 * Only a copy before the fork's first reply of its own is taken out (its fold then ends here, true):
 * copies come first, and everything after one of its own replies is its own. The fold notes that
 * one came (`ownReply`, also when past the events' budget); a stored model is looked through once:
 * a look per copied reply grew with the square in a file of many prompts, a reply, then many lines
 * naming another session.
 */
export function foldCopiedReply(model: SessionModel, from: string, timestamp: string | undefined, messageId?: string): boolean {
	const events = model.events;
	if (model.index.ownReply || events.some((e) => e.kind === "text" || e.kind === "thinking" || e.kind === "tool" || e.kind === "error")) {
		model.index.ownReply = true;
		return false;
	}
	let prompts = 0;
	for (const event of events) {
		if (event.kind === "forked") prompts += event.prompts;
		else if (event.kind === "prompt") {
			prompts++;
			if (event.promptKind === "command") model.counts.slashCommands--;
			else model.counts.prompts--;
		}
	}
	// A compaction may replay them: known still, they are not the fork's own then.
	keepCopiedTurns(model, events, messageId);
	// Rewinds, compactions and prompts of the copy: all in the parent's note.
	// The id as the line gave it: a session id, unless the line lies.
	model.events = [{ kind: "forked", from: clip(model, from, 100), prompts, timestamp }];
	model.interruptedAt = undefined;
	model.index.redactedEvents = 0;
	return true;
}
