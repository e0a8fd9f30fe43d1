/**
 * A count of tokens as a transcript states it: a whole number, not negative. Anything else (a
 * damaged or forged line) counts 0, so no line puts -5 or 1e308 tokens into the usage and cost.
 */
export function tokenCount(value: unknown): number {
	return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
