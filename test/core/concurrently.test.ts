import { describe, expect, it } from "vitest";
import { mapConcurrently } from "../../src/core/concurrently";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("mapConcurrently", () => {
	it("gives the results in the items' order, with at most `limit` runs at once", async () => {
		let running = 0;
		let most = 0;
		const results = await mapConcurrently([30, 5, 20, 1, 10, 2], 3, async (ms, i) => {
			most = Math.max(most, ++running);
			await tick(ms);
			running--;
			return `${i}:${ms}`;
		});
		expect(results).toEqual(["0:30", "1:5", "2:20", "3:1", "4:10", "5:2"]);
		expect(most).toBe(3);
		expect(await mapConcurrently([], 4, () => Promise.resolve(1))).toEqual([]);
	});

	it("a failure takes no new item, and is thrown once the runs under way have ended", async () => {
		const started: number[] = [];
		const ended: number[] = [];
		const run = mapConcurrently([0, 1, 2, 3, 4, 5], 2, async (n) => {
			started.push(n);
			await tick(n === 0 ? 1 : 20);
			if (n === 0) throw new Error("full disk");
			ended.push(n);
			return n;
		});
		await expect(run).rejects.toThrow("full disk");
		// 1 was under way when 0 failed: it ended before the failure was thrown; 2 and on never started.
		expect(started).toEqual([0, 1]);
		expect(ended).toEqual([1]);
	});
});
