import { normalizePath, type App } from "obsidian";
import { dashboardCharts } from "../core/charts/dashboard-charts";
import { renderDashboard, writeDashboard } from "../core/notes/dashboard-note";
import type { Settings } from "../core/settings";
import type { CatalogRows } from "../core/usage/session-rows";
import { summarizeUsage } from "../core/usage/usage-summary";
import { VaultNoteStore } from "./vault-note-store";

/** Where the dashboard note goes: the notes folder, its pictures in `Dashboard/` beside it. */
export function dashboardPath(settings: Settings): string {
	return normalizePath(`${settings.notesFolder}/Sessions dashboard.md`);
}

/**
 * The dashboard of every session, written into the vault through the Vault API: pictures whose
 * bytes did not change are left alone, the user's own text in the note is kept. Returns what it did.
 */
export async function writeDashboardNote(app: App, settings: Settings, rows: CatalogRows): Promise<string> {
	const store = new VaultNoteStore(app.vault, (file) => app.fileManager.trashFile(file), (file, to) => app.fileManager.renameFile(file, to));
	const summary = summarizeUsage(rows.sessions, settings.prices, rows.usageOnly);
	const files = renderDashboard(normalizePath(settings.notesFolder), summary, dashboardCharts(summary), rows.sessions.length);
	const path = dashboardPath(settings);
	let result: Awaited<ReturnType<typeof writeDashboard>>;
	try {
		result = await writeDashboard(store, path, files);
	} catch (error) {
		// A file where its folder goes: said in the notice, not an unhandled rejection with none.
		return `Dashboard not updated: ${error instanceof Error ? error.message : String(error)}`;
	}
	if (result.problem) return `Dashboard not updated: ${result.problem}`;
	return result.written.length === 0 ? "The dashboard is up to date." : `Dashboard updated: ${result.written.length} file${result.written.length === 1 ? "" : "s"} written.`;
}
