import { type App, Modal, Notice, normalizePath, Setting, TFile, TFolder } from "obsidian";
import { readFact } from "../core/memory/fact-file";
import type { Settings } from "../core/settings";
import { INBOX } from "../core/plan/plan-proposals";

/**
 * "Review proposed facts": every fact waiting in a project's `_inbox`, with its description and
 * source; accept moves it into the project's memory (where the next sync shares it), reject
 * deletes it (it is never proposed again), open shows it for editing first.
 */
export class ReviewFactsModal extends Modal {
	constructor(
		app: App,
		private readonly settings: Settings,
	) {
		super(app);
	}

	override async onOpen(): Promise<void> {
		this.setTitle("Proposed facts");
		await this.render();
	}

	override onClose(): void {
		this.contentEl.empty();
	}

	private async render(): Promise<void> {
		this.contentEl.empty();
		const waiting = proposedFacts(this.app, this.settings);
		if (waiting.length === 0) {
			this.contentEl.createEl("p", { text: "No proposed facts are waiting." });
			return;
		}
		for (const { file, project } of waiting) {
			const fact = readFact(file.name, await this.app.vault.cachedRead(file));
			const path = file.path;
			new Setting(this.contentEl)
				.setName(fact.description)
				.setDesc(`${project} · ${fact.type ?? "fact"} · ${fact.name}`)
				.addButton((b) => b.setButtonText("Open").onClick(() => void this.app.workspace.getLeaf(false).openFile(file).then(() => this.close())))
				.addButton((b) =>
					b
						.setButtonText("Accept")
						.setCta()
						.onClick(() =>
							this.act(file, path, async () => {
								const target = normalizePath(`${this.settings.memoryFolder}/${project}/${file.name}`);
								if (this.app.vault.getAbstractFileByPath(target)) new Notice(`${target} exists already: open the proposal and rename it first.`);
								else await this.app.fileManager.renameFile(file, target);
							}),
						),
				)
				.addButton((b) =>
					b
						.setButtonText("Reject")
						.setClass("mod-warning")
						.onClick(() => this.act(file, path, () => this.app.fileManager.trashFile(file))),
				);
		}
	}

	/**
	 * Accept or reject a proposal still where the list showed it: one the person (or a sync) moved
	 * or deleted since is left alone (a reject from the list trashed a note moved out of the inbox
	 * to keep; an accept of a deleted one failed without a word). Then the list is drawn again.
	 */
	private async act(file: TFile, path: string, action: () => Promise<void>): Promise<void> {
		if (this.app.vault.getFileByPath(path) !== file) new Notice(`${path} is no longer waiting: it was moved or deleted meanwhile.`);
		else {
			try {
				await action();
			} catch (error) {
				new Notice(`${path}: not done, ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		await this.render();
	}
}

/** Notes in `<memory folder>/<project>/_inbox/`, by project then name. */
function proposedFacts(app: App, settings: Settings): { file: TFile; project: string }[] {
	const root = app.vault.getFolderByPath(normalizePath(settings.memoryFolder));
	const found: { file: TFile; project: string }[] = [];
	for (const project of root?.children ?? []) {
		if (!(project instanceof TFolder)) continue;
		const inbox = app.vault.getFolderByPath(normalizePath(`${project.path}/${INBOX}`));
		for (const file of inbox?.children ?? []) if (file instanceof TFile && file.extension === "md") found.push({ file, project: project.name });
	}
	return found.sort((a, b) => a.project.localeCompare(b.project) || a.file.name.localeCompare(b.file.name));
}
