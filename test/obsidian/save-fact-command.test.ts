// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { readFact } from "../../src/core/memory/fact-file";
import { migrateSettings } from "../../src/core/settings";
import { saveSelectionAsFact } from "../../src/obsidian/save-fact-command";
import { type App, type Editor, Modal, Notice, type TFile, Vault } from "../stubs/obsidian";
import { stubApp } from "../stubs/app";

const settings = migrateSettings({}).settings;

async function vaultWith(files: Record<string, string>): Promise<{ app: App; vault: Vault }> {
	const vault = new Vault();
	for (const [path, text] of Object.entries(files)) {
		const parts = path.split("/");
		for (let i = 1; i < parts.length; i++) {
			const folder = parts.slice(0, i).join("/");
			if (!vault.getFolderByPath(folder)) await vault.createFolder(folder);
		}
		await vault.create(path, text);
	}
	return { app: stubApp(vault), vault };
}

const editor = (selection: string): Editor => ({ getSelection: () => selection });
const modal = (): Modal => Modal.open.at(-1)!;
const inputs = (): HTMLInputElement[] => Array.from(modal().contentEl.querySelectorAll<HTMLInputElement>("input"));
const selects = (): HTMLSelectElement[] => Array.from(modal().contentEl.querySelectorAll<HTMLSelectElement>("select"));
const type = (el: HTMLInputElement, value: string) => {
	el.value = value;
	el.dispatchEvent(new Event("input"));
};
const save = async () => {
	modal().contentEl.querySelector<HTMLButtonElement>("button.mod-cta")!.click();
	await new Promise((r) => setTimeout(r, 0));
};

afterEach(() => {
	while (Modal.open.length > 0) Modal.open.at(-1)!.close();
});

describe("Save selection as memory fact", () => {
	it("says in the modal, which stays open, that a file stands where the project's memory folder goes", async () => {
		const note = "AI Conversations/shop-api/2026-11-20 Add rate limiting.md";
		const { app, vault } = await vaultWith({ [note]: "# Add rate limiting\n", "AI Memory/shop-api": "my own file\n" });
		saveSelectionAsFact(app as never, settings, editor("Always run pnpm test before pushing.") as never, vault.getFileByPath(note) as never);
		await save();
		expect(Modal.open).toHaveLength(1);
		expect(modal().contentEl.querySelector(".ai-memory-error")?.textContent).toBe('Not saved: the file "AI Memory/shop-api" stands where a folder of the path should be');
		expect(vault.cachedText("AI Memory/shop-api")).toBe("my own file\n");
	});

	it("asks for project, type and description, then writes a fact linked to the note it came from", async () => {
		const note = "AI Conversations/shop-api/2026-11-20 Add rate limiting.md";
		const { app, vault } = await vaultWith({ [note]: "# Add rate limiting\n", "AI Conversations/other/x.md": "" });
		saveSelectionAsFact(app as never, settings, editor("Always run pnpm test before pushing. It caught two bugs last week.") as never, vault.getFileByPath(note) as never);
		expect(modal().titleEl.textContent).toBe("Save as memory fact");
		const [project, kind] = selects();
		expect(Array.from(project!.options, (o: HTMLOptionElement) => o.value)).toEqual(["other", "shop-api"]);
		expect(project!.value).toBe("shop-api");
		expect(inputs()[0]!.value).toBe("Always run pnpm test before pushing.");
		kind!.value = "feedback";
		kind!.dispatchEvent(new Event("change"));
		type(inputs()[1]!, "test-before-push");
		await save();

		expect(Modal.open).toHaveLength(0);
		const text = await vault.read(vault.getFileByPath("AI Memory/shop-api/test-before-push.md")!);
		expect(readFact("test-before-push.md", text)).toMatchObject({ name: "test-before-push", description: "Always run pnpm test before pushing.", type: "feedback" });
		expect(text).toContain("Always run pnpm test before pushing. It caught two bugs last week.\n\nSource: [[AI Conversations/shop-api/2026-11-20 Add rate limiting|2026-11-20 Add rate limiting]]\n");
		expect(Notice.shown.at(-1)).toBe('Saved the fact "test-before-push" in AI Memory/shop-api.');
	});

	it("takes the project from a note's project property, and never overwrites a fact", async () => {
		const { app, vault } = await vaultWith({ "Daily/today.md": "---\nproject: shop-api\n---\nnotes", "AI Memory/shop-api/use-pnpm.md": "mine" });
		saveSelectionAsFact(app as never, settings, editor("Use pnpm.") as never, vault.getFileByPath("Daily/today.md") as never);
		expect(selects()[0]!.value).toBe("shop-api");
		type(inputs()[0]!, "Use pnpm");
		await save();
		expect(await vault.read(vault.getFileByPath("AI Memory/shop-api/use-pnpm.md")!)).toBe("mine");
		expect(vault.getFileByPath("AI Memory/shop-api/use-pnpm-2.md")).not.toBeNull();
	});

	it("says what is missing instead of saving", async () => {
		const { app } = await vaultWith({ "AI Conversations/shop-api/a.md": "" });
		saveSelectionAsFact(app as never, settings, editor("   ") as never, null);
		expect(Notice.shown.at(-1)).toBe("Select the text to save as a fact first.");
		expect(Modal.open).toHaveLength(0);
		saveSelectionAsFact(app as never, settings, editor("Some text") as never, null as TFile | null as never);
		type(inputs()[0]!, " ");
		await save();
		expect(modal().contentEl.querySelector(".ai-memory-error")!.textContent).toBe("A project and a description are needed.");
	});
});
