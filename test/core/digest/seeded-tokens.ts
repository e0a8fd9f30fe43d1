/**
 * Synthetic tokens for the redaction tests: built at run time from a seeded generator in the right
 * shape, so no secret-looking literal sits in the repository (and no scanner flags the tests).
 */
export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const DIGITS = "0123456789";
export const ALNUM = UPPER + LOWER + DIGITS;
export const B64URL = ALNUM + "-_";
export const B64 = ALNUM + "+/";
export const HEX = "0123456789abcdef";

/** A generator of `n` characters from `alphabet`, the first three an upper, a lower and a digit when the alphabet has them (random-looking). */
export function tokenGenerator(seed: number): (alphabet: string, n: number) => string {
	const random = (): number => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	return (alphabet, n) => {
		let out = "";
		for (const cls of [UPPER, LOWER, DIGITS]) {
			const pool = [...cls].filter((c) => alphabet.includes(c));
			if (out.length < n && pool.length > 0) out += pool[Math.floor(random() * pool.length)];
		}
		while (out.length < n) out += alphabet[Math.floor(random() * alphabet.length)];
		return out;
	};
}
