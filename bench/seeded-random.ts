/** A small deterministic generator (a linear congruential one): the same data every run. */
export function rng(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

export function pick<T>(list: readonly T[], r: () => number): T {
	return list[Math.floor(r() * list.length)]!;
}
