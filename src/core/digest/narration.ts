import { straightQuotes } from "../text/straight-quotes";
/**
 * Narration: what an agent says about its own next step ("Let me…", "I'll…", "Now I…", "먼저 …
 * 확인하겠습니다", "まず…確認します", "让我…"), interjections ("Perfect!"), and list intros ending in
 * ":". None of it says what happened, so none of it may become a goal, outcome, decision or open
 * end. Patterns are anchored and linear: no nested quantifiers over untrusted text.
 */

/** An opening word that carries no content ("Perfect!", "Great, …", "완벽합니다!", "完璧です！", "太好了！"). */
const INTERJECTION =
	/^(?:(?:perfect|great|excellent|awesome|amazing|nice|good|cool|wonderful|fantastic|brilliant|done|sure|certainly|absolutely|alright|all right|ok|okay|got it|understood|right|yes|yep|ah|oh|hmm|wow|great news|good news|you're right|you are right|you're absolutely right|exactly|indeed)\s*[!.,:—–-]+\s*|(?:완벽합니다|좋습니다|좋아요|훌륭합니다|알겠습니다|네|확인했습니다|完璧です|素晴らしい|いいですね|了解しました|わかりました|はい|完美|太好了|很好|好的|明白了)\s*[!！.。,，]+\s*)/i;

/** A sentence that announces the speaker's next step or narrates what it is looking at. */
const NEXT_STEP_EN =
	/^(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|i'm gonna|i need to|i should|i must|i want to|i'd like to|i can now|i'm now|i am now|i'm (?:checking|looking|reading|searching|running|going|trying|starting|updating|adding|creating|writing|fixing|reviewing|examining|analyzing|investigating)|now (?:i|i'll|let|let's|we|we'll|to)\b|now,|first,|first (?:i|let|we)\b|next,|next (?:i|let|we)\b|then (?:i|let|we)\b|finally, (?:i|let)\b|after that,|to (?:do|start|begin) (?:this|that)|time to|looking at|checking|reading|searching|examining|investigating|analyzing|reviewing|i can see|i see\b|i notice|i found that|it looks like|it seems|now that|before (?:i|we)\b|okay, (?:i|let|now)|ok, (?:i|let|now)|alright, (?:i|let|now)|so (?:i|let|now)\b|good, (?:i|let|now)|great, (?:i|let|now)|perfect, (?:i|let|now))/i;

/** A sentence that opens on the step being taken. */
const IN_PROGRESS = /^(?:creating|spawning|running|starting|launching|committing|pushing|building|installing|writing|updating|adding|fixing|applying|setting up|moving|fetching|waiting|continuing|proceeding|kicking off|dispatching|delegating|handing off)\b/i;

/**
 * One or two words and a dash, an acknowledgement and a dash ("You're right to question that -
 * …"), or a purpose clause ("To fix this, …"), before the sentence proper.
 */
const LEAD_IN = /^(?:[^\s,—–-]+(?: [^\s,—–-]+)? ?[—–] |(?:you(?:'re| are) (?:absolutely )?(?:right|correct)|good (?:point|catch|question)|fair (?:point|enough)|that makes sense)[^.!?—–]{0,60}? [—–-] |(?:to|in order to) [^,]{1,80}, )(.+)$/i;

/** Praise of the user's message, which says nothing of the work: "That's a great idea.", "Good catch!". */
const PRAISE = /^(?:(?:that's|that is|this is|what a)\s+(?:a\s+)?(?:great|good|excellent|fair|valid|smart|really good|very good)\s+(?:idea|question|point|catch|call|observation|suggestion)|(?:good|great|nice)\s+(?:catch|question|point|call|idea))\b[^.!?]*[.!?]?$/i;

/** Korean: intent endings (하겠습니다, 해볼게요, 할게요, 보겠습니다) and step openers (먼저, 이제, 다음으로). */
const NEXT_STEP_KO = /(?:겠습니다|겠어요|볼게요|할게요|할께요|드릴게요|봅시다|합시다|해보죠|하죠)[.!。]?$|^(?:먼저|우선|이제|다음으로|그럼|그러면|그 다음)\s/;

/** Japanese: volitional and "about to" endings (しましょう, してみます, していきます, 確認します) and step openers (まず, 次に). */
const NEXT_STEP_JA = /(?:しましょう|ましょう|てみます|ていきます|てみましょう|を確認します|を見てみます|を調べます|を読みます|を作成します|を実行します|を更新します|を修正します)[。.!！]?$|^(?:まず|次に|それでは|では|続いて|最初に|それから)[、,\s]/;

/** Chinese: "let me", "I'll", "first", "next", "now I". */
const NEXT_STEP_ZH = /^(?:让我|我来|我将|我会|我要|我先|首先|接下来|然后|现在我|现在让|下面|我们来|我需要|我现在)/;

/** What the sentence is with an opening interjection taken off (repeatedly: "Great! Perfect! …"). */
export function withoutInterjection(sentence: string): string {
	let s = sentence.trim();
	for (let i = 0; i < 3; i++) {
		const m = INTERJECTION.exec(straightQuotes(s));
		if (!m || m[0].length === 0) break;
		s = s.slice(m[0].length).trim();
	}
	return s;
}

/** True for a sentence that narrates, introduces a list, or is only an interjection. */
export function isNarration(sentence: string): boolean {
	const plain = straightQuotes(stripMarkup(sentence));
	const s = withoutInterjection(plain);
	// "Perfect" or "좋습니다" on its own, with no punctuation to end it.
	if (withoutInterjection(`${plain}!`) === "") return true;
	if (s === "" || /^[\p{P}\p{S}\s]*$/u.test(s)) return true;
	if (/[:：]\s*$/.test(s)) return true;
	if (NEXT_STEP_EN.test(s) || NEXT_STEP_ZH.test(s) || PRAISE.test(s)) return true;
	// A step in progress ("Spawning planner.", "Committing and pushing the overhaul."), unless it says what came of it ("Updating the lockfile fixed CI");
	// what follows a colon names the step's object ("Creating task 11: disable the button when the API is down"), not what came of it.
	if (IN_PROGRESS.test(s) && !/\b(?:fixed|solved|resolved|works|worked|passes|passed|failed|broke|now|was|were|is|are|has|have|had)\b/i.test(s.split(/[:：]/)[0] ?? s)) return true;
	// The same behind a short lead-in: "Expected — I'll use that alias next", "To drop the labels, I need to edit the options".
	const behind = LEAD_IN.exec(s)?.[1];
	if (behind !== undefined && NEXT_STEP_EN.test(behind)) return true;
	if (NEXT_STEP_KO.test(s) || NEXT_STEP_JA.test(s)) return true;
	return false;
}

/** Leading Markdown (list marks, emphasis, heading hashes, emoji and check marks) off a sentence. */
export function stripMarkup(sentence: string): string {
	return sentence
		.replace(/^[\s>#*_\-+•·]+/, "")
		.replace(/^(?:\d+[.)]\s+)/, "")
		.replace(/^(?:\[[ xX]\]\s*)/, "")
		.replace(/^(?:\p{Extended_Pictographic}|[\u2705\u2714\u274C\u2713\s]|\uFE0F|\u200D)+/u, "")
		.replace(/\*\*/g, "")
		.trim();
}
