import { realpathSync } from "node:fs";
import { isKeptOutOfStore, type RedactionSpec } from "../core/ingest/redaction-policy";

/**
 * `isKeptOutOfStore`, with the session's folder also as it is once links are followed: a session
 * that ran in a link to an excluded project (`~/work/app` → `/data/secret`, macOS's `/tmp` →
 * `/private/tmp`) is that project, as the plan already reads it (by the project's identity), so its
 * model is not stored either (compared as written, its prompts and replies went into the state's
 * model packs while its notes were rightly left out).
 */
export function keptOutOfStore(spec: RedactionSpec | undefined, cwd: string | undefined): boolean {
	if (isKeptOutOfStore(spec, cwd)) return true;
	if (cwd === undefined || spec?.excluded === undefined || spec.excluded.length === 0) return false;
	let real: string;
	try {
		real = realpathSync.native(cwd);
	} catch {
		return false; // not there (any more): as written, above
	}
	return real !== cwd && isKeptOutOfStore(spec, real);
}
