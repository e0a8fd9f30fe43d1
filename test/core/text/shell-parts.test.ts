import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandsOf, gitCommand, programAt, programName, shellParts, withoutRedirects } from "../../../src/core/text/shell-parts";

describe("commandsOf", () => {
	it("keeps a redirection that joins or sends output by number in its command", () => {
		expect(shellParts("make check 2>&1 | tail -n 5")).toEqual([["make", "check", "2>&1"], ["tail", "-n", "5"]]);
		expect(shellParts("./build.sh >&2 && echo ok")).toEqual([["./build.sh", ">&2"], ["echo", "ok"]]);
		expect(shellParts("./serve &>server.log & sleep 1")).toEqual([["./serve", "&>server.log"], ["sleep", "1"]]);
		expect(commandsOf("go vet 2>&1")[0]?.[2]).toEqual({ text: "2>&1", plain: false });
	});

	it("cuts a line asked for again only once, and still cuts it right once many others came between", () => {
		const line = "cd /srv/app && rm -rf build | tee out.log";
		const first = commandsOf(line);
		expect(commandsOf(line)).toBe(first);
		for (let i = 0; i < 10_000; i++) commandsOf(`echo ${i}`);
		expect(commandsOf(line)).toEqual(first);
		expect(shellParts(line)).toEqual([["cd", "/srv/app"], ["rm", "-rf", "build"], ["tee", "out.log"]]);
		expect(shellParts(line)).toBe(shellParts(line));
	});

	it("keeps no long line (a heredoc), and cuts it right each time", () => {
		const line = `cat > notes.txt <<'EOF'\n${"a line of the heredoc\n".repeat(100)}EOF\ngit add notes.txt`;
		const first = commandsOf(line);
		expect(commandsOf(line)).not.toBe(first);
		expect(commandsOf(line)).toEqual(first);
		expect(shellParts(line)).not.toBe(shellParts(line));
		expect(shellParts(line)).toEqual(first.map((words) => words.map((w) => w.text)));
	});

	it("reads a line of thousands of redirections in one pass", () => {
		const started = performance.now();
		expect(commandsOf(`x${">&".repeat(100_000)}`)).toHaveLength(1);
		expect(performance.now() - started).toBeLessThan(2500);
	});

	it("reads words as the shell rules say, character by character, for any line of quotes, escapes, separators and plain text", () => {
		const piece = fc.constantFrom("'", '"', "\\", " ", "\t", "\n", ";", "|", "&", ">", "<", "#", "$", "`", "*", "~", "(", "a", "b-c", "/x.md", "é", "日本", "\u{1f600}", "=");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 30 }).map((p) => p.join("")), (line) => {
				expect(commandsOf(line)).toEqual(byCharacter(line));
			}),
			{ numRuns: 20_000 },
		);
	});

	it("takes a quoted part and a plain run whole, keeping what makes a word not plain", () => {
		expect(commandsOf(`git commit -m "fix: the \`x\` path" && echo 'a $b' ~/y #note`)).toEqual([
			[
				{ text: "git", plain: true },
				{ text: "commit", plain: true },
				{ text: "-m", plain: true },
				{ text: "fix: the `x` path", plain: false },
			],
			[
				{ text: "echo", plain: true },
				{ text: "a $b", plain: true },
				{ text: "~/y", plain: false },
			],
		]);
		expect(commandsOf(`ok; echo "never closed`)).toEqual([[{ text: "ok", plain: true }]]);
		expect(commandsOf("a#b c\\\nd <x << EOF\nrm -rf /")).toEqual([[{ text: "a#b", plain: true }, { text: "cd", plain: true }, { text: "<x", plain: false }]]);
	});
});

/** The reading `commandsOf` makes, written one character at a time (the way it was before it took runs whole). */
function byCharacter(line: string): { text: string; plain: boolean }[][] {
	const commands: { text: string; plain: boolean }[][] = [];
	let words: { text: string; plain: boolean }[] = [];
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
			const next = line[++i] ?? "";
			if (next !== "\n") {
				text += next;
				inWord = true;
			}
		} else if (c === " " || c === "\t") endWord();
		else if (c === "&" && ((inWord && (line[i - 1] === ">" || line[i - 1] === "<")) || line[i + 1] === ">")) {
			text += c;
			plain = false;
			inWord = true;
		} else if (c === "\n" || c === ";" || c === "&" || c === "|") endCommand();
		else if (c === "#" && !inWord) while (i + 1 < line.length && line[i + 1] !== "\n") i++;
		else if (c === "<" && line[i + 1] === "<") {
			endCommand();
			return commands;
		} else {
			if ("$`*?[]{}~<>()!".includes(c)) plain = false;
			text += c;
			inWord = true;
		}
	}
	if (quote === undefined) endCommand();
	return commands;
}

describe("programName", () => {
	it("names the program as its last path part, lower-cased, .exe off, python and pip without their versions", () => {
		expect(["/usr/bin/python3.12", "./gradlew", "pip3", "C:/Tools/GIT.EXE", "bin/", "Python3.exe", "pipx", "python3-config"].map(programName)).toEqual(["python", "gradlew", "pip", "git", "", "python", "pipx", "python3-config"]);
	});

	it("reads any word as a split at its slashes and patterns would", () => {
		const byPatterns = (word: string) => {
			const base = (word.split("/").pop() ?? "").toLowerCase().replace(/\.exe$/, "");
			return /^python[\d.]*$/.test(base) ? "python" : /^pip[\d.]*$/.test(base) ? "pip" : base;
		};
		const piece = fc.constantFrom("/", ".exe", ".EXE", "python", "PYTHON", "pip", "3", ".", "-", "x", "\u0130", "\n", "");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 8 }).map((p) => p.join("")), (word) => {
				expect(programName(word)).toBe(byPatterns(word));
			}),
			{ numRuns: 5000 },
		);
	});
});

describe("withoutRedirects", () => {
	it("leaves out redirections and the target of one that ends on its operator", () => {
		const [words = []] = commandsOf("sort names.txt > sorted.txt 2>/dev/null &>>all.log uniq.txt");
		expect(withoutRedirects(words).map((w) => w.text)).toEqual(["sort", "names.txt", "uniq.txt"]);
	});
});

describe("programAt", () => {
	it("finds the program after the wrappers that run it and the variables set for it", () => {
		const at = (line: string) => {
			const [words = []] = shellParts(line);
			return words[programAt(words)];
		};
		expect(at("sudo -E timeout 30 make install")).toBe("make");
		expect(at('env NODE_ENV=test DEBUG="a b" npx vitest')).toBe("npx");
		expect(at("CI=1 cargo test")).toBe("cargo");
		expect(at("ls")).toBe("ls");
		expect(at("FOO=1")).toBeUndefined();
	});
});

describe("gitCommand", () => {
	it("finds the subcommand after git's own options, and the folders -C names", () => {
		const words = ["sudo", "git", "-C", "web", "-c", "core.pager=cat", "--no-pager", "-C", "app", "push", "origin"];
		expect(gitCommand(words)).toEqual({ sub: 9, folders: ["web", "app"] });
		expect(gitCommand(["/usr/bin/git", "status"])).toEqual({ sub: 1, folders: [] });
		expect(gitCommand(["echo", "git", "push"])).toBeUndefined();
	});
});
