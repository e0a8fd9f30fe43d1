import { type ParseError, parse } from "jsonc-parser";
import { nestingDepth } from "../hooks/json-edit";

/** Deeper than this, the place is not looked for (jsonc-parser recurses once per level). */
const MAX_DEPTH = 1000;

/**
 * Why `text` is not JSON, for a message, without quoting the text: V8's `JSON.parse` error quotes
 * the characters around the fault (`Unexpected token ']', ..."Word8Hz", ]}" is not valid JSON`),
 * and in data.json those are the person's redaction patterns, the secret words themselves; it
 * reached the terminal, the hooks' log, MCP answers and the plugin's notice. The place is given as
 * a line and column instead.
 */
export function jsonFault(text: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	// Not JSON.parse's (a key given twice, refused after it parsed): ours, quoting no value.
	if (!(error instanceof SyntaxError)) return message;
	// `…, "text" is not valid JSON` or `…, ..."text"... is not valid JSON`: the part before the quote.
	const quoted = /^(.*?), (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s.exec(message);
	const bare = quoted?.[1] !== undefined ? quoted[1] : message.replace(/\s*at position \d+(?: \(line \d+ column \d+\))?$/, "");
	// A form of message not known here that still quotes: none of it.
	const what = /"|is not valid JSON/.test(bare) ? "Unexpected text" : bare;
	const at = place(text);
	return at === undefined ? what : `${what} at line ${at.line}, column ${at.column}`;
}

function place(text: string): { line: number; column: number } | undefined {
	if (nestingDepth(text) > MAX_DEPTH) return undefined;
	const errors: ParseError[] = [];
	parse(text, errors, { allowTrailingComma: false, disallowComments: true });
	const first = errors[0];
	if (first === undefined) return undefined;
	const before = text.slice(0, first.offset);
	return { line: before.split("\n").length, column: first.offset - before.lastIndexOf("\n") };
}
