/** What a user line's text is, once wrappers and injected text are told apart from typed prompts. */
export type UserText =
	| { kind: "prompt"; text: string }
	/** A slash command, shown as typed: `/init`, `/model opus`. */
	| { kind: "command"; text: string }
	/** `!` shell mode: the command the user ran themself. */
	| { kind: "shell"; text: string }
	| { kind: "interruption" }
	/** Injected or bookkeeping text: command output, caveats, notifications, reminders only. */
	| { kind: "meta" };

/** Context the client injects into the user's message: reminders and what the IDE had open. */
const INJECTED = /<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>[\s\S]*?<\/\1>/g;
const META_PREFIXES = [
	"<local-command-",
	"Caveat:",
	"<task-notification>",
	"<bash-stdout",
	"<bash-stderr",
	"<user-prompt-submit-hook>",
	"<command-stdout",
];

export function classifyUserText(raw: string): UserText {
	const text = (raw.includes("</") ? raw.replace(INJECTED, "") : raw).trim();
	if (text === "") return { kind: "meta" };
	if (text.startsWith("[Request interrupted")) return { kind: "interruption" };
	if (text.startsWith("<command-name>") || text.startsWith("<command-message>")) {
		return slashCommand(text);
	}
	if (text.startsWith("<bash-input>")) {
		return { kind: "shell", text: `!${tagText(text, "bash-input") ?? ""}`.trim() };
	}
	for (const prefix of META_PREFIXES) if (text.startsWith(prefix)) return { kind: "meta" };
	return { kind: "prompt", text };
}

function slashCommand(text: string): UserText {
	const name = tagText(text, "command-name");
	if (name === undefined) return { kind: "meta" };
	const args = tagText(text, "command-args") ?? "";
	// 1.0.24 wrote the name without its slash.
	const command = name.startsWith("/") ? name : `/${name}`;
	return { kind: "command", text: args ? `${command} ${args}` : command };
}

function tagText(text: string, tag: string): string | undefined {
	const open = `<${tag}>`;
	const start = text.indexOf(open);
	if (start < 0) return undefined;
	const end = text.indexOf(`</${tag}>`, start + open.length);
	return (end < 0 ? text.slice(start + open.length) : text.slice(start + open.length, end)).trim();
}
