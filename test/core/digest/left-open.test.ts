import { describe, expect, it } from "vitest";
import { leftToUser } from "../../../src/core/digest/left-open";

describe("leftToUser", () => {
	const step = "One thing left on your side: point the staging subdomain at the new load balancer";
	it("keeps a step left on the user's side open until a later request names a word of it the first request did not", () => {
		expect(leftToUser(step, ["Now tidy the changelog"], "Move the staging site to the new balancer")).toBe(true);
		expect(leftToUser(step, ["I updated the subdomain record, check it"], "Move the staging site to the new balancer")).toBe(false);
		// The first request's own words are the session's topic: naming them again takes nothing up.
		expect(leftToUser(step, ["What about the staging balancer costs?"], "Move the staging site to the new balancer")).toBe(true);
	});

	it("is no step of the user's when nothing is left to them", () => {
		expect(leftToUser("Nothing is left on your side: the records are live", [], "Move the site")).toBe(false);
		expect(leftToUser("Deployed the worker to staging", [], "Deploy the worker")).toBe(false);
	});
});
