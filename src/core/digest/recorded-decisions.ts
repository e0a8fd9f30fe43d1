import { cutAtBoundary } from "./clause-cut";
import type { ToolCall } from "../transcript/session-model";
import type { Commit, PullRequest } from "./work-signals";

/**
 * What a session wrote down of its own choices, where they are told with their reasons: the
 * bodies of its commit messages and pull requests (their subjects are told as done), and the
 * decision records (ADRs) it wrote, each a choice named by its title.
 */

/**
 * The bodies of the session's commit messages, as their sentences run; its pull requests'
 * descriptions only when no commit said more than its subject, since they most often retell the
 * commits.
 */
export function recordBodies(commits: readonly Commit[], prs: readonly PullRequest[]): string[] {
	// A message committed again (an amend, a retry after a hook) is read once.
	const bodies = new Set(commits.flatMap((c) => (c.body === undefined ? [] : [c.body])));
	const read = bodies.size > 0 ? bodies : new Set(prs.flatMap((p) => (p.body === undefined ? [] : [p.body])));
	return [...read].map(unwrapped);
}

/**
 * A message as its sentences run: a commit message is wrapped at 72 columns, and a list item's
 * indented second line ("- Fall back to the stored values\n  instead of zeroing the run") is still that item.
 */
function unwrapped(message: string): string {
	return message.replace(/\n[ \t]+(?![-*•+]\s|\d+[.)]\s)(?=\S)/g, " ");
}

/** The titles of the decision records the session wrote, from writes that succeeded. */
export function decisionRecords(calls: readonly ToolCall[]): string[] {
	const titles: string[] = [];
	for (const call of calls) {
		if (call.name !== "Write" || !call.result || call.result.isError || typeof call.input.content !== "string" || !DECISION_RECORD.test(pathOf(call))) continue;
		const title = recordTitle(call.input.content);
		if (title) titles.push(title);
	}
	return titles;
}

/** The file a write names: `file_path` as most agents' folds give it, `filePath` as opencode's. */
function pathOf(call: ToolCall): string {
	const path = call.input.file_path ?? call.input.filePath;
	return typeof path === "string" ? path : "";
}

/**
 * A decision record's file: numbered, in a folder of them (`docs/adr/0022-fundy-moves-out.md`,
 * `decisions/003-use-sqlite.md`), or named as one anywhere (`ADR-7-queue.md`).
 */
const DECISION_RECORD = /(?:^|[\\/])(?:(?:adrs?|decisions|decision[-_]records|architecture[-_]decisions)[\\/](?:adr[-_ ]?)?\d{1,4}[-_ .][^\\/]*|adr[-_ ]?\d{1,4}[-_ .][^\\/]*)\.mdx?$/i;

/** A record's title: its first heading, without its number ("# ADR-022: Move Fundy out" reads "Move Fundy out"). */
function recordTitle(content: string): string | undefined {
	const heading = /^#{1,2}[ \t]+(.+)$/m.exec(content.slice(0, 2_000))?.[1];
	const title = heading?.replace(/^(?:adr[-_ ]?)?\d{1,4}\s*[:.)—–-]\s*/i, "").replace(/[*_`]/g, "").trim();
	return title ? cutAtBoundary(title, 160) : undefined;
}
