import { type App, type Editor, Notice, normalizePath, type TFile } from "obsidian";
import { newFactFile } from "../core/memory/new-fact";
import type { Settings } from "../core/settings";
import { SaveFactModal } from "./save-fact-modal";
import { projectNames, projectOf } from "./projects";
import { VaultNoteStore } from "./vault-note-store";

/**
 * "Save selection as memory fact": the selected text becomes a fact note in
 * `<memory folder>/<project>/`, linked back to the note it came from. The project is the one the
 * note belongs to when it can tell (a session note, a fact, or a note with a `project` property).
 */
export function saveSelectionAsFact(app: App, settings: Settings, editor: Editor, file: TFile | null): void {
	const text = editor.getSelection();
	if (text.trim() === "") {
		new Notice("Select the text to save as a fact first.");
		return;
	}
	const projects = projectNames(app, settings);
	const store = new VaultNoteStore(app.vault, (f) => app.fileManager.trashFile(f), (f, to) => app.fileManager.renameFile(f, to));
	new SaveFactModal(app, text, projects, { project: file ? projectOf(app, settings, file) : undefined }, async (choice) => {
		const folder = normalizePath(`${settings.memoryFolder}/${choice.project}`);
		const taken = new Set((await store.list(folder)).map((p) => p.slice(folder.length + 1).toLowerCase()));
		const fact = newFactFile({ text, description: choice.description, type: choice.type, name: choice.name, source: file ? { path: file.path, title: file.basename } : undefined }, taken);
		try {
			if (!(await store.write(`${folder}/${fact.file}`, fact.text, null))) return `${folder}/${fact.file} exists already; choose another name.`;
		} catch (error) {
			// A file where the project's memory folder goes: said in the modal, which stays open with the text.
			return `Not saved: ${error instanceof Error ? error.message : String(error)}`;
		}
		new Notice(`Saved the fact "${fact.name}" in ${folder}.`);
		return undefined;
	}).open();
}
