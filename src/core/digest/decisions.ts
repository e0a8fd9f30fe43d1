import { asResult } from "./as-result";
import { cutAtBoundary } from "./clause-cut";
import { isNotResult, LINE_MARKUP, OPTION } from "./not-results";
import { isQuestion, isStatement, proseUnits, type ProseUnit } from "./prose";
import { capitalize, typedPart } from "./request-text";
import type { SessionEvent, ToolCall } from "../transcript/session-model";
import { straightQuotes } from "../text/straight-quotes";

/** A character within a sentence: a dot only inside a name (`entire.log`, `next.config.js`), not the one that ends it. */
const SPAN = String.raw`(?:[^.\n]|\.(?=\S))`;

/**
 * Decisions: sentences that state a choice ("we'll go with X because…", "use pnpm instead of
 * npm", "X로 하기로 했습니다", "Xを採用しました", "决定使用X"), with their reason when given. A
 * diagnosis ("…has a `content` field instead of a `message` field") names no choice and does not
 * count; narration ("Let me use grep instead") neither.
 */
/** The verbs of a change told against what it replaced ("kept X rather than Y", "used X instead of Y"). */
const INSTEAD_VERBS = String.raw`(?:use|using|used|switch to|move to|moved to|keep|keeping|kept|store|stored|storing|put|call|calling|called|rely on|relied on|add|added|write|wrote)`;
/** How the way taken is named when it is told as the one to take: "the best fix", "the cleaner path", "the simpler way". */
const FITTEST = String.raw`(?:best|right|simplest|cleanest|safest|easiest|better|cleaner|simpler|safer|easier|proper|correct)`;
/**
 * A choice its maker says was made on purpose: "I deliberately kept them out of the commit", "We
 * intentionally do not cache the token". Said in the first person only: "the field was
 * intentionally removed upstream" or "the user intentionally cleared it" tells what someone else did.
 */
const ON_PURPOSE = String.raw`(?:i|we)(?:'ve| have)?\s{1,4}(?:\*\*)?(?:deliberately|intentionally|purposely|purposefully)\s{1,4}\w+`;
const CHOICE_EN = new RegExp(
	String.raw`\b(?:decided|decide to|chose|choose to|opted|opt for|settled on|settle on|went with|go with|going with|stick with|sticking with|picked(?! up)|switch(?:e[sd]|ing)?(?:\s+${SPAN}{0,40}?\bfrom\s+${SPAN}{1,60}?)?\s+to|prefer(?:s|red)?\b${SPAN}{0,80}\bover|we(?:'ll| will) use|i(?:'ll| will| went to) use|${INSTEAD_VERBS}\s+${SPAN}{1,60}?\s+(?:instead of|rather than)|(?:the )?${FITTEST} (?:fix|approach|option|way|choice|solution|path) (?:is|was|here is) to|${ON_PURPOSE})\b|^no (?!(?:further )?action\b)(?:[\w-]+ ){1,3}(?:is |are )?(?:needed|required|necessary)\b`,
	"i",
);
/**
 * What something else did against what it should have, said of it as its subject: "The hook
 * called the API instead of the cache", "Your config is using webpack instead of vite", "it's
 * using the old build rather than the new one". A diagnosis (often the bug itself), not a choice;
 * "The plan is to keep X rather than Y" says what is to be done, and is not one.
 */
const DIAGNOSIS = new RegExp(
	String.raw`^(?:[^:\n]{1,60}:\s+)?(?:(?:the|this|that|these|those|its|your|their|his|her|an?)\s+(?:(?!\b(?:i|we)\b)${SPAN}){0,60}?|(?:it|they|he|she)(?:'s|'re)?\s+(?:\w+\s+)?)(?:is |was |were |are |has |had |have )?(?<!\bto\s)${INSTEAD_VERBS}\s+${SPAN}{1,60}?\s+(?:instead of|rather than)\b`,
	"i",
);
/** The choices of `CHOICE_EN` that a diagnosis does not explain: the same pattern with the changed-against alternative left out. */
const CHOICE_EN_BESIDES_INSTEAD = new RegExp(CHOICE_EN.source.replace(String.raw`|${INSTEAD_VERBS}\s+${SPAN}{1,60}?\s+(?:instead of|rather than)`, ""), "i");
/**
 * The agent's recommendation among options ("I'd recommend Option 1 (…) as it is the most
 * robust", "My recommendation: Vite", "We should use `WithAgent` instead"): a choice once it
 * holds, a proposal until then (see `heldReplies`).
 */
const RECOMMEND = /\b(?:i(?:'d| would)? (?:strongly )?recommend\s+(?:\*\*)?(?:option|approach|going with|using|sticking with|keeping|switching to)|my recommendation(?: is)?|we should (?:use|switch to|keep|go with|stick with|store|move to|rely on))\b/i;
/**
 * A change told with its reason: "Used `seen_ids` to avoid double-counting", "Made an empty id
 * valid, since the file name no longer comes from it". A sentence (or a list item, after its
 * label) that opens on the change; `REASONED_LINE` finds one at a line's start in a whole reply.
 */
const REASONED_VERBS = String.raw`(?:i |we )?(?:used|kept|made|moved|switched|replaced|removed|dropped|chose|put|skipped|left)\b[^.\n]{3,140}?\b(?:because|since|so that|to avoid|to prevent)\b`;
const REASONED = new RegExp(String.raw`^(?:[^:\n]{1,40}:\s+)?${REASONED_VERBS}`, "i");
const REASONED_LINE = new RegExp(String.raw`^[ \t]*(?:[-*][ \t]+)?(?:\*\*[^*\n]{1,60}\*\*[:\s—-]*)?${REASONED_VERBS}`, "im");
/**
 * A change told against the way not taken, that way first: "Instead of patching the vendored
 * copy, I upgraded the package", "Rather than adding a flag, made the default match". Told as
 * done (a past verb), not as a plan ("…, I'll upgrade") or an offer ("…, you could upgrade").
 */
const PASSED_OVER = /^(?:instead of|rather than)\s[^,\n]{3,120},\s+(?:(?:i|we)(?:'ve| have)?\s+)?(?:\w+ed|made|kept|went|put|left|chose|wrote|built|set|split|took|ran)\b/i;
/** The same way not taken, opening a sentence anywhere in a reply: the cheap look before it is split. */
const PASSED_OVER_ANYWHERE = /\b(?:Instead of|Rather than)\s/;
/**
 * A sentence that opens on its reason and goes on to a choice: "Since no plugin reads the old
 * key, I'll drop it", "Because the frame blocks form posts, the buttons need to be rewired".
 */
const REASON = String.raw`(?:since|because|as|given(?: that)?)\s[^,\n]{3,160},\s+`;
const AHEAD = String.raw`(?:(?:i|we)(?:'ll| will| can| should|'m going to|'re going to)\s+\w+|[^,\n]{1,60}?\b(?:needs? to|must|should|has to|have to) be\s+\w+ed\b)`;
/**
 * A choice the agent narrates with its reason: "I'll go with pnpm since the lockfile is pnpm's",
 * "I'm going with Redis because we already run it", "We'll stick with SQLite as it needs no
 * server". Narration by its opening, so only from a reply that holds, and told without its
 * speaker (`spokenChoice`). The reason is required: "I'll use grep to find it" is a step, not a choice.
 */
const NARRATOR = String.raw`(?:so,?\s+)?(?:(?:i|we)(?:['’]ll| will)|(?:i['’]m|i am|we['’]re|we are) going to|(?:i['’]m|i am|we['’]re|we are)(?= going with\b))\s*`;
const NARRATED_VERB = String.raw`(?:go with|going with|use|stick with|switch to|pick|choose|opt for|settle on)\b`;
const NARRATED_CHOICE = new RegExp(
	String.raw`^${NARRATOR}${NARRATED_VERB}${SPAN}{1,120}?\b(?:because|since|as (?:it|they|this|that)|given|so that|to avoid|to keep|instead of|rather than)\b`,
	"i",
);
/** The same opening at a line's or a sentence's start anywhere in a reply: the cheap look before it is split. */
const NARRATED_CHOICE_LINE = new RegExp(String.raw`(?:^|[.!?]\s+)${NARRATOR}${NARRATED_VERB}`, "im");
const NARRATOR_ONLY = new RegExp(`^${NARRATOR}`, "i");

/** A narrated choice without its speaker: "I'll go with pnpm since…" reads "Go with pnpm since…", "I'm going with Redis…" reads "Going with Redis…". */
function spokenChoice(sentence: string): string {
	return capitalize(sentence.replace(NARRATOR_ONLY, ""));
}

/**
 * A way out chosen against a limit the sentence before states: "The worker runs in its own
 * process, so it can't reach the pool. I need to use a shared connection." or "That tag was
 * already deleted upstream. Let me pin the previous one instead." The limit is the reason; the
 * choice alone ("Let me pin the previous one") reads as a step. A default is such a limit too ("The
 * config sets the default target to wasm. We need to override it for the CLI."). Taken from a
 * reply that holds.
 */
const LIMITED = /\b(?:can't|cannot|can not|couldn't|doesn't|does not|don't|do not|won't|will not|isn't|is not|aren't|wasn't|never|no longer|(?:not |un)supported|already|instead of|fails?|failed|only|defaults?)\b/i;
/** The way out by its verb ("use", "pin", "override"), or told by how it is done ("simplify the parser by dropping the fallback"). */
const WAY_OUT = /^(?:(?:so|then),?\s+)?(?:(?:i|we)(?: just| simply|'ll|'d| will| should)? need to|let me|let's|i'll|we'll)\s+(?:\w+\s+)?(?:use|switch to|rewrite|override|target|move|replace|keep|store|put|set|pin|drop|remove|skip|configure|change|(?:try|take) a different approach\b[\s:,—–-]*|\w+\s+(?:[\w`.-]+\s+){0,4}by\s+(?:using|removing|switching|replacing|dropping|moving|keeping|skipping|overriding|pinning|storing))\b/i;
/** The same opening at a line's or a sentence's start anywhere in a reply: the cheap look before it is split. */
const WAY_OUT_LINE = new RegExp(String.raw`(?:^|[.!?:]\s+)${WAY_OUT.source.slice(1)}`, "im");
/** The opener before the way out ("I need to", "Let me try a different approach —"), left out when it is told. */
const WAY_OUT_OPENER = /^(?:(?:so|then),?\s+)?(?:(?:i|we)(?: just| simply|'ll|'d| will| should)? need to|let me|let's|i'll|we'll)\s+(?:(?:try|take) a different approach[\s:,—–-]*)?/i;
/** A reason's opening word lower-cased after "since", when it is a plain word and not a name ("the", "this", "it"). */
const PLAIN_OPENING = /^(?:The|This|That|These|Those|It|Its|There|They|Our|Your)\b/;

/** The ways out a reply's units choose against the limit just before each, told with it as the reason. */
function waysOut(units: readonly ProseUnit[]): string[] {
	const found: string[] = [];
	units.forEach((unit, i) => {
		const before = units[i - 1];
		const text = straightQuotes(unit.text);
		if (before === undefined || before.section !== unit.section || !WAY_OUT.test(text) || !LIMITED.test(before.text) || !isStatement(before.text) || WEIGHED.test(text)) return;
		// A limit that opens inside code ("ADD` without a default…", a sentence split at the code's own "...") is no sentence to give as a reason.
		if ((before.text.match(/`/g)?.length ?? 0) % 2 === 1) return;
		const choice = capitalize(text.replace(WAY_OUT_OPENER, "").replace(/[:.]\s*$/, ""));
		// The reason as much as keeps the item to one short line.
		const reason = cutAtBoundary(before.text.replace(/[.:]\s*$/, "").replace(PLAIN_OPENING, (w) => w.toLowerCase()), 90);
		found.push(`${choice}, since ${reason}`);
	});
	return found;
}

/**
 * A choice that opens on its reason ("Since the IDs are fixed, I'll skip the check.") told choice
 * first ("Skip the check, since the IDs are fixed."): an entry's room may cut an item, and the
 * choice is what the reader needs. A sentence of more than one comma is left as written: where its reason ends is unsure.
 */
const REASON_OPENING = /^(since|because|given(?: that)?)\s([^,\n]{3,160}),\s+(\S.*)$/i;
const SPEAKER_OPENER = /^(?:(?:i|we)(?:'ll| will|'m going to|'re going to| should| need to)|let me|let's)\s+(?=\S+\s+\S)/i;
export function reasonLast(sentence: string): string {
	const m = REASON_OPENING.exec(sentence);
	if (!m || m[3]!.includes(", ")) return sentence;
	const [, word, reason, choice] = m as unknown as [string, string, string, string];
	const stop = /[.!]$/.exec(choice)?.[0] ?? "";
	const plain = reason.replace(/^(?:We|We're|We've)\b/, (w) => w.toLowerCase()).replace(PLAIN_OPENING, (w) => w.toLowerCase());
	// Told first, "I'll split the job" would read as narration of a next step: the way alone is the choice.
	const way = choice.slice(0, choice.length - stop.length).replace(SPEAKER_OPENER, "");
	return `${capitalize(way)}, ${word.toLowerCase()} ${plain}${stop}`;
}

/** Said ahead of the work, so taken from a reply only when it holds. `REASON_FIRST_LINE` finds one anywhere in a whole reply. */
const REASON_FIRST = new RegExp(String.raw`^${REASON}${AHEAD}`, "i");
const REASON_FIRST_LINE = new RegExp(String.raw`(?:^|[.!?]\s+)${REASON}${AHEAD}`, "im");
/** A cheap look for a sentence that opens on a reason, before `REASON_FIRST_LINE` reads the whole reply. */
function opensOnReason(text: string): boolean {
	return text.includes("Since ") || text.includes("Because ") || text.includes("Given ") || text.includes("As ");
}
/**
 * What a commit message or a pull request's description says of a choice, beyond what a reply
 * would: the change against what it replaced ("Write all logs to one file instead of one per
 * session", "Billable cost, not raw tokens"), the imperative with its reason ("Use a PAT so CI
 * runs on its pull requests"), and the choice led by its reason ("Since the vault is
 * single-user, simplify access() to always grant"). Its diagnosis of the bug ("The hook called
 * the API instead of the cache") is told apart as a reply's is.
 */
/**
 * The means a change was built with, told with what it is for: "Messages use an upsert on
 * (session, uuid) for idempotent re-sync", "The tail worker uses a 500 ms debounce so bursts
 * ingest once". In a commit message or pull request this says how the change was made and why: a
 * design choice, but the weakest kind (no way passed over, no reason beyond the use): told after
 * the others. A subject of a few words, then "use(s)", a purpose after it; not "Updated X to use Y".
 */
const MEANS_CHOSEN = /^(?:[^:\n]{1,40}:\s+)?(?:the |each |all |every )?[\w`./-]+(?: (?!to\b)[\w`./-]+){0,3} (?:now )?uses? [^.\n]{3,120}?\b(?:for|to|so that|so)\b/i;
/** A choice told only by the means it was built with (see `MEANS_CHOSEN`), which the session's other choices go before. */
export function byMeansOnly(choice: string): boolean {
	return MEANS_CHOSEN.test(choice) && !RECORD_CHOICE.test(choice) && !isDecision(choice) && !REASONED.test(choice);
}
const RECORD_CHOICE = new RegExp(
	String.raw`\b(?:instead of|rather than|in favou?r of)\b|,\s+not\s+(?!just\b|only\b|yet\b|always\b|necessarily\b|all\b|even\b)|^(?:[^:\n]{1,40}:\s+)?(?:use|keep|make|move|switch|replace|remove|drop|choose|put|skip|leave)\b[^.\n]{3,140}?\b(?:because|since|so that|so|to avoid|to prevent)\b|^${REASON}(?:${AHEAD}|(?:use|keep|make|move|switch|replace|remove|drop|skip|simplify|store|write|treat|allow|disable|enable|always|never|default|prefer|pin|ignore|defer|add|avoid)\b)`,
	"i",
);
/** "Also" before a commit message's second change: the change is told without it. */
const ALSO = /^also,?\s+/i;
/** A choice still weighed ("I should either drop it or log it", "…, or just handle it") or made only "for now": none yet. */
const WEIGHED = /\beither\b|,\s+or\b|\bfor now\b/i;
/** The "no … needed" choice of `CHOICE_EN` anywhere in a reply: the cheap look before a reply is split is not anchored to its start. */
const NOT_NEEDED_ANYWHERE = /\bno (?!(?:further )?action\b)(?:[\w-]+ ){1,3}(?:is |are )?(?:needed|required|necessary)\b/i;
/**
 * A reply's sentence that weighs a choice rather than states one ("Wait, I think the better
 * approach is…", "The best approach is to X, OR keep Y"), or that echoes the user's own answer
 * back ("You chose to share the string — paste it now"), which their answer already says.
 */
const TENTATIVE = /^(?:wait|hmm|actually|alternatively)\b|\b(?:maybe|perhaps|might)\b|^you (?:chose|picked|selected|opted)\b/i;
/**
 * A choice left to the user, not made: offered ("You could also use pnpm instead of npm", "If you
 * want, switch to Redis"), marked optional ("Optionally, …", "Consider using a Map instead"), or
 * weighed aloud ("We could keep X instead"). Never a decision, however the reply is answered.
 */
const OFFERED = /^(?:(?:also|or|and|but),?\s+)?(?:(?:you|we) (?:could|might|may)\b|you can\b|optionally\b|consider\b|feel free\b|if (?:you(?:'d)? (?:want|like|prefer|wish)|needed|you need|desired|preferred)\b)/i;
/**
 * A choice for a case that may come ("If the build keeps failing, switch to HTTPS instead of
 * SSH", "Unless you need the history, you can keep one table instead of two"): advice for
 * then, not a choice made. Behaviour built for a case ("If the id is empty, we keep the default
 * instead of failing") tells its subject and stays a choice.
 */
const CONTINGENT = /^(?:if|unless|in case)\b[^,\n]{3,120},\s+(?:(?:just|then|simply)\s+)?(?:(?:you|we)\s*(?:can|could|should|may|might|'ll|will|would|need)\b|(?:use|switch|move|keep|go|put|try|set|add|change|run|pick|choose|replace|drop|remove|store|call|make|write|rely|fall back)\b)/i;
/**
 * A choice said ahead of the work: "We'll use pnpm instead of npm", "The plan is to keep X rather
 * than Y", "The best fix is to…", "To fix this we need to use a queue rather than cron", or an item
 * of a list its intro or heading calls a plan ("Here's my plan:", "Proposed changes", "I'll:"):
 * a choice once the reply holds (see `heldReplies`), a plan until then.
 */
const SAID_AHEAD = new RegExp(String.raw`^(?:(?:so|next|then|first|now),?\s+)?(?:(?:i|we)(?:'ll| will| am going to|'m going to| are going to|'re going to| need to| have to| must)\b|(?:the |my |our )?(?:${FITTEST} )?(?:plan|fix|approach|solution|option|way)(?: here)? is to\b|(?:the |my |our )?(?:plan|proposed \w+)\s*:|to (?:fix|solve|address|handle) (?:this|that|it),?\s+(?:i|we)\b)`, "i");
const PLAN_SECTION = /\b(?:plan|proposed|i'll|i will|we'll|we will|going to)\b/i;
function saidAhead(unit: ProseUnit, text: string): boolean {
	return SAID_AHEAD.test(text) || sectionsOf(unit).some((s) => PLAN_SECTION.test(straightQuotes(s)));
}
/**
 * A proposal ("I'd suggest using Redis instead of SQLite", "We should keep the old flag rather
 * than…", "我建議…", "…をおすすめします"): a choice once it holds (see `heldReplies`), like a recommendation, and none until then.
 */
const PROPOSED = /^(?:i(?:'d| would)? (?:(?:strongly )?suggest|propose|recommend)|my (?:suggestion|proposal|recommendation)|i think (?:we|you) should|(?:we|you) should)\b|^我?(?:建議|建议|推荐|推薦)|(?:をお(?:すすめ|勧め)します|を推奨します|(?:추천|제안)(?:합니다|드립니다))[。.]?$/i;
/**
 * The agent's own proposal ("I'd recommend…", "My suggestion: …", "We should use…", "我建议…"), not
 * a step handed to the reader ("You should see…") nor what is expected ("We should see the logs
 * soon"): what the session's last reply proposes, nobody
 * answering it, is neither done nor decided, but open (see `proposalsIn`).
 */
const OWN_PROPOSAL = /^(?:(?:i(?:'d| would)? (?:strongly )?(?:suggest|propose|recommend)|my (?:suggestion|proposal|recommendation)|i think we should|we should (?:use|switch to|keep|go with|stick with|store|move to|rely on))\b|(?:recommendation|suggestion)\s*:)|^我?(?:建議|建议|推荐|推薦)|(?:をお(?:すすめ|勧め)します|を推奨します|(?:추천|제안)(?:합니다|드립니다))[。.]?$/i;
/** A section that tells proposals carried out ("Applied the reviewer's suggestions:", "I've made the recommended changes"), not made. */
const CARRIED_OUT = /^(?:(?:i|we)(?:'ve| have)?\s+)?(?!suggest|recommend|propos)(?:\w+ed|made|did|took|put|set|kept)\b/i;
/** An option named in a sentence ("I recommend Option 3 if…"), its label kept. */
const OPTION_NAMED = /\b(option|approach|alternative)\s+\(?([a-z0-9]{1,2})\)?(?=[\s,.;:)]|$)/i;

/**
 * The proposals a reply makes (the first, and the last when another), as said: a sentence that
 * proposes, or the first statement under a section that says it holds a recommendation ("##
 * Caching — recommendation", named by its heading). One that names an option the reply laid out
 * ("I recommend Option 3") names it with the option's title, which "Option 3" alone does not tell.
 */
export function proposalsIn(reply: string, units: readonly ProseUnit[]): string[] {
	const sections = new Set<string>();
	const found: string[] = [];
	for (const u of units) {
		if (isQuestion(u.text)) continue;
		if (OWN_PROPOSAL.test(straightQuotes(u.text).replace(/^\*\*|\*\*/g, ""))) found.push(withOptionTitle(u.text, reply));
		else if (PROPOSED_SECTION.test(u.section) && !CARRIED_OUT.test(u.section) && !sections.has(u.section)) {
			const named = (u.sectionAsWritten ?? "").replace(/[:：]\s*$/, "").trim();
			// An option's heading ("Option C: Balanced (my recommendation)") is the proposal; else the section's first statement (not a list's intro),
			// named by the heading unless that is only the word ("Recommendation").
			const told = OPTION.test(named) ? named : /[:：]$/.test(u.text) ? undefined : named.replace(PROPOSED_SECTION, "").replace(/[\s:：—–-]+/g, "") === "" ? u.text : `${named}: ${u.text}`;
			if (told === undefined) continue;
			sections.add(u.section);
			found.push(told);
		}
	}
	return [...new Set([found[0], found.at(-1)])].filter((p) => p !== undefined);
}

function withOptionTitle(text: string, reply: string): string {
	const named = OPTION_NAMED.exec(text);
	if (!named) return text;
	// The label's word and its one or two letters or digits: nothing a pattern reads otherwise.
	const heading = new RegExp(String.raw`^${LINE_MARKUP}${named[1]}[ \t]+\(?${named[2]}\)?[ \t]*[:—–.-][ \t]*(.+)$`, "im").exec(reply);
	const title = heading?.[1]?.replace(/(?:\*\*|__)\s*$/, "").trim();
	return title ? text.replace(named[0], `${named[0]} (${cutAtBoundary(title, 80)})`) : text;
}

/** An alternative shouted as one ("…set the base dynamically, OR keep it standalone"): still open. */
const SHOUTED_OR = /\sOR\s/;
/**
 * An option a reply lays out for someone to pick, not a choice made: "Option 3: Switch to X instead of
 * Y", a unit under a heading that names one ("### Option 2 — …"), or an item of a list its intro
 * or heading says holds alternatives ("We have a few options:", "Possible fixes:", "You could:";
 * not "Fixed it in two ways:", which tells what was done).
 * The one picked is told where it is picked (the user's answer, or the agent's "going with …").
 */
const OPTIONS_INTRO = /\b(?:options|alternatives|approaches|ways (?:to|out|forward)|choices|possibilities|possible|potential|(?:you|we|i) could|either)\b/i;
function laysOutOption(unit: ProseUnit): boolean {
	return OPTION.test(unit.text) || sectionsOf(unit).some((s) => OPTION.test(s) || (unit.kind === "item" && OPTIONS_INTRO.test(s)));
}
/**
 * The items of a reply's lists of steps handed to the reader ("1. Go to the portal … 4. No
 * redirect URI needed — click Register … 5. Copy the client id"): a list at least half of whose
 * items are no results (see `isNotResult`) tells the reader what to do, and a choice in it is a
 * step of theirs, not one the session made.
 */
function handedSteps(units: readonly ProseUnit[]): Set<ProseUnit> {
	const steps = new Set<ProseUnit>();
	for (let i = 0; i < units.length; ) {
		let j = i;
		while (j < units.length && units[j]?.kind === "item" && units[j]?.section === units[i]?.section) j++;
		const run = units.slice(i, Math.max(j, i + 1));
		const handed = run.filter((u) => u.kind === "item" && isNotResult(u.text)).length;
		if (handed >= 2 && handed * 2 >= run.length) for (const u of run) steps.add(u);
		i = Math.max(j, i + 1);
	}
	return steps;
}

/** The list intro a unit is under, and the heading above that intro. */
function sectionsOf(unit: ProseUnit): string[] {
	return unit.heading === undefined || unit.heading === unit.section ? [unit.section] : [unit.section, unit.heading];
}
/**
 * A section whose content is left for later or to the user's taste ("Minor suggestions
 * (optional)", "Next steps", "Future work"): nothing in it was decided. One that proposes
 * ("Suggestions", "Recommended changes") holds a choice only once the reply holds; one that tells
 * the user's proposals carried out ("Applied your suggestions:") is not one.
 */
const LATER_SECTION = /\b(?:optional|nice to have|next steps?|todo|to do|follow[- ]?ups?|future|later)\b/i;
const PROPOSED_SECTION = /(?<!\byour?\s)\b(?:suggest(?:s|ed|ions?)?|recommend(?:s|ed|ations?)?|propos(?:e|ed|als?))\b/i;
function unsettled(unit: ProseUnit, holds: boolean): boolean {
	return sectionsOf(unit).some((s) => LATER_SECTION.test(s) || (!holds && PROPOSED_SECTION.test(s)));
}
const CHOICE_KO = /하기로\s*(?:했|결정|합니다|하자)|(?:으로|로)\s*결정|대신\s*[^.]{0,40}(?:사용|쓰|선택)|선택했/;
const CHOICE_JA = /ことにしました|ことにします|に決めました|に決定|を採用|代わりに[^。]{0,40}(?:使|採用)/;
/** Chinese in either script: simplified (决定, 选择了, 采用了) and traditional (決定, 選擇了, 採用了); 改用, 而不是 and 改成 are written alike. */
const CHOICE_ZH = /决定|決定|改用|选择了|選擇了|采用了|採用了|而不是|改成/;

/** What a reply opens with before the choice itself: "ok, fine, let's do vite", "no, actually, use X instead" ("no" only set off: "no cache needed" is the choice). */
const OPENING = String.raw`(?:(?:hey|hi|hello|ok(?:ay)?|fine|yes|yeah|sure|alright|right|hmm|great|cool|nope|nah|actually|wait|please|just)\b[\s,!.]*|no[,!.]+\s*)*`;
/** The verbs a user puts a choice with: "use X", "keep Y", "put it in Z". */
const PUT = String.raw`(?:use|put|keep|make|store|call|return|write|move|switch to|go with|pick|choose|set|name|leave|do)\b`;
/**
 * A user's choice among options: "let's do vite", "go with option C", "I'd rather keep X", "don't
 * use Y", "let's not add Docker"; and one that replaces what the agent had: "no, use postgres
 * instead", "instead of redis, use a map".
 */
const USER_CHOICES = String.raw`let's not\b|let's (?:do|go with|use|try|pick|keep|stick with|switch to)|go with|stick with|we'll (?:use|go with|do)|i(?:'d| would) rather|i prefer|don'?t use|do not use|never use|always use|(?:use )?option [a-e1-5]\b|${PUT}[^.?!\n]{1,80}?\binstead\b(?!\s+of\b)|(?:instead of|rather than)\b[^.?!\n]{1,80}?,?\s+${PUT}`;
const USER_CHOICE = new RegExp(`^${OPENING}(?:${USER_CHOICES})`, "i");
/** The same, anywhere: a cheap look at a whole prompt before it is split. */
const USER_CHOICE_ANYWHERE = new RegExp(`\\b(?:${USER_CHOICES})`, "i");
const OPENING_ONLY = new RegExp(`^${OPENING}`, "i");
/** The words a user wishes with before the way itself ("I'd like to", "I think we should"), which "user chose:" says already. */
const WISH = /^(?:i think\s+)?(?:(?:i|we)(?:'d| would) like to|(?:i|we) want to|(?:i|we) will|i'll|we should)\s+/i;
/**
 * A user's sentence that asks, weighs, supposes or tells what the agent did rather than choosing,
 * with its question mark or without (users often leave it out): "should we use redis instead of
 * memcached", "what if we go with vite", "maybe we go with vite", "we could go with option 2", "if
 * we go with vite, what changes", "you used npm instead of pnpm".
 */
const NOT_CHOSEN = new RegExp(
	`^${OPENING}(?:(?:should|shall|would|could|can|do(?!\\s+not\\b)|does|did|is|are|was|were|will|what|why|how|which|where|who|whether|if|unless)\\b|(?:i|we)(?:'m| am|'re| are| was| were)? (?:wonder(?:ing)?|thinking|considering|not sure)\\b|(?:maybe|perhaps|possibly)\\b|(?:we|you) (?:could|might|may)\\b|you (?:used|chose|picked|went with|switched|kept|added|put)\\b)`,
	"i",
);

/** Korean, Japanese or Chinese script: a text without any is not read for their choices (most are not, and each look costs). */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

function isDecision(sentence: string): boolean {
	return (CHOICE_EN.test(sentence) && !diagnosed(sentence)) || choiceInOtherScript(sentence);
}

/** A sentence that diagnoses what something else did ("The hook called the API instead of the cache") and states no other choice. */
function diagnosed(sentence: string): boolean {
	return DIAGNOSIS.test(sentence) && !CHOICE_EN_BESIDES_INSTEAD.test(sentence);
}

/** The cheap look at a whole text before it is split: any sentence of it may state a choice (a diagnosis is told apart per sentence). */
function mayHoldDecision(text: string): boolean {
	return CHOICE_EN.test(text) || choiceInOtherScript(text);
}

function choiceInOtherScript(text: string): boolean {
	return CJK.test(text) && (CHOICE_KO.test(text) || CHOICE_JA.test(text) || CHOICE_ZH.test(text));
}

/**
 * A user's choice in their words, marked as theirs: "ok, fine, let's do vite" reads "user chose:
 * let's do vite", and "I would like to move the docs to a wiki" reads "user chose: move the docs to
 * a wiki": the mark already says whose wish it is.
 */
export function asChoice(sentence: string): string {
	const opened = sentence.replace(OPENING_ONLY, "").trim();
	const wished = opened.replace(WISH, "");
	const s = wished.split(/\s+/).length >= 2 ? wished : opened;
	return `user chose: ${s.charAt(0).toLowerCase()}${s.slice(1)}`;
}

/** Where the choice starts in a long unit (a prompt typed as one run-on paragraph): the clause it is in, not the unit's first words. */
function choiceClause(unit: string): string {
	if (unit.length <= 200) return unit;
	const at = [CHOICE_EN, CHOICE_KO, CHOICE_JA, CHOICE_ZH, USER_CHOICE_ANYWHERE].map((re) => unit.search(re)).filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? 0;
	if (at < 80) return unit;
	const from = Math.max(0, at - 80);
	const before = unit.slice(from, at);
	const stop = Math.max(before.lastIndexOf(". "), before.lastIndexOf(", "), before.lastIndexOf("; "), before.lastIndexOf("。"), before.lastIndexOf("，"), before.lastIndexOf(","));
	if (stop >= 0) return unit.slice(from + stop + 1).trim();
	// No punctuation: from the last joining word ("… and after the demo we'll go with …"), else the word before.
	const joins = [...before.matchAll(/(?:^|\s)(?:and|then|so|but|because|since|also)\s/gi)].at(-1);
	const word = before.search(/\S+\s*$/);
	return unit.slice(from + (joins ? joins.index + (joins[0].startsWith(" ") ? 1 : 0) : Math.max(0, word))).trim();
}

/** Where a session's choices are told, in the order `decisionsOf` reads them. */
export interface ChoiceSources {
	/** Typed prompts: the user's own words. */
	prompts?: readonly string[];
	/** The bodies of its commit messages and pull requests (their subjects are told as done). */
	records?: readonly string[];
	/** The assistant's replies. */
	replies?: readonly string[];
}

/**
 * Decisions stated in the typed part of prompts, in commit and pull request bodies and in the
 * assistant's replies, first stated first; a recommendation, or a choice led by its reason, only
 * from a reply in `held` (the user took it up, or the agent acted on it).
 * @param unitsOf a reply's prose units (the digest passes the ones it already made for the results).
 */
export function decisionsOf({ prompts = [], records = [], replies = [] }: ChoiceSources, max = 4, held?: ReadonlySet<string>, unitsOf: (text: string) => readonly ProseUnit[] = proseUnits): string[] {
	// Each source's choices in the order they were made, so that a later one can replace an earlier.
	const fromPrompts: string[] = [];
	const fromRecords: string[] = [];
	const fromReplies: string[] = [];
	// Told last: a way out is often the step a later summary tells as a choice in its own words.
	const fromWaysOut: string[] = [];
	const fromMeans: string[] = [];
	const add = (found: string[], text: string) => void found.push(cutAtBoundary(text, 200));
	// The user's own words: their choices count even when phrased as "let's…".
	// Read with straight apostrophes: "we’ll use X" is "we'll use X" (the patterns spell "'").
	for (const given of prompts) {
		const prompt = straightQuotes(given);
		if (!USER_CHOICE_ANYWHERE.test(prompt) && !mayHoldDecision(prompt)) continue;
		for (const unit of proseUnits(typedPart(prompt, true))) {
			if (isQuestion(unit.text) || !(USER_CHOICE.test(unit.text) || isDecision(unit.text))) continue;
			const clause = choiceClause(unit.text);
			if (!NOT_CHOSEN.test(clause)) add(fromPrompts, asChoice(clause));
		}
	}
	for (const record of records) {
		for (const unit of proseUnits(straightQuotes(record))) {
			const text = unit.text;
			// The choice first: it is cheap to look for, and most sentences of a message name none.
			const strong = RECORD_CHOICE.test(text) || isDecision(text) || REASONED.test(text);
			if ((strong || MEANS_CHOSEN.test(text)) && isStatement(text) && !TENTATIVE.test(text) && !WEIGHED.test(text) && !diagnosed(text)) add(strong ? fromRecords : fromMeans, asResult(reasonLast(capitalize(choiceClause(text).replace(ALSO, "")))));
		}
	}
	// Most replies name no choice at all: only those that do are split into sentences.
	for (const given of replies) {
		const holds = held === undefined || held.has(given);
		const reply = straightQuotes(given);
		const narrates = holds && NARRATED_CHOICE_LINE.test(reply);
		const mayChooseWayOut = holds && WAY_OUT_LINE.test(reply);
		if (!narrates && !mayChooseWayOut && !mayHoldDecision(reply) && !NOT_NEEDED_ANYWHERE.test(reply) && !REASONED_LINE.test(reply) && !PASSED_OVER_ANYWHERE.test(reply) && !(holds && (RECOMMEND.test(reply) || (opensOnReason(reply) && REASON_FIRST_LINE.test(reply))))) continue;
		const units = unitsOf(given);
		const steps = handedSteps(units);
		for (const unit of units) {
			const text = straightQuotes(unit.text);
			if (steps.has(unit) || TENTATIVE.test(text) || SHOUTED_OR.test(text) || laysOutOption(unit) || unsettled(unit, holds) || OFFERED.test(text) || CONTINGENT.test(text) || (!holds && (PROPOSED.test(text) || saidAhead(unit, text)))) continue;
			if (narrates && NARRATED_CHOICE.test(text) && !WEIGHED.test(text) && !isQuestion(text)) {
				add(fromReplies, spokenChoice(choiceClause(text)));
				continue;
			}
			if (!isStatement(text)) continue;
			if (isDecision(text) || REASONED.test(text) || PASSED_OVER.test(text) || (holds && (RECOMMEND.test(text) || (REASON_FIRST.test(text) && !WEIGHED.test(text))))) add(fromReplies, asResult(reasonLast(choiceClause(text))));
		}
		if (mayChooseWayOut) for (const way of waysOut(units)) add(fromWaysOut, way);
	}
	const out: { choice: string; words: Set<string> }[] = [];
	for (const choice of [fromPrompts, fromRecords, fromReplies, fromWaysOut, fromMeans].flatMap(standing)) {
		if (out.length >= max) break;
		const words = namingWords(choice);
		if (!out.some((o) => sameChoice(o.choice, o.words, choice, words))) out.push({ choice, words });
	}
	return out.map((o) => o.choice);
}

/**
 * The choices that still stand at the end: one a later choice passes over is replaced by it
 * ("let's use Postgres for the jobs", then "switch the jobs from Postgres to SQLite"; "Went with
 * Redis…", then "Replaced Redis with an in-memory map…").
 */
function standing(choices: readonly string[]): string[] {
	// Where each word is passed over last: one look per word a choice takes, not one per later choice
	// (a reply of thousands of choices made this quadratic).
	const lastPassed = new Map<string, number>();
	choices.forEach((choice, i) => {
		for (const w of passedOverWords(choice)) lastPassed.set(w, i);
	});
	return choices.filter((choice, i) => ![...takenWords(choice)].some((w) => (lastPassed.get(w) ?? -1) > i));
}

/** What a choice takes: the words after its verb, to the first joining word ("let's use Postgres for the jobs" takes "Postgres"). */
const TAKEN = /\b(?:use|using|used|go with|going with|went with|stick with|sticking with|keep|keeping|kept|pick|picked|choose|chose|prefer|switch(?:ed|ing)? to|mov(?:e|ed|ing) to|settled? on|opt(?:ed)? for)\s+([^,.;:!?()]{2,60})/i;
/** What a choice passes over: "instead of X", "rather than X", "switch … from X to Y", "replace X with Y", "don't use X", "drop X". */
const PASSED_OVER_PART = /\b(?:instead of|rather than|(?:switch|switched|switching|move|moved|moving|migrate|migrated|change|changed)\s+(?:\S+\s+){0,3}?from|replac(?:e|ed|ing)|don'?t use|do not use|no longer use|stop using|drop(?:ped)?)\s+([^,.;:!?()]{2,60})/gi;
/** Where the thing named ends: "Postgres for the jobs" names Postgres, "Redis with a map" Redis. */
const NAME_END = /\s+(?:for|to|with|because|since|instead|rather|so|as|in|on|at|when|if|and|but|over|than|by)\b/i;

function takenWords(choice: string): Set<string> {
	const taken = TAKEN.exec(choice.replace(/^user chose: /, ""))?.[1];
	return taken === undefined ? new Set() : nameWords(taken);
}

function passedOverWords(choice: string): Set<string> {
	const words = new Set<string>();
	for (const match of choice.matchAll(PASSED_OVER_PART)) for (const w of nameWords(match[1] ?? "")) words.add(w);
	return words;
}

/** The words of four letters or more that name the thing a phrase names, up to where its name ends. */
function nameWords(phrase: string): Set<string> {
	const name = phrase.split(NAME_END)[0] ?? "";
	return new Set(name.toLowerCase().split(/[^\p{L}\p{N}_.-]+/u).filter((w) => w.length >= 4 && !JOINING.has(w)));
}

/**
 * The same choice said twice ("No staging reset needed." and, in the summary, "No staging reset
 * required."): two thirds of the words that name things in their openings shared.
 */
function sameChoice(a: string, x: ReadonlySet<string>, b: string, y: ReadonlySet<string>): boolean {
	if (a === b) return true;
	let shared = 0;
	for (const w of x) if (y.has(w)) shared++;
	const fewer = Math.min(x.size, y.size);
	return fewer >= 2 && shared * 3 >= fewer * 2;
}

/** The words of four letters or more in the first eight, the "user chose:" mark and joining words aside. */
function namingWords(text: string): Set<string> {
	const words = text.replace(/^user chose: /, "").toLowerCase().split(/[^\p{L}\p{N}_-]+/u).slice(0, 8);
	return new Set(words.filter((w) => w.length >= 4 && !JOINING.has(w)));
}
const JOINING = new Set(["that", "this", "with", "from", "into", "than", "then", "also", "have", "been", "will", "were", "only", "just", "when", "instead", "rather"]);

/** A prompt that takes up what the agent proposed: "yes", "ok, let's do that", "sounds good", "go with it". */
const ACCEPTS = /^(?:yes|yeah|yep|yup|ok(?:ay)?|sure|sounds good|looks good|lgtm|go ahead|go for it|agreed|do it|perfect|great|fine|please do|proceed|let'?s (?:do|go))\b/i;
/** "Yes, but…", "ok but rather…": taken up with a change, so not as proposed. */
const BUT = /^\S+(?:\s+\S+)?[\s,]+but\b/i;

/** Claude Code's words for a call the user rejected when asked (not one left waiting for a permission). */
const REJECTED = /^the user doesn't want to (?:proceed with this tool use|take this action right now)\b/i;

function refusedByUser(call: ToolCall): boolean {
	return call.result?.isError === true && REJECTED.test(straightQuotes(call.result.text.trim()));
}

/**
 * The replies whose proposals hold: every main-thread reply but the one the user answered with
 * something other than a yes (they asked again, or steered elsewhere), the one whose first step
 * the user rejected, and the session's last reply when nothing answered it. A reply the agent
 * went on working after holds.
 */
export function heldReplies(events: readonly SessionEvent[]): Set<string> {
	const held = new Set<string>();
	const unheld = new Set<string>();
	let last: string | undefined;
	for (const event of events) {
		if (event.kind === "text" && event.sidechain === undefined) {
			if (last !== undefined) held.add(last);
			last = event.text;
		} else if (event.kind === "tool" && event.sidechain === undefined && last !== undefined) {
			(refusedByUser(event.call) ? unheld : held).add(last);
			last = undefined;
		} else if (event.kind === "prompt" && event.promptKind === "prompt" && last !== undefined) {
			const text = event.text.trim();
			(ACCEPTS.test(text) && !BUT.test(text) ? held : unheld).add(last);
			last = undefined;
		}
	}
	if (last !== undefined) unheld.add(last);
	// A text said twice (a resumed session) and once left unanswered does not hold.
	for (const text of unheld) held.delete(text);
	return held;
}
