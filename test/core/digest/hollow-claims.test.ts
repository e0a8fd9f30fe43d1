import { describe, expect, it } from "vitest";
import { isHollow } from "../../../src/core/digest/hollow-claims";

describe("hollow claims", () => {
	it.each([
		"All changes are complete.",
		"All done!",
		"Everything is clean and pushed.",
		"I have fully completed the task.",
		"I've identified and fixed the bug.",
		"The task is complete.",
		"That makes sense given what we've been doing today.",
		"Good to know.",
		"Committed.",
		"Done and pushed.",
		"Yep — classic issue.",
		"I've read the whole thing — the harness, the tasks, all the result summaries, and your notes.",
		"All four tasks done.",
		"Everything is captured.",
		"Experiment complete.",
		"The change is clean.",
		"Ready to merge.",
		"Ready to commit when you are.",
		"Ready to paint.",
		"Ready to sand the second shelf whenever you give the signal.",
		"Ah yes, you're absolutely right!",
		"You are correct.",
		"Here's a short recap of what changed and why.",
		"Here is what I found.",
		"I now understand the problem.",
		"Now I see the issue.",
		"The plan is ready.",
		"That's the bug.",
		"Found the culprit!",
		"No action needed on your end.",
		"Nothing else is required from you.",
		"The draft is ready for you to read and sign off when you have a moment.",
		"Done, it should work now.",
		"They should be switched off now.",
	])("%s says nothing of what was done", (s) => {
		expect(isHollow(s)).toBe(true);
	});

	it.each([
		"All 40 tests pass.",
		"All changes are in `src/cache.ts`.",
		"Everything under /api now requires a token.",
		"I've fixed the off-by-one in the pager.",
		"Both files deleted.",
		"I've read the logs: the worker dies on the third retry.",
		"The fix is in the Redis adapter.",
		"All done except the migration, which needs a DBA.",
		"This is a well-known GitHub limitation: PRs opened by a workflow token trigger no other workflow.",
		"The migration is complete for orders; invoices still use the old table.",
		"Ready to merge once the staging deploy goes green.",
		"All four tasks done except the export.",
		"You're right that the cache key misses the locale: added it.",
		"Here's the summary: the pager skipped the last page.",
		"I see the pager skips the last page when it is full.",
		"That's the bug in the retry loop: it never backs off.",
		"No changes needed in the billing module.",
		"The draft is ready for printing once the cover art arrives.",
		"It should be faster now that the index is there.",
	])("%s names what was done", (s) => {
		expect(isHollow(s)).toBe(false);
	});

	it.each([
		["PAY-311 is complete.", "Pick up PAY-311 and keep notes in the tracker"],
		["The GraphQL migration is complete!", "Move the orders endpoint to GraphQL"],
		["The `v2.4` upgrade has been successfully completed.", "Bump the SDK to v2.4"],
	])("%s claims the end of what the request named, and nothing more", (s, ask) => {
		expect(isHollow(s, ask)).toBe(true);
	});

	it.each([
		["PAY-311 is complete.", "Tidy the changelog"],
		["The GraphQL migration is complete for orders.", "Move the orders endpoint to GraphQL"],
		["PAY-311 is blocked on the vendor.", "Pick up PAY-311"],
		["The REST fallback is complete.", "Move the orders endpoint to GraphQL"],
	])("%s names more than the request did, or no end", (s, ask) => {
		expect(isHollow(s, ask)).toBe(false);
	});

	it("judges each claim against its own request when requests alternate", () => {
		const claim = "The KV-9 migration is complete.";
		for (let round = 0; round < 3; round++) {
			expect(isHollow(claim, "Start the KV-9 migration")).toBe(true);
			expect(isHollow(claim, "Write the release notes")).toBe(false);
			expect(isHollow(claim, "Start the KV-9 migration")).toBe(true);
		}
	});
});
