import { capitalize } from "./request-text";

/**
 * A result said without its speaker: "I've successfully converted the display to ruby elements"
 * reads "Converted the display to ruby elements", "Summary: Added a docstring" reads "Added a
 * docstring". The same words, fewer of them: a short entry fits one more result.
 */

/** "Summary:" and its like before the statement proper. */
const LABEL = /^(?:summary|in summary|in short|result)\s*[:—–-]\s*/i;
/** "I've (successfully) <done>…", "I <did>…": the speaker and the adverbs that say nothing, before a verb of the past. */
const SPEAKER =
	/^i(?:'ve| have)?(?: now)?(?: (?:successfully|also|just|fully|finally))? ((?:\w+ed|built|made|written|rewritten|wrote|rewrote|done|set up|put|found|kept|split|run|ran|taken|took|shown|sent|left|brought|gave|given|read|cut|dropped)\b.*)$/i;
/** Verbs of the past that tell a wish or a look, not a result ("I needed…", "I noticed…"). */
const NOT_A_RESULT = /^(?:needed|wanted|hoped|assumed|guessed|noticed|started|tried|wondered)\b/i;

export function asResult(statement: string): string {
	const s = statement.replace(LABEL, "");
	const said = SPEAKER.exec(s)?.[1];
	if (said === undefined || NOT_A_RESULT.test(said)) return s === statement ? statement : capitalize(s);
	return capitalize(said);
}
