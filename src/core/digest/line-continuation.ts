/**
 * Lines a character at their end joins, as a shell reads them: a `\` (sh and bash, and Python,
 * and C's macros), PowerShell's backtick, cmd's `^`. A command written over several lines (`curl
 * -H "Authorization: Bearer \`, the token on the next line; `export API_KEY=\`, the key below;
 * `$env:API_KEY = \``, `set API_KEY=^`) is one line to the shell, and to the redaction rules once
 * joined. Pure.
 */

/** A replacement in a text: `[start, end)` becomes `replacement`. */
export interface Span {
	start: number;
	end: number;
	replacement: string;
}

/** Lines a continuation joins, from the first one's start to the last one's end, and where each joining character is. */
export interface ContinuedLines {
	start: number;
	end: number;
	joins: number[];
}

/** Parts closer than this are one: each part costs a pass of the rules of its own. */
const PART_GAP = 256;

/** A continuation at a line's end (see `joinAt`): a `\` or a `^` before a line end, or a backtick after a blank. */
const CONTINUATION_RE = /(?:[\\^]|[ \t]`)(?:\r|\n)/;

/**
 * The parts of `text` that are lines joined by a continuation at their end (see `joinAt`); none in
 * most texts (one search tells). One scan.
 */
export function continuedLines(text: string): ContinuedLines[] {
	if (!CONTINUATION_RE.test(text)) return [];
	const out: ContinuedLines[] = [];
	let lineAt = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c !== 0x0a && c !== 0x0d) continue;
		const eol = c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
		if (joinAt(text, lineAt, i)) {
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
 * Whether the line from `lineAt` to its end at `eol` ends in a continuation: a `\` or a `^` not
 * escaped (an odd run: `\\` and `^^` are one escaped), or PowerShell's backtick, one after a blank
 * with more of the line before it (a Markdown code span's closing backtick follows its text, a
 * fence's are three). After `=`, `:`, `(`, `,` or `return` a backtick opens a JavaScript template
 * literal (`const html = \``, every one the corpus has), unless the line assigns a PowerShell
 * variable (`$env:API_KEY = \``).
 */
function joinAt(text: string, lineAt: number, eol: number): boolean {
	const c = text.charCodeAt(eol - 1);
	if (eol - 1 < lineAt) return false;
	if (c === 0x60) {
		const blank = text.charCodeAt(eol - 2);
		if (eol - 2 <= lineAt || (blank !== 0x20 && blank !== 0x09)) return false;
		const before = text.slice(lineAt, eol - 2).trim();
		return before !== "" && (!TEMPLATE_OPENS_AFTER.test(before) || POWERSHELL_ASSIGNMENT.test(before));
	}
	if (c !== 0x5c && c !== 0x5e) return false;
	let run = 0;
	while (eol - run > lineAt && text.charCodeAt(eol - run - 1) === c) run++;
	return run % 2 === 1;
}

/**
 * The part's text with each joining character and the line end after it made blanks: its lines as
 * one, as long as they were, so that a place in one is the same place in the other.
 */
export function joinContinued(text: string, part: ContinuedLines): string {
	const lines = text.slice(part.start, part.end);
	// Every join a `\` and no line ending in an escaped one (`\\`): every `\` before a line end joins, and a
	// native replace joins them (a slice and a blank each took a fifth of a second on 2 MB of joined lines).
	if (!lines.includes("\\\\\n") && !lines.includes("\\\\\r") && part.joins.every((at) => text.charCodeAt(at) === 0x5c)) {
		return lines.replaceAll("\\\r\n", "   ").replaceAll("\\\n", "  ").replaceAll("\\\r", "  ");
	}
	// Each continuation that joins (the joins are in order) made blanks, the others (`^^`, a code span's backtick) kept.
	let k = 0;
	return lines.replace(CONTINUATIONS_RE, (found: string, offset: number) => {
		const at = part.start + offset;
		while (k < part.joins.length && part.joins[k]! < at) k++;
		return part.joins[k] === at ? BLANKS[found.length]! : found;
	});
}

const CONTINUATIONS_RE = /[\\`^](?:\r\n|\r|\n)/g;
/** Where a JavaScript template literal may open: after an assignment, a property, a call's parenthesis or comma, `return`. */
const TEMPLATE_OPENS_AFTER = /(?:[=:(,]|\breturn)$/;
/** A line that assigns a PowerShell variable, a file viewer's line number before it (`  12→`). */
const POWERSHELL_ASSIGNMENT = /^(?:\d{1,7}(?:\t|→)\s*)?\$[\w:]+\s*=/;
const BLANKS = ["", " ", "  ", "   "];

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
