import type { KeywordRule } from "./digest/topic-tags";

/** Settings shared by the plugin (data.json) and the CLI (which reads the same file). */

export type DetailLevel = "digest" | "conversation" | "full";
export type ContextMode = "eager" | "lazy";
export type ContextTarget = "CLAUDE.md" | "CLAUDE.local.md";

export interface ProjectSettings {
	/** Absolute project path, as Claude Code records it in `cwd`. */
	path: string;
	/** CLAUDE.md and memory sharing happen only for enabled projects. */
	enabled: boolean;
	target: ContextTarget;
	mode: ContextMode;
	/** Sessions described in the CLAUDE.md block. */
	sessions: number;
	/** Size budget of the eager block, in tokens (about four characters each). */
	budget: number;
	memorySharing: boolean;
	/** Redaction can be turned off per project (it is on by default). */
	redaction: boolean;
}

export interface Settings {
	version: number;
	notesFolder: string;
	memoryFolder: string;
	detail: DetailLevel;
	tagPrefix: string;
	keywordRules: KeywordRule[];
	redaction: { enabled: boolean; extraPatterns: string[] };
	/** Project paths or glob patterns (`*`, `**`) whose sessions are ignored everywhere. */
	excludedProjects: string[];
	projects: ProjectSettings[];
}

export const SETTINGS_VERSION = 1;

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
	version: SETTINGS_VERSION,
	notesFolder: "AI Conversations",
	memoryFolder: "AI Memory",
	detail: "full",
	tagPrefix: "ai/",
	keywordRules: [],
	redaction: { enabled: true, extraPatterns: [] },
	excludedProjects: [],
	projects: [],
});

export const DEFAULT_PROJECT: Omit<ProjectSettings, "path"> = Object.freeze({
	enabled: true,
	target: "CLAUDE.md",
	mode: "eager",
	sessions: 5,
	budget: 1000,
	memorySharing: true,
	redaction: true,
});

/** Reads whatever is stored (possibly old, partial or hand-edited) into valid settings. */
export function migrateSettings(raw: unknown): { settings: Settings; migrated: boolean } {
	const o = isRecord(raw) ? raw : {};
	const settings: Settings = {
		version: SETTINGS_VERSION,
		notesFolder: text(o.notesFolder, DEFAULT_SETTINGS.notesFolder),
		memoryFolder: text(o.memoryFolder, DEFAULT_SETTINGS.memoryFolder),
		detail: oneOf(o.detail, ["digest", "conversation", "full"], DEFAULT_SETTINGS.detail),
		tagPrefix: text(o.tagPrefix, DEFAULT_SETTINGS.tagPrefix),
		keywordRules: list(o.keywordRules).flatMap((r) => (isRecord(r) && typeof r.keyword === "string" && typeof r.tag === "string" ? [{ keyword: r.keyword, tag: r.tag }] : [])),
		redaction: {
			enabled: isRecord(o.redaction) && typeof o.redaction.enabled === "boolean" ? o.redaction.enabled : true,
			extraPatterns: isRecord(o.redaction) ? list(o.redaction.extraPatterns).filter((p): p is string => typeof p === "string") : [],
		},
		excludedProjects: list(o.excludedProjects).filter((p): p is string => typeof p === "string" && p.trim() !== ""),
		projects: list(o.projects).flatMap((p) => (isRecord(p) && typeof p.path === "string" && p.path !== "" ? [project(p)] : [])),
	};
	return { settings, migrated: !isRecord(raw) || raw.version !== SETTINGS_VERSION };
}

function project(p: Record<string, unknown>): ProjectSettings {
	return {
		path: String(p.path),
		enabled: typeof p.enabled === "boolean" ? p.enabled : DEFAULT_PROJECT.enabled,
		target: oneOf(p.target, ["CLAUDE.md", "CLAUDE.local.md"], DEFAULT_PROJECT.target),
		mode: oneOf(p.mode, ["eager", "lazy"], DEFAULT_PROJECT.mode),
		sessions: typeof p.sessions === "number" && p.sessions >= 1 && p.sessions <= 50 ? Math.floor(p.sessions) : DEFAULT_PROJECT.sessions,
		budget: typeof p.budget === "number" && p.budget >= 100 && p.budget <= 4000 ? Math.floor(p.budget) : DEFAULT_PROJECT.budget,
		memorySharing: typeof p.memorySharing === "boolean" ? p.memorySharing : DEFAULT_PROJECT.memorySharing,
		redaction: typeof p.redaction === "boolean" ? p.redaction : DEFAULT_PROJECT.redaction,
	};
}

/**
 * Whether a project path is excluded: an exact path or a folder above it, or a glob where `*`
 * matches within one folder and `**` across folders. Separators and a trailing slash do not matter.
 */
export function isExcluded(projectPath: string, patterns: readonly string[]): boolean {
	const path = normalizeSlashes(projectPath);
	for (const raw of patterns) {
		const pattern = normalizeSlashes(raw.trim());
		if (pattern === "") continue;
		if (!pattern.includes("*")) {
			if (path === pattern || path.startsWith(`${pattern}/`)) return true;
			continue;
		}
		if (globToRegExp(pattern).test(path)) return true;
	}
	return false;
}

function globToRegExp(glob: string): RegExp {
	let source = "";
	for (let i = 0; i < glob.length; i++) {
		const ch = glob[i]!;
		if (ch === "*" && glob[i + 1] === "*") {
			source += ".*";
			i++;
		} else if (ch === "*") source += "[^/]*";
		else if (ch === "?") source += "[^/]";
		else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
	}
	return new RegExp(`^${source}(/.*)?$`);
}

function normalizeSlashes(path: string): string {
	return path.replace(/\\/g, "/").replace(/\/+$/, "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, fallback: string): string {
	return typeof value === "string" && value.trim() !== "" ? value.trim() : fallback;
}

function list(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
	return allowed.includes(value as T) ? (value as T) : fallback;
}
