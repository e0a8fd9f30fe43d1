import { describe, expect, it } from "vitest";
import { agreedProposals } from "../../../src/core/digest/agreed-proposals";
import type { SessionEvent } from "../../../src/core/transcript/session-model";

const say = (text: string): SessionEvent => ({ kind: "text", text });
const ask = (text: string): SessionEvent => ({ kind: "prompt", promptKind: "prompt", text, images: 0 });
const choices = (events: SessionEvent[]) => agreedProposals(events).map((p) => p.choice);

describe("agreedProposals", () => {
	it("tells a way the user only weighed as their choice once the agent's reply agrees with it", () => {
		expect(choices([ask("The cache still misses :( maybe we should store it per tenant?"), say("You're right — one store per tenant keeps the entries apart. Updating the lookup now.")])).toEqual(["user chose: The cache still misses :( maybe we should store it per tenant"]);
		expect(choices([ask("You could read the port from the env instead, less to configure"), say("Good idea! Reading it from the env.")])).toEqual(["user chose: You could read the port from the env instead, less to configure"]);
	});

	it("hears the agreement after a short interjection", () => {
		expect(choices([ask("The export should leave archived rows out, maybe keep them in a file of their own?"), say("Ah yes, you're absolutely right! Archived rows only clutter the main export.")])).toEqual(["user chose: The export should leave archived rows out, maybe keep them in a file of their own"]);
		expect(choices([ask("maybe keep the old flag as an alias?"), say("Oh, good idea. Adding the alias.")])).toEqual(["user chose: maybe keep the old flag as an alias"]);
		// An interjection alone agrees to nothing.
		expect(choices([ask("maybe keep the old flag as an alias?"), say("Ah, the flag is read in two places.")])).toEqual([]);
	});

	it("leaves the user's asides out of their way: a question inside one does not end it, nor does its length count", () => {
		expect(choices([ask("So I think we compute the totals once at import (do we even need them per request?) and store them on the record. Does that work?"), say("You're right, per request they never change.")])).toEqual([
			"user chose: So I think we compute the totals once at import and store them on the record.",
		]);
		const aside = "(the nightly job already reads every row, the dashboard only shows last week, and the two reports nobody opens could go too)";
		expect(choices([ask(`can we move the rollup into the nightly job ${aside} and keep the page as it is`), say("Good idea! Moving it.")])).toEqual(["user chose: can we move the rollup into the nightly job and keep the page as it is"]);
	});

	it("keeps only the user's words, up to their question mark", () => {
		expect(choices([ask("Should we switch the job to the queue? 12:01:07 worker exited with code 137"), say("Exactly! The worker runs out of memory on each batch.")])).toEqual(["user chose: Should we switch the job to the queue"]);
	});

	it("tells nothing when the reply does not agree, the prompt names no way, or argues at length", () => {
		expect(choices([ask("maybe we should switch to the queue?"), say("The cron job is fine as it is; the queue would add a broker.")])).toEqual([]);
		expect(choices([ask("the save button does nothing"), say("You're right, the handler is never bound.")])).toEqual([]);
		expect(choices([ask("why did you set the timeout to five seconds?"), say("You're right, that is too short for the upload.")])).toEqual([]);
		// A prompt that makes its choice in its own words is told by them, not again here.
		expect(choices([ask("you're using npm here. Use pnpm instead."), say("You're right — switching to pnpm.")])).toEqual([]);
		const argued = `the trouble with the first design is that ${"every retry replays the whole batch and nothing marks what already went out, ".repeat(3)}so we could use a ledger later`;
		expect(choices([ask(argued), say("You're absolutely right!")])).toEqual([]);
	});
});
