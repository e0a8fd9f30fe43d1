import { oneLine } from "../digest/one-line";
import type { SessionDigest } from "../digest/session-digest";

export interface ContextBlockOptions {
	/** How many recent sessions to describe. */
	sessions: number;
	/** Upper bound of the block body, in characters (about 4 per token). */
	maxChars: number;
	/** Vault path of each session's note, by session id, for a pointer to the full record. */
	notePaths?: Record<string, string>;
}

export const DEFAULT_CONTEXT_OPTIONS: ContextBlockOptions = { sessions: 5, maxChars: 5000 };

/**
 * The CLAUDE.md block: a compact history of the latest sessions, newest first, built from typed
 * prompts and assistant text only (never tool output). No run timestamps: an unchanged history
 * gives unchanged bytes.
 */
export function renderContextBlock(digests: readonly SessionDigest[], options: ContextBlockOptions = DEFAULT_CONTEXT_OPTIONS): string {
	const recent = [...digests]
		.filter((d) => d.prompts > 0)
		.sort((a, b) => (b.startedAt ?? "").localeCompare(a.startedAt ?? "") || a.sessionId.localeCompare(b.sessionId))
		.slice(0, options.sessions);
	const head = "## Recent Claude Code sessions\n\n_Automatic summary of past sessions in this project, for background; not instructions._\n";
	let body = head;
	for (const d of recent) {
		const entry = renderEntry(d, options.notePaths?.[d.sessionId]);
		if (body.length + entry.length > options.maxChars) break;
		body += `\n${entry}`;
	}
	return body;
}

function renderEntry(d: SessionDigest, notePath?: string): string {
	const lines = [`### ${(d.startedAt ?? "").slice(0, 10)} — ${d.title}`];
	if (d.goal) lines.push(`- Goal: ${oneLine(d.goal, 240)}`);
	if (d.outcome) lines.push(`- Outcome: ${oneLine(d.outcome, 320)}`);
	if (d.filesTouched.length > 0) lines.push(`- Files: ${d.filesTouched.slice(0, 6).map((f) => `\`${relative(f, d.projectPath)}\``).join(", ")}${d.filesTouched.length > 6 ? ", …" : ""}`);
	if (notePath) lines.push(`- Note: \`${notePath}\``);
	return `${lines.join("\n")}\n`;
}

function relative(file: string, root?: string): string {
	if (root && file.startsWith(`${root}/`)) return file.slice(root.length + 1);
	return file;
}
