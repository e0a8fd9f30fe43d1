import { hash53 } from "../transcript/hash";

/**
 * How the state names a Claude Code memory file it pairs with a vault copy. Claude Code names its
 * files after their text (`reference_<what it refers to>.md`), and a token may be in that name:
 * the state then keeps a hash of it, never the name. A name redaction leaves alone is kept as it
 * is (a state a person can read, and every state written before this change).
 */
export function storedFactName(name: string, redact: (text: string) => string): string {
	return redact(name) === name ? name : hashedName(name);
}

/** Never a file's own name: a fact file ends in `.md`. */
function hashedName(name: string): string {
	return `#${hash53(name).toString(36)}`;
}

/**
 * Claude Code's file names by the names the state may keep for them: the name itself and its
 * hash. The hash matches whatever the redaction of then or now (a pattern since removed, redaction
 * turned off): were a stored hash not met again, its fact would look deleted by Claude Code.
 */
export function claudeNamesByStored(names: Iterable<string>): Map<string, string> {
	const out = new Map<string, string>();
	for (const name of names) {
		out.set(hashedName(name), name);
		out.set(name, name);
	}
	return out;
}
