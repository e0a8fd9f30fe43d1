/**
 * The string with each lone UTF-16 surrogate made U+FFFD, as UTF-8 on disk makes it anyway: a
 * string that becomes a path or a file's text must be the one the file system hands back, or the
 * sync stops finding its own note (a title with a lone surrogate, from a clipped emoji or a
 * hostile transcript). `String.prototype.toWellFormed` where the runtime has it (Node 20, Electron).
 */
export function wellFormed(text: string): string {
	const native = (text as { toWellFormed?: () => string }).toWellFormed;
	return native ? native.call(text) : text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}
