import { describe, expect, it } from "vitest";
import { sameFileKey } from "../../../src/core/text/same-file-key";

describe("sameFileKey", () => {
	it("is one for names macOS and Windows take for one file: case, NFC and NFD, the final sigma", () => {
		expect(sameFileKey("Tone.md")).toBe(sameFileKey("tone.md"));
		expect(sameFileKey("Cafe\u0301.md")).toBe(sameFileKey("caf\u00e9.md"));
		expect(sameFileKey("ΟΔΟΣ.md")).toBe(sameFileKey("οδος.md"));
		expect(sameFileKey("ΟΔΟΣ")).toBe(sameFileKey("οδοσ"));
	});

	it("keeps apart what simple case folding keeps apart", () => {
		expect(sameFileKey("Straße")).not.toBe(sameFileKey("STRASSE"));
		expect(sameFileKey("a-b")).not.toBe(sameFileKey("a b"));
	});
});
