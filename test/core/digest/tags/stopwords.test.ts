import { describe, expect, it } from "vitest";
import { isZhStop } from "../../../../src/core/digest/tags/stopwords";

describe("isZhStop", () => {
	it("knows a stop word in simplified and in traditional characters", () => {
		expect(isZhStop("这个")).toBe(true);
		expect(isZhStop("這個")).toBe(true);
		expect(isZhStop("開始")).toBe(true);
		expect(isZhStop("還是")).toBe(true);
	});

	it("leaves other words alone", () => {
		expect(isZhStop("數據庫")).toBe(false);
		expect(isZhStop("分页")).toBe(false);
	});
});
