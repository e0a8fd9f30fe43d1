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
	const why = fieldProblem(value, { project: "string", notePath: "string", tags: "strings", keywords: "strings", digest: "object" }, { projectKey: "string", projectPath: "string", written: "boolean", deleted: "boolean", dirty: "boolean", facts: "strings", proposedPrompts: "number" });
	if (why !== undefined) return why;
	const digest = value.digest as Record<string, unknown>;
	const inDigest = fieldProblem(digest, { title: "string" }, { sessionId: "string", version: "number" }) ?? digestListsProblem(digest);
	return inDigest === undefined ? undefined : `has a digest that ${inDigest}`;
}

/**
 * Why a digest's lists (those of them it holds: a stored head holds none, its lists file all) are
 * not such: each is read into the notes, the index and the context block, item by item.
 */
export function digestListsProblem(value: Record<string, unknown>): string | undefined {
	const lists = fieldProblem(value, {}, { asked: "strings", done: "strings", open: "strings", decisions: "strings", models: "strings", filesTouched: "strings", tools: "strings", tasks: "list", subagents: "list", usage: "list", tokens: "object" });
	if (lists !== undefined) return lists;
	const items: [field: string, required: Record<string, Kind>, optional: Record<string, Kind>][] = [
		["tasks", { calls: "number", result: "strings" }, { ask: "string" }],
		["subagents", { description: "string" }, { type: "string", agentId: "string" }],
		["usage", { day: "string", model: "string", input: "number", output: "number", cacheRead: "number", cacheWrite: "number" }, {}],
	];
	for (const [field, required, optional] of items) {
		for (const [at, item] of ((value[field] as unknown[] | undefined) ?? []).entries()) {
			const why = isObject(item) ? fieldProblem(item, required, optional) : `is ${shown(item).slice(0, 60)}, not a record`;
			if (why !== undefined) return `has \`${field}\` whose item ${at} ${why}`;
		}
	}
	return value.tokens === undefined ? undefined : fieldProblem(value.tokens as Record<string, unknown>, { input: "number", output: "number", cacheRead: "number", cacheWrite: "number" }, { costUsd: "number" });
}

/** Why a stored project record is not one, or undefined when it is. */
export function projectRecordProblem(value: unknown): string | undefined {
	if (!isObject(value)) return `is ${shown(value)}, not a record`;
	const why = fieldProblem(value, { folder: "string" }, { repository: "boolean", fingerprint: "string", replacedAt: "string", notesPath: "string", memoryPath: "string", notesRoot: "string", tagPrefixWith: "string", memoryWith: "string", memoryRedaction: "string", indexPath: "string", packetPath: "string", leftFacts: "object" });
	if (why !== undefined) return why;
	const left = value.leftFacts;
	return left === undefined ? undefined : fieldProblem(left as Record<string, unknown>, { folder: "string", names: "strings" }, {});
}

/** Why a stored checkpoint (`SyncState.checkpoints`) is not one. */
export function checkpointProblem(value: unknown): string | undefined {
	return isObject(value) ? fieldProblem(value, { text: "string" }, { at: "string" }) : `is ${shown(value)}, not a record`;
}

/** Why a stored summary line (`SyncState.summaries`, a title) is not one. */
export function summaryProblem(value: unknown): string | undefined {
	return typeof value === "string" ? undefined : `is ${shown(value).slice(0, 60)}, not a text`;
}

/** Why a project's shared facts (`SyncState.memory`, by Claude Code's file name) are not such. */
export function sharedFactsProblem(value: unknown): string | undefined {
	if (!isObject(value)) return `is ${shown(value)}, not a record`;
	for (const [name, pair] of Object.entries(value)) {
		const why = isObject(pair) ? fieldProblem(pair, { vault: "string", base: "string" }, {}) : `is ${shown(pair).slice(0, 60)}, not a record`;
		if (why !== undefined) return `has ${name.slice(0, 100)}, which ${why}`;
	}
	return undefined;
}

type Kind = "string" | "number" | "boolean" | "object" | "strings" | "list";

/** The first field that is missing (of `required`) or of another kind, as "has no `x`" or "has `x` …". */
function fieldProblem(value: Record<string, unknown>, required: Record<string, Kind>, optional: Record<string, Kind>): string | undefined {
	for (const field of Object.keys(required)) if (!Object.hasOwn(value, field)) return `has no \`${field}\``;
	for (const [field, kind] of [...Object.entries(required), ...Object.entries(optional)]) {
		if (!Object.hasOwn(value, field) || (field in optional && value[field] === undefined)) continue;
		if (!isKind(value[field], kind)) return `has \`${field}\` ${shown(value[field]).slice(0, 60)}, not ${KIND_NAMES[kind]}`;
	}
	return undefined;
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
