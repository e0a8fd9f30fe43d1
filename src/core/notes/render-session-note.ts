import { format } from "date-fns";
import { oneLine } from "../digest/one-line";
import type { SessionDigest } from "../digest/session-digest";
import type { DetailLevel } from "../settings";
import type { LinkedSubagent, SessionWithAgents } from "../transcript/link-subagents";
import type { SessionEvent, ToolCall } from "../transcript/session-model";
import { renderFrontmatter } from "./frontmatter";
import { wikiLink } from "./links";

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
	detail: DetailLevel;
	index: NoteLink;
	previous?: NoteLink;
	next?: NoteLink;
	/** `renderConversation` of this session, when it was rendered ahead (while others were read). */
	conversation?: string;
	/** Names of facts that came from this session (`[[name]]` finds them in the inbox or the memory). */
	facts?: readonly string[];
}

/**
 * A session note: properties, a digest to read first, then the conversation with tool calls,
 * thinking and sub-agent work folded away. Deterministic: the same input gives the same bytes.
 * The model comes redacted (the transcript index redacts what it reads).
 */
export function renderSessionNote(input: SessionNoteInput): { frontmatter: string; body: string } {
	const { digest } = input;
	const frontmatter = renderFrontmatter([
		["session_id", digest.sessionId],
		["project", input.project],
		["project_path", digest.projectPath],
		["branch", digest.branch],
		["started", localTime(digest.startedAt)],
		["ended", localTime(digest.endedAt)],
		["duration", digest.durationMinutes === undefined ? undefined : `${digest.durationMinutes} min`],
		["models", digest.models],
		["prompts", digest.prompts],
		["tool_calls", digest.toolCalls],
		["files", digest.filesTouched],
		["tokens", digest.tokens.input + digest.tokens.output],
		["tags", input.tags],
		["source", input.session.file.path],
		["aliases", [digest.title]],
	]);
	const nav = [`Project: ${wikiLink(input.index.path, input.index.title)}`];
	if (input.previous) nav.push(`Previous: ${wikiLink(input.previous.path, input.previous.title)}`);
	if (input.next) nav.push(`Next: ${wikiLink(input.next.path, input.next.title)}`);
	const parts = [`# ${digest.title}`, nav.join(" · ")];
	if (input.facts && input.facts.length > 0) parts.push(`Facts: ${input.facts.map((f) => `[[${f}]]`).join(", ")}`);
	parts.push(renderDigest(digest));
	if (input.detail !== "digest") parts.push("## Conversation", input.conversation ?? renderConversation(input.session, input.detail));
	return { frontmatter, body: `${parts.filter((p) => p !== "").join("\n\n")}\n` };
}

function renderDigest(d: SessionDigest): string {
	const out: string[] = [];
	if (d.goal) out.push(`**Goal:** ${oneLine(d.goal, 400)}`);
	if (d.outcome) out.push(`**Outcome:** ${oneLine(d.outcome, 600)}`);
	if (d.decisions.length > 0) out.push(`**Decisions:**\n${bullets(d.decisions)}`);
	if (d.openEnds.length > 0) out.push(`**Open ends:**\n${bullets(d.openEnds)}`);
	if (d.filesTouched.length > 0) out.push(`**Files touched:**\n${bullets(d.filesTouched.map(code))}`);
	if (d.commands.length > 0) out.push(`**Commands run:**\n${bullets(d.commands.slice(0, 20).map(code))}${d.commands.length > 20 ? `\n- … and ${d.commands.length - 20} more` : ""}`);
	if (d.errors.length > 0) out.push(`**Errors:**\n${bullets(d.errors.slice(0, 10))}${d.errors.length > 10 ? `\n- … and ${d.errors.length - 10} more` : ""}`);
	if (d.subagents.length > 0) out.push(`**Sub-agents:**\n${bullets(d.subagents.map((s) => `${s.description}${s.type ? ` (${s.type})` : ""}`))}`);
	return out.join("\n\n");
}

/** The conversation section: independent of tags and links, so it can be rendered early. */
export function renderConversation(session: SessionWithAgents, detail: DetailLevel): string {
	const agents = new Map<string, LinkedSubagent>();
	for (const agent of session.subagents) if (agent.toolUseId) agents.set(agent.toolUseId, agent);
	const out: string[] = [];
	let speaker: "user" | "assistant" | undefined;
	for (const event of session.model.events) {
		const block = renderEvent(event, detail, agents);
		if (!block) continue;
		// A heading where the speaker changes, so a long session reads as a dialogue.
		const now = event.kind === "prompt" ? "user" : "assistant";
		if (now === "assistant" && speaker !== "assistant") out.push("### Claude");
		speaker = now;
		out.push(block);
	}
	return out.join("\n\n");
}

function renderEvent(event: SessionEvent, detail: DetailLevel, agents: ReadonlyMap<string, LinkedSubagent>): string | undefined {
	switch (event.kind) {
		case "prompt": {
			const images = event.images > 0 ? `\n\n_(${event.images} image${event.images > 1 ? "s" : ""} attached)_` : "";
			if (event.promptKind === "prompt") return `### You\n\n${event.text}${images}`;
			return `### You\n\n${code(event.text)}${images}`;
		}
		case "text":
			return event.sidechain ? undefined : event.text;
		case "thinking":
			if (event.sidechain || event.text.trim() === "") return undefined;
			return callout("abstract", "Thinking", event.text);
		case "tool":
			return event.sidechain ? undefined : renderTool(event.call, detail, agents.get(event.call.id));
		case "compaction":
			return callout("info", `Context compacted${event.trigger ? ` (${event.trigger})` : ""}`, event.summary ?? "");
		case "error":
			return callout("warning", "API error", event.text);
	}
}

function renderTool(call: ToolCall, detail: DetailLevel, agent: LinkedSubagent | undefined): string {
	const failed = call.result?.isError === true;
	const body = [fenced("json", JSON.stringify(call.input, null, 2))];
	if (detail === "full" && call.result && call.result.text.trim() !== "") body.push(`${failed ? "Error" : "Output"}:`, fenced("", call.result.text));
	if (agent) body.push(renderSubagent(agent, detail));
	return callout(failed ? "failure" : "example", `${call.name}${toolSummary(call)}`, body.join("\n"));
}

/** A sub-agent's own conversation, folded inside the call that started it. */
function renderSubagent(agent: LinkedSubagent, detail: DetailLevel): string {
	const lines: string[] = [];
	for (const event of agent.model.events) {
		if (event.kind === "text") lines.push(event.text);
		else if (event.kind === "tool") lines.push(`- ${event.call.result?.isError ? "✗" : "✓"} ${event.call.name}${toolSummary(event.call)}`);
		else if (event.kind === "prompt" && lines.length === 0) lines.push(`**Task:** ${oneLine(event.text, 400)}`);
	}
	const kind = agent.meta?.agentType ?? "sub-agent";
	const title = agent.meta?.description ? `Sub-agent ${kind}: ${agent.meta.description}` : `Sub-agent ${kind}`;
	return callout("note", title, detail === "digest" ? "" : lines.join("\n\n"));
}

function toolSummary(call: ToolCall): string {
	const value = call.input.file_path ?? call.input.notebook_path ?? call.input.command ?? call.input.description ?? call.input.pattern ?? call.input.url ?? call.input.query;
	return typeof value === "string" && value.trim() !== "" ? `: ${oneLine(value, 90)}` : "";
}

/** A folded Obsidian callout; every body line is quoted, so Markdown inside stays inside. */
function callout(type: string, title: string, body: string): string {
	const head = `> [!${type}]- ${oneLine(title, 140)}`;
	if (body.trim() === "") return head;
	return `${head}\n${body.split("\n").map((l) => (l === "" ? ">" : `> ${l}`)).join("\n")}`;
}

/** A code fence longer than any backtick run inside, so the content cannot close it. */
function fenced(lang: string, text: string): string {
	const longest = text.includes("`") ? Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) : 2;
	const fence = "`".repeat(longest + 1);
	return `${fence}${lang}\n${text}\n${fence}`;
}

function code(text: string): string {
	const one = text.replace(/\s+/g, " ").trim();
	return one.includes("`") ? `\`\` ${one} \`\`` : `\`${one}\``;
}

function bullets(items: readonly string[]): string {
	return items.map((i) => `- ${i}`).join("\n");
}

/** `2026-11-29T14:05` in the machine's zone: a datetime property for Obsidian. */
export function localTime(iso?: string): string | undefined {
	if (!iso) return undefined;
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? undefined : format(date, "yyyy-MM-dd'T'HH:mm");
}
