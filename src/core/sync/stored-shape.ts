import { shown } from "../dict";

/**
 * What a record of the stored state must hold for the sync to use it. A state file that is JSON
 * but not of this shape (a hand edit, a sync tool's merge, a file of another kind put in its place)
 * ended the sync with V8's words ("Cannot read properties of undefined (reading 'startsWith')"):
 * the state folder names the file and the record instead (`DamagedStateError`).
 */

/** Why a stored session record is not one, or undefined when it is. */
export function sessionRecordProblem(value: unknown): string | undefined {
	if (!isObject(value)) return `is ${shown(value)}, not a record`;
	const why = fieldProblem(value, SESSION_RECORD);
	if (why !== undefined) return why;
	const digest = value.digest as Record<string, unknown>;
	const inDigest = fieldProblem(digest, DIGEST) ?? digestListsProblem(digest);
	return inDigest === undefined ? undefined : `has a digest that ${inDigest}`;
}

/**
 * Why a digest's lists (those of them it holds: a stored head holds none, its lists file all) are
 * not such: each is read into the notes, the index and the context block, item by item.
 */
export function digestListsProblem(value: Record<string, unknown>): string | undefined {
	const lists = fieldProblem(value, DIGEST_LISTS);
	if (lists !== undefined) return lists;
	for (const [field, itemShape] of DIGEST_ITEMS) {
		const items = (value[field] as unknown[] | undefined) ?? [];
		for (let at = 0; at < items.length; at++) {
			const item = items[at];
			const why = isObject(item) ? fieldProblem(item, itemShape) : `is ${shown(item).slice(0, 60)}, not a record`;
			if (why !== undefined) return `has \`${field}\` whose item ${at} ${why}`;
		}
	}
	return value.tokens === undefined ? undefined : fieldProblem(value.tokens as Record<string, unknown>, TOKENS);
}

/** Why a stored project record is not one, or undefined when it is. */
export function projectRecordProblem(value: unknown): string | undefined {
	if (!isObject(value)) return `is ${shown(value)}, not a record`;
	const why = fieldProblem(value, PROJECT_RECORD);
	if (why !== undefined) return why;
	const left = value.leftFacts;
	return left === undefined ? undefined : fieldProblem(left as Record<string, unknown>, LEFT_FACTS);
}

/** Why a stored checkpoint (`SyncState.checkpoints`) is not one. */
export function checkpointProblem(value: unknown): string | undefined {
	return isObject(value) ? fieldProblem(value, CHECKPOINT) : `is ${shown(value)}, not a record`;
}

/** Why a stored summary line (`SyncState.summaries`, a title) is not one. */
export function summaryProblem(value: unknown): string | undefined {
	return typeof value === "string" ? undefined : `is ${shown(value).slice(0, 60)}, not a text`;
}

/** Why a project's shared facts (`SyncState.memory`, by Claude Code's file name) are not such. */
export function sharedFactsProblem(value: unknown): string | undefined {
	if (!isObject(value)) return `is ${shown(value)}, not a record`;
	for (const [name, pair] of Object.entries(value)) {
		const why = isObject(pair) ? fieldProblem(pair, SHARED_FACT) : `is ${shown(pair).slice(0, 60)}, not a record`;
		if (why !== undefined) return `has ${name.slice(0, 100)}, which ${why}`;
	}
	return undefined;
}

type Kind = "string" | "number" | "boolean" | "object" | "strings" | "list";

/**
 * The fields a record must have (`required`) and may have, each of its kind: made once, as every
 * record of the state is checked at every sync (looked up by the record's own keys, in one walk:
 * reading each field by name was 5% of a sync with nothing to do).
 */
interface Shape {
	required: readonly string[];
	kinds: ReadonlyMap<string, Kind>;
	optional: ReadonlySet<string>;
}

function shape(required: Record<string, Kind>, optional: Record<string, Kind>): Shape {
	return { required: Object.keys(required), kinds: new Map([...Object.entries(required), ...Object.entries(optional)]), optional: new Set(Object.keys(optional)) };
}

const SESSION_RECORD = shape({ project: "string", notePath: "string", tags: "strings", keywords: "strings", digest: "object" }, { projectKey: "string", projectPath: "string", written: "boolean", deleted: "boolean", dirty: "boolean", facts: "strings", proposedPrompts: "number" });
const DIGEST = shape({ title: "string" }, { sessionId: "string", version: "number" });
const DIGEST_LISTS = shape({}, { asked: "strings", done: "strings", open: "strings", decisions: "strings", models: "strings", filesTouched: "strings", tools: "strings", tasks: "list", subagents: "list", usage: "list", tokens: "object" });
const DIGEST_ITEMS: readonly [field: string, shape: Shape][] = [
	["tasks", shape({ calls: "number", result: "strings" }, { ask: "string" })],
	["subagents", shape({ description: "string" }, { type: "string", agentId: "string" })],
	["usage", shape({ day: "string", model: "string", input: "number", output: "number", cacheRead: "number", cacheWrite: "number" }, {})],
];
const TOKENS = shape({ input: "number", output: "number", cacheRead: "number", cacheWrite: "number" }, { costUsd: "number" });
const PROJECT_RECORD = shape({ folder: "string" }, { repository: "boolean", fingerprint: "string", replacedAt: "string", notesPath: "string", memoryPath: "string", notesRoot: "string", tagPrefixWith: "string", memoryWith: "string", memoryReal: "string", memoryRedaction: "string", notesRedaction: "string", indexPath: "string", packetPath: "string", leftFacts: "object" });
const LEFT_FACTS = shape({ folder: "string", names: "strings" }, {});
const CHECKPOINT = shape({ text: "string" }, { at: "string" });
const SHARED_FACT = shape({ vault: "string", base: "string" }, {});

/** The first field that is missing (of the required) or else of another kind, as "has no `x`" or "has `x` …". */
function fieldProblem(value: Record<string, unknown>, { required, kinds, optional }: Shape): string | undefined {
	let present = 0;
	let wrong: string | undefined;
	for (const field in value) {
		const kind = kinds.get(field);
		if (kind === undefined || !Object.hasOwn(value, field)) continue;
		const v = value[field];
		if (!optional.has(field)) present++;
		else if (v === undefined) continue;
		if (wrong === undefined && !isKind(v, kind)) wrong = `has \`${field}\` ${shown(v).slice(0, 60)}, not ${KIND_NAMES[kind]}`;
	}
	if (present < required.length) for (const field of required) if (!Object.hasOwn(value, field)) return `has no \`${field}\``;
	return wrong;
}

const KIND_NAMES: Record<Kind, string> = { string: "a text", number: "a number", boolean: "true or false", object: "an object", strings: "a list of texts", list: "a list" };

function isKind(value: unknown, kind: Kind): boolean {
	if (kind === "strings") return Array.isArray(value) && value.every((v) => typeof v === "string");
	if (kind === "list") return Array.isArray(value);
	if (kind === "object") return isObject(value);
	if (kind === "number") return typeof value === "number" && Number.isFinite(value);
	return typeof value === kind;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The deepest any state file the sync writes is nested, with room to spare. A value nested deeper
 * (a damaged or hand-made file: `[[[…]]]` 100,000 deep as its version) ended the sync with V8's
 * "Maximum call stack size exceeded" from the first walk over it that recursed.
 */
export const MAX_STATE_DEPTH = 64;

/**
 * Whether `value` is arrays or objects nested more than `max` levels deep (`{}` is one). Recursive
 * only `max` levels down, whatever the value: a walk with a stack of its own made a sync with
 * nothing to read check its state's session records in 7 ms, this one in about 1.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
	if (typeof value !== "object" || value === null) return false;
	if (max <= 0) return true;
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			const inner: unknown = value[i];
			if (typeof inner === "object" && inner !== null && nestedDeeperThan(inner, max - 1)) return true;
		}
		return false;
	}
	for (const key in value) {
		const inner = (value as Record<string, unknown>)[key];
		if (typeof inner === "object" && inner !== null && nestedDeeperThan(inner, max - 1)) return true;
	}
	return false;
}
