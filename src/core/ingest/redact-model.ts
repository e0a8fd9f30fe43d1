import { dict } from "../dict";
import type { SubagentMeta } from "../transcript/link-subagents";
import type { SessionEvent, SessionModel } from "../transcript/session-model";

/** Redacts the whole model again (the redaction settings changed since it was stored). */
export function redactModelAgain(model: SessionModel, redact: (text: string) => string): void {
	model.index.redactedEvents = 0;
	for (const event of model.events) if (event.kind === "tool" && event.call.result) event.call.result.redacted = false;
	redactModelInPlace(model, redact);
}

/**
 * Redacts a session model in place, so neither its notes nor the stored state can hold a secret.
 * Only what is new since the last call is touched: events past `index.redactedEvents`, and tool
 * results not yet marked `redacted` (a result can arrive for an older call). Both marks are part
 * of the stored model, so a restored model is not redacted twice.
 */
export function redactModelInPlace(model: SessionModel, redact: (text: string) => string): void {
	const events = model.events;
	for (let i = model.index.redactedEvents; i < events.length; i++) {
		redactEvent(events[i]!, redact);
		redactEventIds(events[i]!, redact);
	}
	for (const event of events) {
		if (event.kind !== "tool" || !event.call.result || event.call.result.redacted) continue;
		event.call.result.text = redact(event.call.result.text);
		event.call.result.redacted = true;
	}
	model.index.redactedEvents = events.length;
	// A compaction's summary can come in a later read than its boundary (which was redacted then):
	// all of them, every time (few, short, and redaction leaves its own markers alone).
	for (const event of events) if (event.kind === "compaction" && event.summary) event.summary = redact(event.summary);
	for (const summary of model.summaries) summary.text = redact(summary.text);
	redactModelIds(model, redact);
	// Why a line could not be read names what the line gave (an opencode row's id): at most 50, each time.
	for (const malformed of model.malformedLines) malformed.reason = redact(malformed.reason);
	if (model.lastPrompt) model.lastPrompt = redact(model.lastPrompt);
	if (model.awaySummary) model.awaySummary = redact(model.awaySummary);
	if (model.customTitle) model.customTitle = redact(model.customTitle);
	if (model.aiTitle) model.aiTitle = redact(model.aiTitle);
	// Prompts queued while the agent worked, not yet handed to it: stored with the model until then.
	// (One written as a prompt of its own later is found by its text; one that held a secret and
	// comes in a later read is not, and shows twice: better than a secret stored whole.)
	if (model.index.queued) model.index.queued = model.index.queued.map(redact);
	// The last line of an Aider output block, kept for the next read (see `OpenBlock.previous`).
	if (model.openBlock?.previous !== undefined) model.openBlock.previous = redact(model.openBlock.previous);
	// Names the transcript gives (branches, file paths, PR links) reach notes and tags too. Few,
	// and redaction is idempotent: all of them each time. The fold's own sets keep the raw names
	// (what it compares new ones with); two names that redact alike become one.
	if (model.gitBranch) model.gitBranch = redact(model.gitBranch);
	// The session's ids as its lines give them (a forged `"sessionId": "ghp_…"` was stored whole).
	model.sessionIds = redactedList(model.sessionIds, (id) => redactId(id, redact));
	model.branches = redactedList(model.branches, redact);
	// The folders a session moved to after its first (its identity, `cwd`, names the project and stays).
	model.cwds = redactedList(model.cwds, redact);
	model.prLinks = redactedList(model.prLinks, redact);
	model.files.read = redactedList(model.files.read, redact);
	model.files.written = redactedList(model.files.written, redact);
	model.files.edited = redactedList(model.files.edited, redact);
	// And the names of things it reports: models, client versions, record types it did not know.
	model.models = redactedList(model.models, redact);
	model.versions = redactedList(model.versions, redact);
	if (Object.keys(model.unknownTypes).some((type) => redact(type) !== type)) model.unknownTypes = redactedCounts(model.unknownTypes, redact);
	for (const usage of [...model.index.usageByMessage.values(), ...model.index.agentUsageByMessage.values()]) if (usage.model) usage.model = redact(usage.model);
}

function redactedCounts(counts: Record<string, number>, redact: (text: string) => string): Record<string, number> {
	const out: Record<string, number> = dict();
	for (const [key, n] of Object.entries(counts)) out[redact(key)] = (out[redact(key)] ?? 0) + n;
	return out;
}

/** A sub-agent's `meta.json` fields (its description is the parent's prompt for it), redacted. */
export function redactMeta(meta: SubagentMeta | undefined, redact: (text: string) => string): SubagentMeta | undefined {
	if (!meta) return meta;
	const field = (v: string | undefined) => (v === undefined ? v : redact(v));
	return { agentType: field(meta.agentType), description: field(meta.description), worktreePath: field(meta.worktreePath) };
}

function redactedList(list: string[], redact: (text: string) => string): string[] {
	let changed = false;
	const out = list.map((item) => {
		const redacted = redact(item);
		changed ||= redacted !== item;
		return redacted;
	});
	return changed ? [...new Set(out)] : list;
}

/**
 * The ids a record gives its parts (a prompt's uuid, a message's id, a tool call's id), which the
 * stored model keeps: only compared, never shown, and any text the transcript's writer chose (a
 * token there was stored whole in the state's packs). One that redaction changes is stored
 * redacted; a result that comes in a later read for a call whose id was a secret is not matched
 * to it any more (counted as an orphan), which no real id meets.
 */
function redactEventIds(event: SessionEvent, redact: (text: string) => string): void {
	switch (event.kind) {
		case "prompt":
			if (event.uuid !== undefined) event.uuid = redactId(event.uuid, redact);
			if (event.parent !== undefined) event.parent = redactId(event.parent, redact);
			return;
		case "text":
		case "thinking":
			if (event.messageId !== undefined) event.messageId = redactId(event.messageId, redact);
			if (event.sidechain !== undefined) event.sidechain = redactId(event.sidechain, redact);
			return;
		case "tool":
			event.call.id = redactId(event.call.id, redact);
			if (event.call.messageId !== undefined) event.call.messageId = redactId(event.call.messageId, redact);
			if (event.call.agentId !== undefined) event.call.agentId = redactId(event.call.agentId, redact);
			if (event.sidechain !== undefined) event.sidechain = redactId(event.sidechain, redact);
			return;
		default:
			return;
	}
}

/**
 * The ids the stored model keeps beside its events (`redactEventIds`): a `summary` line's
 * `leafUuid`, the Task call whose inline sidechain is being read, a compaction's copies and what
 * they stand for. Each is any text the transcript's writer chose (a token as a `leafUuid` was
 * stored whole in the state's packs; attack round 48a, found by fuzzing). Few: all of them each
 * time. A summary whose leaf was a secret titles no session any more, which no real id meets.
 */
function redactModelIds(model: SessionModel, redact: (text: string) => string): void {
	for (const summary of model.summaries) if (summary.leafUuid !== undefined) summary.leafUuid = redactId(summary.leafUuid, redact);
	const index = model.index;
	if (index.sidechain !== undefined) index.sidechain = redactId(index.sidechain, redact);
	if (index.replayedAs && [...index.replayedAs].some(([copy, original]) => redactId(copy, redact) !== copy || redactId(original, redact) !== original)) {
		index.replayedAs = new Map([...index.replayedAs].map(([copy, original]) => [redactId(copy, redact), redactId(original, redact)]));
	}
}

/** An id redacted, as short values elsewhere: one under 8 characters holds no secret the rules know. */
function redactId(id: string, redact: (text: string) => string): string {
	return id.length < 8 ? id : redact(id);
}

/**
 * Every text of an event, but the fold's own words (`kind`, `promptKind`, `source`), its times and
 * the ids (`redactEventIds`): a field an event gains is redacted without being named here (a
 * compaction's `trigger`, the transcript's word for what started it, reached the note whole).
 */
function redactEvent(event: SessionEvent, redact: (text: string) => string): void {
	if (event.kind === "tool") {
		// The name too: an MCP tool's name holds its server's name, which the user's config gives.
		event.call.name = redact(event.call.name);
		event.call.input = redactValue(event.call.input, redact) as Record<string, unknown>;
		return;
	}
	if (event.kind === "rewound") event.prompts = event.prompts.map(redact);
	const fields = event as unknown as Record<string, unknown>;
	for (const [key, value] of Object.entries(fields)) if (typeof value === "string" && !EVENT_STRUCTURE.has(key)) fields[key] = redact(value);
}

/** An event's fields that are no text of the transcript's: the fold's own words, times and ids. */
const EVENT_STRUCTURE: ReadonlySet<string> = new Set(["kind", "promptKind", "source", "timestamp", "uuid", "parent", "messageId", "sidechain"]);

function redactValue(value: unknown, redact: (text: string) => string): unknown {
	if (typeof value === "string") return value.length < 8 ? value : redact(value);
	if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
	if (typeof value === "object" && value !== null) {
		// No prototype: a key `__proto__` set it (see `clipInput`).
		const out: Record<string, unknown> = dict();
		// Keys as well as values: an MCP tool's input is any JSON, and a key can be the secret (`{ "<token>": … }`).
		for (const [key, item] of Object.entries(value)) out[key.length < 8 ? key : redact(key)] = typeof item === "string" && SECRET_KEY.test(key) ? redactLabelled(key, item, redact) : redactValue(item, redact);
		return out;
	}
	return value;
}

/** A key that may name a secret (the `password` and `secret` rules decide). */
const SECRET_KEY = /pass|pwd|secret|token|key|auth|credential/i;

/**
 * A value under a key that names a secret, redacted with its key as the rules read `"KEY": "value"`:
 * alone, a password has no shape to tell it by (`{"password": "Zq8v…"}` in a tool's input was kept).
 */
function redactLabelled(key: string, value: string, redact: (text: string) => string): string {
	const pair = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
	const redacted = redact(pair);
	if (redacted === pair) return value.length < 8 ? value : redact(value);
	try {
		const parsed = JSON.parse(`{${redacted}}`) as Record<string, unknown>;
		const values = Object.values(parsed);
		if (values.length === 1 && typeof values[0] === "string") return values[0];
	} catch {
		// The rules cut across the JSON's quoting: the value alone, then.
	}
	return redact(value);
}
