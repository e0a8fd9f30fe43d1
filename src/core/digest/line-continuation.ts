/**
 * Lines a `\` at their end joins, as the shell reads them (and Python, and C's macros): a command
 * written over several lines (`curl -H "Authorization: Bearer \`, the token on the next line;
 * `export API_KEY=\`, the key below) is one line to the shell, and to the redaction rules once
 * joined. Pure.
 */

/** A replacement in a text: `[start, end)` becomes `replacement`. */
export interface Span {
	start: number;
	end: number;
	replacement: string;
}

/** Lines a `\` joins, from the first one's start to the last one's end, and where each joining `\` is. */
export interface ContinuedLines {
	start: number;
	end: number;
	joins: number[];
}

/** Parts closer than this are one: each part costs a pass of the rules of its own. */
const PART_GAP = 256;

/**
 * The parts of `text` that are lines joined by a `\` at their end (one not escaped: an odd run of
 * backslashes before the line end); none in most texts (two `includes` tell). One scan.
 */
export function continuedLines(text: string): ContinuedLines[] {
	if (!text.includes("\\\n") && !text.includes("\\\r")) return [];
	const out: ContinuedLines[] = [];
	let lineAt = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c !== 0x0a && c !== 0x0d) continue;
		const eol = c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
		let slashes = 0;
		while (i - slashes > lineAt && text.charCodeAt(i - slashes - 1) === 0x5c) slashes++;
		if (slashes % 2 === 1) {
			const last = out[out.length - 1];
			const next = lineEndAt(text, i + eol);
			if (last && lineAt - last.end <= PART_GAP) {
				last.end = next;
				last.joins.push(i - 1);
			} else out.push({ start: lineAt, end: next, joins: [i - 1] });
		}
		i += eol - 1;
		lineAt = i + 1;
	}
	return out;
}

/**
 * The part's text with each joining `\` and the line end after it made blanks: its lines as one,
 * as long as they were, so that a place in one is the same place in the other.
 */
export function joinContinued(text: string, part: ContinuedLines): string {
	const lines = text.slice(part.start, part.end);
	// No line ends in an escaped `\` (`\\`): every `\` before a line end joins, and a native
	// replace joins them (a slice and a blank each took a fifth of a second on 2 MB of joined lines).
	if (!lines.includes("\\\\\n") && !lines.includes("\\\\\r")) return lines.replaceAll("\\\r\n", "   ").replaceAll("\\\n", "  ").replaceAll("\\\r", "  ");
	const pieces: string[] = [];
	let last = part.start;
	for (const at of part.joins) {
		const length = text.startsWith("\r\n", at + 1) ? 3 : 2;
		pieces.push(text.slice(last, at), " ".repeat(length));
		last = at + length;
	}
	pieces.push(text.slice(last, part.end));
	return pieces.join("");
}

function lineEndAt(text: string, from: number): number {
	let i = from;
	while (i < text.length && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
	return i;
}

/** The span an edit of `text` makes, without what its replacement keeps of the text at its ends. */
export function minimalSpan(text: string, start: number, end: number, replacement: string): Span {
	const most = Math.min(end - start, replacement.length);
	let head = 0;
	while (head < most && text.charCodeAt(start + head) === replacement.charCodeAt(head)) head++;
	let tail = 0;
	while (tail < most - head && text.charCodeAt(end - 1 - tail) === replacement.charCodeAt(replacement.length - 1 - tail)) tail++;
	return { start: start + head, end: end - tail, replacement: replacement.slice(head, replacement.length - tail) };
}

/**
 * The spans of two rounds of edits as one round, in the first text's places: `earlier` in the
 * first text's, `later` in those of `made`, the text `earlier` made (both sorted, none
 * overlapping). Later spans over an earlier one's replacement (or part of it) take it in.
 */
export function composeSpans(earlier: readonly Span[], later: readonly Span[], made: string): Span[] {
	const out: Span[] = [];
	let i = 0;
	// How much longer `made` is than the first text, up to where the spans taken end.
	let shift = 0;
	const grown = (s: Span): number => s.replacement.length - (s.end - s.start);
	// Later spans over one stretch of `made` (`from`, `to`) with the earlier replacements in it: one span of the first text from `start`.
	let group: { start: number; from: number; to: number; spans: Span[] } | undefined;
	const takeIn = (g: NonNullable<typeof group>): void => {
		for (; i < earlier.length && earlier[i]!.start + shift < g.to; i++) {
			const taken = earlier[i]!;
			g.from = Math.min(g.from, taken.start + shift);
			g.to = Math.max(g.to, taken.start + shift + taken.replacement.length);
			g.start = Math.min(g.start, taken.start);
			shift += grown(taken);
		}
	};
	const close = (g: NonNullable<typeof group>): void => {
		let replacement = "";
		let at = g.from;
		for (const s of g.spans) {
			replacement += made.slice(at, s.start) + s.replacement;
			at = s.end;
		}
		// `to` is past every replacement taken in: there `made` and the first text differ by `shift`.
		out.push({ start: g.start, end: g.to - shift, replacement: replacement + made.slice(at, g.to) });
	};
	for (const span of later) {
		if (group && span.start < group.to) {
			group.spans.push(span);
			group.to = Math.max(group.to, span.end);
			takeIn(group);
			continue;
		}
		if (group) close(group);
		for (; i < earlier.length && earlier[i]!.start + shift + earlier[i]!.replacement.length <= span.start; i++) {
			out.push(earlier[i]!);
			shift += grown(earlier[i]!);
		}
		group = { start: span.start - shift, from: span.start, to: span.end, spans: [span] };
		takeIn(group);
	}
	if (group) close(group);
	for (; i < earlier.length; i++) out.push(earlier[i]!);
	return out;
}
