/**
 * Typed records of a Claude Code transcript line. The on-disk format has no published schema and
 * drifts between releases, so every field is optional and unknown shapes become `unknown` records
 * rather than errors. Big payloads (base64 images, full file contents) are not kept here.
 */

/** Fields shared by conversation lines (user, assistant, system, attachment, progress). */
export interface Envelope {
	uuid?: string;
	parentUuid?: string | null;
	sessionId?: string;
	timestamp?: string;
	cwd?: string;
	gitBranch?: string;
	version?: string;
	isSidechain?: boolean;
	agentId?: string;
}

export interface TextBlock {
	type: "text";
	text: string;
}
export interface ThinkingBlock {
	type: "thinking";
	thinking: string;
}
/** Reasoning the API returns encrypted; nothing readable is in the transcript. */
export interface RedactedThinkingBlock {
	type: "redacted_thinking";
}
export interface ToolUseBlock {
	type: "tool_use";
	id: string;
	name: string;
	input: Record<string, unknown>;
}
export interface ToolResultBlock {
	type: "tool_result";
	toolUseId: string;
	isError: boolean;
	/** Text of the result; images and tool references inside it are reduced to placeholders. */
	text: string;
}
export interface ImageBlock {
	type: "image";
	/** The image itself is dropped (a reader may not even decode it: see `node/bulk-fields`). */
	mediaType?: string;
}
export interface DocumentBlock {
	type: "document";
	mediaType?: string;
}
export interface UnknownBlock {
	type: "unknown";
	originalType: string;
}
export type ContentBlock =
	| TextBlock
	| ThinkingBlock
	| RedactedThinkingBlock
	| ToolUseBlock
	| ToolResultBlock
	| ImageBlock
	| DocumentBlock
	| UnknownBlock;

export interface Usage {
	inputTokens: number;
	outputTokens: number;
	cacheCreationInputTokens: number;
	cacheReadInputTokens: number;
}

export interface UserRecord extends Envelope {
	type: "user";
	/** A typed prompt is a string; tool results and pasted images come as blocks. */
	content: string | ContentBlock[];
	isMeta: boolean;
	isCompactSummary: boolean;
	/** Written by the client, not typed (`promptSource: "system"`, or an `origin` other than `human`). */
	isSystemInjected: boolean;
	promptId?: string;
	/** The tool's structured result, when this line carries one (`toolUseResult`). */
	toolUseResult?: unknown;
}

export interface AssistantRecord extends Envelope {
	type: "assistant";
	/** Several lines (one per content block) share one message id. */
	messageId?: string;
	requestId?: string;
	model?: string;
	content: ContentBlock[];
	usage?: Usage;
	isApiErrorMessage: boolean;
	/**
	 * The session that made this request, when it is another: a forked session's file starts with
	 * its parent's history copied in (`requestSessionId`, or `forkedFrom.sessionId`).
	 */
	copiedFrom?: string;
}

export interface CompactInfo {
	trigger?: string;
	preTokens?: number;
}

export interface SystemRecord extends Envelope {
	type: "system";
	/** Absent on the oldest hook lines (1.0.x). */
	subtype?: string;
	content?: string;
	level?: string;
	isMeta: boolean;
	compact?: CompactInfo;
	/** `api_error`: the error object or message. */
	error?: unknown;
	durationMs?: number;
}

/** Session title for the resume picker; `leafUuid` may point into another file of the project. */
export interface SummaryRecord {
	type: "summary";
	summary: string;
	leafUuid?: string;
}

/** `ai-title` (generated) and `custom-title` (set by `/rename`). */
export interface TitleRecord {
	type: "ai-title" | "custom-title";
	title: string;
	sessionId?: string;
}

export interface FileHistorySnapshotRecord {
	type: "file-history-snapshot";
	messageId?: string;
	isSnapshotUpdate: boolean;
	/** Paths of the tracked files in the snapshot. */
	files: string[];
}

export interface QueueOperationRecord {
	type: "queue-operation";
	operation: string;
	sessionId?: string;
	timestamp?: string;
	/** The queued prompt, on `enqueue`. */
	content?: string;
}

export interface ProgressRecord extends Envelope {
	type: "progress";
	/** `hook_progress`, `bash_progress`, `agent_progress`, `mcp_progress`, … */
	dataType: string;
	toolUseId?: string;
	parentToolUseId?: string;
	/** `agent_progress`: the sub-agent whose message is mirrored into the parent file. */
	progressAgentId?: string;
	/** `agent_progress` (2.1): a sub-agent's assistant message copied into the parent, with its usage. */
	agentMessage?: { messageId: string; usage: Usage; model?: string; timestamp?: string };
}

export interface AttachmentRecord extends Envelope {
	type: "attachment";
	/** `hook_success`, `hook_additional_context`, `deferred_tools_delta`, `skill_listing`, … */
	attachmentType: string;
	hookEvent?: string;
	hookName?: string;
}

export interface PermissionModeRecord {
	type: "permission-mode";
	permissionMode: string;
	sessionId?: string;
}

export interface LastPromptRecord {
	type: "last-prompt";
	lastPrompt: string;
	sessionId?: string;
}

export interface PrLinkRecord {
	type: "pr-link";
	prNumber?: number;
	prUrl?: string;
	prRepository?: string;
	sessionId?: string;
	timestamp?: string;
}

/**
 * Bookkeeping lines that carry nothing for a note (`mode`, `tag`, `agent-name`, `cost-state`,
 * `api-request…` and the like): recognised, so they are not reported as unknown.
 */
export interface BookkeepingRecord extends Envelope {
	type: "bookkeeping";
	originalType: string;
}

/** A line whose `type` this version does not know. Counted, never an error. */
export interface UnknownRecord {
	type: "unknown";
	originalType: string;
	sessionId?: string;
	timestamp?: string;
}

export type TranscriptRecord =
	| UserRecord
	| AssistantRecord
	| SystemRecord
	| SummaryRecord
	| TitleRecord
	| FileHistorySnapshotRecord
	| QueueOperationRecord
	| ProgressRecord
	| AttachmentRecord
	| PermissionModeRecord
	| LastPromptRecord
	| PrLinkRecord
	| BookkeepingRecord
	| UnknownRecord;
