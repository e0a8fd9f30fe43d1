/** User keyword rules from settings: a keyword (word or phrase, any language) found in a prompt adds a tag. */
export interface KeywordRule {
	keyword: string;
	tag: string;
}

/** Prompts as one lower-cased, NFKC-normalized text with single spaces, for rule matching. */
export function ruleText(prompts: readonly string[]): string {
	return prompts.join("\n").normalize("NFKC").toLowerCase().replace(/\s+/g, " ");
}

const NON_LATIN_LETTER = /[^\P{L}\p{Script=Latin}]/u;

/**
 * How often `keyword` occurs in `text` (from `ruleText`), case-insensitively. A keyword with any
 * non-Latin letter (Korean, Japanese, Chinese, …) matches as a substring, since those languages
 * glue particles to words (결제를 contains 결제). A Latin keyword matches whole words only, with an
 * optional plural `s`/`es` (`webhook` matches `webhooks` but not `webhookd`), and its neighbours may
 * be non-Latin letters (`API에` contains the word `api`).
 */
export function ruleHits(keyword: string, text: string): number {
	const needle = keyword.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
	if (needle === "") return 0;
	if (NON_LATIN_LETTER.test(needle)) return text.split(needle).length - 1;
	const body = needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	const pattern = new RegExp(`(?<![\\p{Script=Latin}\\p{N}_])${body}(?:e?s)?(?![\\p{Script=Latin}\\p{N}_])`, "gu");
	return [...text.matchAll(pattern)].length;
}
