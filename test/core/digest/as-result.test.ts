import { describe, expect, it } from "vitest";
import { asResult } from "../../../src/core/digest/as-result";

describe("asResult", () => {
	it.each([
		["I've successfully converted the price table to cents.", "Converted the price table to cents."],
		["I have added a retry to the uploader.", "Added a retry to the uploader."],
		["I updated the README with the new flag.", "Updated the README with the new flag."],
		["I've now written the migration and run it on staging.", "Written the migration and run it on staging."],
		["Summary: Added a docstring to `main.py`.", "Added a docstring to `main.py`."],
	])("%s reads %s", (said, result) => {
		expect(asResult(said)).toBe(result);
	});

	it.each(["I needed to restart the worker twice.", "I noticed the cache is never cleared.", "It rebuilt the index.", "Implemented the pager.", "I think the cache is stale."])("%s stays as it is", (said) => {
		expect(asResult(said)).toBe(said);
	});
});
