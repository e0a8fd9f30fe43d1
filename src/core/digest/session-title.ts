import type { SessionModel } from "../transcript/session-model";

const TITLE_MAX = 60;

/**
 * The session's title: the user's `/rename`, else the client's generated title, else the newest
 * `summary` line naming this session, else the first typed prompt, shortened at a word.
 * `summaryFor` resolves summary lines written into other files of the project.
 */
export function sessionTitle(model: SessionModel, summaryFor?: string): string {
	const chosen = model.customTitle ?? model.aiTitle ?? summaryFor;
	if (chosen) return shorten(chosen);
	// A typed prompt, or a command with arguments (`/orchestrator build a TODO app`), says what the
	// session is about; `/clear` or `!ls` at the start does not.
	let fallback: string | undefined;
	for (const event of model.events) {
		if (event.kind !== "prompt" || event.text.trim() === "") continue;
		if (event.promptKind === "prompt" || (event.promptKind === "command" && event.text.includes(" "))) return shorten(firstLine(event.text));
		fallback ??= event.text;
	}
	return fallback ? shorten(fallback) : "Untitled session";
}

function firstLine(text: string): string {
	const line = text.split("\n").find((l) => l.trim() !== "") ?? text;
	return line.replace(/^[#>*\-\s]+/, "");
}

/** At most TITLE_MAX characters, cut at a word boundary when one is near; Korean/CJK cut anywhere. */
export function shorten(text: string, max = TITLE_MAX): string {
	const clean = text.replace(/\s+/g, " ").trim();
	if (clean.length <= max) return clean;
	const cut = clean.slice(0, max);
	const space = cut.lastIndexOf(" ");
	return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}
