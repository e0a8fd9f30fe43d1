import { describe, expect, it } from "vitest";
import { decisionsOf } from "../../../src/core/digest/decisions";

describe("decisionsOf", () => {
	it("knows choices stated as the fix to make, as what to keep or call instead, and as what is not needed", () => {
		const replies = [
			"The best fix is to apply the defaults only during onboarding, so a cleared target stays cleared.",
			"Kept the session token in memory rather than in localStorage.",
			"No schema migration needed: the column already exists in every environment.",
			// A diagnosis, not a choice.
			"The entry has a `content` field instead of a `message` field.",
		];
		expect(decisionsOf([], replies)).toEqual([
			"The best fix is to apply the defaults only during onboarding, so a cleared target stays cleared.",
			"Kept the session token in memory rather than in localStorage.",
			"No schema migration needed: the column already exists in every environment.",
		]);
	});

	it("takes a choice from the clause it is in when the user typed one long run-on paragraph", () => {
		const prompt = `${"so there is a lot of context here about the roadmap and the partners and what we want to show ".repeat(3)}and after the demo we'll go with the invite-only beta first then open it to everyone`;
		const [choice] = decisionsOf([prompt], []);
		expect(choice).toBe("user chose: and after the demo we'll go with the invite-only beta first then open it to everyone");
	});

	it("reads a user's 'dont use' as a choice, with or without the apostrophe", () => {
		expect(decisionsOf(["hey dont use the staging bucket for this"], [])).toEqual(["user chose: dont use the staging bucket for this"]);
	});
});
