/**
 * Typographic apostrophes as straight ones ("I’ll" reads "I'll"), one character for one, so a
 * match's place holds in the original: some agents and people write them, and the digest's
 * patterns spell "'".
 */
export function straightQuotes(text: string): string {
	return text.replace(/[\u2018\u2019]/g, "'");
}
