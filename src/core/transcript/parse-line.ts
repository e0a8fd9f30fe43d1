import type {
	AssistantRecord,
	AttachmentRecord,
	BookkeepingRecord,
	ContentBlock,
	Envelope,
	ProgressRecord,
	SystemRecord,
	TranscriptRecord,
	Usage,
	UserRecord,
} from "./records";
import { tokenCount } from "./token-count";

export type ParsedLine = { ok: true; record: TranscriptRecord } | { ok: false; reason: string };

type Json = Record<string, unknown>;

/**
 * Types that carry nothing a note needs. Listed so they count as known; the current client writes
 * several of these (see test/e2e/FINDINGS.md).
 */
const BOOKKEEPING_TYPES = new Set([
	"mode",
	"tag",
	"agent-name",
	"agent-color",
	"agent-setting",
	"saved_hook_context",
	"cost-state",
	"api-request",
	"api-request-start",
	"api-request-end",
	"api-response",
	"worktree-state",
	"content-replacement",
	"marble-origami-commit",
	"marble-origami-snapshot",
	"speculation-accept",
	"atis-latch",
	"tools-used",
]);

/** Parses one transcript line. Never throws: a bad line gives a reason instead of a record. */
export function parseLine(text: string): ParsedLine {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return { ok: false, reason: describeBadJson(text) };
	}
	if (!isObject(value)) return { ok: false, reason: "not a JSON object" };
	try {
		return { ok: true, record: toRecord(value) };
	} catch (error) {
		// A shape no guard expected: keep going, report the line.
		return { ok: false, reason: `unexpected shape: ${String(error)}` };
	}
}

function describeBadJson(text: string): string {
	if (text.includes("\u0000")) return "NUL bytes in line";
	// `{…}` then `{…}`: a `}` and a `{` met between the outer braces. One regex over the whole line
	// backtracked each `}` against each other (`{}{}{}…{`, a bad line of 200 KB took 25 s).
	const t = text.trim();
	if (t.startsWith("{") && t.endsWith("}") && /\}\s*\{/.test(t.slice(1, -1))) return "two JSON objects on one line";
	return "invalid JSON";
}

function toRecord(o: Json): TranscriptRecord {
	const type = str(o.type);
	switch (type) {
		case "user":
			return userRecord(o);
		case "assistant":
			return assistantRecord(o);
		case "system":
			return systemRecord(o);
		case "summary":
			return { type: "summary", summary: str(o.summary) ?? "", leafUuid: str(o.leafUuid) };
		case "ai-title":
		case "custom-title":
			return {
				type,
				title: str(o.aiTitle) ?? str(o.customTitle) ?? str(o.title) ?? "",
				sessionId: str(o.sessionId),
			};
		case "file-history-snapshot": {
			const snapshot = isObject(o.snapshot) ? o.snapshot : {};
			const backups = isObject(snapshot.trackedFileBackups) ? snapshot.trackedFileBackups : {};
			return {
				type,
				messageId: str(o.messageId),
				isSnapshotUpdate: o.isSnapshotUpdate === true,
				files: Object.keys(backups),
			};
		}
		case "queue-operation":
			return {
				type,
				operation: str(o.operation) ?? "",
				sessionId: str(o.sessionId),
				timestamp: isoTime(o.timestamp),
				content: typeof o.content === "string" ? o.content : blocksText(o.content),
			};
		case "progress": {
			const data = isObject(o.data) ? o.data : {};
			const r = withEnvelope<ProgressRecord>(o, type);
			r.dataType = str(data.type) ?? "";
			r.toolUseId = str(o.toolUseID);
			r.parentToolUseId = str(o.parentToolUseID);
			r.progressAgentId = str(data.agentId);
			r.agentMessage = agentMessage(data.message);
			return r;
		}
		case "attachment": {
			const a = isObject(o.attachment) ? o.attachment : {};
			const r = withEnvelope<AttachmentRecord>(o, type);
			r.attachmentType = str(a.type) ?? "";
			r.hookEvent = str(a.hookEvent);
			r.hookName = str(a.hookName);
			return r;
		}
		case "permission-mode":
			return { type, permissionMode: str(o.permissionMode) ?? "", sessionId: str(o.sessionId) };
		case "last-prompt":
			return { type, lastPrompt: str(o.lastPrompt) ?? "", sessionId: str(o.sessionId) };
		case "pr-link":
			return {
				type,
				prNumber: num(o.prNumber),
				prUrl: str(o.prUrl),
				prRepository: str(o.prRepository),
				sessionId: str(o.sessionId),
				timestamp: isoTime(o.timestamp),
			};
		default:
			if (type !== undefined && (BOOKKEEPING_TYPES.has(type) || type.startsWith("api-request"))) {
				const r = withEnvelope<BookkeepingRecord>(o, "bookkeeping");
				r.originalType = type;
				return r;
			}
			return {
				type: "unknown",
				originalType: type ?? "(no type)",
				sessionId: str(o.sessionId),
				timestamp: isoTime(o.timestamp),
			};
	}
}

/**
 * Starts a record with the envelope fields; callers add their own fields in a fixed order. One
 * object per line, no spread: this runs for every line of every transcript.
 */
function withEnvelope<T extends Envelope & { type: string }>(o: Json, type: T["type"]): T {
	// A sub-agent's line marked so in another kind ("true", an agent id as a number) was read as the main thread's: its task a turn of the person's.
	if (o.isSidechain !== undefined && o.isSidechain !== null && typeof o.isSidechain !== "boolean") throw new Error("its isSidechain is neither true nor false");
	if (o.agentId !== undefined && o.agentId !== null && typeof o.agentId !== "string") throw new Error("its agentId is not text");
	const r: Envelope & { type: string } = {
		type,
		uuid: str(o.uuid),
		parentUuid: typeof o.parentUuid === "string" ? o.parentUuid : null,
		sessionId: str(o.sessionId),
		timestamp: isoTime(o.timestamp),
		cwd: str(o.cwd),
		gitBranch: str(o.gitBranch),
		version: str(o.version),
		isSidechain: o.isSidechain === true,
		agentId: str(o.agentId),
	};
	return r as T;
}

function userRecord(o: Json): UserRecord {
	const message = isObject(o.message) ? o.message : {};
	const content = message.content;
	const r = withEnvelope<UserRecord>(o, "user");
	r.content = typeof content === "string" ? content : contentBlocks(content);
	r.isMeta = o.isMeta === true;
	r.isCompactSummary = o.isCompactSummary === true;
	// 2.1.3xx marks text the client injected itself (task notifications) this way. Its TUI marks
	// what the person typed `origin: {kind: "human"}`, which the client itself takes for a person's turn.
	r.isSystemInjected = o.promptSource === "system" || (isObject(o.origin) && o.origin.kind !== "human");
	r.promptId = str(o.promptId);
	r.toolUseResult = o.toolUseResult;
	return r;
}

function assistantRecord(o: Json): AssistantRecord {
	const message = isObject(o.message) ? o.message : {};
	const r = withEnvelope<AssistantRecord>(o, "assistant");
	r.messageId = str(message.id);
	r.requestId = str(o.requestId);
	r.model = str(message.model);
	r.content = contentBlocks(message.content);
	r.usage = usage(message.usage);
	r.isApiErrorMessage = o.isApiErrorMessage === true;
	const from = str(o.requestSessionId) ?? (isObject(o.forkedFrom) ? str(o.forkedFrom.sessionId) : undefined);
	r.copiedFrom = from !== r.sessionId ? from : undefined;
	return r;
}

function systemRecord(o: Json): SystemRecord {
	const meta = isObject(o.compactMetadata) ? o.compactMetadata : undefined;
	const r = withEnvelope<SystemRecord>(o, "system");
	r.subtype = str(o.subtype);
	r.content = typeof o.content === "string" ? o.content : undefined;
	r.level = str(o.level);
	r.isMeta = o.isMeta === true;
	r.compact = meta ? { trigger: str(meta.trigger), preTokens: num(meta.preTokens) } : undefined;
	r.error = o.error;
	r.durationMs = num(o.durationMs);
	return r;
}

function contentBlocks(value: unknown): ContentBlock[] {
	if (typeof value === "string") return [{ type: "text", text: value }];
	if (!Array.isArray(value)) {
		// Content of another shape (an object, a number) dropped the turn without a word: the line is named as unreadable.
		if (value !== undefined && value !== null) throw new Error("message content is neither text nor a list of blocks");
		return [];
	}
	const blocks: ContentBlock[] = [];
	for (const item of value) {
		if (isObject(item)) blocks.push(contentBlock(item));
	}
	return blocks;
}

function contentBlock(b: Json): ContentBlock {
	switch (b.type) {
		case "text":
			return { type: "text", text: str(b.text) ?? "" };
		case "thinking":
			return { type: "thinking", thinking: str(b.thinking) ?? "" };
		case "redacted_thinking":
			return { type: "redacted_thinking" };
		case "tool_use":
		case "server_tool_use":
			// A name or input of another kind was shown as a call with no name or no input, without a word: the line is named as unreadable.
			if (b.name !== undefined && b.name !== null && typeof b.name !== "string") throw new Error(`a ${b.type} block's name is not text`);
			if (b.input !== undefined && b.input !== null && !isObject(b.input)) throw new Error(`a ${b.type} block's input is not an object`);
			return {
				type: "tool_use",
				id: str(b.id) ?? "",
				name: str(b.name) ?? "",
				input: isObject(b.input) ? b.input : {},
			};
		case "tool_result":
			return {
				type: "tool_result",
				toolUseId: str(b.tool_use_id) ?? "",
				isError: b.is_error === true,
				text: typeof b.content === "string" ? b.content : (blocksText(b.content) ?? ""),
			};
		case "image": {
			const source = isObject(b.source) ? b.source : {};
			return { type: "image", mediaType: str(source.media_type) };
		}
		case "document": {
			const source = isObject(b.source) ? b.source : {};
			return { type: "document", mediaType: str(source.media_type) };
		}
		default:
			return { type: "unknown", originalType: str(b.type) ?? "(no type)" };
	}
}

/** Text of a block array (tool results, queued prompts); non-text items become short placeholders. */
function blocksText(value: unknown): string | undefined {
	if (!Array.isArray(value)) return undefined;
	const parts: string[] = [];
	for (const item of value) {
		if (!isObject(item)) continue;
		if (item.type === "text" && typeof item.text === "string") parts.push(item.text);
		else if (item.type === "image") parts.push("[image]");
		else if (item.type === "tool_reference") parts.push(`[tool: ${str(item.tool_name) ?? "?"}]`);
	}
	return parts.join("\n");
}

/** A sub-agent's assistant message inside an `agent_progress` record: `{type, timestamp, message: {id, model, usage}}`. */
function agentMessage(value: unknown): ProgressRecord["agentMessage"] {
	if (!isObject(value) || value.type !== "assistant" || !isObject(value.message)) return undefined;
	const messageId = str(value.message.id);
	const counted = usage(value.message.usage);
	if (messageId === undefined || counted === undefined) return undefined;
	return { messageId, usage: counted, model: str(value.message.model), timestamp: isoTime(value.timestamp) };
}

function usage(value: unknown): Usage | undefined {
	if (!isObject(value)) return undefined;
	return {
		inputTokens: tokenCount(value.input_tokens),
		outputTokens: tokenCount(value.output_tokens),
		cacheCreationInputTokens: tokenCount(value.cache_creation_input_tokens),
		cacheReadInputTokens: tokenCount(value.cache_read_input_tokens),
	};
}

export function isObject(value: unknown): value is Json {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** No agent wrote a transcript before this year: an earlier time (`0000-01-01`) is made up. */
const FIRST_YEAR = 1970;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A record's time, when it is one: an ISO-8601 date and time as Claude Code writes them. Anything
 * else is dropped here, at the source, because a time becomes part of a note's path
 * (`2026-01-15 Title.md`): `"../../x"`, `"2026/01/15"` or a newline must never reach one. A time of
 * another form (an offset, `+05:30`; no zone, read as local; no milliseconds) is given in the one
 * form, UTC's, since the model orders times as text: `10:00+05:30` (04:30 UTC) sorted after
 * `05:00Z`, so a session ended before it started (attack round 42). Its instant must be since 1970.
 */
export function isoTime(value: unknown): string | undefined {
	if (typeof value !== "string") return undefined;
	if (isPlainUtcTime(value)) return value;
	if (!ISO_TIME.test(value) || !isRealTime(value)) return undefined;
	const ms = Date.parse(value);
	if (Number.isNaN(ms)) return undefined;
	const utc = isoOfMs(ms);
	return isPlainUtcTime(utc) ? utc : undefined;
}

/**
 * Whether a time of ISO_TIME's shape names a real day and time since 1970: `Date.parse` rolls
 * `2024-02-30` over to March 1st, and the note would be named for a day that is not its own.
 */
function isRealTime(v: string): boolean {
	const year = digitsAt(v, 0, 4);
	const month = digitsAt(v, 5, 7);
	const day = digitsAt(v, 8, 10);
	return year >= FIRST_YEAR && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && inRange(digitsAt(v, 11, 13), 23) && inRange(digitsAt(v, 14, 16), 59) && (v.length < 19 || v.charCodeAt(16) !== 58 || inRange(digitsAt(v, 17, 19), 59));
}

/**
 * A time as `toISOString` writes it (`2026-12-01T15:37:04.123Z`, nearly every time in a
 * transcript), read by its digits: a real date, hour, minute and second, which the pattern and
 * `Date.parse` accept. Anything else goes the long way (measured: a pattern and `Date.parse` were
 * a twentieth of a Gemini CLI read).
 */
function isPlainUtcTime(v: string): boolean {
	if (v.length !== 24 || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45 || v.charCodeAt(10) !== 84 || v.charCodeAt(13) !== 58 || v.charCodeAt(16) !== 58 || v.charCodeAt(19) !== 46 || v.charCodeAt(23) !== 90) return false;
	return isRealTime(v) && digitsAt(v, 20, 23) >= 0;
}

/** The last instant `isoOfMs` writes itself (9999-12-31T23:59:59.999Z); past it `toISOString` writes a six-digit year. */
const LAST_ISO_MS = 253_402_300_799_999;

/**
 * `new Date(ms).toISOString()`, written from the number's digits: `toISOString` was most of what
 * reading a time cost (measured: 0.5–1 µs each, a start line for each of Aider's sessions and each
 * time opencode and Gemini CLI files are stamped with). From 1970 to 9999, else `toISOString`'s.
 * One flat string (a template would keep its pieces: the time is kept in the model).
 */
export function isoOfMs(ms: number): string {
	if (!(ms >= 0 && ms <= LAST_ISO_MS)) return new Date(ms).toISOString();
	const t = Math.floor(ms);
	const days = Math.floor(t / 86_400_000);
	let rest = t - days * 86_400_000;
	const hour = Math.floor(rest / 3_600_000);
	rest -= hour * 3_600_000;
	const minute = Math.floor(rest / 60_000);
	rest -= minute * 60_000;
	const second = Math.floor(rest / 1000);
	const milli = rest - second * 1000;
	// The civil date of a day number (Howard Hinnant's `civil_from_days`: eras of 400 years, years from March).
	const z = days + 719_468;
	const era = Math.floor(z / 146_097);
	const dayOfEra = z - era * 146_097;
	const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
	const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
	const fromMarch = Math.floor((5 * dayOfYear + 2) / 153);
	const day = dayOfYear - Math.floor((153 * fromMarch + 2) / 5) + 1;
	const month = fromMarch < 10 ? fromMarch + 3 : fromMarch - 9;
	const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
	const d = digitCode;
	return String.fromCharCode(d(year, 1000), d(year, 100), d(year, 10), d(year, 1), 45, d(month, 10), d(month, 1), 45, d(day, 10), d(day, 1), 84, d(hour, 10), d(hour, 1), 58, d(minute, 10), d(minute, 1), 58, d(second, 10), d(second, 1), 46, d(milli, 100), d(milli, 10), d(milli, 1), 90);
}

/** The character code of the digit of `n` at `place` (1, 10, 100…). */
function digitCode(n: number, place: number): number {
	return 48 + (Math.floor(n / place) % 10);
}

/** The number the ASCII digits of `text` from `start` to `end` write; -1 if one is not a digit. */
export function digitsAt(text: string, start: number, end: number): number {
	let n = 0;
	for (let i = start; i < end; i++) {
		const d = text.charCodeAt(i) - 48;
		if (d < 0 || d > 9) return -1;
		n = n * 10 + d;
	}
	return n;
}

function inRange(n: number, max: number): boolean {
	return n >= 0 && n <= max;
}

function daysIn(year: number, month: number): number {
	if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
	return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
}
