import { inertCode, inertSpanText } from "./inert-markdown";
import { codeSpan } from "../text/code-spans";
import { sessionDay } from "../text/local-date";
import { renderFrontmatter } from "./frontmatter";
import { codeUnitOrder } from "../text/code-unit-order";
import { wikiLink } from "./links";
import type { SessionDigest } from "../digest/session-digest";

/** What the index shows of a session (a session record of the sync state has it). */
export interface IndexedSession {
	notePath: string;
	deleted?: boolean;
	digest: Pick<SessionDigest, "startedAt" | "title" | "prompts">;
	tags: readonly string[];
}

/** `<notes folder>/<project>/<project>.md`: one index per project, a folder note. */
export function projectIndexPath(notesFolder: string, project: string): string {
	return `${notesFolder}/${project}/${project}.md`;
}

/**
 * The project's sessions, newest first, with their goal and topics. The topics are plain words,
 * not `#tags`: an inline tag would file the index under every topic of every session, so that it
 * shows up beside the sessions in each tag's search. The sessions' own notes carry the tags.
 */
export function renderProjectIndex(project: string, projectPath: string | undefined, records: readonly IndexedSession[], tagPrefix: string, ownTags: readonly string[] = []): { frontmatter: string; body: string } {
	const sessions = [...records].filter((r) => !r.deleted).sort((a, b) => codeUnitOrder(b.digest.startedAt ?? "", a.digest.startedAt ?? "") || codeUnitOrder(a.notePath, b.notePath));
	const frontmatter = renderFrontmatter([
		["type", "ai-project-index"],
		["project", project],
		["project_path", projectPath],
		["sessions", sessions.length],
		// And the tags a person added, outside our prefix.
		["tags", [`${tagPrefix}project-index`, ...ownTags]],
	]);
	// The folder as a transcript's `cwd` gave it: one span on one line (a line break in it ended the span and put the rest, a ```dataviewjs fence among it, into the note live).
	const lines = [`# ${project}`, "", `Sessions in ${codeSpan(inertSpanText(projectPath ?? project))}, newest first.`, ""];
	let day = "";
	for (const r of sessions) {
		const date = sessionDay(r.digest.startedAt);
		if (date !== day) {
			lines.push(`## ${date}`, "");
			day = date;
		}
		const topics = topicNames(r.tags, tagPrefix);
		lines.push(`- ${wikiLink(r.notePath, r.digest.title)}${r.digest.prompts ? ` · ${r.digest.prompts} prompt${r.digest.prompts === 1 ? "" : "s"}` : ""}${topics.length > 0 ? ` · ${topics.join(", ")}` : ""}`);
	}
	// Titles and the project's folder as the disk names it: Templater's `<%` broken (see inert-markdown.ts).
	return { frontmatter: inertCode(frontmatter), body: inertCode(`${lines.join("\n")}\n`) };
}

/** A session's topic tags as plain names: the prefix and the project tag left out (`ai/token-usage` → token-usage). */
function topicNames(tags: readonly string[], tagPrefix: string): string[] {
	return tags.filter((t) => !t.startsWith(`${tagPrefix}project/`)).map((t) => (tagPrefix !== "" && t.startsWith(tagPrefix) ? t.slice(tagPrefix.length) : t).replace(/^#+/, ""));
}
