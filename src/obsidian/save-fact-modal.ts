import { type App, Modal, Setting } from "obsidian";
import { FACT_TYPES, type FactType } from "../core/memory/fact-file";

export interface FactChoice {
	project: string;
	type: FactType;
	description: string;
	name: string;
}

const TYPE_NAMES: Record<FactType, string> = {
	user: "About me (user)",
	feedback: "How to work (feedback)",
	project: "About the project (project)",
	reference: "Where to look (reference)",
};

/**
 * Asks where a new fact goes and how it is described: project, type, a one-line description
 * (what recall matches on) and a name. Saving is the caller's: `onSave` returns an error to show,
 * or nothing when done.
 */
export class SaveFactModal extends Modal {
	constructor(
		app: App,
		private readonly text: string,
		private readonly projects: readonly string[],
		private readonly initial: Partial<FactChoice>,
		private readonly onSave: (choice: FactChoice) => Promise<string | undefined>,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle("Save as memory fact");
		const choice: FactChoice = { project: this.initial.project ?? this.projects[0] ?? "", type: this.initial.type ?? "project", description: this.initial.description ?? firstSentence(this.text), name: this.initial.name ?? "" };
		const { contentEl } = this;
		contentEl.createEl("blockquote", { text: this.text.length > 400 ? `${this.text.slice(0, 400)}…` : this.text, cls: "ai-memory-fact-preview" });
		new Setting(contentEl).setName("Project").addDropdown((d) => {
			for (const p of this.projects) d.addOption(p, p);
			d.setValue(choice.project).onChange((v) => (choice.project = v));
		});
		new Setting(contentEl).setName("Type").addDropdown((d) => {
			for (const t of FACT_TYPES) d.addOption(t, TYPE_NAMES[t]);
			d.setValue(choice.type).onChange((v) => (choice.type = v as FactType));
		});
		new Setting(contentEl)
			.setName("Description")
			.setDesc("One line; recall matches prompts against it.")
			.addText((t) => t.setValue(choice.description).onChange((v) => (choice.description = v)));
		new Setting(contentEl)
			.setName("Name")
			.setDesc("Kebab-case; made from the description when left empty.")
			.addText((t) => t.setPlaceholder("For example: use-pnpm").setValue(choice.name).onChange((v) => (choice.name = v)));
		const error = contentEl.createDiv({ cls: "ai-memory-error" });
		new Setting(contentEl).addButton((b) =>
			b
				.setButtonText("Save")
				.setCta()
				.onClick(async () => {
					if (choice.project === "" || choice.description.trim() === "") {
						error.setText("A project and a description are needed.");
						return;
					}
					const problem = await this.onSave({ ...choice, description: choice.description.trim(), name: choice.name.trim() });
					if (problem) error.setText(problem);
					else this.close();
				}),
		);
	}

	override onClose(): void {
		this.contentEl.empty();
	}
}

function firstSentence(text: string): string {
	const line = text.trim().split(/\n/)[0] ?? "";
	const sentence = /^(.{10,}?[.!?。！？])(\s|$)/u.exec(line)?.[1] ?? line;
	return sentence.length > 140 ? `${sentence.slice(0, 139)}…` : sentence;
}
