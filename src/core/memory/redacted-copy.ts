import { REDACTION_MARKER } from "../text/redaction-marker";

/**
 * Facts pass between Claude Code's memory folder and the vault redacted: a secret in one never
 * reaches the other, the state, the hook context or recall. What goes back to a side gets that
 * side's own secrets back, line by line, so a redacted copy never overwrites one (`restoreSecrets`).
 */

/**
 * `text` (a redacted text) with each line that holds a marker replaced by the line of `sources`
 * that redacts to it: the secrets those files held stay in them when a merged text is written
 * back. Only when the result redacts to `text` again (rules that span lines, a PEM key, make it
 * differ); otherwise `text` as it is, so a merge never flips between the two on later syncs.
 */
export function restoreSecrets(text: string, sources: readonly (string | null)[], redact: (text: string) => string): string {
	if (!text.includes(REDACTION_MARKER)) return text;
	const raw = new Map<string, string>();
	for (const source of sources) {
		if (source === null) continue;
		for (const line of source.split("\n")) {
			const redacted = redact(line);
			if (redacted !== line && !raw.has(redacted)) raw.set(redacted, line);
		}
	}
	if (raw.size === 0) return text;
	const restored = text
		.split("\n")
		.map((line) => (line.includes(REDACTION_MARKER) ? (raw.get(line) ?? line) : line))
		.join("\n");
	return redact(restored) === text ? restored : text;
}
