import { builtinRulesId, createRedactor } from "../digest/redact";
import { isExcluded, type Settings } from "../settings";
import type { SessionModel } from "../transcript/session-model";

/** The redaction settings as plain data (what a worker thread needs to redact the same way). */
export interface RedactionSpec {
	enabled: boolean;
	extraPatterns: string[];
	/** Projects that turned redaction off. */
	offFor: string[];
	/** Projects excluded from the sync (paths or patterns): their sessions are read, never stored. */
	excluded?: string[];
}

export function redactionSpec(settings: Settings): RedactionSpec {
	return {
		enabled: settings.redaction.enabled,
		extraPatterns: settings.redaction.extraPatterns,
		offFor: settings.projects.filter((p) => p.redaction === false).map((p) => p.path),
		excluded: settings.excludedProjects,
	};
}

const redactors = new Map<string, (text: string) => string>();
const identity = (text: string): string => text;

/** The redaction in force for a project: settings-wide, unless the project turned it off. */
export function redactorFor(spec: RedactionSpec, projectPath: string | undefined): (text: string) => string {
	if (!spec.enabled || (projectPath !== undefined && spec.offFor.includes(projectPath))) return identity;
	const key = JSON.stringify(spec.extraPatterns);
	let redact = redactors.get(key);
	if (!redact) {
		const redactor = createRedactor({ extraPatterns: spec.extraPatterns });
		redact = (text) => redactor.redact(text);
		redactors.set(key, redact);
	}
	return redact;
}

/** The user's redaction patterns that cannot run (not RE2 syntax: see `createRedactor`), to report. */
export function invalidRedactionPatterns(settings: Settings): string[] {
	return settings.redaction.enabled ? createRedactor({ extraPatterns: settings.redaction.extraPatterns }).invalidPatterns : [];
}

/** What a model's redaction depends on, as one string (the built-in rules too): a stored model made under another is redacted again. */
export function redactionKey(spec: RedactionSpec | undefined, projectPath: string | undefined): string {
	if (!spec || !spec.enabled || (projectPath !== undefined && spec.offFor.includes(projectPath))) return "off";
	return `on:${builtinRulesId()}:${JSON.stringify(spec.extraPatterns)}`;
}

/** Whether a session that ran in `cwd` belongs to an excluded project: nothing of it is stored, not even redacted. */
export function isKeptOutOfStore(spec: RedactionSpec | undefined, cwd: string | undefined): boolean {
	return cwd !== undefined && spec?.excluded !== undefined && isExcluded(cwd, spec.excluded);
}

/**
 * Whether a session ran in an excluded project in any of its folders: its first `cwd`, and every
 * later one (an agent that `cd`s into the project, a session resumed there from another: Claude Code
 * then writes it in that project's transcript folder, its first lines still in the old folder).
 * Judged by the first folder only, the words typed in the excluded project were stored with the
 * other project's notes, its CLAUDE.md and recall. Nothing of such a session is stored.
 */
export function isSessionKeptOut(spec: RedactionSpec | undefined, model: Pick<SessionModel, "cwd" | "cwds">, keptOut: (spec: RedactionSpec | undefined, cwd: string | undefined) => boolean = isKeptOutOfStore): boolean {
	return keptOut(spec, model.cwd) || model.cwds.some((cwd) => cwd !== model.cwd && keptOut(spec, cwd));
}

/** The exclusions in force, as one string: a file kept out under other exclusions is read again. */
export function exclusionKey(spec: RedactionSpec | undefined): string {
	return JSON.stringify(spec?.excluded ?? []);
}
