/**
 * `run` on each item, at most `limit` at once, taken in their order; the results in the items'
 * order, whatever order they end in. A failure stops new items from being taken, and is thrown
 * once every run under way has ended: none is left running unwaited for (a write that fails
 * leaves no other still writing after the caller has moved on).
 */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	let failed: { error: unknown } | undefined;
	const lane = async () => {
		for (let i = next++; i < items.length && !failed; i = next++) {
			try {
				results[i] = await run(items[i]!, i);
			} catch (error) {
				failed ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
	if (failed) throw failed.error;
	return results;
}
