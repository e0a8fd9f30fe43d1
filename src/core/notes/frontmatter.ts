export type FrontmatterValue = string | number | boolean | null | readonly string[];

/**
 * Deterministic YAML for a flat frontmatter: keys in the given order, strings quoted only when
 * YAML would read them as something else, lists in block style (what Obsidian's Properties
 * view writes itself). A double-quoted JSON string is always valid YAML, so that is the quoting.
 */
export function renderFrontmatter(fields: readonly (readonly [string, FrontmatterValue | undefined])[]): string {
	const lines = ["---"];
	for (const [key, value] of fields) {
		if (value === undefined) continue;
		if (Array.isArray(value)) {
			if (value.length === 0) {
				lines.push(`${key}: []`);
				continue;
			}
			lines.push(`${key}:`);
			for (const item of value as readonly string[]) lines.push(`  - ${scalar(item)}`);
		} else {
			lines.push(`${key}: ${scalar(value as string | number | boolean | null)}`);
		}
	}
	lines.push("---");
	return `${lines.join("\n")}\n`;
}

const PLAIN = /^[A-Za-z0-9_./@][A-Za-z0-9 _./@()+-]*$/;
const LOOKS_TYPED = /^(true|false|yes|no|on|off|null|~|[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?|0x[0-9a-fA-F]+|\d{4}-\d\d-\d\d.*)$/i;
/** Dates and datetimes as Obsidian writes them itself, unquoted, so Properties shows a date. */
const DATE = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d)?)?$/;

function scalar(value: string | number | boolean | null): string {
	if (value === null) return "null";
	if (typeof value !== "string") return String(value);
	if (DATE.test(value)) return value;
	if (value !== "" && PLAIN.test(value) && !LOOKS_TYPED.test(value) && !value.endsWith(" ")) return value;
	return JSON.stringify(value);
}
