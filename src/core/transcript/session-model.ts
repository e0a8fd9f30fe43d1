import { dict } from "../dict";
import type { AgentId } from "./agents";
import type { Usage } from "./records";

/** A message's usage as the fold keeps it: its last value, when it was written and by which model. */
export type MessageUsage = Usage & { at?: string; model?: string };

export type PromptKind = "prompt" | "command" | "shell";

export interface ToolResult {
	isError: boolean;
	/** Short excerpt of the output (clipped). */
	text: string;
	/** Set once the text went through redaction. */
	redacted?: boolean;
}

export interface ToolCall {
	id: string;
	name: string;
	/** The call's input with long strings clipped. */
	input: Record<string, unknown>;
	timestamp?: string;
	messageId?: string;
	result?: ToolResult;
	/** For a Task/Agent call: the sub-agent it started, once its result names it. */
	agentId?: string;
	/** Past the session's event budget: counted, not kept. */
	elided?: boolean;
}

export type SessionEvent =
	| {
			kind: "prompt";
			promptKind: PromptKind;
			text: string;
			uuid?: string;
			/** The record before it (Claude Code's `parentUuid`): a later prompt with the same parent replaced it (see rewind.ts). */
			parent?: string;
			timestamp?: string;
			images: number;
			/** A slash command's prompt as the client sent it (`.claude/commands/pr.md`, a skill's body), its start only. */
			expansion?: string;
	  }
	| { kind: "text"; text: string; messageId?: string; timestamp?: string; sidechain?: string }
	| { kind: "thinking"; text: string; redacted: boolean; messageId?: string; timestamp?: string; sidechain?: string }
	| { kind: "tool"; call: ToolCall; sidechain?: string }
	| { kind: "compaction"; timestamp?: string; trigger?: string; preTokens?: number; summary?: string }
	/** A fork's copy of its parent's history, in the parent's note and not again here (see forked.ts). */
	| { kind: "forked"; from?: string; prompts: number; timestamp?: string }
	/** A rewind: the prompts of the branch it left, in their order (see rewind.ts). */
	| { kind: "rewound"; prompts: string[]; timestamp?: string }
	| { kind: "error"; source: "api" | "assistant"; text: string; timestamp?: string };

export interface SessionCounts {
	/** Non-blank lines read, good or bad. */
	lines: number;
	records: number;
	malformed: number;
	unknownRecords: number;
	unknownBlocks: number;
	/** Lines skipped because their uuid was already folded (resume and compaction replays). */
	duplicates: number;
	prompts: number;
	slashCommands: number;
	assistantMessages: number;
	toolCalls: number;
	toolErrors: number;
	thinking: number;
	interruptions: number;
	apiErrors: number;
	compactions: number;
	microcompactions: number;
	queuedPrompts: number;
	images: number;
	/** Tool results whose call is not in this file (a transcript that starts mid-chain). */
	orphanResults: number;
	/** Events not kept because the session passed its size budget; counts stay complete. */
	elidedEvents: number;
}

export interface TokenTotals {
	input: number;
	output: number;
	cacheCreation: number;
	cacheRead: number;
	/** What the session cost in US dollars, when the agent says (Aider prints it). */
	costUsd?: number;
}

/**
 * Where a fold stopped inside a message that its next lines may continue, for formats whose
 * messages span many lines (Aider's Markdown history): kept with the model between reads.
 */
export interface OpenBlock {
	kind: "none" | "prompt" | "text" | "thinking" | "output";
	/** The event the block's next line extends; -1: none made yet, -2: past the event budget. */
	event: number;
	/** Blank lines since the block's last line. */
	blankLines: number;
	/** The last line of output, which the next one may be about (`Add file to the chat?` after the file's name). */
	previous?: string;
	/** A piece of output of several lines has begun and not ended (no line of it has ended with Aider's two spaces yet). */
	pieceOpen?: boolean;
}

export interface SessionFiles {
	read: string[];
	written: string[];
	edited: string[];
}

export interface MalformedLine {
	line: number;
	reason: string;
}

/**
 * Everything one transcript file says, folded record by record. Arrays keep first-seen order.
 * The private index (`SessionIndex`) makes folding O(1) per record; `serializeSession` drops it
 * and `restoreSession` rebuilds it, so the model can be stored and folded further later.
 */
export interface SessionModel {
	/** The agent that wrote the transcript; absent: Claude Code. */
	agent?: AgentId;
	/** File stem: the session id for session files, `agent-…` stem for sub-agent files. */
	fileId: string;
	/** Set for a sub-agent transcript. */
	agentId?: string;
	/** sessionId values found inside the lines (one file can hold two after a plan-mode clear). */
	sessionIds: string[];
	/** First cwd seen: the project this session belongs to. */
	cwd?: string;
	cwds: string[];
	gitBranch?: string;
	branches: string[];
	versions: string[];
	models: string[];
	startedAt?: string;
	endedAt?: string;
	customTitle?: string;
	aiTitle?: string;
	/** `summary` lines; each titles the session holding its `leafUuid`, often another file. */
	summaries: { leafUuid?: string; text: string }[];
	lastPrompt?: string;
	/** Latest `away_summary` recap Claude Code wrote. */
	awaySummary?: string;
	/** How many events there were when the user last interrupted the agent (Esc, ^C, an abort). */
	interruptedAt?: number;
	prLinks: string[];
	events: SessionEvent[];
	files: SessionFiles;
	tokens: TokenTotals;
	counts: SessionCounts;
	unknownTypes: Record<string, number>;
	malformedLines: MalformedLine[];
	/** See `OpenBlock`; absent for line formats of one record a line. */
	openBlock?: OpenBlock;
	/** Internal: for folding further. Not part of the serialized form. */
	index: SessionIndex;
}

export interface SessionIndex {
	/** Hashes of the uuids folded so far (see `hash53`). */
	seenUuids: Set<number>;
	/** The hash of the first record folded (its uuid, time and content): an older `--resume` starts its new file with the same (see `TranscriptIndex.foldCopies`). */
	firstUuid: number | undefined;
	/** While a copy is folded: the hashes of the uuids other files of its project hold, each with the session that holds it first. Not stored. */
	copied: ReadonlyMap<number, string> | undefined;
	/** The sessions this one was folded as a copy of, earliest first, as one hash of their file ids (see `TranscriptIndex.foldCopies`); absent: none. */
	copyOf: string | undefined;
	/** Last usage seen per message, keyed by the hash of its id. */
	usageByMessage: Map<number, MessageUsage>;
	/** Sub-agents' messages the parent holds copies of (Claude Code 2.1's `agent_progress`), by the hash of their id. */
	agentUsageByMessage: Map<number, MessageUsage>;
	/** The shared `NO_CALLS` until a call is indexed (see `ownCalls`). */
	calls: Map<string, ToolCall>;
	/**
	 * Sets of the model's longer lists, made once a list is long (see `addOnce` in model-building.ts):
	 * most lists hold a few names, and ten empty sets were half of a new model's memory. Absent
	 * until the first is made.
	 */
	files: Partial<Record<"read" | "written" | "edited", Set<string>>> | undefined;
	sets: Partial<Record<"sessionIds" | "cwds" | "branches" | "versions" | "models", Set<string>>> | undefined;
	/** Task call whose inline (pre-2.1) sidechain is being folded. */
	sidechain?: string;
	/** Prompts typed while the agent worked (`queue-operation`), not yet written as a user line or handed to the agent. */
	queued?: string[];
	/** The uuid of the main thread's last record: a prompt whose parent is another may be a rewind (see rewind.ts). Not stored. */
	lastUuid: string | undefined;
	/** The latest time a record of the file being read can have (see `foldFor`): a later one is no time of the session. Not stored. */
	timesUntil: string | undefined;
	/** The session has a reply of its own: a reply copied from another session is its own from then on (see forked.ts). Not stored. */
	ownReply?: true;
	/** A compaction's replay of earlier turns is being read: what it copies adds nothing (see `isReplayedPrompt`). */
	replaying?: true;
	/** A compaction's copies that stand for a record of the chain, by uuid (see `originalOf` in rewind.ts); absent: none. */
	replayedAs?: Map<string, string>;
	/** Keys of the turns copied from another session that gave way to a `forked` event, for a replay of them (see `keepCopiedTurns` in rewind.ts); absent: none. */
	copiedTurns?: Set<number>;
	/** The first place of each parent among the typed prompts of `events` up to `to` (see rewind.ts). Not stored. */
	promptParents?: { events: readonly SessionEvent[]; at: Map<string, number>; to: number };
	retainedChars: number;
	/** Events before this index have been redacted (see `redactModelInPlace`). */
	redactedEvents: number;
	/**
	 * Copy clipped text out of its source line, so a long-lived model does not keep whole lines
	 * alive. Off where the model is serialized and dropped at once (worker threads): not stored.
	 */
	copyClips: boolean;
}

export type SerializedSession = Omit<SessionModel, "index"> & {
	seenUuids: number[];
	/** Absent in models stored before it was kept. */
	firstUuid?: number;
	/** Absent when none. */
	copyOf?: string;
	usageByMessage: [number, MessageUsage][];
	/** Absent when empty, and in models stored before it was kept. */
	agentUsageByMessage?: [number, MessageUsage][];
	sidechain?: string;
	/** Absent when empty. */
	queued?: string[];
	retainedChars: number;
	redactedEvents?: number;
	/** Absent when not replaying, and in models stored before it was kept. */
	replaying?: true;
	/** Absent when none, and in models stored before it was kept. */
	copiedTurns?: number[];
	/** Absent when none, and in models stored before it was kept. */
	replayedAs?: [string, string][];
};

function emptyCounts(): SessionCounts {
	return {
		lines: 0,
		records: 0,
		malformed: 0,
		unknownRecords: 0,
		unknownBlocks: 0,
		duplicates: 0,
		prompts: 0,
		slashCommands: 0,
		assistantMessages: 0,
		toolCalls: 0,
		toolErrors: 0,
		thinking: 0,
		interruptions: 0,
		apiErrors: 0,
		compactions: 0,
		microcompactions: 0,
		queuedPrompts: 0,
		images: 0,
		orphanResults: 0,
		elidedEvents: 0,
	};
}

/**
 * Every model has every field from the start (optional ones undefined, which JSON leaves out), in
 * the order of `SessionModel`, created here or restored: folding adds no property, so each
 * function that reads a model sees one hidden class and V8's optimized code for it holds
 * (measured: models that grew `cwd`, `startedAt`… in the order their lines came were the main
 * cause of deoptimizations in a first sync, each one a recompilation on every thread).
 */
function modelOf(data: Omit<SessionModel, "index">, index: SessionIndex): SessionModel {
	return {
		agent: data.agent,
		fileId: data.fileId,
		agentId: data.agentId,
		sessionIds: data.sessionIds,
		cwd: data.cwd,
		cwds: data.cwds,
		gitBranch: data.gitBranch,
		branches: data.branches,
		versions: data.versions,
		models: data.models,
		startedAt: data.startedAt,
		endedAt: data.endedAt,
		customTitle: data.customTitle,
		aiTitle: data.aiTitle,
		summaries: data.summaries,
		lastPrompt: data.lastPrompt,
		awaySummary: data.awaySummary,
		interruptedAt: data.interruptedAt,
		prLinks: data.prLinks,
		events: data.events,
		files: data.files,
		tokens: data.tokens,
		counts: data.counts,
		unknownTypes: data.unknownTypes,
		malformedLines: data.malformedLines,
		openBlock: data.openBlock,
		index,
	};
}

function indexOf(fields: Pick<SessionIndex, "seenUuids" | "firstUuid" | "copyOf" | "usageByMessage" | "agentUsageByMessage" | "files" | "sets" | "sidechain" | "queued" | "replaying" | "replayedAs" | "copiedTurns" | "retainedChars" | "redactedEvents" | "copyClips">): SessionIndex {
	return {
		seenUuids: fields.seenUuids,
		firstUuid: fields.firstUuid,
		copied: undefined,
		copyOf: fields.copyOf,
		usageByMessage: fields.usageByMessage,
		agentUsageByMessage: fields.agentUsageByMessage,
		calls: NO_CALLS,
		files: fields.files,
		sets: fields.sets,
		sidechain: fields.sidechain,
		queued: fields.queued,
		lastUuid: undefined,
		timesUntil: undefined,
		replaying: fields.replaying,
		replayedAs: fields.replayedAs,
		copiedTurns: fields.copiedTurns,
		retainedChars: fields.retainedChars,
		redactedEvents: fields.redactedEvents,
		copyClips: fields.copyClips,
	};
}

/**
 * The uuid and usage indexes of a model whose agent never fills them (only Claude Code's lines
 * carry uuids and per-message usage, its own and its sub-agents'): one shared empty of each, which
 * refuses to be written (an empty Set or Map takes 150–190 bytes, and a read of many small
 * sessions keeps a model each).
 */
class NoUuids extends Set<number> {
	override add(): this {
		throw new Error("only Claude Code's sessions index uuids");
	}
}
class NoUsage extends Map<number, MessageUsage> {
	override set(): this {
		throw new Error("only Claude Code's sessions index usage by message");
	}
}
const NO_UUIDS: Set<number> = new NoUuids();
const NO_USAGE: Map<number, MessageUsage> = new NoUsage();

/**
 * What a new model's lists, its unknown types and its call index are until something goes in: one
 * shared empty of each, frozen (or refusing writes), made the model's own by the helpers that add
 * (`own`, `ownCalls`, and those of model-building.ts). A read of many small sessions keeps a model
 * each, and a dozen empty arrays, two empty objects and an empty Map were half of a new model
 * (measured: an empty model kept 1,411 bytes of heap, now 674).
 */
export const NO_ITEMS: never[] = Object.freeze([]) as never[];
export const NO_TYPES: Record<string, number> = Object.freeze({});
class NoCalls extends Map<string, ToolCall> {
	override set(): this {
		throw new Error("a model's call index is made its own (ownCalls) before a call goes in");
	}
}
const NO_CALLS: Map<string, ToolCall> = new NoCalls();

/** The list to add to: `list` itself, or a new one in place of the shared empty (`NO_ITEMS`); assign it back. */
export function own<T>(list: T[]): T[] {
	return list === NO_ITEMS ? [] : list;
}

/** The model's call index to write to, made its own first (see `NO_CALLS`). */
export function ownCalls(model: SessionModel): Map<string, ToolCall> {
	if (model.index.calls === NO_CALLS) model.index.calls = new Map();
	return model.index.calls;
}

/** The model's counts of unknown record types to write to, made its own first (see `NO_TYPES`). */
export function ownTypes(model: SessionModel): Record<string, number> {
	// Restored from storage it is a plain object: one with no prototype, for types named `toString`.
	if (model.unknownTypes === NO_TYPES || Object.getPrototypeOf(model.unknownTypes) !== null) model.unknownTypes = dict(model.unknownTypes);
	return model.unknownTypes;
}

/** Whether the agent's fold writes `seenUuids` and `usageByMessage` (Claude Code's, `fold.ts`). */
function indexesUuids(agent: AgentId | undefined): boolean {
	return agent === undefined || agent === "claude-code";
}

/**
 * A model's lists made as long as they are (after a read): an array grown by `push` from empty
 * holds room for 16, and most of a session's lists hold one to a few names (measured with the
 * shared indexes above: 15–18% less kept by the bench's Aider and Gemini CLI reads). Nothing else
 * holds these arrays. An empty one becomes the shared empty.
 */
export function compactLists(model: SessionModel): void {
	eachList(model, (list) => (list.length === 0 ? NO_ITEMS : list.length < COMPACT_BELOW ? list.slice() : list));
}

/** Each of the model's lists replaced by what `fit` makes of it. */
function eachList(model: SessionModel, fit: <T>(list: T[]) => T[]): void {
	model.sessionIds = fit(model.sessionIds);
	model.cwds = fit(model.cwds);
	model.branches = fit(model.branches);
	model.versions = fit(model.versions);
	model.models = fit(model.models);
	model.summaries = fit(model.summaries);
	model.prLinks = fit(model.prLinks);
	model.events = fit(model.events);
	model.files.read = fit(model.files.read);
	model.files.written = fit(model.files.written);
	model.files.edited = fit(model.files.edited);
	model.malformedLines = fit(model.malformedLines);
}
/** Lists this long or longer are left: what they have spare is a third of them at most. */
const COMPACT_BELOW = 64;

export function createSession(fileId: string, agentId?: string, copyClips = true, agent?: AgentId): SessionModel {
	return modelOf(
		{
			// Claude Code's models say nothing, as before other agents: their stored form stays the same.
			agent: agent === "claude-code" ? undefined : agent,
			fileId,
			agentId,
			sessionIds: NO_ITEMS,
			cwds: NO_ITEMS,
			branches: NO_ITEMS,
			versions: NO_ITEMS,
			models: NO_ITEMS,
			summaries: NO_ITEMS,
			prLinks: NO_ITEMS,
			events: NO_ITEMS,
			files: { read: NO_ITEMS, written: NO_ITEMS, edited: NO_ITEMS },
			tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
			counts: emptyCounts(),
			unknownTypes: NO_TYPES,
			malformedLines: NO_ITEMS,
		},
		indexOf({
			seenUuids: indexesUuids(agent) ? new Set<number>() : NO_UUIDS,
			firstUuid: undefined,
			copyOf: undefined,
			usageByMessage: indexesUuids(agent) ? new Map<number, MessageUsage>() : NO_USAGE,
			agentUsageByMessage: indexesUuids(agent) ? new Map<number, MessageUsage>() : NO_USAGE,
			files: undefined,
			sets: undefined,
			sidechain: undefined,
			queued: undefined,
			replaying: undefined,
			replayedAs: undefined,
			copiedTurns: undefined,
			retainedChars: 0,
			redactedEvents: 0,
			copyClips,
		}),
	);
}

/** Plain data for storage. It shares objects with the model: stringify it before folding further. */
export function serializeSession(model: SessionModel): SerializedSession {
	const { index, ...rest } = model;
	return {
		...rest,
		seenUuids: [...index.seenUuids],
		...(index.firstUuid === undefined ? {} : { firstUuid: index.firstUuid }),
		...(index.copyOf === undefined ? {} : { copyOf: index.copyOf }),
		usageByMessage: [...index.usageByMessage],
		...(index.agentUsageByMessage.size > 0 ? { agentUsageByMessage: [...index.agentUsageByMessage] } : {}),
		sidechain: index.sidechain,
		...(index.queued && index.queued.length > 0 ? { queued: [...index.queued] } : {}),
		retainedChars: index.retainedChars,
		redactedEvents: index.redactedEvents,
		...(index.replaying ? { replaying: true } : {}),
		...(index.copiedTurns ? { copiedTurns: [...index.copiedTurns] } : {}),
		...(index.replayedAs ? { replayedAs: [...index.replayedAs] } : {}),
	};
}

/** The model back from its plain data, which it takes over (pass a copy to keep the original). */
export function restoreSession(data: SerializedSession): SessionModel {
	const model = modelOf(
		data,
		indexOf({
			seenUuids: indexesUuids(data.agent) || data.seenUuids.length > 0 ? new Set(data.seenUuids) : NO_UUIDS,
			firstUuid: data.firstUuid,
			copyOf: data.copyOf,
			usageByMessage: indexesUuids(data.agent) || data.usageByMessage.length > 0 ? new Map(data.usageByMessage) : NO_USAGE,
			agentUsageByMessage: indexesUuids(data.agent) || (data.agentUsageByMessage?.length ?? 0) > 0 ? new Map(data.agentUsageByMessage ?? []) : NO_USAGE,
			files: undefined,
			sets: undefined,
			sidechain: data.sidechain,
			queued: data.queued,
			replaying: data.replaying,
			copiedTurns: data.copiedTurns === undefined ? undefined : new Set(data.copiedTurns),
			replayedAs: data.replayedAs === undefined ? undefined : new Map(data.replayedAs),
			retainedChars: data.retainedChars,
			redactedEvents: data.redactedEvents ?? 0,
			copyClips: true,
		}),
	);
	for (const event of model.events) if (event.kind === "tool") ownCalls(model).set(event.call.id, event.call);
	// Its empties the shared ones, as a model folded here has them (JSON made each list a new array).
	eachList(model, (list) => (list.length === 0 ? NO_ITEMS : list));
	if (isEmpty(model.unknownTypes)) model.unknownTypes = NO_TYPES;
	return model;
}

function isEmpty(record: Record<string, unknown>): boolean {
	for (const _ in record) return false;
	return true;
}
