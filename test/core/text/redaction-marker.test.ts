import { describe, expect, it } from "vitest";
import { createRedactor } from "../../../src/core/digest/redact";
import { REDACTION_MARKER } from "../../../src/core/text/redaction-marker";

describe("the redaction marker's start", () => {
	it("is how every marker the redactor writes begins, built-in rules and the user's patterns alike", () => {
		const redact = createRedactor({ extraPatterns: ["project-falcon"] });
		const out = redact.redact("token ghp_0123456789abcdefghijABCDEFGHIJ012345 and DB_PASSWORD=hunter2hunter2 for project-falcon");
		const markers = out.match(/\[[a-z]+:[a-z0-9-]+\]/g) ?? [];
		expect(markers.length).toBeGreaterThanOrEqual(3);
		for (const marker of markers) expect(marker.startsWith(REDACTION_MARKER)).toBe(true);
	});
});
