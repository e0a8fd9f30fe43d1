import { cutAtBoundary } from "./clause-cut";
import { isListingField } from "./not-results";
import type { ProseUnit } from "./prose";
import { capitalize } from "./request-text";

/**
 * Whether a step an earlier reply left is still the user's: it is left on their side ("One thing
 * left on your side: …", "you still need to …"), which the agent's later work does not do, and no
 * later request takes it up: names a word of it (five letters or more, "subdomain") that the
 * request it came from did not (that one's words are the session's topic, named again whatever is
 * asked next). `asks`: each task's request, the step's task given by its place.
 */
export function leftToUser(asks: readonly (string | undefined)[]): (step: string, task: number) => boolean {
	// The last request naming each word: one look per word of a step, not one per later request
	// (a session of thousands of tasks, each leaving a step, made that quadratic).
	const lastNamed = new Map<string, number>();
	asks.forEach((ask, i) => {
		for (const w of longWords(ask ?? "")) lastNamed.set(w, i);
	});
	return (step, task) => {
		if (!THEIRS.test(step)) return false;
		const topic = longWords(asks[task] ?? "");
		return ![...longWords(step)].some((w) => !topic.has(w) && (lastNamed.get(w) ?? -1) > task);
	};
}

/** A step a reply leaves to the user ("One thing left on your side: …", "you still need to …"): none the agent does next. */
const THEIRS = /(?<!\b(?:nothing|none)(?:\s+(?:is|else|more))?\s+)\bleft (?:on|for) your (?:side|end)\b|\bfor you to do\b|\byou still need to\b|\byou\b[^.;]{0,80}\bmanually\b/i;

/**
 * A question left to the user, with the request it is about when it asks to pick among what the
 * reply laid out and names nothing of the request ("Which direction do you prefer?" after "Reword the
 * warning shown for a second session"): read in the next session, a choice among options no longer
 * on screen says nothing of what is to be chosen. Other questions name their own subject ("Should I
 * also migrate the old callers?"), and the last request may not be it.
 */
export function withItsRequest(question: string, ask: string | undefined): string {
	if (ask === undefined || !/^(?:so,?\s+)?which\b/i.test(question)) return question;
	const named = longWords(question);
	if ([...longWords(ask)].some((w) => named.has(w))) return question;
	return `${question} (about: ${cutAtBoundary(ask, REQUEST_SHOWN)})`;
}

/** How much of the request a question is about comes with it: enough to name it. */
const REQUEST_SHOWN = 70;

function longWords(text: string): Set<string> {
	return new Set(text.toLowerCase().match(/\p{L}{5,}/gu) ?? []);
}

/**
 * A section's intro, its last sentence, that makes its steps wait on the reader's yes ("If you agree, …:", "If you'd
 * like, next I can:"); "Once you merge it, …:" only orders them after the reader's step, and they stay.
 */
export const ON_CONDITION = /(?:^|[.!?]\s+)if you\b[^.!?]*$/i;

/**
 * What a unit of a reply leaves to do, or undefined: all of it under a section that says so (a
 * "## Next steps" heading, a "**Remaining:**" intro), what follows such a label in the sentence
 * ("**Next steps**: deploy the worker"), or the clause that says what is still to do.
 */
export function leftOpen(unit: ProseUnit): string | undefined {
	// "Status: Not planned yet" tells the next session nothing without the item it belongs to: named
	// by the list's intro ("Phase 4.1 inserted after Phase 4"), or left out.
	if (isListingField(unit.text)) {
		const subject = unit.kind === "item" && !DEFERRED_SECTION.test(unit.section) ? unit.sectionAsWritten?.replace(/[:：]\s*$/, "").trim() : undefined;
		return subject && DEFERRED_SENTENCE.test(unit.text) ? `${subject} — ${unit.text.charAt(0).toLowerCase()}${unit.text.slice(1)}` : undefined;
	}
	if (DEFERRED_SECTION.test(unit.section)) return NAVIGATION.test(unit.text) ? undefined : unit.text;
	const labeled = /^([^:]{2,40}):\s+(\S.*)$/.exec(unit.text);
	if (labeled && DEFERRED_LABEL.test(labeled[1]?.trim() ?? "")) return capitalize(labeled[2] ?? "");
	if (!DEFERRED_SENTENCE.test(unit.text)) return undefined;
	// "Added a token bucket; we still need to tune the limits": only the clause left open.
	const clause = unit.text.split(/;\s+|,\s+(?=(?:but|and|though|however)\s)/).find((c) => DEFERRED_SENTENCE.test(c)) ?? unit.text;
	return clause.replace(/^(?:but|and|though|however)\s+/i, "");
}

/**
 * A step that only goes to a place ("Go to https://example.com/settings", "Open `http://localhost:3000`"): the way to the step,
 * which the next item says; told alone it is all an entry's room for steps left and says nothing of what is to be done there.
 */
const NAVIGATION = /^(?:go to|open|visit|navigate to|head (?:over )?to|browse to)\s+(?:<?https?:\/\/|`)\S*[.!]?$/i;

const DEFERRED_SECTION = /\b(?:next steps?|remaining|todo|to do|not yet|follow[- ]?ups?|left to do|still to do|known (?:issues?|limitations?)|limitations|future work|later|to get started|before (?:you|it) (?:can|start|works?)|on your (?:side|end)|for you to do|what you need to do|action (?:required|needed))\b|다음 단계|남은|향후|今後|残り|次のステップ|未対応|后续|下一步|待办|未完成/i;
/** A sentence's label that is all a "left to do" section's name ("Next steps: …"), not one that only holds the words ("Todo saved: …"). */
const DEFERRED_LABEL = /^(?:next steps?|remaining(?: work| steps)?|still to do|left to do|to ?do|follow[- ]?ups?|open (?:items|questions)|known (?:issues?|limitations?)|action (?:required|needed)|for you to do|다음 단계|남은 작업|次のステップ|残りの作業|后续步骤|下一步|待办)$/i;
/**
 * A sentence that says what is still to do; "when you need to …" tells when a step applies, not that it is left, and
 * "you may (or might) need to …" a step for a case that may not come ("…reload the editor if the rule is not picked up"),
 * unless it is to be done "manually": a step the agent could not take, handed to the reader.
 */
const DEFERRED_SENTENCE =
	/\b(?:not (?:yet )?(?:implemented|planned|started|tested|verified|committed|pushed|merged|deployed)|(?<!\b(?:when|whenever|if|in case|unless)\s+)you(?:(?:'ll| will| would) (?:want|need) to| (?:still )?need to)|(?:needs?|have) to be done manually|(?<!\b(?:when|whenever|if|in case|unless)\s+)you(?:['’]ll| will| may| might)? (?:want|need|have) to\b[^.;]{0,60}\bmanually\b|still needs?|remains? to be|left for later|out of scope for now|todo:|not done yet|needs? to be (?:done|added|fixed) later|(?:is|are) still (?:uncommitted|unstaged|unpushed|open|unresolved|failing|missing|pending)|(?<!\b(?:nothing|none)(?:\s+(?:is|else|more))?\s+)left (?:on|for) your (?:side|end)|(?:whenever|once) you(?:'ve| have)? (?:have|get|set|add|create|provide|share|decide|confirm))\b|아직\s*(?:구현|완료)되지|まだ(?:実装|対応)して|尚未|还没有(?:实现|完成)/i;
