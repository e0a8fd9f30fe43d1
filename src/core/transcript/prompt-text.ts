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

/** Context the client injects into the user's message: reminders and what the IDE had open (its opening tag). */
const INJECTED = /<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>/g;

/**
 * The text without what `/<(system-reminder|…)>[\s\S]*?<\/\1>/g` matches: each opening tag to the
 * first closing one of its name. Each name's next closing tag is looked for once for all the
 * openings before it: that regex ran from each opening tag to the text's end, and a prompt of
 * 1 MB of `<ide_selection>` (read before it is clipped) held the sync a minute.
 */
export function withoutInjected(raw: string): string {
	const closes = new Map<string, number>();
	let out = "";
	let kept = 0;
	INJECTED.lastIndex = 0;
	for (let open = INJECTED.exec(raw); open !== null; open = INJECTED.exec(raw)) {
		const name = open[1]!;
		const from = open.index + open[0].length;
		let close = closes.get(name);
		if (close === undefined || (close >= 0 && close < from)) closes.set(name, (close = raw.indexOf(`</${name}>`, from)));
		if (close < 0) {
			INJECTED.lastIndex = open.index + 1;
			continue;
		}
		out += raw.slice(kept, open.index);
		kept = INJECTED.lastIndex = close + name.length + 3;
	}
	return out + raw.slice(kept);
}
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
	const text = (raw.includes("</") ? withoutInjected(raw) : raw).trim();
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
