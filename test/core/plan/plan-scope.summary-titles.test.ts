import { describe, expect, it } from "vitest";
import { summaryTitles } from "../../../src/core/plan/plan-scope";
import { emptySyncState } from "../../../src/core/sync/sync-state";
import { createSession } from "../../../src/core/transcript/session-model";

const modelSeeing = (uuids: number[]) => {
	const model = createSession("s");
	for (const uuid of uuids) model.index.seenUuids.add(uuid);
	return model;
};

describe("a session's `summary` title (a later session's compaction names an earlier one)", () => {
	const state = emptySyncState();
	// Keys above 2^32 keep their insertion order in an object (smaller ones would be sorted as indexes).
	const [a, b, c] = [2 ** 40 + 5, 2 ** 40 + 1, 2 ** 40 + 9];
	state.summaries[String(a)] = "First summary";
	state.summaries[String(b)] = "Second summary";
	state.summaries[String(c)] = "Third summary";

	it("is the later of the summaries the session holds, whether the session or the summaries are fewer", () => {
		const titleOf = summaryTitles(state);
		// Two uuids against three summaries: the session's uuids are gone over.
		expect(titleOf(modelSeeing([b, a]))).toBe("Second summary");
		// Many uuids against three summaries: the summaries are gone over, from the last.
		expect(titleOf(modelSeeing([a, b, ...Array.from({ length: 10 }, (_, i) => i + 1)]))).toBe("Second summary");
		expect(titleOf(modelSeeing([c, a, 1, 2, 3, 4]))).toBe("Third summary");
		expect(titleOf(modelSeeing([1, 2]))).toBeUndefined();
		expect(titleOf(modelSeeing([]))).toBeUndefined();
	});

	it("gives a summary's text as it is when asked, so one redacted since is given redacted", () => {
		const copy = { ...state, summaries: { ...state.summaries } };
		const titleOf = summaryTitles(copy);
		copy.summaries[String(b)] = "Second summary with [REDACTED]";
		expect(titleOf(modelSeeing([b]))).toBe("Second summary with [REDACTED]");
	});
});
