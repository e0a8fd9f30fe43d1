// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { DeletionLog } from "../../src/obsidian/deletion-log";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("DeletionLog", () => {
	it("asks once per burst, keeps only what may be or hold a note, and hands each deletion to one sync", async () => {
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
		const taken = log.take();
		expect(taken).toHaveLength(3_002);
		expect(taken.slice(-2)).toEqual(["Old", "Notes/Upper.MD"]);
		expect(log.take()).toEqual([]);
	});

	it("puts back what a failed sync took, before what came since, and asks nothing once closed", async () => {
		let asked = 0;
		const log = new DeletionLog(() => asked++);
		log.add("a.md", false);
		const taken = log.take();
		log.add("b.md", false);
		log.putBack(taken);
		expect(log.take()).toEqual(["a.md", "b.md"]);
		await tick();
		expect(asked).toBe(1);
		log.add("c.md", false);
		log.close();
		await tick();
		expect(asked).toBe(1);
	});
});
