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
	const inDigest = fieldProblem(digest, { title: "string" }, { sessionId: "string", version: "number" });
	return inDigest === undefined ? undefined : `has a digest whose ${inDigest.replace(/^has /, "")}`;
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

type Kind = "string" | "number" | "boolean" | "object" | "strings";

/** The first field that is missing (of `required`) or of another kind, as "has no `x`" or "has `x` …". */
function fieldProblem(value: Record<string, unknown>, required: Record<string, Kind>, optional: Record<string, Kind>): string | undefined {
	for (const field of Object.keys(required)) if (!Object.hasOwn(value, field)) return `has no \`${field}\``;
	for (const [field, kind] of [...Object.entries(required), ...Object.entries(optional)]) {
		if (!Object.hasOwn(value, field) || (field in optional && value[field] === undefined)) continue;
		if (!isKind(value[field], kind)) return `has \`${field}\` ${shown(value[field]).slice(0, 60)}, not ${KIND_NAMES[kind]}`;
	}
	return undefined;
}

const KIND_NAMES: Record<Kind, string> = { string: "a text", number: "a number", boolean: "true or false", object: "an object", strings: "a list of texts" };

function isKind(value: unknown, kind: Kind): boolean {
	if (kind === "strings") return Array.isArray(value) && value.every((v) => typeof v === "string");
	if (kind === "object") return isObject(value);
	if (kind === "number") return typeof value === "number" && Number.isFinite(value);
	return typeof value === kind;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
