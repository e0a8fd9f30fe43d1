import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { format } from "date-fns";
import { localDate, localMinute, sessionDay } from "../../../src/core/text/local-date";

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

describe("sessionDay", () => {
	const zone = process.env.TZ;
	afterEach(() => {
		process.env.TZ = zone;
	});

	it("is the day where the machine is, not in UTC", () => {
		process.env.TZ = "America/New_York";
		expect(sessionDay("2026-12-01T02:40:00.000Z")).toBe("2026-11-30");
		process.env.TZ = "Asia/Tokyo";
		expect(sessionDay("2026-11-30T20:00:00Z")).toBe("2026-12-01");
	});

	it("keeps a bare date and names nothing else a day", () => {
		process.env.TZ = "America/Los_Angeles";
		expect(sessionDay("2026-12-01")).toBe("2026-12-01");
		for (const odd of [undefined, "", "../../x", "2026/01/15", "2026/01/15 10:00", "Jan 5 2026", "yesterday", "2026-13-45T00:00:00Z", "+275760-09-13T00:00:00Z"]) expect(sessionDay(odd)).toBe("undated");
	});
});
