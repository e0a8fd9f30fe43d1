/** A command line cut into its simple commands, each a list of words; quotes keep a word whole. */
export function shellParts(command: string): string[][] {
	const parts: string[][] = [[]];
	for (const token of command.match(/"(?:\\.|[^"\\])*"?|'[^']*'?|&&|\|\||[;|\n]|[^\s;|&"']+|&/g) ?? []) {
		if (/^(?:&&|\|\||[;|\n&])$/.test(token)) parts.push([]);
		else parts[parts.length - 1]?.push(token.replace(/^(["'])([\s\S]*?)\1?$/, "$2"));
	}
	return parts.filter((p) => p.length > 0);
}

/** `/usr/bin/python3.12` → `python`, `./gradlew` → `gradlew`, `pip3` → `pip`. */
export function programName(word: string): string {
	const base = (word.split("/").pop() ?? "").toLowerCase().replace(/\.exe$/, "");
	if (/^python[\d.]*$/.test(base)) return "python";
	if (/^pip[\d.]*$/.test(base)) return "pip";
	return base;
}
