import { printable } from "./printable";

/**
 * Text for a terminal: `printable`, and a bare CR (not before a line break) shown as `␍`. Notes
 * keep their CRs (CRLF), but on a terminal a bare one sends the cursor back to the line's start,
 * and what follows overwrites what a project's path (a folder name may hold one) printed before it.
 * The symbol rather than `\r`: a Windows path (`C:\repo`) holds that pair already.
 */
export function terminalText(text: string): string {
	return printable(text).replace(/\r(?!\n)/g, "\u240d");
}
