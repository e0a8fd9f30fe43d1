import { localTime } from "../text/local-date";
import { codeUnitOrder } from "../text/code-unit-order";
import { lowerBound } from "../text/sorted-search";
import { AGENT_NAMES } from "../transcript/agents";
import { oneLine } from "../digest/one-line";
import type { SessionDigest, TaskSummary } from "../digest/session-digest";
import type { DetailLevel } from "../settings";
import type { LinkedSubagent, SessionWithAgents } from "../transcript/link-subagents";
import type { SessionEvent, ToolCall } from "../transcript/session-model";
import { stripClientBoilerplate } from "../transcript/client-boilerplate";
import { renderFrontmatter } from "./frontmatter";
import { safeFileName } from "./note-name";
import { relativeTo } from "./relative-path";
import { inertCode, inertLine, inertSpanText } from "./inert-markdown";
import { wikiLink } from "./links";
import { renderToolCallBody, safeMarkdown, toolSummary } from "./render-tool-call";
import { conversationText, type ConversationText } from "./conversation-text";

export interface NoteLink {
	/** Vault path of the note, with `.md`. */
	path: string;
	title: string;
}

export interface SessionNoteInput {
	session: SessionWithAgents;
	digest: SessionDigest;
	/** Folder name of the project in the vault. */
	project: string;
	tags: readonly string[];
	/** Aliases a person added to the note, after the title (which is always the first). */
	aliases?: readonly string[];
	detail: DetailLevel;
	index: NoteLink;
	previous?: NoteLink;
	next?: NoteLink;
	/** `renderConversation` of this session, when it was rendered ahead (while others were read). */
	conversation?: ConversationText;
	/** The note's vault path: its name shows the title, unless the title changed after the name was chosen. */
	notePath?: string;
	/** Names of facts that came from this session (`[[name]]` finds them in the inbox or the memory). */
	facts?: readonly string[];
}

/** A session note as rendered: its properties and its body, whose last section may still be bytes. */
export interface SessionNoteText {
	frontmatter: string;
	body: string;
	/**
	 * The conversation section as a fold made it, UTF-8 bytes of printable text (see
	 * `ConversationText`): the note's body is `body`, these bytes, then a line break. A new note is
	 * written with them as they are (`NoteStore.create`); anything else reads `noteBody`.
	 */
	conversation?: Uint8Array;
}

/** The whole body of a rendered session note, as text. */
export function noteBody(note: SessionNoteText): string {
	return note.conversation === undefined ? note.body : `${note.body}${conversationText(note.conversation)}\n`;
}

/**
 * A session note: properties, a digest to read first, then the conversation with tool calls,
 * thinking and sub-agent work folded away. Deterministic: the same input gives the same bytes.
 * The model comes redacted (the transcript index redacts what it reads).
 */
export function renderSessionNote(input: SessionNoteInput): SessionNoteText {
	const { digest } = input;
	const frontmatter = renderFrontmatter([
		["session_id", digest.sessionId],
		["agent", digest.agent],
		["project", input.project],
		["project_path", digest.projectPath],
		["branch", digest.branch],
		["started", localTime(digest.startedAt)],
		["ended", localTime(digest.endedAt)],
		["duration", digest.activeMinutes],
		["models", digest.models],
		["prompts", digest.prompts],
		["tool_calls", digest.toolCalls],
		["files", digest.filesTouched],
		["input_tokens", digest.tokens.input],
		["output_tokens", digest.tokens.output],
		["cache_read_tokens", digest.tokens.cacheRead],
		["cache_write_tokens", digest.tokens.cacheWrite],
		["cost_usd", digest.tokens.costUsd],
		["tags", input.tags],
		["source", input.session.file.path],
		["aliases", [digest.title, ...(input.aliases ?? []).filter((a) => a !== digest.title)]],
	]);
	const nav = [`Project: ${wikiLink(input.index.path, input.index.title)}`];
	if (input.previous) nav.push(`Previous: ${wikiLink(input.previous.path, input.previous.title)}`);
	if (input.next) nav.push(`Next: ${wikiLink(input.next.path, input.next.title)}`);
	// Obsidian shows the note's name as its title: a heading repeats it only when the session was
	// retitled after its note was named (a growing session's note keeps its path).
	const named = input.notePath?.split("/").pop()?.replace(/\.md$/, "");
	const parts = named === undefined || !named.endsWith(safeFileName(digest.title)) ? [`# ${inertLine(digest.title)}`, nav.join(" · ")] : [nav.join(" · ")];
	if (input.facts && input.facts.length > 0) parts.push(`Facts: ${input.facts.map((f) => `[[${f}]]`).join(", ")}`);
	parts.push(renderDigest(digest));
	// Templater reads the properties too (a `project_path` is a folder's name as the disk has it).
	const properties = inertCode(frontmatter);
	if (input.detail === "digest") return { frontmatter: properties, body: `${parts.filter((p) => p !== "").join("\n\n")}\n` };
	parts.push("## Conversation");
	const conversation = input.conversation ?? renderConversation(input.session, input.detail);
	// Bytes stay bytes to the file (an empty section is left out, as empty text is).
	if (typeof conversation !== "string" && conversation.length > 0) return { frontmatter: properties, body: `${parts.filter((p) => p !== "").join("\n\n")}\n\n`, conversation };
	parts.push(conversationText(conversation) ?? "");
	return { frontmatter: properties, body: `${parts.filter((p) => p !== "").join("\n\n")}\n` };
}

/**
 * Whether a text starts one of `texts`: found by where it would sort among them (those it starts
 * follow it there), not by a look at each (thousands of tasks' results against as many done items).
 */
function startsOfAny(texts: readonly string[]): (start: string) => boolean {
	const sorted = [...texts].sort(codeUnitOrder);
	return (start) => sorted[lowerBound(sorted, start)]?.startsWith(start) ?? false;
}

function renderDigest(d: SessionDigest): string {
	const out: string[] = [];
	const tasks = d.tasks.filter((t) => t.ask !== undefined || t.result.length > 0);
	if (tasks.length > 0) out.push(`**Tasks:**\n${tasks.map((t, i) => renderTask(t, i + 1, d.projectPath)).join("\n")}`);
	// What the tasks already say is not said twice.
	const said = startsOfAny(tasks.flatMap((t) => t.result));
	const done = d.done.filter((item) => !said(item.replace(/…$/, "")));
	if (done.length > 0) out.push(`**Done:**\n${bullets(done)}`);
	if (d.open.length > 0) out.push(`**Open:**\n${bullets(d.open)}`);
	if (d.decisions.length > 0) out.push(`**Decisions:**\n${bullets(d.decisions)}`);
	if (d.filesTouched.length > 0) out.push(`**Files touched:**\n${bullets(d.filesTouched.map((f) => code(relativeTo(f, d.projectPath))))}`);
	if (d.commands.length > 0) out.push(`**Commands run:**\n${bullets(d.commands.slice(0, 20).map(code))}${d.commands.length > 20 ? `\n- … and ${d.commands.length - 20} more` : ""}`);
	if (d.errors.length > 0) out.push(`**Errors:**\n${bullets(d.errors.slice(0, 10))}${d.errors.length > 10 ? `\n- … and ${d.errors.length - 10} more` : ""}`);
	if (d.subagents.length > 0) out.push(`**Sub-agents:**\n${bullets(d.subagents.map((s) => `${s.description}${s.type ? ` (${s.type})` : ""}`))}`);
	// Every item is transcript text: made inert line by line (our own markup has nothing it changes).
	return out.join("\n\n").split("\n").map(inertLine).join("\n");
}

/** A task: its request, then what its final reply established, each statement an item of its own. */
function renderTask(task: TaskSummary, n: number, root: string | undefined): string {
	const lines = [`${n}. ${task.ask ?? "(work without a typed request)"}`];
	for (const r of task.result.slice(0, 4)) lines.push(`    - ${r}`);
	if (task.check) lines.push(`    - ${code(task.check.command)} ${task.check.passed ? "passed" : "failed"}`);
	if (task.files.length > 0) lines.push(`    - Files: ${task.files.slice(0, 6).map((f) => code(relativeTo(f, root))).join(", ")}${task.files.length > 6 ? ", …" : ""}`);
	return lines.join("\n");
}

/** The conversation section: independent of tags and links, so it can be rendered early. */
export function renderConversation(session: SessionWithAgents, detail: DetailLevel): string {
	const agents = new Map<string, LinkedSubagent>();
	for (const agent of session.subagents) if (agent.toolUseId) agents.set(agent.toolUseId, agent);
	const out: string[] = [];
	let speaker: "user" | "assistant" | undefined;
	// The assistant by its agent's name: "Claude" for Claude Code (as the notes always said), "Codex", "Gemini CLI".
	const assistant = session.model.agent === undefined ? "Claude" : AGENT_NAMES[session.model.agent];
	let turn = 0;
	for (const event of session.model.events) {
		if (event.kind === "prompt") turn++;
		const block = renderEvent(event, detail, agents, session.model.cwd, turn);
		if (!block) continue;
		// A heading where the speaker changes, so a long session reads as a dialogue. A fork's or a
		// rewind's mark is no one's words.
		const now = event.kind === "prompt" ? "user" : event.kind === "forked" || event.kind === "rewound" ? speaker : "assistant";
		if (now === "assistant" && speaker !== "assistant") out.push(`### ${assistant}`);
		speaker = now;
		out.push(block);
	}
	return out.join("\n\n");
}

/**
 * The heading of a session's `turn`th prompt (1-based, in the order of its prompt events): the
 * stable anchor a search result opens (`note#You · 3`). A session that grows only adds turns.
 */
export function turnHeading(turn: number): string {
	return `You · ${turn}`;
}

function renderEvent(event: SessionEvent, detail: DetailLevel, agents: ReadonlyMap<string, LinkedSubagent>, root: string | undefined, turn: number): string | undefined {
	switch (event.kind) {
		case "prompt": {
			const images = event.images > 0 ? `\n\n_(${event.images} image${event.images > 1 ? "s" : ""} attached)_` : "";
			if (event.promptKind === "prompt") return `### ${turnHeading(turn)}\n\n${safeMarkdown(event.text)}${images}`;
			return `### ${turnHeading(turn)}\n\n${code(event.text)}${images}`;
		}
		case "text":
			return event.sidechain ? undefined : safeMarkdown(event.text);
		case "thinking":
			if (event.sidechain || event.text.trim() === "") return undefined;
			return callout("abstract", "Thinking", safeMarkdown(event.text));
		case "tool":
			return event.sidechain ? undefined : renderTool(event.call, detail, agents.get(event.call.id), root);
		case "compaction":
			return callout("info", `Context compacted${event.trigger ? ` (${event.trigger})` : ""}`, safeMarkdown(event.summary ?? ""));
		case "error":
			return callout("warning", "API error", safeMarkdown(event.text));
		case "forked": {
			const n = event.prompts;
			return callout("info", `Forked from ${event.from === undefined ? "an earlier session" : `session ${code(event.from)}`}`, `The ${n} prompt${n === 1 ? "" : "s"} before the fork are in that session's note.`);
		}
		case "rewound": {
			const n = event.prompts.length;
			return callout("note", `Rewound: ${n} prompt${n === 1 ? "" : "s"} left for an earlier point`, event.prompts.map(safeMarkdown).join("\n\n"));
		}
	}
}

function renderTool(call: ToolCall, detail: DetailLevel, agent: LinkedSubagent | undefined, root: string | undefined): string {
	const failed = call.result?.isError === true;
	const body = [renderToolCallBody(call, { detail, subagentShown: agent !== undefined })];
	if (agent) body.push(renderSubagent(agent, detail, root));
	return callout(failed ? "failure" : "example", `${call.name}${toolSummary(call, root)}`, body.filter((b) => b !== "").join("\n\n"));
}

/** A sub-agent's own conversation, folded inside the call that started it. */
function renderSubagent(agent: LinkedSubagent, detail: DetailLevel, root: string | undefined): string {
	const lines: string[] = [];
	for (const event of agent.model.events) {
		if (event.kind === "text") {
			const text = stripClientBoilerplate(event.text);
			if (text.trim() !== "") lines.push(safeMarkdown(text));
		} else if (event.kind === "tool") lines.push(`- ${event.call.result?.isError ? "✗" : "✓"} ${inertLine(`${event.call.name}${toolSummary(event.call, root)}`)}`);
		else if (event.kind === "prompt" && lines.length === 0) lines.push(`**Task:** ${inertLine(oneLine(stripClientBoilerplate(event.text), 400))}`);
	}
	const kind = agent.meta?.agentType ?? "sub-agent";
	const title = agent.meta?.description ? `Sub-agent ${kind}: ${agent.meta.description}` : `Sub-agent ${kind}`;
	return callout("note", title, detail === "digest" ? "" : lines.join("\n\n"));
}

/**
 * A folded Obsidian callout; every body line is quoted, so Markdown inside stays inside. The title
 * is transcript text (a tool's name, a file path, a command): made inert like every other line;
 * the body comes made inert by its caller.
 */
function callout(type: string, title: string, body: string): string {
	const head = `> [!${type}]- ${inertLine(oneLine(title, 140))}`;
	if (body.trim() === "") return head;
	return `${head}\n${quoteLines(body)}`;
}

/**
 * Every line of `text` as a line of a quote: `> line`, or `>` for an empty one. A lone CR ends a
 * Markdown line too: every line ending counts, or text could leave the callout. Two passes over
 * the text, no array of its lines (tool output makes this a tenth of a session's rendering).
 * Plain string searches where they do: a pattern led by `(^|\n)` was tried at every character
 * (measured on every tool result of the bench tree: 183 ms to quote them, 130 ms this way).
 */
export function quoteLines(text: string): string {
	const lines = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
	const quoted = `> ${lines.replaceAll("\n", "\n> ")}`;
	// Only `\n` ends a line of `quoted`, and each line starts with the `> ` put there.
	if (lines !== "" && lines.charCodeAt(0) !== 0x0a && !lines.endsWith("\n") && !lines.includes("\n\n")) return quoted;
	const rest = quoted.replace(/\n> (?=\n|$)/g, "\n>");
	// The first line has no `\n` before it: `> ` alone, or followed by one.
	return rest.length === 2 || rest.charCodeAt(2) === 0x0a ? `>${rest.slice(2)}` : rest;
}

function code(text: string): string {
	const one = inertSpanText(text.replace(/\s+/g, " ").trim());
	return one.includes("`") ? `\`\` ${one} \`\`` : `\`${one}\``;
}

function bullets(items: readonly string[]): string {
	return items.map((i) => `- ${i}`).join("\n");
}
