import { describe, expect, it } from "vitest";
import { onlyRead } from "../../../src/core/ingest/prepare-session";

describe("onlyRead", () => {
	it("keeps the files read and leaves out those the session also wrote or edited", () => {
		expect(onlyRead({ filesTouched: ["a/main.go", "a/util.go"], filesRead: ["a/main.go", "a/README.md", "a/util_test.go"] })).toEqual(["a/README.md", "a/util_test.go"]);
	});
});
