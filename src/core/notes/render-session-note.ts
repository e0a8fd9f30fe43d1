import { format } from "date-fns";
import type { SessionDigest } from "../digest/session-digest";
import type { SessionEvent, SessionModel } from "../transcript/session-model";
import { renderFrontmatter } from "./frontmatter";

export interface NoteContext {
	/** Folder name of the project in the vault. */
	project: string;
	/** Transcript path, for the `source` property. */
	source: string;
	tags: string[];
}

/**
 * A session note: properties, a digest to read first, then the conversation with tool calls and
 * thinking folded away. Deterministic: the same model gives the same bytes.
 */
export function renderSessionNote(model: SessionModel, digest: SessionDigest, ctx: NoteContext): string {
	const frontmatter = renderFrontmatter([
		["session_id", digest.sessionId],
		["project", ctx.project],
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
		["tags", ctx.tags],
		["source", ctx.source],
		["aliases", [digest.title]],
	]);
	const parts = [frontmatter, `# ${digest.title}\n`, renderDigest(digest), "## Conversation\n", renderConversation(model)];
	return parts.join("\n");
}

function renderDigest(d: SessionDigest): string {
	const out: string[] = [];
	if (d.goal) out.push(`**Goal:** ${quoteInline(d.goal, 400)}`);
	if (d.outcome) out.push(`**Outcome:** ${quoteInline(d.outcome, 600)}`);
	if (d.filesTouched.length > 0) out.push(`**Files touched:**\n${d.filesTouched.map((f) => `- \`${f}\``).join("\n")}`);
	if (d.commands.length > 0) out.push(`**Commands run:**\n${d.commands.slice(0, 20).map((c) => `- \`${c.replace(/`/g, "'")}\``).join("\n")}`);
	if (d.errors.length > 0) out.push(`**Errors:**\n${d.errors.slice(0, 10).map((e) => `- ${e}`).join("\n")}`);
	if (d.subagents.length > 0) out.push(`**Sub-agents:**\n${d.subagents.map((s) => `- ${s.description}${s.type ? ` (${s.type})` : ""}`).join("\n")}`);
	return out.length > 0 ? `${out.join("\n\n")}\n` : "";
}

function renderConversation(model: SessionModel): string {
	const out: string[] = [];
	for (const event of model.events) {
		const block = renderEvent(event);
		if (block) out.push(block);
	}
	return `${out.join("\n\n")}\n`;
}

function renderEvent(event: SessionEvent): string | undefined {
	switch (event.kind) {
		case "prompt":
			return `### ${event.promptKind === "command" ? "Command" : "You"}\n${event.promptKind === "prompt" ? event.text : `\`${event.text}\``}`;
		case "text":
			return event.sidechain ? undefined : event.text;
		case "thinking":
			if (event.sidechain || event.text.trim() === "") return undefined;
			return callout("abstract", "Thinking", event.text);
		case "tool": {
			if (event.sidechain) return undefined;
			const call = event.call;
			const summary = toolSummary(call.name, call.input);
			const body = [`\`\`\`json\n${JSON.stringify(call.input, null, 2)}\n\`\`\``];
			if (call.result) body.push(`${call.result.isError ? "Error" : "Output"}:\n\`\`\`\n${call.result.text.replace(/```/g, "ʼʼʼ")}\n\`\`\``);
			return callout(call.result?.isError ? "failure" : "example", `${call.name}${summary ? `: ${summary}` : ""}`, body.join("\n"));
		}
		case "compaction":
			return callout("info", `Context compacted${event.trigger ? ` (${event.trigger})` : ""}`, event.summary ?? "");
		case "error":
			return callout("warning", "API error", event.text);
	}
}

function toolSummary(name: string, input: Record<string, unknown>): string {
	const value = input.file_path ?? input.command ?? input.description ?? input.pattern ?? input.url;
	return typeof value === "string" ? quoteInline(value, 80) : name === "" ? "" : "";
}

/** A folded Obsidian callout; every body line is quoted so Markdown inside stays inside. */
function callout(type: string, title: string, body: string): string {
	const lines = body.split("\n").map((l) => (l === "" ? ">" : `> ${l}`));
	return `> [!${type}]- ${title.replace(/\n/g, " ")}\n${lines.join("\n")}`;
}

function quoteInline(text: string, max: number): string {
	const one = text.replace(/\s+/g, " ").trim();
	return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** `2026-11-29 14:05` in the machine's zone, as Obsidian shows datetimes. */
export function localTime(iso?: string): string | undefined {
	if (!iso) return undefined;
	const date = new Date(iso);
	return Number.isNaN(date.getTime()) ? undefined : format(date, "yyyy-MM-dd'T'HH:mm");
}
