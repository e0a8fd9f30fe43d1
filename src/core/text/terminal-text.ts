import { printable } from "./printable";
import { wellFormed } from "./well-formed";

/**
 * Text for a terminal: `printable`, well-formed, and a bare CR (not before a line break) shown as
 * `␍`. A lone surrogate (a clipped emoji, a `\ud800` in a transcript's JSON) left as it is went out
 * of the MCP server as the escape `\ud800`, which a strict JSON reader refuses as a string (Rust's
 * serde_json): the whole answer was lost to such a client, not one character. Notes
 * keep their CRs (CRLF), but on a terminal a bare one sends the cursor back to the line's start,
 * and what follows overwrites what a project's path (a folder name may hold one) printed before it.
 * The symbol rather than `\r`: a Windows path (`C:\repo`) holds that pair already.
 */
export function terminalText(text: string): string {
	return wellFormed(printable(text)).replace(/\r(?!\n)/g, "\u240d");
}

/**
 * One line for a terminal: `terminalText`, and a line break in it shown as `␤`. A notice or error
 * names files, and a file's name may hold a line break: printed raw, the rest of the name began a
 * line of its own, which could read as one of ours (`Synced…`, `ai-memory: …`).
 */
export function terminalLine(text: string): string {
	return terminalText(text).replace(/\r?\n/g, "\u2424");
}

/**
 * Each line as a terminal ends up showing it: a bare CR (a progress bar redrawn, git's "Updating
 * files: 83%… 84%…") sends the cursor back to the line's start, and the last text written there
 * is what stays. In a note, every redraw was a line of its own (hundreds for one checkout). A
 * CRLF's CR is kept.
 */
export function redrawnLines(text: string): string {
	if (!/\r(?!\n)/.test(text)) return text;
	const lines = text.split("\n");
	return lines
		.map((line, i) => {
			// A CR at a line's end before its LF is the line break's; at the text's end, a redraw.
			const crlf = line.endsWith("\r") && i < lines.length - 1;
			const body = crlf ? line.slice(0, -1) : line;
			if (!body.includes("\r")) return line;
			let shown = "";
			for (const part of body.split("\r")) if (part !== "") shown = part;
			return crlf ? `${shown}\r` : shown;
		})
		.join("\n");
}
