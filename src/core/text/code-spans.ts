/**
 * The inline code spans of one line of Markdown, as CommonMark pairs them: a run of backticks
 * opens a span that the next run of the same length closes; a run that nothing closes is plain
 * text. Returned as [start, end) offsets, delimiters included. Linear: each run looks ahead for
 * its closer through an index of runs by length, never by rescanning the line.
 */
export function codeSpans(line: string): [number, number][] {
	if (!line.includes("`")) return [];
	const runs: { at: number; length: number }[] = [];
	for (let i = line.indexOf("`"); i >= 0; i = line.indexOf("`", i)) {
		let end = i;
		while (line.charCodeAt(end) === 0x60) end++;
		runs.push({ at: i, length: end - i });
		i = end;
	}
	// For each run, the next run of the same length (or -1).
	const next = new Array<number>(runs.length).fill(-1);
	const last = new Map<number, number>();
	for (let k = runs.length - 1; k >= 0; k--) {
		next[k] = last.get(runs[k]!.length) ?? -1;
		last.set(runs[k]!.length, k);
	}
	const spans: [number, number][] = [];
	for (let k = 0; k < runs.length; k++) {
		const close = next[k]!;
		if (close < 0) continue;
		spans.push([runs[k]!.at, runs[close]!.at + runs[close]!.length]);
		k = close;
	}
	return spans;
}

/** The line with each code span blanked to one space: what a reader of imports and mentions takes as live text. */
export function outsideCodeSpans(line: string): string {
	let out = "";
	let from = 0;
	for (const [start, end] of codeSpans(line)) {
		out += `${line.slice(from, start)} `;
		from = end;
	}
	return out + line.slice(from);
}

/** A run of backticks that occurs nowhere in `line` as a run of its own: delimiters that pair only with each other. */
export function unusedTicks(line: string): string {
	const lengths = new Set<number>();
	for (const run of line.match(/`+/g) ?? []) lengths.add(run.length);
	let n = 1;
	while (lengths.has(n)) n++;
	return "`".repeat(n);
}

/**
 * `text` as one inline code span that stays one: delimiters no run of backticks in it can end (a
 * space inside them when it starts or ends with one), a line break shown as `␤`, an empty text as a
 * space. Every span made of text we did not write goes through it: a path, an id or a note's name
 * with a backtick closed the span early, and one with a line break split the line (a vault folder
 * `a\nb`, or a file path a transcript gave, put a line of its own into the CLAUDE.md block).
 */
export function codeSpan(text: string): string {
	const one = text.replace(/\r\n|[\r\n]/g, "␤");
	if (one === "") return "` `";
	const ticks = unusedTicks(one);
	const pad = one.startsWith("`") || one.endsWith("`") ? " " : "";
	return `${ticks}${pad}${one}${pad}${ticks}`;
}
