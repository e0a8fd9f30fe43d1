import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLabels, scoreCorpus } from "../../eval/digest-eval";

/**
 * The digest evaluation (`npm run eval:digest`) as a guard: what reaches the next session from
 * the real transcripts carries no narration, stays small, and keeps covering what our labels say
 * the sessions asked, did, left open and decided, and what it tells as done, open or decided matching a labeled item. The floors sit a little under the figures
 * measured when they were set (README), so a change that loses ground fails here.
 */
const SHARED = join(__dirname, "..", "..", "..", "shared", "corpus");
const LABELS = join(__dirname, "..", "..", "eval", "labels");

const present = existsSync(join(SHARED, "claude-transcripts"));
describe.skipIf(!present)(`digest evaluation on the public corpus${present ? "" : " (skipped: ../shared/corpus is not beside this clone)"}`, () => {
	// The second corpus was labeled from the transcripts before the digest was measured or changed on them (README).
	it.each([
		{ corpus: "claude-transcripts", labels: "claude-transcripts-[a-z].json", maxMean: 750, floors: { asked: 0.86, done: 0.8, open: 0.9, decisions: 0.8 }, told: { done: 0.58, open: 0.74, decisions: 0.6 } },
		{ corpus: "claude-transcripts-2", labels: "claude-transcripts-2.json", maxMean: 880, floors: { asked: 0.92, done: 0.84, open: 0.85, decisions: 0.69 }, told: { done: 0.67, open: 0.74, decisions: 0.7 } },
	])("$corpus: narration kept out, entries small, and coverage of the labels", async ({ corpus, labels, maxMean, floors, told }) => {
		const f = await scoreCorpus(join(SHARED, corpus), loadLabels(join(LABELS, labels)));
		expect(f.narration).toEqual([]);
		expect(f.emptyWithEntry).toBe(0);
		expect(f.meanEntryChars).toBeLessThanOrEqual(maxMean);
		for (const [k, floor] of Object.entries(floors) as [keyof typeof f.coverage, number][]) expect(f.coverage[k][0] / f.coverage[k][1], k).toBeGreaterThanOrEqual(floor);
		// And what is told as done, open or decided is mostly an item our labels name (the rest, read: items the labels word otherwise, or none).
		for (const [k, floor] of Object.entries(told) as [keyof typeof f.told, number][]) expect(f.told[k][0] / f.told[k][1], `${k} told that match a label`).toBeGreaterThanOrEqual(floor);
	});
});

describe("digest evaluation on the recorded examples", () => {
	it("covers every labeled item of the sessions recorded with the real client", async () => {
		const f = await scoreCorpus(join(__dirname, "..", "..", "examples", "claude-projects"), loadLabels(join(LABELS, "examples.json")));
		expect(f.narration).toEqual([]);
		for (const k of ["asked", "done"] as const) expect(f.coverage[k][0]).toBe(f.coverage[k][1]);
	});
});
