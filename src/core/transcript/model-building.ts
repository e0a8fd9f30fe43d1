import { dict } from "../dict";
import { NO_ITEMS, own, ownTypes, type SessionEvent, type SessionModel } from "./session-model";
import { objectsOnOneLine, unreadable, withoutNuls, type RawLine } from "./jsonl-lines";
import { isObject } from "./parse-line";

/**
 * What every agent's fold builds a session model with: the clip limits and budgets, and the
 * steps that keep the model's lists unique and its counts true.
 */

/** Clip limits (characters) for what a session keeps; counts are never clipped. */
export const LIMITS = {
	prompt: 20_000,
	text: 20_000,
	thinking: 4_000,
	toolInputString: 500,
	/**
	 * A commit or pull request command, or a plan: where a session writes down its choices and their
	 * reasons, after the `git add` of every file and the subject. Cut at a line's or a sentence's end.
	 */
	recordInput: 4_000,
	/** A slash command's prompt: what it asks is said at its start. */
	expansion: 2_000,
	toolResult: 300,
	/** The user's answers to `AskUserQuestion` come after each question's full text: a longer result, or the answers are cut off. */
	answersResult: 4_000,
	compactSummary: 8_000,
	/** Past this much retained text a session keeps only short excerpts of new events. */
	retainedChars: 8_000_000,
	excerptWhenOverBudget: 300,
	events: 20_000,
	/**
	 * Prompts kept past `events`: what the user typed late in a long session (its last request, what
	 * the next session's context says it asked) is not lost with the tool calls; bounded all the same.
	 */
	promptsPastEvents: 5_000,
	malformedLines: 50,
} as const;

/** A line that could not be read: counted, and the first few listed with why. */
export function markMalformed(model: SessionModel, no: number, reason: string): void {
	model.counts.malformed++;
	if (model.malformedLines.length < LIMITS.malformedLines) (model.malformedLines = own(model.malformedLines)).push({ line: no, reason });
}

/**
 * Why a record's text cannot be read: the first of `fields` that is there and not text (a list, an
 * object, a number where the agent writes a string), or undefined. Read as no text, such a record
 * dropped its turn without a word: the folds name it as a line not read (`markMalformed`).
 * `what` names the record: "the user.message event".
 */
export function textFieldProblem(record: Record<string, unknown>, fields: readonly string[], what: string): string | undefined {
	const field = fields.find((f) => record[f] !== undefined && record[f] !== null && typeof record[f] !== "string");
	return field === undefined ? undefined : `${what}'s ${field} is not text`;
}

/**
 * Each object of a line of a JSONL session file, handed to `fold`, for the folds of agents whose
 * lines need no more than `JSON.parse` (Codex, Gemini CLI, Copilot CLI): counted as a line, and
 * each object as a record; a blank line is skipped, a bad one is counted with its number and why.
 * A line of several objects back to back (two writes that met) gives each (`objectsOnOneLine`).
 */
export function eachObject(model: SessionModel, line: RawLine, fold: (value: Record<string, unknown>) => void): void {
	if (line.text !== null && line.text.trim() === "") return;
	model.counts.lines++;
	// Bytes that are not UTF-8 are read as U+FFFD (see `RawLine.lossy`).
	const text = line.text ?? line.lossy;
	if (text === undefined) return markMalformed(model, line.no, unreadable(line));
	const value = jsonOf(text);
	// NULs a crash left before the line, or a stray one, are all that is wrong with it (see `withoutNuls`).
	const clean = value === NOT_JSON ? withoutNuls(text) : undefined;
	const read = clean === undefined ? value : jsonOf(clean);
	if (read === NOT_JSON) {
		const several = objectsOnOneLine(clean ?? text)?.map(objectOrUndefined);
		if (!several?.every((o) => o !== undefined)) return markMalformed(model, line.no, line.text === null ? unreadable(line) : "invalid JSON");
		model.counts.records += several.length;
		for (const o of several) fold(o);
		return;
	}
	if (!isObject(read)) return markMalformed(model, line.no, "not a JSON object");
	model.counts.records++;
	fold(read);
}

const NOT_JSON: unique symbol = Symbol("not JSON");

function jsonOf(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return NOT_JSON;
	}
}

function objectOrUndefined(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return isObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** A record of a type the fold does not know (a newer client): counted by type, never fatal. */
export function countUnknown(model: SessionModel, type: string): void {
	model.counts.unknownRecords++;
	const types = ownTypes(model);
	types[type] = (types[type] ?? 0) + 1;
}

/** Past this length a list is looked up in a set (a hostile transcript's thousands of names stay linear). */
const SHORT_LIST = 16;

/**
 * Adds `value` to `lists[key]` unless it is there (the list made the model's own, see `own`), the
 * list's set (in `sets`, by `key`) made once it is long; the sets after, made when first needed.
 */
function addOnce<K extends string>(lists: Record<K, string[]>, sets: Partial<Record<K, Set<string>>> | undefined, key: K, value: string): Partial<Record<K, Set<string>>> | undefined {
	const set = sets?.[key];
	if (set === undefined) {
		if (lists[key].includes(value)) return sets;
		// A first name makes a list of one (most hold one or a few): one pushed to an empty list takes room for 17.
		if (lists[key] === NO_ITEMS) {
			lists[key] = [value];
			return sets;
		}
		const list = lists[key];
		list.push(value);
		if (list.length < SHORT_LIST) return sets;
		const made: Partial<Record<K, Set<string>>> = sets ?? {};
		made[key] = new Set(list);
		return made;
	}
	if (set.has(value)) return sets;
	set.add(value);
	lists[key].push(value);
	return sets;
}

/** A file the session read, wrote or edited: listed once, first seen first. */
export function addFile(model: SessionModel, kind: "read" | "written" | "edited", path: string): void {
	model.index.files = addOnce(model.files, model.index.files, kind, path);
}

/**
 * No agent this reads wrote a record before 2023 (Aider, the first, was released that year): an
 * earlier time is a clock never set (epoch 0, a dead RTC battery's 1970 or 2000), and one line so
 * stamped dated a session of today 1970-01-01, in its note, its index heading and the CLAUDE.md block
 * (attack round 42), as a line of 2999 ended one then before `timesUntil`.
 */
const EARLIEST_TIME = "2023-01-01T00:00:00.000Z";

/** Whether a record's time is one its session was written at: not before any agent was, and before its file was last written, with the leeway (see `timesUntil`). */
export function writtenBy(model: SessionModel, timestamp: string): boolean {
	const until = model.index.timesUntil;
	return timestamp >= EARLIEST_TIME && (until === undefined || timestamp <= until);
}

export function noteTime(model: SessionModel, timestamp: string): void {
	// ISO-8601 UTC strings of one format order as text; lines are not in strict time order.
	if (!writtenBy(model, timestamp)) return;
	if (model.startedAt === undefined || timestamp < model.startedAt) model.startedAt = timestamp;
	if (model.endedAt === undefined || timestamp > model.endedAt) model.endedAt = timestamp;
}

export type ListKey = "sessionIds" | "cwds" | "branches" | "versions" | "models";

export function addUnique(model: SessionModel, key: ListKey, value: string): void {
	model.index.sets = addOnce(model, model.index.sets, key, value);
}

/** The user stopped the agent mid-turn: counted, and where in the events it happened. */
export function noteInterruption(model: SessionModel): void {
	model.counts.interruptions++;
	model.interruptedAt = model.events.length;
}

/** Adds the event, or counts it elided past the budget; whether it was added. */
export function pushEvent(model: SessionModel, event: SessionEvent): boolean {
	const budget = event.kind === "prompt" ? LIMITS.events + LIMITS.promptsPastEvents : LIMITS.events;
	if (model.events.length >= budget) {
		model.counts.elidedEvents++;
		return false;
	}
	// The first event makes a list of one, not an empty list with room for 17 (see `addOnce`).
	if (model.events === NO_ITEMS) model.events = [event];
	else model.events.push(event);
	return true;
}

/**
 * `text` kept to `limit` characters, a "…" marking the cut. `atBoundary`: cut after the last line
 * or sentence that fits, when one ends in the latter half, so no half sentence is kept.
 */
export function clip(model: SessionModel, text: string, limit: number, atBoundary = false): string {
	const max = model.index.retainedChars > LIMITS.retainedChars ? LIMITS.excerptWhenOverBudget : limit;
	// A slice would keep the whole original string alive; copy the kept part out of it.
	const clipped = text.length > max ? `${text.slice(0, atBoundary && max === limit ? boundaryBefore(text, max) : max)}…` : text;
	const kept = clipped !== text && model.index.copyClips ? copyString(clipped) : clipped;
	model.index.retainedChars += kept.length;
	return kept;
}

/** Where to cut `text` to at most `max` characters: just after the last line or sentence that ends in the latter half, else at `max`. */
function boundaryBefore(text: string, max: number): number {
	const room = text.slice(0, max);
	let end = room.lastIndexOf("\n") + 1;
	for (const m of room.matchAll(/[.!?]["')\]]?[ \t]/g)) end = Math.max(end, m.index + m[0].length);
	return end >= max / 2 ? end : max;
}

/** A command that carries a commit message or a pull request's description. */
const RECORD_COMMAND = /\bgit\s+(?:-C\s+\S+\s+)?commit\b|\bgh\s+pr\s+(?:create|edit)\b/;

/** A tool's input string as a session keeps it: a commit or pull request command, or a plan, longer and cut at a boundary. */
export function clipField(model: SessionModel, key: string, text: string): string {
	const record = key === "plan" || (key === "command" && RECORD_COMMAND.test(text));
	return record ? clip(model, text, LIMITS.recordInput, true) : clip(model, text, LIMITS.toolInputString);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
function copyString(text: string): string {
	return decoder.decode(encoder.encode(text));
}

export function clipInput(model: SessionModel, value: unknown, depth: number, key = ""): unknown {
	if (typeof value === "string") return depth === 1 ? clipField(model, key, value) : clip(model, value, LIMITS.toolInputString);
	if (Array.isArray(value)) {
		if (depth > 3) return `[${value.length} items]`;
		return value.slice(0, 50).map((item) => clipInput(model, item, depth + 1));
	}
	if (isObject(value)) {
		if (depth > 3) return "{…}";
		// No prototype: a key `__proto__` (own in parsed JSON) set it, and the input seemed to hold fields it had not.
		const out: Record<string, unknown> = dict();
		for (const key of Object.keys(value)) out[key] = clipInput(model, value[key], depth + 1, key);
		return out;
	}
	return value;
}


