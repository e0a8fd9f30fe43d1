/**
 * Whether a path, or a folder above it, matches a glob: `*` and `?` stay within one path segment,
 * `**` crosses them. Run as a set of pattern positions stepped once per character (Thompson's way),
 * so the time is the path's length times the glob's, whatever the glob: as a backtracking RegExp,
 * a pattern with many `*` against a name with many dashes hung the hooks and the sync.
 */
export function globMatches(glob: string, path: string): boolean {
	const tokens = tokenize(glob);
	const end = tokens.length;
	let states = new Uint8Array(end + 1);
	let next = new Uint8Array(end + 1);
	states[0] = 1;
	close(tokens, states);
	for (let j = 0; ; j++) {
		// The whole glob matched up to here: the path itself, or a folder that holds it.
		if (states[end] && (j === path.length || path[j] === "/")) return true;
		if (j === path.length) return false;
		const ch = path[j]!;
		next.fill(0);
		let alive = false;
		for (let i = 0; i < end; i++) {
			if (!states[i]) continue;
			const token = tokens[i]!;
			if (token === ANY_DEPTH || (token === ANY_SEGMENT && ch !== "/")) next[i] = 1;
			else if ((token === ONE && ch !== "/") || token === ch) next[i + 1] = 1;
			else continue;
			alive = true;
		}
		if (!alive) return false;
		close(tokens, next);
		[states, next] = [next, states];
	}
}

const ANY_DEPTH = "**";
const ANY_SEGMENT = "*";
const ONE = "?";

/** One token a character, a wildcard or a `**`; runs of stars are one (`***` is `**`). */
function tokenize(glob: string): string[] {
	const tokens: string[] = [];
	for (let i = 0; i < glob.length; i++) {
		const ch = glob[i]!;
		if (ch !== "*") {
			tokens.push(ch === "?" ? ONE : ch);
			continue;
		}
		const start = i;
		while (glob[i + 1] === "*") i++;
		const token = i > start ? ANY_DEPTH : ANY_SEGMENT;
		// Two wildcards in a row match what the wider one does.
		const last = tokens.at(-1);
		if (last === ANY_DEPTH) continue;
		if (last === ANY_SEGMENT) tokens[tokens.length - 1] = token;
		else tokens.push(token);
	}
	return tokens;
}

/** Adds the positions a wildcard may skip to (it matches nothing as well). */
function close(tokens: readonly string[], states: Uint8Array): void {
	for (let i = 0; i < tokens.length; i++) if (states[i] && (tokens[i] === ANY_DEPTH || tokens[i] === ANY_SEGMENT)) states[i + 1] = 1;
}
