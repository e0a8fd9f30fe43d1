import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTitleLabels, scoreTitles } from "../../eval/title-eval";

/**
 * The title evaluation (`npm run eval:titles`) as a guard: on the real transcripts, titles keep
 * naming what our labels say the sessions were about, and the automatic checks (no narration,
 * header, slash command, pasted error, path, cut word, other language) keep finding few flaws.
 * The floors sit a little under the figures measured when they were set (README).
 */
const SHARED = join(__dirname, "..", "..", "..", "shared", "corpus");
const LABELS = join(__dirname, "..", "..", "eval", "titles", "labels.json");

const present = existsSync(join(SHARED, "claude-transcripts"));
describe.skipIf(!present)(`title evaluation on the public corpus${present ? "" : " (skipped: ../shared/corpus is not beside this clone)"}`, () => {
	// The second corpus's titles were labeled from the transcripts before the titles were measured or changed on them.
	it.each([
		{ corpus: "claude-transcripts", good: 0.9, maxFlawed: 2 },
		{ corpus: "claude-transcripts-2", good: 0.86, maxFlawed: 2 },
	])("$corpus: good titles and few flaws", ({ corpus, good, maxFlawed }) => {
		const f = scoreTitles(join(SHARED, corpus), loadTitleLabels(LABELS, corpus));
		expect(f.labelled).toBeGreaterThan(25);
		expect(f.good / f.labelled).toBeGreaterThanOrEqual(good);
		expect(f.flawed).toBeLessThanOrEqual(maxFlawed);
		for (const check of ["header", "command", "error", "path", "language", "narration", "cut"] as const) expect(f.failures[check], check).toBe(0);
	});
});
