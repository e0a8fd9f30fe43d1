import type { TranscriptFile } from "../transcript/transcript-files";

/** A transcript the scan found and a sync does not read, and why (as `TranscriptSource.passedOver`). */
export interface PassedOverFile {
	path: string;
	reason: string;
}

/**
 * The transcripts whose names hold what redaction takes for a secret, set apart from the others.
 * A transcript's name is its identity everywhere (the state's keys, the note's `session_id`, the
 * recall tools' ids): read, a token it holds would be stored whole. It is passed over instead,
 * named redacted, with what to do. The names the agents write themselves (a UUID, a date and an
 * id in hex) hold none and are not redacted to tell.
 */
export function setApartSecretNames(files: readonly TranscriptFile[], redactFor: (file: TranscriptFile) => (text: string) => string): { kept: TranscriptFile[]; passed: PassedOverFile[] } {
	const kept: TranscriptFile[] = [];
	const passed: PassedOverFile[] = [];
	for (const file of files) {
		const names = [lastPart(file.path), file.fileId, file.parentSessionId].filter((n): n is string => n !== undefined && !ORDINARY_NAME.test(n));
		const redact = names.length === 0 ? undefined : redactFor(file);
		if (redact === undefined || names.every((n) => redact(n) === n)) {
			kept.push(file);
			continue;
		}
		// A session inside a store of several (opencode's database, an Aider history) has no file to rename: its id is the store's own.
		const remedy = file.within === undefined && file.container === undefined ? "rename the file to have it read" : "its id is the agent's own, in the store it shares with other sessions: it stays unread";
		passed.push({ path: redact(file.path), reason: `its name holds what looks like a secret, which would be stored as the session's id; it is not read (${remedy})` });
	}
	return { kept, passed };
}

/** `<uuid>.jsonl`, `agent-<hex>.jsonl`, `rollout-<date>-<uuid>.jsonl`, `session-<date>-<hex>.jsonl`: only hex digits, dashes and a date's `T`/`:`/`.` after the agents' own word. */
const ORDINARY_NAME = /^(?:(?:agent|rollout|session)-)?[0-9a-f:T.-]*(?:\.jsonl?)?$/i;

function lastPart(path: string): string {
	return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}
