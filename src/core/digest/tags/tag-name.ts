/**
 * Obsidian tag names. A tag is letters (any script), numbers, `_`, `-` and `/` for nesting, with at
 * least one non-numeric character and no spaces. Latin is lower-cased so `Docker` and `docker`
 * are one tag.
 */

/** The path segments of a would-be tag: `#`, spaces and punctuation folded to `-`, empty segments dropped. */
function segmentsOf(text: string): string[] {
	return text
		.normalize("NFKC")
		.toLowerCase()
		.replace(/^[\s#]+/, "")
		.replace(/['’`]/g, "")
		.split("/")
		.map((s) => s.replace(/[^\p{L}\p{M}\p{N}_-]+/gu, "-").replace(/-{2,}/g, "-").replace(/^-+|-+$/g, ""))
		.filter((s) => s !== "");
}

const LETTER = /\p{L}/u;

/** `ai`, `ai/`, `#ai/` → `ai/`; empty → empty. */
export function normalizePrefix(prefix: string): string {
	const parts = segmentsOf(prefix);
	return parts.length > 0 ? `${parts.join("/")}/` : "";
}

/**
 * `raw` as a valid tag under `prefix` (with or without its trailing slash), or undefined when
 * nothing taggable is left (empty, punctuation only, or no letter at all, e.g. `2024`).
 * A `raw` that already starts with the prefix is not prefixed twice.
 */
export function toTag(prefix: string, raw: string): string | undefined {
	const head = segmentsOf(prefix);
	let body = segmentsOf(raw);
	if (head.length > 0 && head.length < body.length && head.every((s, i) => body[i] === s)) body = body.slice(head.length);
	if (body.length === 0 || !body.some((s) => LETTER.test(s))) return undefined;
	return [...head, ...body].join("/");
}

/**
 * The project part of `<prefix>project/<slug>`: lower-cased, anything but letters, numbers, `_`
 * and `-` (a `/` too: a project is one level) folded to `-`. Same result as the sync engine's
 * existing project tag for ordinary folder names.
 */
export function projectSlug(project: string): string {
	return project.toLowerCase().replace(/[^\p{L}\p{M}\p{N}_-]+/gu, "-").replace(/^-+|-+$/g, "") || "unnamed";
}
