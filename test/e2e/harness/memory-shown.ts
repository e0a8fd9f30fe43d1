/**
 * A MEMORY.md as the model saw it in a request's text: what follows Claude Code's "Contents of
 * <dir>/MEMORY.md (user's auto-memory, …):" head, up to the end of its system reminder. 2.1.337
 * puts a paragraph of its own first and quotes each line of the file with "> " (2.1.332 gave the
 * lines as they are): given back as the file's lines, so a test states what the file gave the model,
 * not how the client wraps it. Undefined when no such head is in the text.
 */
export function memoryShown(seen: string, dir: string): string | undefined {
	const head = `Contents of ${dir}/MEMORY.md (user's auto-memory, persists across conversations):\n\n`;
	const from = seen.indexOf(head);
	if (from < 0) return undefined;
	const end = seen.indexOf("\n</system-reminder>", from);
	let shown = seen.slice(from + head.length, end < 0 ? undefined : end);
	// The client's paragraph before the quoted lines ("The quoted notes below were saved …").
	const quoted = shown.indexOf("\n\n> ");
	if (quoted >= 0 && !shown.startsWith("> ") && !shown.slice(0, quoted).includes("\n\n")) shown = shown.slice(quoted + 2);
	const lines = shown.split("\n");
	return lines.every((line) => line.startsWith("> ") || line === ">") ? lines.map((line) => line.slice(2)).join("\n") : shown;
}
