import { boundedMemo } from "./bounded-memo";

/** A word of a shell command, quotes taken off; not `plain` when the shell would expand it (`$HOME`, `*.md`, `~/x`) or redirect (`2>/dev/null`). */
export interface ShellWord {
	text: string;
	plain: boolean;
}

/**
 * How many lines `commandsOf` and `shellParts` keep (read only by every caller): a digest asks for
 * the commands of each Bash call from several of its parts (removed files, pushes, amends,
 * signals, uncommitted work), and each asked again cost a parse of the line (measured on the
 * bench tree's first sync: 46–79 ms a thread, 4–40 so). A long line (a heredoc, a pasted script)
 * is cut anew: kept, a few thousand of them would stay in a plugin's memory after its sync.
 */
const KEPT_MAX = 4096;
const KEPT_LINE_MAX = 1024;

/** Characters that make an unquoted word something the shell expands or redirects: its text is not the path. */
const SPECIAL = "$`*?[]{}~<>()!";

/** Per ASCII code: 1 for a character `commandsOf` reads on its own (quotes, `\\`, blanks, separators, `#`, `<`), 2 for a plain one of `SPECIAL`. */
const CHAR_KIND = new Uint8Array(128);
for (const c of "'\"\\ \t&\n;|#<") CHAR_KIND[c.charCodeAt(0)] = 1;
for (const c of SPECIAL) CHAR_KIND[c.charCodeAt(0)] ||= 2;

/**
 * The simple commands of a shell line, each as its words: split at `&&`, `||`, `;`, `|` and line
 * breaks outside quotes, comments left out. One pass over the line, whatever its length (it is
 * untrusted text). What follows a here-document (`<<`) is its text, not commands: the line ends
 * there; a command whose quote never closes is left out. A quoted part and a run of ordinary
 * characters are taken whole, not a character at a time (measured on every Bash command of the
 * bench tree, which a digest reads several times over: 17.5 ms a character at a time, 4.6 ms so).
 */
export const commandsOf: (line: string) => readonly (readonly ShellWord[])[] = boundedMemo(parseCommands, KEPT_MAX, KEPT_LINE_MAX);

function parseCommands(line: string): ShellWord[][] {
	const commands: ShellWord[][] = [];
	let words: ShellWord[] = [];
	let text = "";
	let plain = true;
	let inWord = false;
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
		const code = line.charCodeAt(i);
		if (code >= 128 || CHAR_KIND[code] !== 1) {
			// A run of characters that are each only part of the word.
			let end = i;
			for (; end < line.length; end++) {
				const k = line.charCodeAt(end);
				if (k >= 128) continue;
				const kind = CHAR_KIND[k];
				if (kind === 1) break;
				if (kind === 2) plain = false;
			}
			text += line.slice(i, end);
			inWord = true;
			i = end - 1;
			continue;
		}
		const c = line[i]!;
		if (c === "'" || c === '"') {
			// No escape inside a quote here: it ends at the next such quote. One that never closes leaves its command out.
			const close = line.indexOf(c, i + 1);
			if (close < 0) return commands;
			const part = line.slice(i + 1, close);
			if (c === '"' && (part.includes("$") || part.includes("`"))) plain = false;
			text += part;
			inWord = true;
			i = close;
		} else if (c === "\\") {
			// An escaped line break continues the command; any other escaped character is itself.
			const next = line[++i] ?? "";
			if (next !== "\n") {
				text += next;
				inWord = true;
			}
		} else if (c === " " || c === "\t") endWord();
		else if (c === "&" && ((inWord && (line[i - 1] === ">" || line[i - 1] === "<")) || line[i + 1] === ">")) {
			// Part of a redirection (`2>&1`, `>&2`, `&>log`), not the end of a command.
			text += c;
			plain = false;
			inWord = true;
		} else if (c === "\n" || c === ";" || c === "&" || c === "|") endCommand();
		else if (c === "#" && !inWord) while (i + 1 < line.length && line[i + 1] !== "\n") i++;
		else if (c === "<" && line[i + 1] === "<") {
			endCommand();
			return commands;
		} else {
			// `#` inside a word, `<` alone: part of the word.
			if (SPECIAL.includes(c)) plain = false;
			text += c;
			inWord = true;
		}
	}
	endCommand();
	return commands;
}

/** A redirection's word (`2>/dev/null`, `>`, `2>&1`, `&>log`): no argument of the command. */
const REDIRECT = /^(?:\d+|&)?[<>]/;

/** The arguments among a command's words: its redirections left out, with the target of one that ends on its operator (`> out.txt`). */
export function withoutRedirects(words: readonly ShellWord[]): ShellWord[] {
	const out: ShellWord[] = [];
	for (let i = 0; i < words.length; i++) {
		const w = words[i];
		if (w === undefined) continue;
		if (w.plain || !REDIRECT.test(w.text)) out.push(w);
		else if ("<>&".includes(w.text.at(-1) ?? "")) i++;
	}
	return out;
}

/** A command line cut into its simple commands, each a list of words, quotes taken off (see `commandsOf`). */
export const shellParts: (command: string) => readonly (readonly string[])[] = boundedMemo((command) => commandsOf(command).map((words) => words.map((w) => w.text)), KEPT_MAX, KEPT_LINE_MAX);

/** `/usr/bin/python3.12` → `python`, `./gradlew` → `gradlew`, `pip3` → `pip`. */
export function programName(word: string): string {
	// By index, not by a split and patterns: a digest asks this of every command's program, several times over.
	const name = word.slice(word.lastIndexOf("/") + 1).toLowerCase();
	const base = name.endsWith(".exe") ? name.slice(0, -4) : name;
	if (base.startsWith("python") && /^python[\d.]*$/.test(base)) return "python";
	if (base.startsWith("pip") && /^pip[\d.]*$/.test(base)) return "pip";
	return base;
}

/** Programs that run the command given after them (`sudo`, `env`, `timeout 30`): the program that does the work is later. */
const WRAPPERS = new Set(["sudo", "time", "env", "exec", "nohup", "command", "timeout", "xargs"]);

/**
 * Where the program of a simple command's words stands: after the wrappers that run it (`sudo`, `env`, `timeout 30`),
 * their options and durations, and the variables set for it (`CI=1 npm test`, `env NO_COLOR=1 git push`).
 * The words' length when there is none.
 */
export function programAt(words: readonly string[]): number {
	let i = 0;
	for (; i < words.length; i++) {
		const w = words[i] ?? "";
		if (!(WRAPPERS.has(w) || /^[A-Za-z_]\w*=/.test(w) || w.startsWith("-") || /^\d+[smh]?$/.test(w))) break;
	}
	return i;
}

/** Options of `git` itself that take the next word as their value (`git -C app`, `git -c user.name=x`). */
export const GIT_VALUE_OPTIONS: ReadonlySet<string> = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace"]);

/** A git command read from its words: its subcommand's place, and the folders its `-C` options name, in order. */
export interface GitCommand {
	sub: number;
	folders: string[];
}

/**
 * The git command a simple command's words run (`git push`, `sudo git -C app rm x`, `GIT_TRACE=1 git commit`):
 * where its subcommand stands after git's own options, or undefined when its program is no git.
 */
export function gitCommand(words: readonly string[]): GitCommand | undefined {
	const git = programAt(words);
	if (programName(words[git] ?? "") !== "git") return undefined;
	const folders: string[] = [];
	let i = git + 1;
	for (; i < words.length && (words[i] ?? "").startsWith("-"); i++) {
		const option = words[i] ?? "";
		if (!GIT_VALUE_OPTIONS.has(option)) continue;
		if (option === "-C") folders.push(words[i + 1] ?? "");
		i++;
	}
	return { sub: i, folders };
}
