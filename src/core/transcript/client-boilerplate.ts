/**
 * Claude Code's own words to the model inside tool results and sub-agent text: hints ("no need to
 * Read it back"), frames ("[Subagent hand-back] …"), bookkeeping (`agentId: …`, `<usage>`) and
 * reminders. A person reading a note needs what the tool said, not what the client told the model,
 * so this takes the client's words out and keeps the tool's (the message inside a
 * `<tool_use_error>` stays). The strings are Claude Code's, as found in real transcripts and in
 * the 2.1.332 client. Fold clips results (`LIMITS.toolResult`) with a trailing "…", so boilerplate
 * cut short at the end is recognised too. Linear in the text: no regex runs over it unbounded.
 */
export function stripClientBoilerplate(text: string): string {
	// One pass tells most texts apart: no tag, frame, hint or line break of Windows, nothing to take
	// out but a hint the clip cut short at the end (shorter than its head in `MARKERS`). Most tool
	// results are clipped: each went through every step below, twenty scans of it.
	if (!MARKERS.test(text)) {
		if (!text.endsWith("…")) return text;
		let out = text;
		for (const phrase of PHRASES) out = dropClippedTail(out, phrase);
		return out === text ? text : closeGaps(out);
	}
	const original = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
	let out = unwrapSubagentHandBack(original);
	out = dropPartialTagAtEnd(out);
	out = replaceTagBlocks(out, "tool_use_error", (inner) => inner.trim());
	out = replaceTagBlocks(out, "tools-used-before-summary", () => "");
	out = replaceTagBlocks(out, "system-reminder", (inner) => (isReminderBoilerplate(inner) ? "" : `\n${inner.trim()}\n`));
	out = replaceTagBlocks(out, "usage", (inner, closed) => (/^\s*(?:subagent_tokens|total_tokens):/.test(inner) ? "" : `<usage>${inner}${closed ? "</usage>" : ""}`));
	// includes() first: most texts hold none of these, and a search allocates nothing.
	for (const [from, to] of REPLACEMENTS) if (out.includes(from)) out = out.split(from).join(to);
	for (const phrase of PHRASES) if (out.includes(phrase)) out = out.split(phrase).join("");
	for (const [needle, pattern] of PATTERNS) if (out.includes(needle)) out = out.replace(pattern, "");
	for (const phrase of PHRASES) out = dropClippedTail(out, phrase);
	out = dropAgentIdLines(out);
	return out === original ? original : closeGaps(out);
}

/** Only where something was taken out: the gaps it left closed. */
function closeGaps(out: string): string {
	return out
		.replace(/[ \t]+\n/g, "\n")
		.replace(/\n{3,}/g, "\n\n")
		.replace(/^\s*\n/, "")
		.trimEnd();
}

/** Sentences that are only the client's hints to the model; the text around them stays. */
const PHRASES = [
	" (file state is current in your context — no need to Read it back)",
	" (This tool result is internal metadata — never quote or paste any part of it, including the agentId below, into a user-facing reply.)",
	" Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable",
	" (eg. if it was a file edit, the new_string was NOT written to the file)",
	" STOP what you are doing and wait for the user to tell you how to proceed.",
	"\n\nNote: The user's next message may contain a correction or preference. Pay close attention — if they explain what went wrong or how they'd prefer you to work, consider saving that to memory for future sessions.",
	" You can now start coding. Start with updating your todo list if applicable",
	"\nYou can refer back to it if needed during implementation.",
	"\n\nREMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.",
	"\n\nTask completed. Call TaskList now to find your next available task or see if your work unblocked others.",
	" You will be notified automatically when it completes. You know nothing about its results until that notification arrives — do not report, assume, or predict them; continue other work or respond to the user in the meantime.",
	"Do not duplicate this agent's work — avoid working with the same files or topics it is using.",
	"In your own words, briefly tell the user what you launched — do not echo this tool result. Agent results will arrive in a subsequent message. If the user asks for progress, say the agent is still running.",
	" The content from the earlier Read tool_result in this conversation is still current — refer to that instead of re-reading.",
];

const REPLACEMENTS: readonly [string, string][] = [
	["Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.", "File unchanged since last read."],
];

/** Hints with a tool name inside; anchored and bounded, so they cost one pass. */
const PATTERNS: readonly [needle: string, pattern: RegExp][] = [
	["The app marks these items", /\n?\n?The app marks these items in progress and checks them off by itself as the work gets done, so you don't need to call \w{1,40} to change their status\. Use it to rename or delete an item\./g],
	["or tail this file via the shell tool", /Do NOT \w{1,40} or tail this file via the shell tool — it is the full subagent JSONL transcript and reading it will overflow your context\. If the user asks for progress, say the agent is still running; you'll get a completion notification\./g],
];

/** Reminders that are pure boilerplate (dropped); any other reminder keeps its text, unwrapped. */
const REMINDERS = ["Whenever you read a file, you should consider whether it", "This memory is "];

function isReminderBoilerplate(inner: string): boolean {
	const text = inner.replace(/…$/, "").trim();
	if (text === "") return true;
	return REMINDERS.some((r) => text.startsWith(r) || (text.length >= 8 && r.startsWith(text)));
}

const FRAME = "[Subagent hand-back]";

/** Anything that can start boilerplate: a tag, the frame, an agent id line, the head of a hint. */
const MARKERS = new RegExp(
	[...PHRASES.map((p) => p.trim().slice(0, 24)), ...REPLACEMENTS.map(([from]) => from.slice(0, 24)), ...PATTERNS.map(([needle]) => needle), "<", FRAME, "agentId: ", "\r"]
		.map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
		.join("|"),
);

/**
 * A sub-agent's report as its parent received it (2.1.x): notes indented by two spaces, the frame
 * line at column zero, then the report with every line indented by two spaces. Only a frame at
 * the start of a line counts (one inside the report is indented, so it is the report's text).
 */
function unwrapSubagentHandBack(text: string): string {
	const at = text.startsWith(FRAME) ? 0 : text.indexOf(`\n${FRAME}`) + 1;
	if (at === 0 && !text.startsWith(FRAME)) return text;
	const lineEnd = text.indexOf("\n", at);
	const notes = dedent(text.slice(0, at));
	// Clipped inside the frame: the report never made it into the transcript index.
	if (lineEnd < 0) return notes;
	return `${notes}${dedent(text.slice(lineEnd + 1))}`;
}

function dedent(text: string): string {
	return text
		.split("\n")
		.map((l) => (l.startsWith("  ") ? l.slice(2) : l))
		.join("\n");
}

/**
 * Replaces each `<tag>…</tag>` with what `keep` returns; an opening tag never closed (the text was
 * clipped) runs to the end. indexOf only, so the cost stays linear whatever the text holds.
 */
function replaceTagBlocks(text: string, tag: string, keep: (inner: string, closed: boolean) => string): string {
	const open = `<${tag}>`;
	const close = `</${tag}>`;
	if (!text.includes(open)) return text;
	let out = "";
	let at = 0;
	for (;;) {
		const start = text.indexOf(open, at);
		if (start < 0) break;
		out += text.slice(at, start);
		const end = text.indexOf(close, start + open.length);
		if (end < 0) {
			out += keep(text.slice(start + open.length), false);
			return out;
		}
		out += keep(text.slice(start + open.length, end), true);
		at = end + close.length;
	}
	return out + text.slice(at);
}

const TAGS = ["tool_use_error", "tools-used-before-summary", "system-reminder", "usage"];

/** A clipped text that ends inside one of our tags (`…<system-rem…`): the fragment goes, the "…" stays. */
function dropPartialTagAtEnd(text: string): string {
	if (!text.endsWith("…")) return text;
	const lt = text.lastIndexOf("<");
	if (lt < 0 || text.length - lt > 30) return text;
	const fragment = text.slice(lt + 1, -1);
	if (fragment === "" || !TAGS.some((t) => `${t}>`.startsWith(fragment) || `/${t}>`.startsWith(fragment))) return text;
	return `${text.slice(0, lt)}…`;
}

/**
 * A text clipped inside a hint (`… (file state is cur…`): the hint's start and the "…" go, since
 * nothing of the tool's own was cut. At least 12 characters of the hint must be there.
 */
function dropClippedTail(text: string, phrase: string): string {
	if (!text.endsWith("…")) return text;
	const body = text.slice(0, -1);
	const head = phrase.slice(0, 12);
	let at = body.indexOf(head, Math.max(0, body.length - phrase.length));
	while (at >= 0) {
		if (phrase.startsWith(body.slice(at))) return body.slice(0, at);
		at = body.indexOf(head, at + 1);
	}
	return text;
}

/**
 * `agentId: a1b2 (use SendMessage with to: 'a1b2' … to continue this agent)` and its older and
 * background forms: the client's handle for the model, not the tool's output. A bare or clipped
 * `agentId: …` goes only as the last line, where the client puts it (before `<usage>`, gone by now).
 */
function dropAgentIdLines(text: string): string {
	if (!text.includes("agentId: ")) return text;
	const lines = text.split("\n");
	let last = lines.length - 1;
	while (last > 0 && lines[last]!.trim() === "") last--;
	const kept = lines.filter((line, i) => {
		const match = /^agentId: [\w-]{1,64}/.exec(line);
		if (!match) return true;
		const tail = line.slice(match[0].length);
		if (/^ \((?:for resuming|use \w{1,40} with to:|internal ID)/.test(tail)) return false;
		return !(i === last && (tail === "" || tail.endsWith("…")));
	});
	return kept.join("\n");
}
