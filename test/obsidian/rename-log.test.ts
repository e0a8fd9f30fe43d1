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
		// Taken by a sync: told that none wait.
		expect(log.take()).toHaveLength(3_000);
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
});
