// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { DeletionLog } from "../../src/obsidian/deletion-log";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("DeletionLog", () => {
	it("asks once per burst, and only for what may be or hold a note", async () => {
		let asked = 0;
		const log = new DeletionLog(() => asked++);
		log.add("Pictures/cat.png", false);
		await tick();
		expect(asked).toBe(0);
		for (let i = 0; i < 3_000; i++) log.add(`Old/n${i}.md`, false);
		log.add("Old", true);
		log.add("Notes/Upper.MD", false);
		expect(asked).toBe(0);
		await tick();
		expect(asked).toBe(1);
		log.add("Archive", true);
		await tick();
		expect(asked).toBe(2);
	});

	it("asks nothing once closed, not even for a burst already waiting", async () => {
		let asked = 0;
		const log = new DeletionLog(() => asked++);
		log.add("a.md", false);
		log.close();
		await tick();
		log.add("c.md", false);
		await tick();
		expect(asked).toBe(0);
	});
});
