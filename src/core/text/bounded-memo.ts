/**
 * `of`, remembering its answer for each text it was asked of lately: the digest asks the same
 * thing of the same text from several of its parts (a Bash line's commands, a word's keyword term),
 * and working it out again each time was a tenth of a digest. Emptied when `max` texts are kept,
 * so a thread that reads many sessions (and the plugin after its sync) holds a bounded number; a
 * text longer than `longest` is worked out anew each time, never kept.
 */
export function boundedMemo<T>(of: (text: string) => T, max: number, longest = Infinity): (text: string) => T {
	const kept = new Map<string, T>();
	return (text) => {
		if (text.length > longest) return of(text);
		const known = kept.get(text);
		if (known !== undefined || kept.has(text)) return known as T;
		if (kept.size >= max) kept.clear();
		const answer = of(text);
		kept.set(text, answer);
		return answer;
	};
}
