import { type App, normalizePath, TFile, TFolder } from "obsidian";
import type { Settings } from "../core/settings";

/** Projects known in the vault: folders of the notes and memory folders, and enabled projects. */
export function projectNames(app: App, settings: Settings): string[] {
	const names = new Set<string>();
	for (const root of [settings.notesFolder, settings.memoryFolder]) {
		const folder = app.vault.getFolderByPath(normalizePath(root));
		for (const child of folder?.children ?? []) if (child instanceof TFolder) names.add(child.name);
	}
	for (const p of settings.projects) names.add(p.path.split(/[\\/]/).filter(Boolean).pop() ?? p.path);
	return [...names].sort((a, b) => a.localeCompare(b));
}

export function projectOf(app: App, settings: Settings, file: TFile): string | undefined {
	for (const root of [settings.notesFolder, settings.memoryFolder]) {
		const prefix = `${normalizePath(root)}/`;
		if (file.path.startsWith(prefix)) {
			const parts = file.path.slice(prefix.length).split("/");
			if (parts.length > 1) return parts[0];
		}
	}
	const property: unknown = app.metadataCache.getFileCache(file)?.frontmatter?.project;
	return typeof property === "string" ? property : undefined;
}

/** The newest session note of a project (by its `started` property, then its name), if any. */
export function latestSessionNote(app: App, settings: Settings, project: string): TFile | undefined {
	const folder = app.vault.getFolderByPath(normalizePath(`${settings.notesFolder}/${project}`));
	const notes = (folder?.children ?? []).filter((c): c is TFile => c instanceof TFile && c.extension === "md" && /^\d{4}-\d\d-\d\d /.test(c.name));
	const started = (f: TFile) => {
		const value: unknown = app.metadataCache.getFileCache(f)?.frontmatter?.started;
		return typeof value === "string" ? value : f.name.slice(0, 10);
	};
	return notes.sort((a, b) => started(b).localeCompare(started(a)) || b.name.localeCompare(a.name))[0];
}

/** The project path (as Claude Code records the cwd) a note belongs to, when it can be told. */
export function projectPathOf(app: App, settings: Settings, file: TFile): string | undefined {
	const own: unknown = app.metadataCache.getFileCache(file)?.frontmatter?.project_path;
	if (typeof own === "string" && own !== "") return own;
	const name = projectOf(app, settings, file);
	if (name === undefined) return undefined;
	const enabled = settings.projects.find((p) => p.path.split(/[\\/]/).filter(Boolean).pop() === name);
	if (enabled) return enabled.path;
	const latest = latestSessionNote(app, settings, name);
	const path: unknown = latest ? app.metadataCache.getFileCache(latest)?.frontmatter?.project_path : undefined;
	return typeof path === "string" ? path : undefined;
}
