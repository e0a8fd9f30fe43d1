import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { format } from "date-fns";
import { localDate, localMinute } from "../../../src/core/text/local-date";

describe("localDate and localMinute", () => {
	it("write what date-fns writes, for any date", () => {
		fc.assert(
			fc.property(fc.date({ min: new Date("-000100-01-01T00:00:00Z"), max: new Date("+020000-01-01T00:00:00Z"), noInvalidDate: true }), (date) => {
				expect(localDate(date)).toBe(format(date, "yyyy-MM-dd"));
				expect(localMinute(date)).toBe(format(date, "yyyy-MM-dd'T'HH:mm"));
			}),
			{ numRuns: 2000 },
		);
	});

	it("pads months, days, hours and minutes", () => {
		const date = new Date(2026, 0, 5, 3, 7);
		expect(localDate(date)).toBe("2026-01-05");
		expect(localMinute(date)).toBe("2026-01-05T03:07");
	});
});
