import { objectsOnOneLine, unreadable, withoutNuls, type RawLine } from "./jsonl-lines";
import { isObject, parseLine, type ParsedLine } from "./parse-line";
import { classifyUserText } from "./prompt-text";
import type { AssistantRecord, ContentBlock, Envelope, ProgressRecord, QueueOperationRecord, SystemRecord, TranscriptRecord, Usage, UserRecord } from "./records";
import { noteFolder } from "./session-folder";
import { ownCalls, own, type MessageUsage, type SessionEvent, type SessionModel, type ToolCall } from "./session-model";
import { hash53 } from "./hash";
import { isReplayedMessage, isReplayedPrompt, isReplayedResults, leaveBranchFor, originalOf } from "./rewind";
import { foldCopiedReply } from "./forked";
import { addFile, addUnique, clip, clipInput, countUnknown, LIMITS, markMalformed, noteTime, pushEvent, noteInterruption, writtenBy } from "./model-building";
export { hash53, LIMITS };

const SUBAGENT_TOOLS = new Set(["Task", "Agent"]);

/** Folds a batch of raw lines (from `splitCompleteLines`) into the model, in order. */
export function foldLines(model: SessionModel, lines: readonly RawLine[]): void {
	for (const line of lines) foldLine(model, line);
}

export function foldLine(model: SessionModel, line: RawLine): void {
	if (line.text !== null && line.text.charCodeAt(0) !== 0x7b && line.text.trim() === "") return;
	model.counts.lines++;
	// Bytes that are not UTF-8 are read as U+FFFD (see `RawLine.lossy`).
	const text = line.text ?? line.lossy;
	if (text === undefined) {
		markMalformed(model, line.no, unreadable(line));
		return;
	}
	const parsed = parseLine(text);
	if (parsed.ok) return foldRecord(model, parsed.record);
	if (foldSeveral(model, text)) return;
	// NULs a crash left before the line, or a stray one, are all that is wrong with it (see `withoutNuls`).
	const clean = withoutNuls(text);
	const again = clean === undefined ? undefined : parseLine(clean);
	if (again?.ok) return foldRecord(model, again.record);
	if (clean === undefined || !foldSeveral(model, clean)) markMalformed(model, line.no, line.text === null ? unreadable(line) : parsed.reason);
}

/** Two records written onto one line: both are read (see `objectsOnOneLine`). False when the line is not that. */
function foldSeveral(model: SessionModel, text: string): boolean {
	const several = objectsOnOneLine(text)?.map(parseLine);
	if (!several?.every(isParsed)) return false;
	for (const p of several) foldRecord(model, p.record);
	return true;
}

function isParsed(line: ParsedLine): line is Extract<ParsedLine, { ok: true }> {
	return line.ok;
}

function foldRecord(model: SessionModel, record: TranscriptRecord): void {
	let owner: string | undefined;
	if ("uuid" in record && record.uuid !== undefined) {
		// Resumed and forked sessions replay earlier lines with the same uuid: fold each once.
		const key = hash53(record.uuid);
		if (model.index.seenUuids.has(key)) {
			model.counts.duplicates++;
			return;
		}
		model.index.seenUuids.add(key);
		if (record.type === "user" || record.type === "assistant") model.index.firstUuid ??= firstRecordKey(record, record.uuid);
		owner = model.index.copied?.get(key);
	}
	if (owner === undefined) foldKind(model, record);
	else foldCopied(model, record, owner);
	// The main thread's last record: a prompt with another parent may be a rewind (see rewind.ts).
	if ("uuid" in record && record.uuid !== undefined && record.isSidechain !== true) model.index.lastUuid = record.uuid;
}

/**
 * The first message of a file, as `TranscriptIndex.foldCopies` tells copies by it: its uuid with its
 * time and content. An older `--resume` copies the line whole; sessions a script made from one
 * template share their uuids (`<id prefix>-0000-…-000000000001`), not their prompt and time, and
 * were taken for copies of one another by the uuid alone (attack rounds 37, 38, 39 and 41). Not
 * the first record of any kind: a resumed file that began with a line of its own (a hook's system
 * line) before the copied ones was not told a copy (attack round 43).
 */
function firstRecordKey(record: TranscriptRecord, uuid: string): number {
	const time = "timestamp" in record ? (record.timestamp ?? "") : "";
	const content = "content" in record ? record.content : undefined;
	return hash53(`${uuid}\n${time}\n${JSON.stringify(content ?? null)}`);
}

/**
 * A record an older `--resume` copied into this session's new file from another's (same uuid, no
 * mark naming that session; see `TranscriptIndex.foldCopies`): as a fork's copied history, its
 * prompts and replies give way to one `forked` event naming the session that holds them, its
 * tokens are not counted again, and its other records (compactions, errors, bookkeeping) stay
 * that session's. After a reply of its own, the session's from then on (see forked.ts).
 */
function foldCopied(model: SessionModel, record: TranscriptRecord, owner: string): void {
	// Its times and session id are the other session's: this one starts at its own turn.
	const ownTurn = model.index.ownReply === true;
	if (record.type === "assistant") {
		record.copiedFrom ??= owner;
		foldKind(model, record, ownTurn);
	} else if (record.type === "user") {
		foldKind(model, record, ownTurn);
		if (model.agentId === undefined) foldCopiedReply(model, owner, record.timestamp);
	} else {
		model.counts.duplicates++;
	}
}

function foldKind(model: SessionModel, record: TranscriptRecord, ownTurn = true): void {
	const counts = model.counts;
	counts.records++;
	if (ownTurn && "sessionId" in record && record.sessionId) addUnique(model, "sessionIds", record.sessionId);
	const time = ownTurn && "timestamp" in record ? record.timestamp : undefined;
	// A compaction's replayed line keeps its original's time: a fork's copied turns replayed are the other session's, long before this one began.
	if (time && record.type !== "user" && record.type !== "assistant") noteTime(model, time);
	switch (record.type) {
		case "user":
			noteEnvelope(model, record);
			foldUser(model, record);
			if (time && !model.index.replaying) noteTime(model, time);
			return;
		case "assistant":
			noteEnvelope(model, record);
			foldAssistant(model, record);
			if (time && !model.index.replaying) noteTime(model, time);
			return;
		case "system":
			noteEnvelope(model, record);
			foldSystem(model, record);
			return;
		case "summary":
			(model.summaries = own(model.summaries)).push({ leafUuid: record.leafUuid, text: record.summary });
			return;
		case "ai-title":
			if (record.title) model.aiTitle = record.title;
			return;
		case "custom-title":
			if (record.title) model.customTitle = record.title;
			return;
		case "last-prompt":
			if (record.lastPrompt) model.lastPrompt = record.lastPrompt;
			return;
		case "pr-link":
			if (record.prUrl && !model.prLinks.includes(record.prUrl)) (model.prLinks = own(model.prLinks)).push(record.prUrl);
			return;
		case "queue-operation":
			if (record.operation === "enqueue") counts.queuedPrompts++;
			foldQueue(model, record);
			return;
		case "progress":
			noteEnvelope(model, record);
			// Old clients mirrored sub-agent messages into the parent; only the link is worth keeping.
			if (record.progressAgentId && record.parentToolUseId) {
				const call = model.index.calls.get(record.parentToolUseId);
				if (call && !call.agentId) call.agentId = record.progressAgentId;
			}
			// 2.1 copies a sub-agent's messages here: their usage counts where the sub-agent's own file is missing.
			if (record.agentMessage) countAgentUsage(model, record.agentMessage);
			return;
		case "attachment":
		case "bookkeeping":
			noteEnvelope(model, record);
			return;
		case "file-history-snapshot":
		case "permission-mode":
			return;
		case "unknown":
			return countUnknown(model, record.originalType);
	}
}

function foldUser(model: SessionModel, record: UserRecord): void {
	const counts = model.counts;
	if (record.isCompactSummary) {
		const last = lastCompaction(model);
		const text = typeof record.content === "string" ? record.content : joinText(record.content);
		if (last) last.summary = clip(model, text, LIMITS.compactSummary);
		return;
	}
	const sidechainLine = record.isSidechain === true && model.agentId === undefined;
	if (typeof record.content === "string") {
		foldUserText(model, record, record.content, 0, sidechainLine);
		return;
	}
	if (model.index.replaying && !sidechainLine && isReplayedResults(model, resultIds(record.content))) return;
	let text = "";
	let images = 0;
	for (const block of record.content) {
		switch (block.type) {
			case "tool_result":
				foldToolResult(model, block.toolUseId, block.isError, block.text, record.toolUseResult);
				break;
			case "text":
				text = text ? `${text}\n${block.text}` : block.text;
				break;
			case "image":
				images++;
				counts.images++;
				break;
			case "unknown":
				counts.unknownBlocks++;
				break;
			default:
				break;
		}
	}
	if (text || images) foldUserText(model, record, text, images, sidechainLine);
}

/**
 * Prompts typed while the agent works. Claude Code queues them (`enqueue`, with the text) and then
 * writes them as a user line once the turn ends (`dequeue`), hands them to the agent in the middle
 * of its turn with no user line (`remove`), or gives them back to the input box (`popAll`). Only
 * the handed-over ones would be lost: they become prompts where they were handed over (a queued
 * slash command is run by the client, not handed over). The client's own entries (task
 * notifications, job records) are not the user's and are not kept.
 */
function foldQueue(model: SessionModel, record: QueueOperationRecord): void {
	const index = model.index;
	switch (record.operation) {
		case "enqueue": {
			const text = record.content?.trim() ?? "";
			if (text !== "" && !/^[<{]/.test(text)) (index.queued ??= []).push(text);
			return;
		}
		case "dequeue":
			index.queued?.shift();
			return;
		case "popAll":
			index.queued = undefined;
			return;
		case "remove": {
			const text = index.queued?.shift();
			// A slash command is taken off the queue to run in the client (`/model`), not handed to
			// the agent: what it does is written as a command line of its own, if at all.
			if (text === undefined || text.startsWith("/")) return;
			index.sidechain = undefined;
			model.counts.prompts++;
			pushEvent(model, { kind: "prompt", promptKind: "prompt", text: clip(model, text, LIMITS.prompt), timestamp: record.timestamp, images: 0 });
			return;
		}
		default:
			return;
	}
}

function foldUserText(model: SessionModel, record: UserRecord, raw: string, images: number, sidechainLine: boolean): void {
	if (sidechainLine) {
		// Pre-2.1 clients wrote sub-agent conversations inline; a root line is the Task prompt.
		if (record.parentUuid === null) model.index.sidechain = findTaskByPrompt(model, raw) ?? "?";
		return;
	}
	if (record.isMeta && !record.isSystemInjected) keepExpansion(model, record, raw);
	if (record.isMeta || record.isSystemInjected) return;
	const user = classifyUserText(raw);
	switch (user.kind) {
		case "meta":
			if (images === 0) return;
			break;
		case "interruption":
			// One a compaction replays was noted when it was written first.
			if (!model.index.replaying) noteInterruption(model);
			return;
		default:
			break;
	}
	const kind = user.kind === "meta" ? "prompt" : user.kind;
	const text = user.kind === "meta" ? "" : user.text;
	if (model.agentId === undefined && isReplayedPrompt(model, record.parentUuid, record.timestamp, text)) return;
	// A queued prompt written as a user line after all is no longer waiting.
	const waiting = model.index.queued?.indexOf(text.trim()) ?? -1;
	if (waiting >= 0) model.index.queued?.splice(waiting, 1);
	if (kind === "command") model.counts.slashCommands++;
	else model.counts.prompts++;
	model.index.sidechain = undefined;
	if (model.agentId === undefined) leaveBranchFor(model, record.parentUuid, record.timestamp);
	pushEvent(model, {
		kind: "prompt",
		promptKind: kind,
		text: clip(model, text, LIMITS.prompt),
		uuid: record.uuid,
		// Under the original a copy stands for: a later rewind to either finds this prompt.
		parent: originalOf(model, record.parentUuid) ?? undefined,
		timestamp: record.timestamp,
		images,
	});
}

/**
 * The prompt a slash command sent (a custom command's file, a skill's body): the client writes it
 * as a meta line answering the command's, and what a command without arguments asks is said only
 * there. Kept on the command's event; not once that event was redacted (this text would not be),
 * and not the client's own meta lines (caveats, command output).
 */
function keepExpansion(model: SessionModel, record: UserRecord, raw: string): void {
	const at = model.events.length - 1;
	const command = model.events[at];
	if (command?.kind !== "prompt" || command.promptKind !== "command" || command.expansion !== undefined) return;
	if (command.uuid === undefined || command.uuid !== record.parentUuid || at < model.index.redactedEvents) return;
	const user = classifyUserText(raw);
	if (user.kind === "prompt") command.expansion = clip(model, user.text, LIMITS.expansion, true);
}

function findTaskByPrompt(model: SessionModel, prompt: string): string | undefined {
	const wanted = prompt.trim();
	for (const call of model.index.calls.values()) {
		if (!SUBAGENT_TOOLS.has(call.name) || call.result) continue;
		const p = call.input.prompt;
		if (typeof p === "string" && wanted.startsWith(p.trim().slice(0, 200))) return call.id;
	}
	return undefined;
}

function foldToolResult(model: SessionModel, toolUseId: string, isError: boolean, text: string, structured: unknown): void {
	const call = model.index.calls.get(toolUseId);
	if (!call) {
		model.counts.orphanResults++;
		return;
	}
	const failed = isError || (typeof structured === "string" && structured.startsWith("Error"));
	if (failed) model.counts.toolErrors++;
	if (call.elided) {
		model.index.calls.delete(toolUseId);
		if (!failed) noteFiles(model, call);
		return;
	}
	call.result = { isError: failed, text: clip(model, text, call.name === "AskUserQuestion" ? LIMITS.answersResult : LIMITS.toolResult) };
	if (isObject(structured) && typeof structured.agentId === "string") call.agentId = structured.agentId;
	if (!failed) noteFiles(model, call);
}

function noteFiles(model: SessionModel, call: ToolCall): void {
	const path = call.input.file_path ?? call.input.notebook_path;
	if (typeof path !== "string" || path === "") return;
	switch (call.name) {
		case "Read":
			addFile(model, "read", path);
			return;
		case "Write":
			addFile(model, "written", path);
			return;
		case "Edit":
		case "MultiEdit":
		case "NotebookEdit":
			addFile(model, "edited", path);
			return;
		default:
			return;
	}
}

function foldAssistant(model: SessionModel, record: AssistantRecord): void {
	if (record.copiedFrom !== undefined && model.agentId === undefined && foldCopiedReply(model, record.copiedFrom, record.timestamp, record.messageId)) return;
	if (record.isSidechain !== true && isReplayedMessage(model, record.messageId)) return;
	model.index.ownReply = true;
	const counts = model.counts;
	if (record.model && record.model !== "<synthetic>") addUnique(model, "models", record.model);
	countUsage(model, record);
	const sidechain = record.isSidechain === true && model.agentId === undefined ? model.index.sidechain ?? "?" : undefined;
	for (const block of record.content) {
		switch (block.type) {
			case "text":
				if (record.isApiErrorMessage) {
					counts.apiErrors++;
					pushEvent(model, { kind: "error", source: "assistant", text: clip(model, block.text, LIMITS.text), timestamp: record.timestamp });
				} else if (block.text.trim() !== "") {
					pushEvent(model, { kind: "text", text: clip(model, block.text, LIMITS.text), messageId: record.messageId, timestamp: record.timestamp, sidechain });
				}
				break;
			case "thinking":
			case "redacted_thinking":
				counts.thinking++;
				pushEvent(model, {
					kind: "thinking",
					text: block.type === "thinking" ? clip(model, block.thinking, LIMITS.thinking) : "",
					redacted: block.type === "redacted_thinking",
					messageId: record.messageId,
					timestamp: record.timestamp,
					sidechain,
				});
				break;
			case "tool_use":
				foldToolUse(model, record, block.id, block.name, block.input, sidechain);
				break;
			case "unknown":
				counts.unknownBlocks++;
				break;
			default:
				break;
		}
	}
}

function foldToolUse(
	model: SessionModel,
	record: AssistantRecord,
	id: string,
	name: string,
	input: Record<string, unknown>,
	sidechain: string | undefined,
): void {
	if (model.index.calls.has(id)) return;
	model.counts.toolCalls++;
	if (model.events.length >= LIMITS.events) {
		// Past the event budget only what the counts need is kept, until the result arrives.
		const path = input.file_path ?? input.notebook_path;
		ownCalls(model).set(id, { id, name, input: typeof path === "string" ? { file_path: path } : {}, elided: true });
		model.counts.elidedEvents++;
		return;
	}
	// Every field from the start (see `createSession`): a result and a sub-agent come later.
	const call: ToolCall = {
		id,
		name,
		// The options of a multiple-choice question sit one level deeper than other inputs go: kept, so an answer can be told picked or typed.
		input: clipInput(model, input, name === "AskUserQuestion" ? -1 : 0) as Record<string, unknown>,
		timestamp: record.timestamp,
		messageId: record.messageId,
		result: undefined,
		agentId: undefined,
	};
	ownCalls(model).set(id, call);
	pushEvent(model, { kind: "tool", call, sidechain });
}

/** Usage repeats on every line of a message and grows: count each message id once, at its last value. */
function countUsage(model: SessionModel, record: AssistantRecord): void {
	const usage = record.usage;
	const id = record.messageId === undefined ? undefined : hash53(record.messageId);
	const tokens = model.tokens;
	if (id !== undefined) {
		const before = model.index.usageByMessage.get(id);
		if (before === undefined) model.counts.assistantMessages++;
		if (!usage) {
			// Known all the same: its next lines are no other message, and a compaction's replay of it is a copy (see `isReplayedMessage`).
			if (before === undefined) model.index.usageByMessage.set(id, messageUsage(model, NO_TOKENS, record.timestamp, undefined));
			return;
		}
		if (before) {
			tokens.input -= before.inputTokens;
			tokens.output -= before.outputTokens;
			tokens.cacheCreation -= before.cacheCreationInputTokens;
			tokens.cacheRead -= before.cacheReadInputTokens;
		}
		// When and by which model, for usage per day and model (counted at the message's last value too).
		// The model's name as `models` holds it: one string for all of its messages, not one per line parsed.
		const name = record.model === undefined ? undefined : (model.models.find((m) => m === record.model) ?? record.model);
		model.index.usageByMessage.set(id, messageUsage(model, usage, record.timestamp, name));
	} else if (!usage) {
		return;
	}
	tokens.input += usage.inputTokens;
	tokens.output += usage.outputTokens;
	tokens.cacheCreation += usage.cacheCreationInputTokens;
	tokens.cacheRead += usage.cacheReadInputTokens;
}

const NO_TOKENS: Usage = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };

/**
 * A message's usage as kept, its fields written out: a spread of `usage` cost several times more
 * (measured: a tenth of a second of each fold thread's first sync of the bench tree).
 */
function messageUsage(session: SessionModel, usage: Usage, at: string | undefined, model: string | undefined): MessageUsage {
	// A time past the file's write is none (see `writtenBy`): its tokens count on the session's first day, not 2999's.
	const when = at !== undefined && writtenBy(session, at) ? at : undefined;
	return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cacheCreationInputTokens: usage.cacheCreationInputTokens, cacheReadInputTokens: usage.cacheReadInputTokens, at: when, model };
}

/** A sub-agent's message copied into a progress record: each id once, at its last value, apart from the session's own tokens. */
function countAgentUsage(model: SessionModel, message: NonNullable<ProgressRecord["agentMessage"]>): void {
	const name = message.model === undefined ? undefined : (model.models.find((m) => m === message.model) ?? message.model);
	model.index.agentUsageByMessage.set(hash53(message.messageId), messageUsage(model, message.usage, message.timestamp, name));
}

function foldSystem(model: SessionModel, record: SystemRecord): void {
	switch (record.subtype) {
		case "compact_boundary":
			model.counts.compactions++;
			pushEvent(model, {
				kind: "compaction",
				timestamp: record.timestamp,
				trigger: record.compact?.trigger,
				preTokens: record.compact?.preTokens,
				// The summary line comes next (see `foldUser`); set then, with no new hidden class.
				summary: undefined,
			});
			return;
		case "microcompact_boundary":
			model.counts.microcompactions++;
			return;
		case "api_error":
			model.counts.apiErrors++;
			pushEvent(model, { kind: "error", source: "api", text: clip(model, describeError(record.error), LIMITS.text), timestamp: record.timestamp });
			return;
		case "away_summary":
			if (record.content) model.awaySummary = clip(model, record.content, LIMITS.text);
			return;
		default:
			return;
	}
}

function describeError(error: unknown): string {
	if (typeof error === "string") return error;
	if (isObject(error)) {
		const message = error.message ?? (isObject(error.error) ? error.error.message : undefined);
		if (typeof message === "string" && message) return message;
		const status = error.status;
		if (typeof status === "number") return `API error ${status}`;
	}
	return "API error";
}

function lastCompaction(model: SessionModel): Extract<SessionEvent, { kind: "compaction" }> | undefined {
	for (let i = model.events.length - 1; i >= 0; i--) {
		const event = model.events[i];
		if (event?.kind === "compaction") return event;
	}
	return undefined;
}

function noteEnvelope(model: SessionModel, record: Envelope): void {
	noteFolder(model, record.cwd);
	if (record.gitBranch) {
		model.gitBranch = record.gitBranch;
		addUnique(model, "branches", record.gitBranch);
	}
	if (record.version) addUnique(model, "versions", record.version);
}

/** The calls a user line's tool results answer. */
function resultIds(blocks: ContentBlock[]): string[] {
	const ids: string[] = [];
	for (const block of blocks) if (block.type === "tool_result") ids.push(block.toolUseId);
	return ids;
}

function joinText(blocks: ContentBlock[]): string {
	const parts: string[] = [];
	for (const block of blocks) if (block.type === "text") parts.push(block.text);
	return parts.join("\n");
}
