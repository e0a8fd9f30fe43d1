/**
 * Line breaks, control characters and bidirectional overrides: none belongs in a file's name that
 * a line of text quotes. The model names Claude Code's fact files, and a person or a sync tool the
 * vault's: a name with a line break added lines of its own to `MEMORY.md`'s index.
 */
function isNameControl(c: number): boolean {
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029 || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/** Whether `name` holds one of them. */
export function hasNameControl(name: string): boolean {
	for (let i = 0; i < name.length; i++) if (isNameControl(name.charCodeAt(i))) return true;
	return false;
}

/** `name` with each run of them a space (`x\ny.md` → `x y.md`). */
export function withoutNameControls(name: string): string {
	if (!hasNameControl(name)) return name;
	let out = "";
	let run = false;
	for (let i = 0; i < name.length; i++) {
		const control = isNameControl(name.charCodeAt(i));
		if (!control) out += name[i];
		else if (!run) out += " ";
		run = control;
	}
	return out;
}
