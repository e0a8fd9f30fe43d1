/** A word of a shell command, quotes taken off; not `plain` when the shell would expand it (`$HOME`, `*.md`, `~/x`) or redirect (`2>/dev/null`). */
export interface ShellWord {
	text: string;
	plain: boolean;
}

/** Characters that make an unquoted word something the shell expands or redirects: its text is not the path. */
const SPECIAL = "$`*?[]{}~<>()!";

/**
 * The simple commands of a shell line, each as its words: split at `&&`, `||`, `;`, `|` and line
 * breaks outside quotes, comments left out. One pass over the line, whatever its length (it is
 * untrusted text). What follows a here-document (`<<`) is its text, not commands: the line ends
 * there; a command whose quote never closes is left out.
 */
export function commandsOf(line: string): ShellWord[][] {
	const commands: ShellWord[][] = [];
	let words: ShellWord[] = [];
	let text = "";
	let plain = true;
	let inWord = false;
	let quote: string | undefined;
	const endWord = () => {
		if (inWord) words.push({ text, plain });
		text = "";
		plain = true;
		inWord = false;
	};
	const endCommand = () => {
		endWord();
		if (words.length > 0) commands.push(words);
		words = [];
	};
	for (let i = 0; i < line.length; i++) {
		const c = line[i] ?? "";
		if (quote !== undefined) {
			if (c === quote) quote = undefined;
			else {
				if (quote === '"' && (c === "$" || c === "`")) plain = false;
				text += c;
			}
		} else if (c === "'" || c === '"') {
			quote = c;
			inWord = true;
		} else if (c === "\\") {
			// An escaped line break continues the command; any other escaped character is itself.
			const next = line[++i] ?? "";
			if (next !== "\n") {
				text += next;
				inWord = true;
			}
		} else if (c === " " || c === "\t") endWord();
		else if (c === "\n" || c === ";" || c === "&" || c === "|") endCommand();
		else if (c === "#" && !inWord) while (i + 1 < line.length && line[i + 1] !== "\n") i++;
		else if (c === "<" && line[i + 1] === "<") {
			endCommand();
			return commands;
		} else {
			if (SPECIAL.includes(c)) plain = false;
			text += c;
			inWord = true;
		}
	}
	if (quote === undefined) endCommand();
	return commands;
}

/** A command line cut into its simple commands, each a list of words, quotes taken off (see `commandsOf`). */
export function shellParts(command: string): string[][] {
	return commandsOf(command).map((words) => words.map((w) => w.text));
}

/** `/usr/bin/python3.12` → `python`, `./gradlew` → `gradlew`, `pip3` → `pip`. */
export function programName(word: string): string {
	const base = (word.split("/").pop() ?? "").toLowerCase().replace(/\.exe$/, "");
	if (/^python[\d.]*$/.test(base)) return "python";
	if (/^pip[\d.]*$/.test(base)) return "pip";
	return base;
}
