import { describe, expect, it } from "vitest";
import { leftOpen, leftToUser, withItsRequest } from "../../../src/core/digest/left-open";
import type { ProseUnit } from "../../../src/core/digest/prose";

describe("leftToUser", () => {
	const step = "One thing left on your side: point the staging subdomain at the new load balancer";
	it("keeps a step left on the user's side open until a later request names a word of it the first request did not", () => {
		const topic = "Move the staging site to the new balancer";
		expect(leftToUser([topic, "Now tidy the changelog"])(step, 0)).toBe(true);
		expect(leftToUser([topic, "I updated the subdomain record, check it"])(step, 0)).toBe(false);
		// The first request's own words are the session's topic: naming them again takes nothing up.
		expect(leftToUser([topic, "What about the staging balancer costs?"])(step, 0)).toBe(true);
		// Only a later request takes it up: one before it, or its own, does not.
		expect(leftToUser(["Check the subdomain first", topic, "Now tidy the changelog"])(step, 1)).toBe(true);
	});

	it("is no step of the user's when nothing is left to them", () => {
		expect(leftToUser(["Move the site"])("Nothing is left on your side: the records are live", 0)).toBe(false);
		expect(leftToUser(["Deploy the worker"])("Deployed the worker to staging", 0)).toBe(false);
	});
});

describe("leftOpen", () => {
	const step = (text: string): ProseUnit => ({ text, kind: "item", section: "before it works:" });
	it("leaves a step that only goes to a place out of what is left to do, and keeps one that says what to do there", () => {
		expect(leftOpen(step("Go to https://dashboard.example.org/keys"))).toBeUndefined();
		expect(leftOpen(step("Open `http://localhost:8080`."))).toBeUndefined();
		expect(leftOpen(step("Create a signing key named `release`"))).toBe("Create a signing key named `release`");
		expect(leftOpen(step("Open https://dashboard.example.org/keys and revoke the old key"))).toBe("Open https://dashboard.example.org/keys and revoke the old key");
	});
});

describe("withItsRequest", () => {
	it("tells a pick among the options laid out that names nothing of the request with the request", () => {
		expect(withItsRequest("Which one should I go with?", "Sketch three layouts for the invoice footer")).toBe(
			"Which one should I go with? (about: Sketch three layouts for the invoice footer)",
		);
	});

	it("leaves alone a question that names its subject, one that picks nothing among options, and one with no request before it", () => {
		expect(withItsRequest("Which footer should keep the bank details?", "Sketch three layouts for the invoice footer")).toBe("Which footer should keep the bank details?");
		expect(withItsRequest("Should I also add a dark theme?", "Sketch three layouts for the invoice footer")).toBe("Should I also add a dark theme?");
		expect(withItsRequest("Which one should I go with?", undefined)).toBe("Which one should I go with?");
	});
});
