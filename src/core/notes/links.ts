import { inertCode } from "./inert-markdown";

/** `[[path|title]]` for a vault path; the alias is cleaned of what would end the link early. */
export function wikiLink(path: string, title: string): string {
	const target = path.replace(/\.md$/, "");
	// Templater would run a `<%` in a new note (see inert-markdown.ts).
	// A `%%` would open an Obsidian comment: a zero-width space keeps the two apart, as it reads.
	const alias = inertCode(title.replace(/[[\]|#^]/g, " ").replace(/\s+/g, " ").trim().replace(/%(?=%)/g, "%\u200b"));
	return alias && alias !== target ? `[[${target}|${alias}]]` : `[[${target}]]`;
}
