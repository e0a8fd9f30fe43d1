import { createRedactor } from "../digest/redact";
import type { SessionDigest } from "../digest/session-digest";
import type { Settings } from "../settings";

const redactors = new Map<string, (text: string) => string>();

/** The redaction in force for a project: settings-wide, unless the project turned it off. */
export function redactorFor(settings: Settings, projectPath: string | undefined): (text: string) => string {
	const project = settings.projects.find((p) => p.path === projectPath);
	if (!settings.redaction.enabled || project?.redaction === false) return (text) => text;
	const key = JSON.stringify(settings.redaction.extraPatterns);
	let redact = redactors.get(key);
	if (!redact) {
		const redactor = createRedactor({ extraPatterns: settings.redaction.extraPatterns });
		redact = (text) => redactor.redact(text);
		redactors.set(key, redact);
	}
	return redact;
}

export function redactDigest(d: SessionDigest, redact: (text: string) => string): SessionDigest {
	const r = (t: string | undefined) => (t === undefined ? undefined : redact(t));
	return {
		...d,
		title: redact(d.title),
		goal: r(d.goal),
		outcome: r(d.outcome),
		commands: d.commands.map(redact),
		errors: d.errors.map(redact),
		decisions: d.decisions.map(redact),
		openEnds: d.openEnds.map(redact),
	};
}
