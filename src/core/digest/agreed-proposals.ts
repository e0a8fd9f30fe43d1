import { decisionsOf } from "./decisions";
import type { PickedOption } from "./picked-options";
import { proseUnits } from "./prose";
import { typedPart } from "./request-text";
import type { SessionEvent } from "../transcript/session-model";
import { straightQuotes } from "../text/straight-quotes";

/**
 * A way the user put forward, often only weighed or asked ("maybe we should keep the old API?",
 * "you can read it from the env instead"), that the agent's next reply takes up by agreeing
 * first ("You're right — …", "Good idea.", "Exactly!"): the user's choice, though their words
 * alone would not make one. A bug the user reports ("the save button is broken") names no way
 * and is none, however the agent agrees.
 */

/** A reply that opens by agreeing with what the user put forward, a short interjection first or not ("Ah yes, you're right"). */
const AGREES = /^(?:(?:ah|oh|yes|yeah|yep|ok(?:ay)?|right|hmm)\b[\s,!.—–-]*){0,2}(?:you(?:'re| are) (?:absolutely |completely |totally |quite )?right|good (?:idea|call|point|suggestion)|great (?:idea|call|point|suggestion)|agreed|(?:that )?makes sense|exactly)\b/i;
/** A sentence of the prompt that names a way: a verb a choice is made with, or what it is taken against. */
const NAMES_A_WAY = /\b(?:use|using|move|switch|put|keep|set|store|go with|instead|rather|replace|drop)\b/i;
/** A question that asks after what was done ("why did you set it to 5?", "is the cache used?"), not one that puts a way forward ("should we…?", "what about…?"). */
const ASKS_AFTER = /^(?:why|where|when|who|which|did|does|do|is|are|was|were|has|have|had)\b/i;
/** The longest sentence told: a longer one argues a case, and its way is not the sentence as a whole. */
const MAX = 200;

/** Each prompt whose way the next main-thread reply agrees with, told as the user's choice in their words. One pass over the events. */
export function agreedProposals(events: readonly SessionEvent[]): PickedOption[] {
	const agreed: PickedOption[] = [];
	let prompt: string | undefined;
	for (const event of events) {
		if (event.kind === "prompt") prompt = event.promptKind === "prompt" ? event.text : undefined;
		else if (event.kind === "text" && event.sidechain === undefined && prompt !== undefined) {
			// A prompt whose own words already make a choice ("no, use pnpm instead") is told by them (see `decisionsOf`).
			const way = AGREES.test(straightQuotes(event.text.trim())) && decisionsOf({ prompts: [prompt] }).length === 0 ? wayPutForward(prompt) : undefined;
			if (way !== undefined) agreed.push({ prompt, choice: `user chose: ${way}` });
			prompt = undefined;
		}
	}
	return agreed;
}

/**
 * A parenthesized aside after a space ("… (which is not unlikely)", "… (do we even need it?)"; not
 * a call's `f(x)`): not the way itself, and a question inside one would end the sentence there.
 */
const ASIDE = / \([^()\n]*\)/g;

/** The prompt's sentence that names a way, its asides left out, to its question mark (the agreement answered it; what is pasted after is not the user's words). */
function wayPutForward(prompt: string): string | undefined {
	const sentence = proseUnits(typedPart(straightQuotes(prompt)).replace(ASIDE, "")).find((u) => NAMES_A_WAY.test(u.text.split("?")[0] ?? ""))?.text;
	const asked = sentence?.split("?")[0]?.trim();
	return asked === undefined || asked.length > MAX || ASKS_AFTER.test(asked) ? undefined : asked;
}
