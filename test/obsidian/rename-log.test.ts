// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { RenameLog } from "../../src/obsidian/rename-log";

describe("RenameLog", () => {
	it("tells the renames waiting once per burst: a folder's rename is one event per note", async () => {
		const told: number[] = [];
		const log = new RenameLog((moves) => told.push(moves.length));
		for (let i = 0; i < 3_000; i++) log.add(`Old/n${i}.md`, `Archive/n${i}.md`);
		expect(told).toEqual([]);
		await new Promise((r) => setTimeout(r, 0));
		expect(told).toEqual([3_000]);
		// Taken by a sync, and done: told that none wait.
		const taken = log.take();
		expect(taken).toHaveLength(3_000);
		log.done(taken);
		await new Promise((r) => setTimeout(r, 0));
		expect(told).toEqual([3_000, 0]);
	});

	it("tells a change not told yet at once when flushed (the plugin is unloaded)", () => {
		const told: number[] = [];
		const log = new RenameLog((moves) => told.push(moves.length));
		log.add("a.md", "b.md");
		log.flush();
		expect(told).toEqual([1]);
		log.flush();
		expect(told).toEqual([1]);
	});

	it("keeps telling the renames a sync took until it is done, so an unload while it waits for the lock keeps them, and tells nothing after", async () => {
		const told: string[][] = [];
		const log = new RenameLog((moves) => told.push(moves.map((m) => m.to)));
		log.add("a.md", "Renamed by me.md");
		await new Promise((r) => setTimeout(r, 0));
		const taken = log.take();
		log.add("b.md", "c.md");
		log.close();
		expect(told.at(-1)).toEqual(["Renamed by me.md", "c.md"]);
		// The waiting sync gives up after the unload: nothing more is written.
		log.putBack(taken);
		await new Promise((r) => setTimeout(r, 0));
		expect(told).toHaveLength(2);
	});
});
