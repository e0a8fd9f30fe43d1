import type { ProjectSettings, Settings } from "./settings";

/**
 * The settings to save when data.json changed on disk since the plugin last read it (a CLI's
 * `projects add` a moment before, not yet heard by the plugin): what the person changed here
 * (`before` → `mine`) over what the disk holds now (`theirs`). A setting changed only there stays
 * as it is there; projects are merged one by one (by path), so a project added there is kept
 * beside one toggled here. Saved whole from `mine`, the project added there was lost.
 */
export function mergeSettings(before: Settings, mine: Settings, theirs: Settings): Settings {
	const merged: Record<string, unknown> = { ...theirs };
	const b: Record<string, unknown> = { ...before };
	const m: Record<string, unknown> = { ...mine };
	for (const key of Object.keys(m)) if (key !== "projects" && !same(m[key], b[key])) merged[key] = m[key];
	for (const key of Object.keys(b)) if (!(key in m)) delete merged[key];
	merged.projects = mergeProjects(before.projects, mine.projects, theirs.projects);
	return merged as unknown as Settings;
}

function mergeProjects(before: readonly ProjectSettings[], mine: readonly ProjectSettings[], theirs: readonly ProjectSettings[]): ProjectSettings[] {
	const byPath = (list: readonly ProjectSettings[]) => new Map(list.map((p) => [p.path, p]));
	const [was, now] = [byPath(before), byPath(mine)];
	const out: ProjectSettings[] = [];
	for (const project of theirs) {
		const old = was.get(project.path);
		const mineNow = now.get(project.path);
		// Removed here: gone, unless it changed there meanwhile (then theirs, as it is there).
		if (old && !mineNow) {
			if (!same(old, project)) out.push(project);
			continue;
		}
		// Changed here: mine; else theirs (unchanged here, or added there).
		out.push(old && mineNow && !same(old, mineNow) ? mineNow : (mineNow && !old ? mineNow : project));
	}
	const kept = new Set(out.map((p) => p.path));
	// Added here (or changed here and removed there: the person's setting is kept), after theirs.
	for (const project of mine) {
		const old = was.get(project.path);
		if (!kept.has(project.path) && (!old || !same(old, project))) out.push(project);
	}
	return out;
}

function same(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}
