import { describe, expect, it } from "vitest";
import { shortUrls } from "../../../src/core/text/short-urls";

describe("shortUrls", () => {
	it("tells an address by its host and last path part, without scheme, query or fragment", () => {
		expect(shortUrls("The page at https://docs.example.net/guides/v2/install/linux?tab=apt#step-3 is blank")).toBe("The page at docs.example.net/…/linux is blank");
		expect(shortUrls("Open http://localhost:5173/")).toBe("Open localhost:5173");
	});

	it("keeps the part before a number, which names nothing alone, and a sentence's own stop", () => {
		expect(shortUrls("Review https://git.example.com/team/app/merge_requests/41.")).toBe("Review git.example.com/…/merge_requests/41.");
		expect(shortUrls("the status API (https://status.example.io/) is down")).toBe("the status API (status.example.io) is down");
	});

	it("leaves an address quoted in a code span as written", () => {
		const text = "Set `https://api.example.com/v1/hooks/incoming` as the target";
		expect(shortUrls(text)).toBe(text);
	});
});
