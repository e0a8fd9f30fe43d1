// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { migrateSettings } from "../../src/core/settings";
import { ReviewFactsModal } from "../../src/obsidian/review-facts-modal";
import { Modal, Notice, Vault } from "../stubs/obsidian";
import { stubApp } from "../stubs/app";

const INBOX = "AI Memory/shop-api/_inbox";
const fact = (name: string) => `---\nname: ${name}\ndescription: ${name} described\ntype: project\n---\nUse tabs.\n`;

afterEach(() => {
	while (Modal.open.length > 0) Modal.open.at(-1)!.close();
});

/** The modal open on proposals of these names, and a click on one's button. */
async function open(names: string[]) {
	const vault = new Vault();
	const app = stubApp(vault);
	for (const f of ["AI Memory", "AI Memory/shop-api", INBOX]) await vault.createFolder(f);
	for (const n of names) await vault.create(`${INBOX}/${n}.md`, fact(n));
	const modal = new ReviewFactsModal(app as never, migrateSettings(undefined).settings);
	modal.open();
	await new Promise((r) => setTimeout(r, 0));
	const button = (name: string, text: "Accept" | "Reject") => {
		const row = [...modal.contentEl.querySelectorAll(".setting-item")].find((s) => s.textContent?.includes(`${name} described`))!;
		return [...row.querySelectorAll("button")].find((b) => b.textContent === text)!;
	};
	const click = async (b: HTMLButtonElement) => {
		b.click();
		await new Promise((r) => setTimeout(r, 0));
	};
	return { vault, app, button, click };
}

describe("Review proposed facts", () => {
	it("leaves a proposal moved or deleted since the list was drawn alone, and says so", async () => {
		const { vault, app, button, click } = await open(["gone", "moved", "twice"]);
		const reject = button("moved", "Reject");
		const accept = button("gone", "Accept");
		const twice = button("twice", "Accept");
		// Moved out of the inbox by the person to keep: a reject from the list drawn before trashed it there.
		await vault.createFolder("Keep");
		await app.fileManager.renameFile(vault.getFileByPath(`${INBOX}/moved.md`)!, "Keep/moved.md");
		await click(reject);
		expect(vault.getFileByPath("Keep/moved.md")).not.toBeNull();
		expect(Notice.shown.at(-1)).toBe(`${INBOX}/moved.md is no longer waiting: it was moved or deleted meanwhile.`);
		// Deleted meanwhile: the accept failed without a word (an unhandled rejection).
		await app.fileManager.trashFile(vault.getFileByPath(`${INBOX}/gone.md`)!);
		await click(accept);
		expect(Notice.shown.at(-1)).toBe(`${INBOX}/gone.md is no longer waiting: it was moved or deleted meanwhile.`);
		// Clicked twice: accepted once, and not said to exist already.
		twice.click();
		await click(twice);
		expect(vault.getFileByPath("AI Memory/shop-api/twice.md")).not.toBeNull();
		expect(Notice.shown.at(-1)).not.toMatch(/exists already/);
	});
});
