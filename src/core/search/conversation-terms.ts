import { foldCase } from "../text/fold-case";

/**
 * Words of a text for full-text search: case-folded and NFKC-normalized (`foldCase`), split at anything that is
 * not a letter, digit or mark; scripts written without spaces (Chinese, Japanese kana and kanji)
 * give overlapping character pairs, so "토큰 갱신", "令牌刷新" and "token refresh" all find their
 * words. Cheap on purpose: it runs over every prompt and reply of every session.
 */
export function conversationTerms(text: string): string[] {
	const out: string[] = [];
	for (const match of foldCase(text).matchAll(WORD)) {
		const word = match[0];
		if (!UNSPACED.test(word)) {
			if (word.length <= MAX_TERM) out.push(word);
			continue;
		}
		// Runs of unspaced script in pairs; other letters around them stay words.
		for (const part of word.split(UNSPACED_RUN)) {
			if (part === "") continue;
			if (!UNSPACED.test(part)) {
				if (part.length <= MAX_TERM) out.push(part);
				continue;
			}
			const chars = [...part];
			if (chars.length === 1) out.push(part);
			for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
		}
	}
	return out;
}

/** Longer "words" are hashes, base64 and minified code: nobody types them to search. */
const MAX_TERM = 40;
const WORD = /[\p{L}\p{N}\p{M}_]+/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_RUN = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+)/u;
