import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadLabels, scoreCorpus } from "../../eval/digest-eval";

/**
 * The digest evaluation (`npm run eval:digest`) as a guard: what reaches the next session from
 * the real transcripts carries no narration, stays small, and keeps covering what our labels say
 * the sessions asked, did, left open and decided. The floors sit a little under the figures
 * measured when they were set (README), so a change that loses ground fails here.
 */
const SHARED = join(__dirname, "..", "..", "..", "shared", "corpus");
const LABELS = join(__dirname, "..", "..", "eval", "labels");

const present = existsSync(join(SHARED, "claude-transcripts"));
describe.skipIf(!present)(`digest evaluation on the public corpus${present ? "" : " (skipped: ../shared/corpus is not beside this clone)"}`, () => {
	it("keeps narration out, entries small, and coverage of the labels", async () => {
		const f = await scoreCorpus(join(SHARED, "claude-transcripts"), loadLabels(join(LABELS, "claude-transcripts-[a-z].json")));
		expect(f.narration).toEqual([]);
		expect(f.emptyWithEntry).toBe(0);
		expect(f.meanEntryChars).toBeLessThanOrEqual(700);
		const share = (k: keyof typeof f.coverage) => f.coverage[k][0] / f.coverage[k][1];
		expect(share("asked")).toBeGreaterThanOrEqual(0.8);
		expect(share("done")).toBeGreaterThanOrEqual(0.68);
		expect(share("open")).toBeGreaterThanOrEqual(0.7);
		expect(share("decisions")).toBeGreaterThanOrEqual(0.5);
	});

	// Labeled from the transcripts before the digest was measured or changed on them (README).
	it("does the same on the second corpus, from other repositories and clients", async () => {
		const f = await scoreCorpus(join(SHARED, "claude-transcripts-2"), loadLabels(join(LABELS, "claude-transcripts-2.json")));
		expect(f.narration).toEqual([]);
		expect(f.emptyWithEntry).toBe(0);
		expect(f.meanEntryChars).toBeLessThanOrEqual(800);
		const share = (k: keyof typeof f.coverage) => f.coverage[k][0] / f.coverage[k][1];
		expect(share("asked")).toBeGreaterThanOrEqual(0.82);
		expect(share("done")).toBeGreaterThanOrEqual(0.66);
		expect(share("open")).toBeGreaterThanOrEqual(0.66);
		expect(share("decisions")).toBeGreaterThanOrEqual(0.44);
	});
});

describe("digest evaluation on the recorded examples", () => {
	it("covers every labeled item of the sessions recorded with the real client", async () => {
		const f = await scoreCorpus(join(__dirname, "..", "..", "examples", "claude-projects"), loadLabels(join(LABELS, "examples.json")));
		expect(f.narration).toEqual([]);
		for (const k of ["asked", "done"] as const) expect(f.coverage[k][0]).toBe(f.coverage[k][1]);
	});
});
