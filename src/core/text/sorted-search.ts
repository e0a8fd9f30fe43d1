/** Where `value` would go in `sorted` (code unit order): the first index whose string is not below it. */
export function lowerBound(sorted: readonly string[], value: string): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const mid = (low + high) >>> 1;
		if (sorted[mid]! < value) low = mid + 1;
		else high = mid;
	}
	return low;
}
