import { describe, expect, it } from "vitest";
import { closesFence, fenceOpening } from "../../../src/core/text/fences";

describe("fenceOpening", () => {
	it.each([
		["```", "```"],
		["```ts title", "```"],
		["   ~~~~ any `info`", "~~~~"],
		["```npm install``` fails", undefined],
		["``` a ` b", undefined],
		["    ```", undefined],
		["``", undefined],
	])("%j", (line, run) => {
		expect(fenceOpening(line)).toBe(run);
	});
});

describe("closesFence", () => {
	it("wants the same character, as many or more, and nothing after", () => {
		expect(closesFence("````", "```")).toBe(true);
		expect(closesFence("``` ", "```")).toBe(true);
		expect(closesFence("``", "```")).toBe(false);
		expect(closesFence("~~~", "```")).toBe(false);
		expect(closesFence("``` x", "```")).toBe(false);
	});
});
