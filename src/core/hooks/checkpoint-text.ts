import { cutAtBoundary } from "../digest/clause-cut";
import { statementsOf } from "../digest/prose";
import { requestOf } from "../digest/request-text";

/**
 * A checkpoint's text: what was asked last and what the last reply established, one line each,
 * short (the facade shows about a hundred characters of it). The reply's narration ("Let me…",
 * "Perfect!") is left out; a reply with nothing but narration gives no line.
 */
export function checkpointText(prompt: string | undefined, reply: string | undefined): string {
	const lines: string[] = [];
	const asked = prompt === undefined ? undefined : requestOf(prompt, 60);
	if (asked) lines.push(`Asked: ${asked}`);
	const said = reply === undefined ? undefined : statementsOf(reply)[0]?.text;
	if (said) lines.push(`Reply: ${cutAtBoundary(said, 160)}`);
	return lines.join("\n");
}
