import type { AgentId } from "../core/transcript/agents";
import type { Utf8Decoder } from "../core/transcript/jsonl-lines";

/** Whether a file of `agent` (absent: Claude Code, as `TranscriptFile.agent` says) is read without its bulk. */
export function skipsBulk(agent: AgentId | undefined): boolean {
	return agent === undefined || agent === "claude-code";
}

/**
 * Claude Code's lines carry bulk that no note is made of: a tool result's `toolUseResult`
 * repeats the tool's output in full (a file read whole, an edited file as it was before the
 * edit: a third of a history's bytes), and an image block's base64 `data` is an image (a
 * seventh). Cut from a line's bytes before they are decoded and parsed (measured on the bench
 * tree: a third less CPU to decode and parse it). What the fold reads of `toolUseResult` stays:
 * a string that starts with "Error", and an object's `agentId` (`foldToolResult`), so a string
 * becomes `""` unless it starts so, an object `{}` unless it holds an `agentId` key (then it is
 * kept whole), an array `[]`. An image's `data` becomes `""`.
 *
 * Only what is certain is cut: `toolUseResult` as a key of the line's object itself (not of an
 * object inside it, as a progress record's copy of a message has), image data only where its
 * source reads `"type":"base64","media_type":"…","data":"` in that order (as Claude Code writes
 * it); a line whose strings or brackets do not close where expected is decoded whole, as are
 * values too small to matter. Strings are skipped by their closing quote (an unescaped `"` is
 * never inside a JSON string, so the patterns below only ever match JSON's own structure).
 */
export function bulkSkippingDecoder(buffer: Buffer, decodePart: Utf8Decoder): Utf8Decoder {
	// The next place of each pattern at or after where lines were last decoded (-1: none left in
	// the buffer): found once per buffer, not once per line.
	let nextResult = -2;
	let nextImage = -2;
	return (_bytes, start, stop) => {
		if (nextResult !== -1 && nextResult < start) nextResult = buffer.indexOf(TOOL_USE_RESULT, start);
		if (nextImage !== -1 && nextImage < start) nextImage = buffer.indexOf(IMAGE_SOURCE, start);
		if (!(nextResult >= 0 && nextResult < stop) && !(nextImage >= 0 && nextImage < stop)) return decodePart(buffer, start, stop);
		const cuts: Cut[] = [];
		for (; nextResult >= 0 && nextResult < stop; nextResult = buffer.indexOf(TOOL_USE_RESULT, nextResult + 1)) {
			const cut = resultCut(buffer, start, stop, nextResult);
			if (cut) cuts.push(cut);
		}
		for (; nextImage >= 0 && nextImage < stop; nextImage = buffer.indexOf(IMAGE_SOURCE, nextImage + 1)) {
			const cut = imageCut(buffer, stop, nextImage);
			// Inside a result already cut (a result may hold images), nothing more to cut.
			if (cut && !cuts.some((c) => c.from <= cut.from && cut.to <= c.to)) cuts.push(cut);
		}
		if (cuts.length === 0) return decodePart(buffer, start, stop);
		cuts.sort((a, b) => a.from - b.from);
		let text = "";
		let at = start;
		for (const cut of cuts) {
			const part = decodePart(buffer, at, cut.from);
			if (part === null) return null;
			text += part + cut.by;
			at = cut.to;
		}
		const rest = decodePart(buffer, at, stop);
		return rest === null ? null : text + rest;
	};
}

interface Cut {
	from: number;
	to: number;
	by: string;
}

const TOOL_USE_RESULT = Buffer.from('"toolUseResult":');
const IMAGE_SOURCE = Buffer.from('"type":"base64","media_type":"');
const DATA_KEY = Buffer.from(',"data":"');
const AGENT_ID_KEY = Buffer.from('"agentId"');
const ERROR_START = Buffer.from('"Error');

/** Smaller values are parsed as they are: cutting them saves less than it costs. */
const MIN_CUT_BYTES = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The `toolUseResult` value at `key` to replace, when `key` is a key of the line's own object. */
function resultCut(buffer: Buffer, start: number, stop: number, key: number): Cut | undefined {
	if (depthAt(buffer, start, key) !== 1) return undefined;
	const from = key + TOOL_USE_RESULT.length;
	const to = valueEnd(buffer, from, stop);
	if (to < 0 || to - from < MIN_CUT_BYTES) return undefined;
	const first = buffer[from];
	if (first === QUOTE) return buffer.compare(ERROR_START, 0, ERROR_START.length, from, from + ERROR_START.length) === 0 ? undefined : { from, to, by: '""' };
	if (first === 0x5b) return { from, to, by: "[]" };
	return buffer.subarray(from, to).indexOf(AGENT_ID_KEY) >= 0 ? undefined : { from, to, by: "{}" };
}

/** An image source's `data` string at `source` (where its `"type":"base64"` starts), its quotes kept. */
function imageCut(buffer: Buffer, stop: number, source: number): Cut | undefined {
	const mediaType = source + IMAGE_SOURCE.length - 1;
	const afterMediaType = stringEnd(buffer, mediaType, stop);
	if (afterMediaType < 0 || afterMediaType + DATA_KEY.length > stop || buffer.compare(DATA_KEY, 0, DATA_KEY.length, afterMediaType, afterMediaType + DATA_KEY.length) !== 0) return undefined;
	const open = afterMediaType + DATA_KEY.length - 1;
	const close = stringEnd(buffer, open, stop);
	if (close < 0 || close - open < MIN_CUT_BYTES) return undefined;
	return { from: open + 1, to: close - 1, by: "" };
}

/** Past the string whose opening quote is at `open`; -1 when it does not close before `stop`. */
function stringEnd(buffer: Buffer, open: number, stop: number): number {
	for (let at = open + 1; ; ) {
		const quote = buffer.indexOf(QUOTE, at);
		if (quote < 0 || quote >= stop) return -1;
		let backslashes = 0;
		while (buffer[quote - 1 - backslashes] === BACKSLASH) backslashes++;
		if (backslashes % 2 === 0) return quote + 1;
		at = quote + 1;
	}
}

/** How many objects and arrays are open at `at` (which starts a key), from the line's start; -1 when a string crosses it. */
function depthAt(buffer: Buffer, start: number, at: number): number {
	let depth = 0;
	for (let i = nextBracket(buffer, start, at); i !== NONE; i = nextBracket(buffer, i + 1, at)) {
		if (i === CROSSED) return -1;
		depth += opens(buffer[i]!) ? 1 : -1;
	}
	return depth;
}

/** Past the string, object or array that starts at `from`; -1 for another value or one that does not close before `stop`. */
function valueEnd(buffer: Buffer, from: number, stop: number): number {
	const first = buffer[from];
	if (first === QUOTE) return stringEnd(buffer, from, stop);
	if (first === undefined || !opens(first)) return -1;
	let depth = 0;
	for (let i = nextBracket(buffer, from, stop); i >= 0; i = nextBracket(buffer, i + 1, stop)) {
		depth += opens(buffer[i]!) ? 1 : -1;
		if (depth === 0) return i + 1;
	}
	return -1;
}

const NONE = -1;
const CROSSED = -2;

/** The next bracket (`{[]}`) at or after `i` and before `stop`, strings skipped; `NONE`, or `CROSSED` when a string runs past `stop`. */
function nextBracket(buffer: Buffer, i: number, stop: number): number {
	while (i < stop) {
		const c = buffer[i]!;
		if (c === QUOTE) {
			i = stringEnd(buffer, i, stop);
			if (i < 0) return CROSSED;
			continue;
		}
		if (c === 0x7b || c === 0x5b || c === 0x7d || c === 0x5d) return i;
		i++;
	}
	return NONE;
}

function opens(c: number): boolean {
	return c === 0x7b || c === 0x5b;
}
