import { withoutInterjection } from "./narration";
import { trimmed } from "./restated";

/**
 * Statements that claim an end or agree without saying what: "All changes are complete.", "I have
 * fully completed the task.", "Everything is clean and pushed.", "That makes sense.", "Yep —
 * classic issue.". True enough, but a result slot filled with one is a result lost: the statement
 * after it ("`access()` now only checks the inode exists") is what the next session needs.
 * Anything that names a thing (code, a path, a number, a name in capitals past the first word)
 * is never hollow.
 */
const HOLLOW = [
	// "All changes are complete", "All done", "All set", "Everything is clean and pushed".
	/^(?:all|everything)(?: (?:two|three|four|five|six|seven|eight|nine|ten))?(?: (?:the |of the |my )?(?:changes|tasks|work|items|steps|edits|fixes|updates))?(?: (?:are|is|have been|has been|looks?|seems?))?(?: now)?(?: (?:done|complete|completed|finished|in place|set|good|green|clean|correct|working|fixed|ready|captured|covered|handled|accounted for))(?: and (?:pushed|committed|tested|verified|clean|working|ready))?$/i,
	// "I have fully completed the task", "I've finished", "I've identified and fixed the bug".
	/^i(?:'ve| have)(?: now)?(?: (?:fully|successfully|completely))? (?:completed|finished|done|identified and fixed|fixed|resolved|made the changes?|implemented the changes?)(?: (?:the|this|your|all(?: the)?|both))?(?: (?:task|tasks|work|request|changes?|bug|issue|problem|fix|fixes|requirements?))?$/i,
	// "The task is complete", "The fix is done", "The implementation is finished", "The plan is ready".
	/^(?:the )?(?:task|tasks|plan|work|implementation|change|changes|fix|fixes|update|request|experiment|job|migration|refactor|refactoring|setup)(?: (?:is|are|has been|have been))?(?: now)? (?:complete|completed|done|finished|in place|ready|clean)$/i,
	// "Ready to merge.", "Ready to build.", "Ready to commit whenever you say the word", "The draft is ready for you to review and
	// sign off when you have time": a state the next step waits in, whatever the step, or the user's go; not a result (what was
	// made ready is told by its own result). One waiting on something else ("…once the staging deploy goes green") names it.
	/^(?:(?:it's|it is|this is|that's|everything is|all|i'm|i am|(?:the|this|your) [\w-]+(?: [\w-]+)? (?:is|are)(?: now)?) )?ready (?:to|for) [\w-]+(?: (?!(?:when(?:ever)?|once|as|if|until|after)\b)[\w-]+){0,5}(?: (?:when(?:ever)?|once|as soon as|if) you\b.*)?$/i,
	// Agreement and acknowledgement: "That makes sense given …", "Good to know", "Fair point", "Ah yes, you're absolutely right".
	/^(?:(?:ah|oh)[\s,]+)?(?:yes[\s,]+)?you(?:'re|’re| are) (?:absolutely |exactly |completely |totally |quite )?(?:right|correct)$|^(?:that|this|it)? ?makes (?:total |perfect )?sense\b|^(?:good|fair|great) (?:split|point|plan|call|choice|question|catch)$|^(?:good to know|sounds good|got it|noted|understood|that's it|that's all|that should do it|that should work)$/i,
	// Nothing asked of the reader ("No action needed on your end", "Nothing else is needed from you"): no work done, and none left.
	/^(?:no (?:further |other )?(?:action|steps?|input|changes?)(?: is| are)? (?:needed|required)|nothing (?:else |more |further )?(?:is )?(?:needed|required))(?: (?:on|from) your (?:end|side|part)| from you)$|^no (?:further )?action (?:is )?(?:needed|required)$/i,
	// An expectation said of nothing named ("It should work now", "They should be off now"): what was done to get there is the result, if told.
	/^(?:it|they|that|this|everything|all|things) should (?:now )?(?:be (?:[\w-]+ ){0,2}[\w-]+|work(?: (?:fine|again|properly|correctly))?)(?: now)?$/i,
	// A bare "Committed." or "Done and pushed." after the commit itself is listed.
	/^(?:committed|pushed|done|fixed|saved|finished|completed|deployed|merged)(?: and (?:pushed|committed|deployed|merged|tested))?$/i,
	// An intro to what follows ("Here's the summary of what I changed", "Here is what I found") and the agent's grasp
	// ("I now understand the issue", "Now I see the problem"): what was changed or understood comes after, if anywhere.
	/^here(?:'s|’s| is| are) (?:(?:a|the|my) )?(?:(?:short|quick|brief|full) )?(?:summary|overview|recap|rundown|breakdown|what (?:i|we) (?:changed|did|found|fixed))\b[^:]*$|^(?:now )?i (?:now )?(?:understand|see|get) (?:the|this|that|what)(?: (?:issue|problem|bug|cause|situation|error|question))?(?: (?:now|better|clearly|fully))?$/i,
	// A finding pointed at ("There's the problem.", "Found the culprit."): what it is comes in the next sentence.
	/^(?:there|that|this|here)(?:'s|’s| is) (?:the|your|our) (?:issue|problem|bug|cause|culprit)$|^(?:i )?found (?:it|the (?:issue|problem|bug|cause|culprit))$/i,
	// "Classic issue.", "A known gotcha." (the explanation follows in the next sentence).
	/^(?:a |the |this is a |that's a )?(?:classic|common|known|well-known|typical|frequent) (?:issue|problem|gotcha|limitation|pitfall|mistake|one)$/i,
];

/** What was looked at before the findings ("I've read the whole thing — the harness, the tasks…"): the reading, not what it found. */
const LOOKED =
	/^i(?:'ve| have)(?: now)? (?:read|reviewed|looked (?:at|through|over)|gone (?:through|over)|examined|explored|checked|studied|analy[sz]ed) (?:the whole thing|everything|it all|all of it|all of (?:the|your) \w+|the (?:whole|entire|full) \w+)(?: ?[—–:-] .*)?$/i;

/** What is left of a claim of an end once the names the request gave are taken out ("The migration is complete", "is done"). */
const ENDED = /^(?:the\s+)?(?:(?:task|tasks|ticket|issue|story|feature|work|migration|port|refactor|refactoring|upgrade|implementation|change|changes|update|fix)\s+)?(?:is|are|has been|have been)(?:\s+now)?(?:\s+(?:fully|successfully))?\s+(?:complete|completed|done|finished)$/i;

/** A word that names something ("ENT-42", "WebSocket", "parser.ts"): a capital past its first letter, a digit, a dot, a dash or an underscore inside. */
const NAMED = /^[\p{L}\p{N}]+(?:[._-][\p{L}\p{N}]+)*$/u;

/**
 * The claim of an end without the names the request itself gave: "ENT-42 is complete" after
 * "Work on ENT-42" reads "is complete". Undefined when no such name is in it.
 */
function withoutAskedNames(claim: string, ask: string): string | undefined {
	let dropped = false;
	// The claim is 80 characters at most: its words are short.
	const kept = claim.split(/\s+/).filter((written) => {
		const word = written.replace(/^[`'"*]+|[`'"*]+$/g, "");
		const named = NAMED.test(word) && /[\d._-]|.\p{Lu}/u.test(word) && askedWords(ask).has(word.toLowerCase());
		dropped ||= named;
		return !named;
	});
	return dropped ? kept.join(" ") : undefined;
}

/**
 * The words of a request, lower-cased, as `withoutAskedNames` compares them: made when a claim
 * has a name in it, and for the last request only, as each statement of a task's replies is
 * judged against the same one (measured on the bench tree's first sync: `withoutAskedNames`,
 * which split the request again for every statement, 202 ms to 115 over the two threads).
 */
function askedWords(ask: string): ReadonlySet<string> {
	if (ask !== lastAsk) {
		lastAskWords = new Set(ask.toLowerCase().split(/[^\p{L}\p{N}._-]+/u).map(trimmed));
		lastAsk = ask;
	}
	return lastAskWords;
}
let lastAsk: string | undefined;
let lastAskWords: ReadonlySet<string> = new Set();

/**
 * True for a statement that claims completion or agrees, and names nothing; or names only what
 * the task's request named, when it claims that done ("The WebSocket migration is complete" of
 * "Migrate the poller to WebSocket"): the request says as much, and what changed is in the
 * statements after it.
 */
export function isHollow(statement: string, ask?: string): boolean {
	const s = withoutInterjection(statement).replace(/[\s.!。！]+$/, "").trim();
	if (LOOKED.test(s)) return true;
	if (s === "" || s.length > 80) return false;
	const bare = ask === undefined ? undefined : withoutAskedNames(s, ask);
	if (bare !== undefined && ENDED.test(bare)) return true;
	// Code, paths, numbers and names say something ("I" is no name).
	if (/[`/\\\d_@#=<>()[\]{}]|\.\w/.test(s) || /\s(?!I\b)[A-Z]/.test(s)) return false;
	return HOLLOW.some((re) => re.test(s));
}
