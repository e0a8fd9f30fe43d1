import { globMatches } from "./text/glob-match";
import { patternError } from "./digest/pattern-engine";
import type { KeywordRule } from "./digest/topic-tags";
import { readTriggerSettings, type RecallTriggerSettings } from "./hooks/recall-triggers";
import { toTag } from "./digest/tags/tag-name";
import { isAgentId, type AgentId } from "./transcript/agents";
import { isRootedPath } from "./projects/project-identity";
import { readPriceTable, type ModelPrice } from "./usage/model-prices";
import { normalizeSlashes } from "./text/normalize-slashes";
import { sameFileKey } from "./text/same-file-key";
import { isDeviceName } from "./notes/note-name";

/**
 * Settings shared by the plugin (data.json) and the CLI (which reads the same file).
 *
 * A vault, and with it data.json, is often synced between machines, while some settings name
 * paths on one machine: the Claude Code folder and the projects whose CLAUDE.md is written. Those
 * live per device in data.json (`devices[<host>]`), so that a vault opened on another machine never
 * writes to this machine's paths. `Settings` is the view of one device: the shared values plus that
 * device's own; `migrateSettings` reads it out of data.json and `storeSettings` writes it back.
 *
 * data.json, version 2:
 * ```
 * { "version": 2, "notesFolder": …, "memoryFolder": …, "detail": …, "tagPrefix": …,
 *   "keywordRules": […], "redaction": {…}, "excludedProjects": […], "watch": true, "debounceMs": 2000,
 *   "agents": ["claude-code", "codex", …],
 *   "devices": { "<host>": { "claudeDir": "/home/me/.claude", "agentDirs": { "codex": … }, "projects": [{ "path": …, … }] } } }
 * ```
 */

export type DetailLevel = "digest" | "conversation" | "full";
export type ContextMode = "eager" | "lazy";
export type ContextTarget = "CLAUDE.md" | "CLAUDE.local.md";
/** Other agents' instruction files that can get the block too: Codex (and Copilot CLI, opencode) read `AGENTS.md`, Gemini CLI `GEMINI.md`. */
export type AgentFile = "AGENTS.md" | "GEMINI.md";
export const AGENT_FILES: readonly AgentFile[] = ["AGENTS.md", "GEMINI.md"];

export interface ProjectSettings {
	/** Absolute project path, as Claude Code records it in `cwd`. */
	path: string;
	/** CLAUDE.md and memory sharing happen only for enabled projects. */
	enabled: boolean;
	target: ContextTarget;
	/** Other agents' files that get the same block (none by default: files in the repository are written only when asked). */
	alsoWriteTo?: AgentFile[];
	mode: ContextMode;
	/** Sessions described in the CLAUDE.md block. */
	sessions: number;
	/** Size budget of the eager block, in tokens (about four characters each). */
	budget: number;
	memorySharing: boolean;
	/** Redaction can be turned off per project (it is on by default). */
	redaction: boolean;
	/** When the prompt hook recalls the past for this project (defaults when absent). */
	triggers?: RecallTriggerSettings;
}

/** The settings one device works with: the shared values and this device's own. */
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
	/** The plugin syncs when transcripts change (else only on command). */
	watch: boolean;
	/** Quiet time after the last transcript change before a watched sync runs, in milliseconds. */
	debounceMs: number;
	/** The agents whose sessions are read (each from its folder on this device, when it has one). */
	agents: AgentId[];
	/** The user's prices per model (dollars per million tokens), over the bundled table, for the cost estimates. */
	prices: Record<string, ModelPrice>;
	/** This device's Claude Code folder (holding `projects/`); unset: `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
	claudeDir?: string;
	/** This device's folder of each other agent (`~/.codex`, `~/.gemini`…); unset: the agent's own default. */
	agentDirs?: Partial<Record<AgentId, string>>;
	/** This device's projects. */
	projects: ProjectSettings[];
}

export const SETTINGS_VERSION = 2;

export const DEBOUNCE_MIN_MS = 250;
/** A project's token budget for the eager block: what the settings tab and data.json accept. */
export const BUDGET_MIN = 100;
export const BUDGET_MAX = 4000;
export const DEBOUNCE_MAX_MS = 60_000;

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
	version: SETTINGS_VERSION,
	notesFolder: "AI Conversations",
	memoryFolder: "AI Memory",
	detail: "full",
	tagPrefix: "ai/",
	keywordRules: [],
	redaction: { enabled: true, extraPatterns: [] },
	excludedProjects: [],
	watch: true,
	debounceMs: 2000,
	agents: ["claude-code", "codex", "gemini-cli", "copilot-cli", "opencode", "aider"] as AgentId[],
	prices: {},
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

/** Keys of data.json this version reads; anything else (from a newer version, say) is kept as it is. */
const KNOWN_KEYS = new Set(["version", "notesFolder", "memoryFolder", "detail", "tagPrefix", "keywordRules", "redaction", "excludedProjects", "watch", "debounceMs", "devices", "projects", "claudeDir", "agents", "prices"]);
const KNOWN_DEVICE_KEYS = new Set(["claudeDir", "agentDirs", "projects"]);

/**
 * The key of a device in data.json, from its host name: lower-cased and without the domain, so
 * that a Mac that is `studio.local` on one network and `studio` on another stays one device.
 */
export function deviceIdOf(hostname: string): string {
	return hostname.trim().toLowerCase().split(".")[0] || "unknown-host";
}

/**
 * Reads whatever is stored (old, partial, hand-edited or from a newer version) into valid settings
 * for the device `hostname` (the caller's `os.hostname()`): the shared values and that device's
 * claudeDir and projects. A version 1 file kept projects at the top level: they become this
 * device's. Without a host name, a version 2 file gives no device's values (tests, defaults).
 * `migrated` says the file is not in this version's shape and is worth storing again.
 */
export function migrateSettings(raw: unknown, hostname?: string): { settings: Settings; migrated: boolean } {
	const o = isRecord(raw) ? raw : {};
	const legacy = !("devices" in o) && (o.version === undefined || o.version === 1);
	const device: Record<string, unknown> = legacy ? { projects: o.projects } : hostname === undefined ? {} : ownRecord(o.devices, deviceIdOf(hostname));
	const settings: Settings = { ...readShared(o), ...readDevice(device) };
	return { settings, migrated: !isRecord(raw) || raw.version !== SETTINGS_VERSION };
}

/**
 * Why data.json may not be stored again by this release: a newer one wrote it. Read, it serves
 * (unknown keys kept, unknown values as defaults); stored, it took this version's number and those
 * defaults, so the newer release read its own file as an old one (attack round 34).
 */
export function newerSettingsProblem(raw: unknown): string | undefined {
	if (!isRecord(raw) || typeof raw.version !== "number" || !(raw.version > SETTINGS_VERSION)) return undefined;
	return `they were written by a newer release of AI Conversation Memory (settings version ${raw.version}, this one knows ${SETTINGS_VERSION}), and stored again by this one they would lose what it does not know: update it here too`;
}

/**
 * What is wrong with a data.json that is JSON but not settings, in the values that keep things
 * out (a wrong type there was taken for the default: an excluded project given as one string was
 * synced, a redaction pattern given as a string was dropped); undefined when nothing is. Missing
 * values are fine: they are the defaults.
 */
export function settingsProblem(raw: unknown): string | undefined {
	if (raw === undefined) return undefined;
	if (!isRecord(raw)) return `it holds ${raw === null ? "null" : Array.isArray(raw) ? "a list" : `a ${typeof raw}`}, not the settings' object`;
	const strings = (value: unknown) => value === undefined || (Array.isArray(value) && value.every((v) => typeof v === "string"));
	if (!strings(raw.excludedProjects)) return `"excludedProjects" is not a list of paths (["/path/one", "/path/two"])`;
	// Read as the default, a folder given as a list or a number sent the notes or the facts to a folder the user never named, without a word.
	for (const key of ["notesFolder", "memoryFolder"] as const) if (raw[key] !== undefined && raw[key] !== null && typeof raw[key] !== "string") return `"${key}" is not a folder's name in the vault (${JSON.stringify(DEFAULT_SETTINGS[key])})`;
	// Read as the default, one agent given as a string (or an object of switches, or null) turned all six on: the sessions of agents turned off were synced.
	if (raw.agents !== undefined && !strings(raw.agents)) return `"agents" is not a list of agents (["claude-code", "codex"])`;
	if (raw.projects !== undefined && !Array.isArray(raw.projects)) return `"projects" is not a list of projects`;
	if (raw.devices !== undefined && !isRecord(raw.devices)) return `"devices" is not an object of each device's projects`;
	const redaction = raw.redaction;
	if (redaction !== undefined && !isRecord(redaction)) return `"redaction" is not an object`;
	if (isRecord(redaction) && redaction.enabled !== undefined && typeof redaction.enabled !== "boolean") return `"redaction"."enabled" is not true or false`;
	if (isRecord(redaction) && !strings(redaction.extraPatterns)) return `"redaction"."extraPatterns" is not a list of patterns (["ACME-[0-9]+"])`;
	// The top level holds an older release's (version 1) Claude Code folder.
	for (const device of [raw, ...(isRecord(raw.devices) ? Object.values(raw.devices) : [])]) {
		// Skipped, a device's entry that is no object left this device on the default folders.
		const problem = isRecord(device) ? agentFoldersProblem(device) : device === null ? undefined : `a device's entry is ${JSON.stringify(device)}, not an object of its folders and projects`;
		if (problem !== undefined) return problem;
	}
	const lists = [raw.projects, ...(isRecord(raw.devices) ? Object.values(raw.devices).map((d) => (isRecord(d) ? d.projects : undefined)) : [])];
	for (const list of lists) {
		if (list !== undefined && !Array.isArray(list)) return `a device's "projects" is not a list of projects`;
		for (const p of (list ?? []) as unknown[]) {
			// Passed over, a project written as its path alone or with a path of another type was not synced, and nothing said why (attack round 50a).
			if (!isRecord(p)) return `a project is ${JSON.stringify(p)?.slice(0, 80)}, not an object with its "path" (as \`ai-memory projects add\` writes it)`;
			const problem = projectProblem(p);
			if (problem !== undefined) return `the project ${JSON.stringify(p.path)?.slice(0, 200)}: ${problem}`;
		}
	}
	return undefined;
}

/**
 * A device's Claude Code folder or other agent's folder that is not absolute (`.claude`, a literal
 * `$HOME/.claude`, `~root/.claude`): taken as written, it was a folder below wherever the command
 * ran, and the sync made `<that folder>/.claude/projects/…/memory` there and copied the vault's
 * facts into it. A leading `~` or `~/` is the home folder (`node/env-folder.ts`).
 */
function agentFoldersProblem(device: Record<string, unknown>): string | undefined {
	// Of another type, a folder was read as unset, so the agent's default folder was synced instead of the one named.
	const agentDirs = device.agentDirs;
	if (agentDirs !== undefined && agentDirs !== null && !isRecord(agentDirs)) return `"agentDirs" is ${JSON.stringify(agentDirs)}, not an object of each agent's folder ({"codex": "~/.codex"})`;
	const folders: [string, unknown][] = [["claudeDir", device.claudeDir], ...(isRecord(device.agentDirs) ? Object.entries(device.agentDirs).map(([agent, dir]): [string, unknown] => [`agentDirs"."${agent}`, dir]) : [])];
	for (const [key, value] of folders) {
		if (value !== undefined && value !== null && typeof value !== "string") return `"${key}" is ${JSON.stringify(value)}, not a folder's whole path: write it as ${key === "claudeDir" ? "~/.claude" : "~/.codex"}, or remove it for the default`;
		const dir = typeof value === "string" ? value.trim() : "";
		if (dir === "" || isWholeFolderPath(dir)) continue;
		return `"${key}" is ${JSON.stringify(value)}, not a folder's whole path (read from wherever the command runs, it named another folder each time; \`$HOME\` is not expanded there): write it as /home/you/.claude or ~/.claude`;
	}
	return undefined;
}

/** An agent's folder as the settings may name it: a whole path, or one from the home folder (`~`, `~/.codex`). */
export function isWholeFolderPath(folder: string): boolean {
	const dir = folder.trim();
	return dir === "~" || /^~[\\/]/.test(dir) || isRootedPath(dir);
}

/**
 * A project's values that decide what is written for it, of the wrong type: read as the default,
 * `"enabled": "false"` enabled the project, and `"memorySharing": "false"` shared its facts; and a
 * path that is not absolute.
 */
function projectProblem(p: Record<string, unknown>): string | undefined {
	if (p.path !== undefined && typeof p.path !== "string") return `its path is not a folder's path (a text: "/home/you/code/app")`;
	// Resolved, a relative path was wherever the sync ran: the SessionEnd hook's sync, run in the session's folder, wrote CLAUDE.md into `<that folder>/<path>`.
	if (typeof p.path === "string" && p.path.trim() !== "" && !isRootedPath(p.path.trim())) return `its path is not absolute (read from wherever the sync runs, it named another folder each time): write the folder's whole path, as \`ai-memory projects add\` does`;
	for (const key of ["enabled", "memorySharing", "redaction"] as const) {
		const value = p[key];
		if (value !== undefined && typeof value !== "boolean") return `"${key}" is ${JSON.stringify(value)}, not true or false${typeof value === "string" ? " (without quotes)" : ""}`;
	}
	if (p.mode !== undefined && !["eager", "lazy"].includes(p.mode as string)) return `"mode" is ${JSON.stringify(p.mode)}, not "eager" or "lazy"`;
	if (p.target !== undefined && !["CLAUDE.md", "CLAUDE.local.md"].includes(p.target as string)) return `"target" is ${JSON.stringify(p.target)}, not "CLAUDE.md" or "CLAUDE.local.md"`;
	return undefined;
}

/**
 * The data.json to save for `settings` as device `hostname` sees them: the shared values, this
 * device's entry replaced, every other device's entry and every key this version does not know
 * (a newer version's) kept untouched.
 */
export function storeSettings(settings: Settings, raw: unknown, hostname: string): Record<string, unknown> {
	const o = isRecord(raw) ? raw : {};
	const id = deviceIdOf(hostname);
	const shared = readShared(settings as unknown as Record<string, unknown>);
	const own = readDevice(settings as unknown as Record<string, unknown>);
	const unknownKeys = Object.fromEntries(Object.entries(o).filter(([k]) => !KNOWN_KEYS.has(k)));
	const before = ownRecord(o.devices, id);
	const entry: Record<string, unknown> = { ...Object.fromEntries(Object.entries(before).filter(([k]) => !KNOWN_DEVICE_KEYS.has(k))) };
	if (own.claudeDir !== undefined) entry.claudeDir = own.claudeDir;
	if (own.agentDirs !== undefined) entry.agentDirs = own.agentDirs;
	entry.projects = own.projects;
	const devices: Record<string, unknown> = {};
	if (isRecord(o.devices)) for (const [key, value] of Object.entries(o.devices)) if (key !== id) devices[key] = value;
	devices[id] = entry;
	// No price table of one's own: no key, so data.json stays as it was for everyone else.
	const { version: _version, prices, ...values } = shared;
	return { version: SETTINGS_VERSION, ...values, ...(Object.keys(prices).length > 0 ? { prices } : {}), ...unknownKeys, devices };
}

function readShared(o: Record<string, unknown>): Omit<Settings, "claudeDir" | "agentDirs" | "projects"> {
	const seenRules = new Set<string>();
	return {
		version: SETTINGS_VERSION,
		notesFolder: text(o.notesFolder, DEFAULT_SETTINGS.notesFolder),
		memoryFolder: text(o.memoryFolder, DEFAULT_SETTINGS.memoryFolder),
		detail: oneOf(o.detail, ["digest", "conversation", "full"], DEFAULT_SETTINGS.detail),
		tagPrefix: text(o.tagPrefix, DEFAULT_SETTINGS.tagPrefix),
		keywordRules: list(o.keywordRules).flatMap((r) => {
			if (!isRecord(r) || typeof r.keyword !== "string" || typeof r.tag !== "string" || r.keyword.trim() === "" || r.tag.trim() === "") return [];
			const rule = { keyword: r.keyword.trim(), tag: r.tag.trim() };
			const key = JSON.stringify(rule);
			if (seenRules.has(key)) return [];
			seenRules.add(key);
			return [rule];
		}),
		redaction: {
			enabled: isRecord(o.redaction) && typeof o.redaction.enabled === "boolean" ? o.redaction.enabled : true,
			extraPatterns: isRecord(o.redaction) ? list(o.redaction.extraPatterns).filter((p): p is string => typeof p === "string" && p.trim() !== "") : [],
		},
		excludedProjects: list(o.excludedProjects).flatMap((p) => (typeof p === "string" && p.trim() !== "" ? [p.trim()] : [])),
		watch: typeof o.watch === "boolean" ? o.watch : DEFAULT_SETTINGS.watch,
		debounceMs: typeof o.debounceMs === "number" && Number.isFinite(o.debounceMs) ? clampDebounce(o.debounceMs) : DEFAULT_SETTINGS.debounceMs,
		agents: Array.isArray(o.agents) ? [...new Set(o.agents.filter(isAgentId))] : [...DEFAULT_SETTINGS.agents],
		prices: readPriceTable(o.prices),
	};
}

function readDevice(o: Record<string, unknown>): Pick<Settings, "claudeDir" | "agentDirs" | "projects"> {
	const seen = new Set<string>();
	const projects = list(o.projects).flatMap((p) => {
		if (!isRecord(p) || typeof p.path !== "string" || p.path.trim() === "" || seen.has(p.path.trim())) return [];
		seen.add(p.path.trim());
		return [project(p)];
	});
	const claudeDir = typeof o.claudeDir === "string" && o.claudeDir.trim() !== "" ? o.claudeDir.trim() : undefined;
	const dirs = isRecord(o.agentDirs) ? Object.entries(o.agentDirs).filter((e): e is [AgentId, string] => isAgentId(e[0]) && e[0] !== "claude-code" && typeof e[1] === "string" && e[1].trim() !== "") : [];
	return { ...(claudeDir === undefined ? {} : { claudeDir }), ...(dirs.length === 0 ? {} : { agentDirs: Object.fromEntries(dirs.map(([a, d]) => [a, d.trim()])) }), projects };
}

/**
 * Why the notes and memory folders cannot be used as set, if they cannot: one no folder can be named
 * (a NUL in it), one that leads out of the vault (`../x`), one hidden from Obsidian (a folder whose name starts with a dot, its config
 * folder among them: the notes would be written where no one sees them), an absolute path (`/tmp/x`,
 * `C:\\notes`: a folder of the disk, which it cannot be), or both the same folder.
 * A hand-edited `data.json` can hold any of them; each note then failed alone, with a sentence each.
 */
export function foldersProblem(settings: Pick<Settings, "notesFolder" | "memoryFolder">): string | undefined {
	const spelled: string[] = [];
	for (const [name, folder] of [["notes folder", settings.notesFolder], ["memory folder", settings.memoryFolder]] as const) {
		// Before, the NUL reached the file system, whose error ("without null bytes") named no setting.
		if (folder.includes("\u0000")) return `the ${name} holds a NUL character, which no folder name can hold: set another`;
		// A line break pasted with it: a link cannot hold one, so every link to its notes was broken (attack round 22).
		// eslint-disable-next-line no-control-regex -- control characters are what it finds
		if (/[\u0001-\u001f\u007f]/.test(folder)) return `the ${name} holds a line break or another control character: set it without`;
		if (/^\s*(["'])[\s\S]*\1\s*$/.test(folder)) return `the ${name} ${folder.trim()} is in quotes: set it without them`;
		// Obsidian warns that links to such names do not work: every link the sync writes names its notes by path.
		const linkBreaker = /[#^[\]|]/.exec(folder)?.[0];
		if (linkBreaker) return `the ${name} "${folder}" holds "${linkBreaker}", which Obsidian's links cannot hold (no link to its notes would work): set another`;
		const parts = folder.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
		// Meant as the home folder, it was a vault folder named "~".
		if (parts[0] === "~") return `the ${name} "${folder}" starts with "~", the home folder, but it can only be a folder of the vault: set one inside it`;
		if (parts.some((p) => new TextEncoder().encode(p).length > 255)) return `the ${name} has a folder name longer than a file system takes (255 bytes): set a shorter one`;
		if (parts.includes("..")) return `the ${name} "${folder}" leads out of the vault: set one inside it`;
		if (parts.some((p) => p.startsWith("."))) return `the ${name} "${folder}" is hidden (a folder whose name starts with a dot): Obsidian would show none of its notes; set another`;
		// Meant out of the vault, it was written in it without a word (`/tmp/x` in vault/tmp/x); `/` alone is the vault's top.
		// A drive is a letter, a colon and a separator (`C:\\x`): "X: notes" is no path (its colon is refused below).
		if (parts.length > 0 && /^(?:[\\/]|[A-Za-z]:(?:[\\/]|$))/.test(folder)) return `the ${name} "${folder}" is an absolute path, but it can only be a folder of the vault (it would be "${parts.join("/")}" in it): set one inside it`;
		const refused = parts.map(windowsRefusal).find((r) => r !== undefined);
		if (refused) return `the ${name} "${folder}" cannot be a folder on Windows (${refused}): a vault kept or synced there could not hold its notes; set another`;
		spelled.push(parts.join("/").normalize("NFC").toLowerCase());
	}
	// One folder spelled two ways (`AI Memory/`, `./AI Memory`) was taken for two: notes and facts wrote each other's index, and every sync after the first failed.
	if (spelled[0] === spelled[1]) return `the notes folder and the memory folder must differ${settings.notesFolder.toLowerCase() === settings.memoryFolder.toLowerCase() ? "" : ` ("${settings.notesFolder}" and "${settings.memoryFolder}" are one folder)`}`;
	return undefined;
}

/**
 * Why Windows cannot hold a folder of this name, if it cannot: a character it refuses (Obsidian
 * refuses them in a note's name everywhere), a dot or a space at its end (Windows drops them: the
 * folder would be another's), a device's name. A Linux device wrote its notes into a folder
 * (`x:y`, `Notes.`, `CON`) that the vault's copy on Windows could not hold.
 */
function windowsRefusal(part: string): string | undefined {
	const character = /[<>:"?*]/.exec(part)?.[0];
	if (character !== undefined) return `it holds "${character}"`;
	if (/[. ]$/.test(part)) return `"${part}" ends in a dot or a space`;
	return isDeviceName(part) ? `"${part}" is a device's name there` : undefined;
}

/** The debounce a user asked for, within what the watcher accepts. */
export function clampDebounce(ms: number): number {
	return Math.min(DEBOUNCE_MAX_MS, Math.max(DEBOUNCE_MIN_MS, Math.round(ms)));
}

function project(p: Record<string, unknown>): ProjectSettings {
	return {
		path: String(p.path).trim(),
		enabled: typeof p.enabled === "boolean" ? p.enabled : DEFAULT_PROJECT.enabled,
		target: oneOf(p.target, ["CLAUDE.md", "CLAUDE.local.md"], DEFAULT_PROJECT.target),
		...alsoWriteTo(p.alsoWriteTo),
		mode: oneOf(p.mode, ["eager", "lazy"], DEFAULT_PROJECT.mode),
		sessions: typeof p.sessions === "number" && p.sessions >= 1 && p.sessions <= 50 ? Math.floor(p.sessions) : DEFAULT_PROJECT.sessions,
		budget: typeof p.budget === "number" && p.budget >= BUDGET_MIN && p.budget <= BUDGET_MAX ? Math.floor(p.budget) : DEFAULT_PROJECT.budget,
		memorySharing: typeof p.memorySharing === "boolean" ? p.memorySharing : DEFAULT_PROJECT.memorySharing,
		redaction: typeof p.redaction === "boolean" ? p.redaction : DEFAULT_PROJECT.redaction,
		...triggers(p.triggers),
	};
}

function alsoWriteTo(raw: unknown): { alsoWriteTo?: AgentFile[] } {
	const files = Array.isArray(raw) ? [...new Set(raw.filter((f): f is AgentFile => (AGENT_FILES as readonly unknown[]).includes(f)))] : [];
	return files.length === 0 ? {} : { alsoWriteTo: files };
}

/** The files a project's block goes into: its target, then the other agents' files it asks for. */
export function contextFilesOf(project: Pick<ProjectSettings, "target" | "alsoWriteTo">): string[] {
	return [project.target, ...(project.alsoWriteTo ?? [])];
}

/** The instruction files a project's block could go into and, with these settings, does not. */
export function otherContextFiles(project: Pick<ProjectSettings, "target" | "alsoWriteTo">): string[] {
	const files = contextFilesOf(project);
	return ["CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md"].filter((name) => !files.includes(name));
}

function triggers(raw: unknown): { triggers?: RecallTriggerSettings } {
	const read = readTriggerSettings(raw);
	return Object.keys(read).length > 0 ? { triggers: read } : {};
}

// ---------------------------------------------------------------------------------------------
// The text forms the settings tab edits: one item per line.

/** Keyword rules from `keyword: tag` lines (blank lines skipped), or what is wrong, by line. */
export function parseKeywordRules(source: string): { rules: KeywordRule[]; errors: string[] } {
	const rules: KeywordRule[] = [];
	const errors: string[] = [];
	const seen = new Set<string>();
	source.split(/\r?\n/).forEach((line, i) => {
		if (line.trim() === "") return;
		const colon = Math.max(line.lastIndexOf(":"), line.lastIndexOf("\uff1a"));
		const keyword = colon < 0 ? "" : line.slice(0, colon).normalize("NFC").trim().replace(/\s+/g, " ");
		const rawTag = colon < 0 ? "" : line.slice(colon + 1).trim();
		if (keyword === "" || rawTag === "") {
			errors.push(`Line ${i + 1}: write it as "keyword: tag".`);
			return;
		}
		const tag = toTag("", rawTag);
		if (tag === undefined) {
			errors.push(`Line ${i + 1}: "${rawTag}" cannot be a tag (it needs a letter).`);
			return;
		}
		const key = JSON.stringify([keyword, tag]);
		if (seen.has(key)) return;
		seen.add(key);
		rules.push({ keyword, tag });
	});
	return { rules, errors };
}

export function formatKeywordRules(rules: readonly KeywordRule[]): string {
	return rules.map((r) => `${r.keyword}: ${r.tag}`).join("\n");
}

/** Regular expressions, one per line (blank lines skipped), or why one does not compile, by line. */
export function parsePatterns(source: string): { patterns: string[]; errors: string[] } {
	const patterns: string[] = [];
	const errors: string[] = [];
	source.split(/\r?\n/).forEach((line, i) => {
		if (line.trim() === "") return;
		// As the redactor compiles it: on RE2, which has no lookaround and no backreferences (a
		// JavaScript RegExp took them, and the redactor then left the pattern out).
		const error = patternError(line);
		if (error !== undefined) errors.push(`Line ${i + 1}: ${error}${/\(\?<?[=!]|\\[1-9]/.test(line) ? " (lookaround and backreferences are not supported: patterns run in linear time)" : ""}`);
		else if (!patterns.includes(line)) patterns.push(line);
	});
	return { patterns, errors };
}

/** Non-empty trimmed lines, each once. */
export function parseLines(source: string): string[] {
	return [...new Set(source.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== ""))];
}

/**
 * The folder as the other side of one machine spells it: WSL's `/mnt/c/…` is Windows' `c:/…`, and
 * Windows' `/wsl$/<distribution>/…` (or `/wsl.localhost/…`, as `normalizeSlashes` leaves them) is
 * WSL's `/…`. An exclusion written as Windows names the folder did not keep out the sessions Claude
 * Code ran in it under WSL, and the other way round. Each spelling is matched, so `/` still
 * excludes `/mnt/c/…`.
 */
function otherSpelling(path: string): string {
	return path.replace(/^\/mnt\/([a-z])(?=\/|$)/, "$1:").replace(/^\/(?:wsl\$|wsl\.localhost)\/[^/]+(?=\/|$)/, "") || "/";
}

/**
 * Whether a project path is excluded: an exact path or a folder above it, or a glob where `*`
 * matches within one folder and `**` across folders. Separators, a trailing slash, case and Unicode
 * normalization do not matter (macOS and Windows folders are named either way, and macOS may record
 * `café` decomposed where the user types it composed: such a project's prompts were stored; an
 * exclusion errs on the side of keeping out), nor `//`, `.` and `..` in either (see `normalizeSlashes`).
 */
export function isExcluded(projectPath: string, patterns: readonly string[]): boolean {
	// No exclusion (most settings): the path's spellings are not worked out for nothing, for every session at each sync.
	if (patterns.length === 0) return false;
	const written = sameFileKey(normalizeSlashes(projectPath));
	const paths = new Set([written, otherSpelling(written)]);
	for (const raw of patterns) {
		const typed = sameFileKey(normalizeSlashes(raw.trim()));
		if (typed === "") continue;
		for (const pattern of new Set([typed, otherSpelling(typed)])) for (const path of paths) if (matches(path, pattern)) return true;
	}
	return false;
}

function matches(path: string, pattern: string): boolean {
	// `/` is every folder's parent (it has its slash already: `//` started no path, and it excluded nothing).
	if (!pattern.includes("*")) return path === pattern || path.startsWith(pattern.endsWith("/") ? pattern : `${pattern}/`);
	return globMatches(pattern, path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, fallback: string): string {
	return typeof value === "string" && value.trim() !== "" ? value.trim() : fallback;
}

/** `container[key]` when it is the container's own record (never an inherited property such as `constructor`). */
function ownRecord(container: unknown, key: string): Record<string, unknown> {
	if (!isRecord(container) || !Object.prototype.hasOwnProperty.call(container, key)) return {};
	const value = container[key];
	return isRecord(value) ? value : {};
}

function list(value: unknown): unknown[] {
	return Array.isArray(value) ? value : [];
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
	return allowed.includes(value as T) ? (value as T) : fallback;
}
