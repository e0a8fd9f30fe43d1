import { readFrontmatter, renderFrontmatter } from "../notes/frontmatter";
import { withFlatProperties } from "./fact-properties";

export type FactType = "user" | "feedback" | "project" | "reference";
export const FACT_TYPES: readonly FactType[] = ["user", "feedback", "project", "reference"];

/** What the memory needs to know of one fact file; the file's text itself is kept as written. */
export interface FactInfo {
	/** File name in the memory folder, e.g. `feedback_testing.md`. */
	file: string;
	/** The `name` property (a kebab-case slug in current clients), else the file name without `.md`. */
	name: string;
	description: string;
	type?: FactType;
	/** ISO date-time the client stamped, when present. */
	modified?: string;
}

/**
 * Reads a fact file in either of Claude Code's styles: `metadata: { type }` (current) or a
 * top-level `type:` (up to about 2.1.120). Never throws: a file with broken or no frontmatter is
 * still a fact, described by its first line.
 */
export function readFact(file: string, text: string): FactInfo {
	const { data, body } = splitFrontmatter(text);
	const str = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" || v instanceof Date ? String(v instanceof Date ? v.toISOString() : v) : undefined);
	const metadata = isRecord(data.metadata) ? data.metadata : {};
	// A flat `type` first: the vault's copy shows it flat for Obsidian's Properties view, where it is edited (see fact-properties.ts).
	const type = [data.type, metadata.type].map(str).find((t): t is FactType => FACT_TYPES.includes(t as FactType));
	const description = str(data.description) || firstLine(body);
	return { file, name: str(data.name) || file.replace(/\.md$/i, ""), description, type, modified: str(data.modified) ?? str(metadata.modified) };
}

/** Frontmatter as data (empty when missing or not valid YAML) and the text after it. */
export function splitFrontmatter(text: string): { data: Record<string, unknown>; body: string } {
	const read = readFrontmatter(text);
	return read ? { data: read.data, body: read.body } : { data: {}, body: text };
}

/**
 * A new fact note in the current client's format: `name`, `description`, then `metadata` with
 * `type` and, when given, `modified` (where Claude Code 2.1.332 stamps it); then the body. As the
 * vault holds it: with `type` (and `modified`) flat too, for Obsidian's Properties view
 * (`withFlatProperties`; Claude Code's copy goes without).
 */
export function renderFact(fact: { name: string; description: string; type: FactType; modified?: string }, body: string): string {
	const head = renderFrontmatter([
		["name", fact.name],
		["description", oneLineOf(fact.description)],
	]).replace(/---\n$/, "");
	const modified = fact.modified === undefined ? "" : `  modified: ${fact.modified}\n`;
	return withFlatProperties(`${head}metadata:\n  type: ${fact.type}\n${modified}---\n${body.replace(/^\n+/, "").replace(/\s*$/, "\n")}`);
}

/** A kebab-case slug for a fact name; letters of any script are kept (a valid file name and link). */
export function factSlug(text: string, max = 50): string {
	const slug = text
		.normalize("NFKC")
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, "-")
		.replace(/^-+|-+$/g, "");
	const cut = slug.length > max ? slug.slice(0, max).replace(/-[^-]*$/, "") || slug.slice(0, max) : slug;
	return cut || "fact";
}

function firstLine(body: string): string {
	const line = body.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
	return oneLineOf(line.replace(/^#+\s*/, ""));
}

function oneLineOf(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
