import { dict } from "../dict";
import { cutAtBoundary } from "./clause-cut";
import { stripMarkup } from "./narration";
import type { SessionEvent } from "../transcript/session-model";

/**
 * The user's pick among options the agent laid out, told by the option itself: after "Option A:
 * keep the endpoint / Option B: a nightly job", the answer "b please" reads "user chose: Option B:
 * a nightly job" (and "b option" after "- **(b) …**" items); after a list of three approaches, "first option sounds easy" reads "user chose:
 * <the first approach>". A pick that names no option found is left to the prompt's own words.
 */
export interface PickedOption {
	/** The prompt that picked. */
	prompt: string;
	choice: string;
}

/** "ok, the second one", "let's go with option 2", "b please", "first option sounds easy"; never a question. */
const PICK =
	/^(?:(?:ok(?:ay)?|yes|yeah|sure|fine|hmm|alright)\b[\s,!.]*)*(?:(?:let'?s|i'?ll|we'?ll)\s+)?(?:(?:go with|do|use|take|pick|try|choose)\s+)?(?:the\s+)?(?:(first|second|third|fourth|last|1st|2nd|3rd|4th)(?:\s+(?:one|option|approach|way|choice)\b|(?=\s*(?:$|[.!]|please\b|sounds\b|is\b|looks\b|seems\b|works\b)))|option\s*\(?([a-e1-9])\)?(?![\w-])|\(?([a-e1-9])\)?(?=\s*(?:$|[.!,]|option\b|please\b|sounds\b|is\b|looks\b|seems\b|works\b)))/i;
const ORDINALS: Record<string, number> = dict({ first: 0, "1st": 0, second: 1, "2nd": 1, third: 2, "3rd": 2, fourth: 3, "4th": 3, last: -1 });

/** "Option B: …", "**Option 2** — …", "### Option C (extra field)". */
const LABELED = /^(?:#{1,4}\s+)?(?:[-*]\s+)?\**option\s+\(?([a-e1-9])\)?\**\s*[:.)—–-]*\s*(.*)$/i;
/** "1. …", "b) …", "- **(b) …**": an item with its key; "- …": one without. */
const KEYED = /^(?:[-*•]\s+)?\**\(?([a-e]|\d{1,2})[.)]\**\s+(.+)$/i;
const BULLET = /^[-*•]\s+(.+)$/;

interface Option {
	key?: string;
	text: string;
}

/** The options a reply lays out: its "Option X" lines when it has them, else the items of its last list. */
function optionsOf(reply: string): { labeled: Option[]; lastList: Option[] } {
	const labeled: Option[] = [];
	let list: Option[] = [];
	let lastList: Option[] = [];
	for (const raw of reply.split("\n")) {
		const line = raw.trim();
		const option = LABELED.exec(line);
		if (option) {
			labeled.push({ key: option[1]?.toLowerCase(), text: `Option ${(option[1] ?? "").toUpperCase()}${option[2] ? `: ${option[2]}` : ""}` });
			continue;
		}
		// A nested line belongs to the item above it.
		if (/^\s{2,}\S/.test(raw)) continue;
		const keyed = KEYED.exec(line);
		const bullet = keyed ? null : BULLET.exec(line);
		if (keyed || bullet) {
			list.push(keyed ? { key: keyed[1]?.toLowerCase(), text: keyed[2] ?? "" } : { text: bullet?.[1] ?? "" });
			lastList = list;
		} else if (line !== "") list = [];
	}
	return { labeled, lastList };
}

/** The option a pick names in a reply. */
function resolve(reply: string, ordinal: string | undefined, key: string | undefined): string | undefined {
	const { labeled, lastList } = optionsOf(reply);
	let found: Option | undefined;
	if (ordinal !== undefined) {
		const list = labeled.length >= 2 ? labeled : lastList;
		const at = ORDINALS[ordinal.toLowerCase()] ?? 0;
		found = list.length >= 2 ? list.at(at) : undefined;
	} else if (key !== undefined) {
		found = labeled.find((o) => o.key === key) ?? lastList.find((o) => o.key === key);
	}
	if (!found) return undefined;
	// The option with what it says after its name ("Keep confirmation on — point the template at `/auth/confirm`"), as much as fits.
	return cutAtBoundary(stripMarkup(found.text), 120);
}

/** Each prompt that picks an option of the reply just before it, with the option picked. One pass over the events. */
export function pickedOptions(events: readonly SessionEvent[]): PickedOption[] {
	const picked: PickedOption[] = [];
	let last: string | undefined;
	for (const event of events) {
		if (event.kind === "text" && event.sidechain === undefined) last = event.text;
		else if (event.kind === "prompt" && event.promptKind === "prompt") {
			const prompt = event.text.trim();
			const pick = last !== undefined && prompt.length <= 120 && !/[?？]\s*$/.test(prompt) ? PICK.exec(prompt) : null;
			const choice = pick && last !== undefined ? resolve(last, pick[1], (pick[2] ?? pick[3])?.toLowerCase()) : undefined;
			if (choice) picked.push({ prompt: event.text, choice: `user chose: ${choice}` });
			last = undefined;
		}
	}
	return picked;
}
