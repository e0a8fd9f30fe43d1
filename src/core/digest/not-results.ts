/**
 * Statements of a reply that tell no result even though they read as one: a step left to the
 * user ("Run `bd ready` to see available work"), an option laid out for them to pick ("Option A:
 * minimal and friendly"), what would or will happen ("That will create the repo and push it",
 * "It would have caught the bug in dev"), work still going ("Still compiling…"), a task
 * listing's field ("Depends on: Task 1"), and a bare name (".gitignore"). A result slot they
 * fill is a result lost. Anchored patterns over one statement: linear.
 */

/** An opening verb that hands a step to the reader, or a plan's next step ("Then remove the manual call"). */
const INSTRUCTION = /^(?:then\s+)?(?:run|open|go to|visit|click|paste|type|navigate to|restart|reload|refresh|try|copy|press|select|enter|sign in|log in|head to)\b|^then (?:remove|add|update|delete|change|replace|call|use|create|move|set|push|commit)\b/i;
/** An option laid out: "Option A: …", "Option 2 — …", "Option (b) (…)". */
const OPTION = /^option\s+\(?[a-z0-9]{1,2}\)?\s*[:—–(-]/i;
/** What would, could or will happen, not what did ("…will now open Vivaldi" did happen). */
const WOULD = /^(?:that|this|it|which|they|these|those)(?:'ll|'d| will| would| could| might| may)\b(?!\s+now\b)/i;
/** Work still going when the reply was written ("Still compiling the test dependencies."). */
const STILL = /^still \w+ing\b/i;
/** A field of a task listing ("Depends on: Task 1", "Priority: P2"): what the task is, not what was done. */
const FIELD = /^(?:depends on|blocked by|blocks|priority|status|assignee|labels?|type|estimate)\s*:/i;
/** One token, no space, in a script that spaces its words: a name, not a statement. */
const BARE_NAME = /^[\x21-\x7e]+$/;

export function isNotResult(statement: string): boolean {
	const s = statement.trim();
	return INSTRUCTION.test(s) || OPTION.test(s) || WOULD.test(s) || STILL.test(s) || FIELD.test(s) || BARE_NAME.test(s.replace(/[.!]+$/, ""));
}
