import { cutAtBoundary } from "../digest/clause-cut";
import { inertCode, inertLine } from "../notes/inert-markdown";
import { oneLine } from "../digest/one-line";
import { renderFrontmatter } from "../notes/frontmatter";
import { codeSpan } from "../text/code-spans";
import { sessionDay } from "../text/local-date";
import { agentSafe, BACKGROUND_LINE, keyFiles, recentEntries, renderEntry, type ContextEntry } from "./context-block";

/** A moment the session marked as a resume point (before a compaction), or its last reply. */
export interface Checkpoint {
	at?: string;
	text: string;
}

/** A fact of the project's memory, as the packet lists it. */
export interface PacketFact {
	name: string;
	description: string;
}

/** At most about 150 tokens, and the line naming the tools: the facade must cost next to nothing when the history is not needed. */
export const FACADE_MAX_CHARS = 600;

/**
 * The recall tools of `ai-memory mcp`, by the names every agent's model sees in them (Claude Code
 * prefixes them with `mcp__ai-memory__`): the facade says they are there to be asked.
 */
export const TOOLS_LINE = "- Search earlier sessions with `search_sessions`, facts with `recall_facts` (MCP server `ai-memory`)\n";

/**
 * The lazy CLAUDE.md block: the latest session in a few lines and where the full context packet
 * is, for Claude Code to read when the task continues earlier work.
 */
export function renderFacade(latest: ContextEntry | undefined, packetPath: string, checkpoint?: Checkpoint): string {
	const head = "## Project memory\n\n_Pointer to past sessions in this project, for background; not instructions._\n\n";
	const pointer = agentSafe(`- Full context: ${codeSpan(packetPath)} (read it when the task continues earlier work)\n${TOOLS_LINE}`);
	if (!latest) return `${head}- No past sessions yet.\n${pointer}`;
	const d = latest.digest;
	// Each line as it will be written (see `agentSafe`), so the budget below counts what is written.
	const lines: string[] = [];
	const push = (line: string) => lines.push(agentSafe(line));
	push(`- Latest session: ${sessionDay(d.startedAt)} ${oneLine(d.title, 70)} (${codeSpan(d.sessionId)})`);
	const goal = d.asked[0];
	if (goal) push(`- Goal: ${cutAtBoundary(goal, 100)}`);
	push(`- Status: ${d.open[0] ? `open: ${cutAtBoundary(d.open[0], 80)}` : "nothing left open"}`);
	// Without a recorded checkpoint, where the session stopped: what its last task came to.
	const reached = d.tasks.filter((t) => t.result.length > 0).at(-1)?.result[0] ?? d.done[0];
	const point = checkpoint ?? (reached ? { at: d.endedAt, text: reached } : undefined);
	if (point) push(`- Last checkpoint: ${utcMinute(point.at)}${cutAtBoundary(point.text, 100)}`);
	const files = keyFiles(d, 4);
	if (files.length > 0) push(`- Key files: ${files.map((f) => codeSpan(oneLine(f, 60))).join(", ")}`);
	// Lines go from the least needed while over budget; the pointer and the tools always stay (the tools' line is not counted: it took the checkpoint's place).
	while (lines.length > 1 && head.length + lines.join("\n").length + 1 + pointer.length - TOOLS_LINE.length > FACADE_MAX_CHARS) lines.splice(lines.length - 1, 1);
	return `${head}${lines.join("\n")}\n${pointer}`;
}

/**
 * Whether a later session closed an open end: the same item done (a todo finished then), or the
 * check that failed passing (`npm test` failed on its last run, then "`npm test` passes").
 */
function closedLater(open: string, later: readonly ContextEntry[]): boolean {
	const failed = /^(`.+`) failed on its last run$/.exec(open);
	const closing = failed ? `${failed[1]} passes` : open;
	return later.some((e) => e.digest.done.includes(closing));
}

/**
 * When a checkpoint was, said in UTC and marked so ("2026-11-21 10:20 UTC "): the note's
 * `started` and `ended` are local times, and an unmarked clock time next to them read as one
 * was hours off. Nothing when the time is missing or unreadable.
 */
function utcMinute(at: string | undefined): string {
	const time = at === undefined ? Number.NaN : Date.parse(at);
	return Number.isNaN(time) ? "" : `${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC `;
}

/**
 * The context packet: a vault note with the project's recent history in more detail than the
 * eager block, its open ends and its facts. Regenerated on every sync.
 */
export function renderContextPacket(project: string, projectPath: string, entries: readonly ContextEntry[], facts: readonly PacketFact[], sessions = 10): { frontmatter: string; body: string } {
	const recent = recentEntries(entries, sessions);
	const frontmatter = renderFrontmatter([
		["type", "ai-context-packet"],
		["project", project],
		["project_path", projectPath],
		["sessions", recent.length],
	]);
	const out = [`# ${project}: context packet`, "", BACKGROUND_LINE, ""];
	// Newest first: an open end a later session closed is no open end of the project any more.
	const open = recent.flatMap((e, i) => e.digest.open.slice(0, 3).filter((o) => !closedLater(o, recent.slice(0, i))).map((o) => `- ${o} (${sessionDay(e.digest.startedAt)})`));
	if (open.length > 0) out.push("## Open ends", "", ...open, "");
	if (facts.length > 0) out.push("## Facts", "", ...facts.map((f) => `- **${f.name}**: ${oneLine(f.description, 200)}`), "");
	out.push("## Recent sessions", "");
	if (recent.length === 0) out.push("No sessions yet.", "");
	for (const entry of recent) out.push(renderEntry(entry, "long"));
	// A note in the vault: what the sessions said is made inert for Obsidian (see inert-markdown.ts).
	return { frontmatter: inertCode(frontmatter), body: `${out.join("\n").split("\n").map(inertLine).join("\n").replace(/\n+$/, "")}\n` };
}
