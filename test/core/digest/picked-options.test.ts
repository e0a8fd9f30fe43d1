import { describe, expect, it } from "vitest";
import { pickedOptions } from "../../../src/core/digest/picked-options";
import type { SessionEvent } from "../../../src/core/transcript/session-model";

const say = (text: string): SessionEvent => ({ kind: "text", text });
const ask = (text: string): SessionEvent => ({ kind: "prompt", promptKind: "prompt", text, images: 0 });

const LABELED = "Two ways to go:\n\n**Option A: Keep the endpoint** — add a flag for the new shape.\n\n**Option B: A nightly job** — rebuild the index off-line.\n\nWhich do you prefer?";
const LISTED = "Here's the plan:\n\n1. Poll the inbox\n2. Light the LED\n\nA few options for auth:\n\n- **Device code flow** — simplest, you sign in once\n- **Reuse the browser session** — trickier\n- **A service account** — needs an admin\n\nWhich sounds best?";

describe("pickedOptions", () => {
	it("tells a pick by letter or number by the option it names, with what the option says", () => {
		expect(pickedOptions([say(LABELED), ask("b please")]).map((p) => p.choice)).toEqual(["user chose: Option B: A nightly job — rebuild the index off-line."]);
		expect(pickedOptions([say(LABELED), ask("ok let's go with option A")]).map((p) => p.choice)).toEqual(["user chose: Option A: Keep the endpoint — add a flag for the new shape."]);
		const lettered = "Two ways to handle sign-up mail:\n\n- **(a) Turn confirmation off** — users sign in at once\n- **(b) Keep confirmation on** — point the template at `/auth/confirm`";
		expect(pickedOptions([say(lettered), ask("b option and then go on")]).map((p) => p.choice)).toEqual(["user chose: Keep confirmation on — point the template at `/auth/confirm`"]);
	});

	it("tells a pick by position from the reply's last list", () => {
		expect(pickedOptions([say(LISTED), ask("first option sounds easy")]).map((p) => p.choice)).toEqual(["user chose: Device code flow — simplest, you sign in once"]);
		expect(pickedOptions([say(LISTED), ask("the last one")]).map((p) => p.choice)).toEqual(["user chose: A service account — needs an admin"]);
	});

	it("takes no question, no step that starts with an ordinal, and no pick of an option not there", () => {
		expect(pickedOptions([say(LABELED), ask("would option A break the old clients?")])).toEqual([]);
		expect(pickedOptions([say(LISTED), ask("First, fix the failing tests")])).toEqual([]);
		expect(pickedOptions([say(LABELED), ask("option D")])).toEqual([]);
		expect(pickedOptions([ask("b please")])).toEqual([]);
	});
});
