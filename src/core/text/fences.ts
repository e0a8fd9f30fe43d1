/**
 * Fenced code as CommonMark reads it: a line of at most three spaces, then three or more backticks
 * or tildes. A run of backticks with a backtick after it on the line (```npm install```) is inline
 * code, not a fence: taken for one, it turned the fences after it inside out, and the closing
 * fence added for it opened a block that swallowed the rest of a note.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The run of backticks or tildes that opens a fenced block on this line, or undefined. */
export function fenceOpening(line: string): string | undefined {
	const run = FENCE.exec(line)?.[1];
	if (run === undefined) return undefined;
	return run[0] === "`" && line.indexOf("`", line.indexOf(run) + run.length) >= 0 ? undefined : run;
}

/** The run of a line that can close a fence: a run of backticks or tildes with nothing after but blanks. */
export function closingRun(line: string): string | undefined {
	const run = FENCE.exec(line)?.[1];
	return run !== undefined && line.trim() === run ? run : undefined;
}

/** Whether the line closes a block `open` opened: the same character, at least as many, nothing after but blanks. */
export function closesFence(line: string, open: string): boolean {
	const run = closingRun(line);
	return run !== undefined && run[0] === open[0] && run.length >= open.length;
}
