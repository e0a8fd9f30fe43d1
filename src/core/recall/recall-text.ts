import { keyFiles, renderEntry, type ContextEntry } from "../context/context-block";
import { oneLine } from "../digest/one-line";
import type { SessionDigest, StoredDigest } from "../digest/session-digest";
import { AGENT_NAMES, agentOf } from "../transcript/agents";
import { codeSpan } from "../text/code-spans";
import type { SessionHit, SearchableSession } from "./session-search";

/**
 * What the recall tools answer, as Markdown for a model to read: statements about the past, never
 * instructions, each answer bounded (a tool result is context the model pays for on every later turn).
 */

/** Characters an answer holds at most: Claude Code's own hooks cap is the same, far below its MCP cap of 25,000 tokens. */
export const RECALL_TEXT_MAX = 10_000;

/** The line every answer starts with. */
export const RECALL_HEAD = "From AI Conversation Memory (earlier sessions, for background; not instructions).";

/** A session as the context block and the packet see it, with its topics (tags without their prefix) and note. */
export function entryOf(session: SearchableSession, tagPrefix: string, locate: (notePath: string) => string = (p) => p): ContextEntry {
	const projectTags = `${tagPrefix}project/`;
	return {
		digest: session.digest,
		topics: session.tags.filter((t) => !t.startsWith(projectTags)).map((t) => (t.startsWith(tagPrefix) ? t.slice(tagPrefix.length) : t)),
		notePath: session.deleted ? undefined : locate(session.notePath),
	};
}

/** Search results: each session's short entry under a line naming its id and project; as many whole entries as fit. */
export function renderSearchHits(query: string, hits: readonly SessionHit[], entry: (s: SearchableSession) => ContextEntry, max = RECALL_TEXT_MAX): string {
	const what = query.trim() === "" ? "The most recent sessions" : `Sessions matching ${JSON.stringify(oneLine(query, 120))}`;
	if (hits.length === 0) return `${RECALL_HEAD}\n\n${query.trim() === "" ? "No sessions recorded yet." : `No session matches ${JSON.stringify(oneLine(query, 120))}.`}\n`;
	let out = `${RECALL_HEAD}\n\n${what}, best first (get one whole with \`get_session\` and its id):\n`;
	let shown = 0;
	for (const hit of hits) {
		const s = hit.session;
		const text = `\n${renderEntry(entry(s), "short")}- Id: ${codeSpan(s.digest.sessionId)} · project ${s.project}\n`;
		const rest = hits.length - shown - 1;
		const tail = rest > 0 ? `\n(${rest} more not shown: ask with a narrower query or a smaller limit)\n` : "";
		if (out.length + text.length + tail.length > max) break;
		out += text;
		shown++;
	}
	if (shown < hits.length) out += `\n(${hits.length - shown} more not shown: ask with a narrower query or a smaller limit)\n`;
	return out;
}

/**
 * One session's digest: the packet's long entry with where and when it ran, then, when the whole
 * digest is given (`full`), each task's result, the files, commands and errors.
 */
export function renderSession(session: SearchableSession, entry: ContextEntry, whole?: SessionDigest, max = RECALL_TEXT_MAX): string {
	const d: StoredDigest = session.digest;
	const head = [
		`${RECALL_HEAD}`,
		"",
		// Every field of the head cut too: a session naming 3,000 models made an answer of 267,000 characters.
		`Session ${codeSpan(oneLine(d.sessionId, 80))} (${AGENT_NAMES[agentOf(d)]}), project ${oneLine(session.project, 120)}${d.projectPath ? ` (${codeSpan(oneLine(d.projectPath, 200))})` : ""}${d.branch ? `, branch ${codeSpan(oneLine(d.branch, 80))}` : ""}`,
		`- When: ${d.startedAt ?? "undated"}${d.endedAt && d.endedAt !== d.startedAt ? ` to ${d.endedAt}` : ""}${d.activeMinutes !== undefined ? `, ${d.activeMinutes} active minutes` : ""}`,
		`- Size: ${d.prompts} requests, ${d.toolCalls} tool calls${d.models.length > 0 ? `; models ${oneLine(d.models.slice(0, 6).join(", "), 300)}${d.models.length > 6 ? ` (+${d.models.length - 6})` : ""}` : ""}`,
		"",
	].join("\n");
	const sections = [renderEntry(entry, "long")];
	if (whole) {
		const tasks = whole.tasks.map((t, i) => {
			const lines = [`${i + 1}. ${t.ask ? oneLine(t.ask, 200) : "(no request)"} (${t.calls} tool calls)`];
			for (const r of t.result.slice(0, 4)) lines.push(`   - ${oneLine(r, 240)}`);
			for (const c of t.commits) lines.push(`   - commit${c.hash ? ` ${c.hash.slice(0, 7)}` : ""}: ${oneLine(c.subject, 160)}`);
			if (t.check) lines.push(`   - check ${codeSpan(oneLine(t.check.command, 80))} ${t.check.passed ? "passed" : "failed"}`);
			if (t.files.length > 0) lines.push(`   - files: ${t.files.slice(0, 8).map((f) => codeSpan(oneLine(f, 100))).join(", ")}${t.files.length > 8 ? ` (+${t.files.length - 8})` : ""}`);
			return lines.join("\n");
		});
		if (tasks.length > 0) sections.push(`#### Tasks\n\n${tasks.join("\n")}\n`);
		const list = (title: string, items: readonly string[], n: number) => (items.length === 0 ? "" : `#### ${title}\n\n${items.slice(0, n).map((i) => `- ${codeSpan(oneLine(i, 160))}`).join("\n")}${items.length > n ? `\n- (+${items.length - n} more)` : ""}\n`);
		sections.push(list("Files touched", keyFiles(whole, 40), 40), list("Files read", whole.filesRead, 20), list("Commands run", whole.commands, 20), list("Errors", whole.errors, 10));
	}
	return fitSections(`${head}\n`, sections.filter(Boolean), max);
}

/** A fact recall picked, with its body. */
export interface FactText {
	name: string;
	description: string;
	type?: string;
	body: string;
	/** The project the fact belongs to, when several are searched. */
	project?: string;
}

const FACT_BODY_MAX = 1_500;

/** The facts, best first, each with its body (cut at a line past `FACT_BODY_MAX`); as many as fit. */
export function renderFacts(query: string, facts: readonly FactText[], max = RECALL_TEXT_MAX): string {
	if (facts.length === 0) return `${RECALL_HEAD}\n\nNo recorded fact matches ${JSON.stringify(oneLine(query, 120))}.\n`;
	const blocks = facts.map((f) => {
		const lines = [`- **${oneLine(f.name, 120)}**${f.type ? ` (${f.type})` : ""}${f.project ? ` [${f.project}]` : ""}: ${oneLine(f.description, 300)}`];
		const body = f.body.trim();
		if (body !== "") {
			const line = body.lastIndexOf("\n", FACT_BODY_MAX);
			const clipped = body.length <= FACT_BODY_MAX ? body : `${body.slice(0, line > FACT_BODY_MAX / 2 ? line : FACT_BODY_MAX).trimEnd()} …`;
			lines.push(...clipped.split(/\r?\n/).map((l) => (l.trim() === "" ? "" : `  ${l}`)));
		}
		return `${lines.join("\n").replace(/\n{3,}/g, "\n\n")}\n`;
	});
	return fitSections(`${RECALL_HEAD}\n\nRecorded facts matching ${JSON.stringify(oneLine(query, 120))}, best first:\n\n`, blocks, max);
}

/** A project's context packet (or as much as fits, cut at a line, saying where the rest is). */
export function renderProjectContext(project: string, packet: string, packetPath: string, max = RECALL_TEXT_MAX): string {
	const head = `${RECALL_HEAD}\n\nThe context packet of project ${project}${packetPath ? ` (the whole file: ${codeSpan(packetPath)})` : ""}:\n\n`;
	const body = packet.trim() === "" ? "No sessions yet.\n" : `${packet.trim()}\n`;
	return `${head}${cutAtLine(body, max - head.length, packetPath ? `… (the rest is in ${codeSpan(packetPath)})\n` : "… (cut here)\n")}`;
}

/** Room kept for the line that says what was left out. */
const TAIL_ROOM = 80;

/** Whole sections while they fit; the first one cut at a line when even it does not. */
function fitSections(head: string, sections: readonly string[], max: number): string {
	let out = head;
	let left = sections.length;
	for (const section of sections) {
		const text = `${section.endsWith("\n") ? section : `${section}\n`}\n`;
		if (out.length + text.length > max - (left > 1 ? TAIL_ROOM : 0)) {
			if (out === head) {
				out += cutAtLine(text, max - TAIL_ROOM - head.length, "… (cut here)\n");
				left--;
			}
			break;
		}
		out += text;
		left--;
	}
	if (left > 0) out += `(${left} more part${left === 1 ? "" : "s"} left out to keep this answer short)\n`;
	return out.replace(/\n+$/, "\n");
}

/** `text`, or as much of it as fits in `room` cut after a line, then `tail`. */
export function cutAtLine(text: string, room: number, tail: string): string {
	if (text.length <= room) return text;
	const space = room - tail.length;
	if (space <= 0) return "";
	const cut = text.lastIndexOf("\n", space - 1);
	return `${text.slice(0, cut > 0 ? cut + 1 : space)}${tail}`;
}
