/**
 * The text without control characters but tab and line breaks: C0 (ESC, BEL, backspace…), DEL
 * and C1. A prompt can hold terminal escapes (`ESC ]0;…BEL` retitles the terminal, `ESC [2J`
 * clears it); none of them means anything in CLAUDE.md or on our output, and shown with `cat`
 * or by `ai-memory doctor` they would act on the user's terminal.
 */
export function printable(text: string): string {
	let out = "";
	let from = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f)) {
			out += text.slice(from, i);
			from = i + 1;
		}
	}
	return from === 0 ? text : out + text.slice(from);
}
