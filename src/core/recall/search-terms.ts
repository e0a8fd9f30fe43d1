import { foldCase } from "../text/fold-case";

/**
 * The words a session is found by, and a query looks for: case-folded letters and digits, English
 * function words left out, the same light stem as fact recall's; Chinese, Japanese and Korean text
 * as overlapping pairs of characters (no dictionary needed, and `페이지네이션을` still finds
 * `페이지네이션`). Fact recall's terms (the topic tags' keyword pipeline: phrases, aliases, a long
 * stop list that drops "bug" and "fix") took 0.19 ms a session: 2 s before the first answer on
 * 10,000 sessions; these take about a hundredth of that (bench/mcp.bench.ts).
 */

const FUNCTION_WORDS = new Set(
	"a an the and or but nor of to in on at by for from with without into onto over under about as is are was were be been being am do does did done have has had having i me my we our us you your he she it its they them their this that these those there here what which who whom whose when where why how all any some no not so than then too very can could would should will shall may might must just also only again ever please let lets one".split(" "),
);

/** Han, Hiragana, Katakana and Hangul. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
/** Letters with their combining marks, and digits: a mark left out cut `cafe\u0301` into `cafe`. */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

export function searchTerms(text: string): string[] {
	const out: string[] = [];
	// One spelling and one case for what reads the same (`foldCase`): `café` pasted from macOS
	// (decomposed) and typed (composed), `ＡＰＩ` full-width and `API`, `straße` and `STRASSE` were
	// different words: a session was not found by the words it shows.
	for (const match of foldCase(text).matchAll(TOKEN)) {
		const token = match[0];
		if (CJK.test(token)) {
			// Runs of CJK characters become pairs; a single character stays itself.
			const chars = [...token];
			if (chars.length === 1) out.push(token);
			for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
			continue;
		}
		if (token.length < 2 || FUNCTION_WORDS.has(token)) continue;
		out.push(stem(token));
	}
	return out;
}

/** `testing` and `tests` find `test`, as in fact recall. */
function stem(word: string): string {
	if (!/^[a-z]+$/.test(word) || word.length < 5) return word;
	return word.replace(/(?:ing|ed|es|s)$/, "");
}
