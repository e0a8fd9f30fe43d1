/**
 * Decisions and open ends, when the conversation states them in so many words. No model: a
 * sentence qualifies by its wording, in English or Korean. Few and short, or none.
 */
const DECISION = /\b(we decided|decided to|i decided|we'll go with|we will go with|going with|chose to|we chose|opted for|settled on|instead of|the decision is|let's go with|let's use|we agreed)\b|결정했|하기로 했|하기로 결정|로 가기로|쓰기로 했|사용하기로/i;
const OPEN_END = /\b(todo|to-do|next step|next steps|follow[- ]up|still need|still needs|not yet|remaining|left to do|open question|later we|we should also|out of scope|known issue|doesn't handle|does not handle|won't handle)\b|다음에|나중에|남은 작업|아직|해야 할|후속/i;
const MAX = 5;
const SENTENCE_MAX = 220;

export interface Statements {
	decisions: string[];
	openEnds: string[];
}

export function findStatements(texts: readonly string[]): Statements {
	const decisions: string[] = [];
	const openEnds: string[] = [];
	for (const text of texts) {
		for (const sentence of sentences(text)) {
			if (decisions.length < MAX && DECISION.test(sentence) && !decisions.includes(sentence)) decisions.push(sentence);
			else if (openEnds.length < MAX && OPEN_END.test(sentence) && !openEnds.includes(sentence)) openEnds.push(sentence);
		}
	}
	return { decisions, openEnds };
}

/** Sentences of prose, leaving out code blocks, tables and very short fragments. */
function sentences(text: string): string[] {
	const prose = text.replace(/```[\s\S]*?```/g, " ").replace(/^\s*\|.*$/gm, " ");
	const out: string[] = [];
	for (const raw of prose.split(/(?<=[.!?。])\s+|\n+/)) {
		const s = raw.replace(/^[\s>*#\-\d.)]+/, "").replace(/\s+/g, " ").trim();
		if (s.length < 12) continue;
		out.push(s.length > SENTENCE_MAX ? `${s.slice(0, SENTENCE_MAX)}…` : s);
	}
	return out;
}
