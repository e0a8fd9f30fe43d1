import { describe, expect, it } from "vitest";
import { keptText, TextBytes, type KeptText } from "../../src/node/text-bytes";

const kept = (): KeptText => ({ chunk: undefined, at: 0, end: 0 });
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("TextBytes", () => {
	it("gives back each text as it was, after the buffer it came from changed", () => {
		const texts = new TextBytes();
		const source = utf8('{"a":1}');
		const [first, second] = [kept(), kept()];
		texts.keep(source, first);
		source.fill(0);
		texts.keep(utf8("ünï ✓"), second);
		expect(keptText(first)).toBe('{"a":1}');
		expect(keptText(second)).toBe("ünï ✓");
	});

	it("keeps a text larger than a buffer whole, and the texts around it", () => {
		const texts = new TextBytes();
		const large = "x".repeat(3 * 1024 * 1024 + 7);
		const all = [kept(), kept(), kept()];
		texts.keep(utf8("before"), all[0]!);
		texts.keep(utf8(large), all[1]!);
		texts.keep(utf8("after"), all[2]!);
		expect(all.map(keptText)).toEqual(["before", large, "after"]);
	});

	it("has nothing for a text never kept, and an empty text for an empty one", () => {
		const texts = new TextBytes();
		const empty = kept();
		texts.keep(new Uint8Array(0), empty);
		expect(keptText(kept())).toBeUndefined();
		expect(keptText(empty)).toBe("");
	});

	it("decodes each text as TextDecoder does: one leading byte order mark dropped, bytes that are not UTF-8 as U+FFFD", () => {
		const texts = new TextBytes();
		const samples = [
			[0xef, 0xbb, 0xbf, 0x7b, 0x7d],
			[0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x31],
			[0xef, 0xbb],
			[0x22, 0xe2, 0x82, 0x22],
			[0xc3, 0x28, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xed, 0xa0, 0x80],
			[0x41, 0xe2],
		].map((bytes) => new Uint8Array(bytes));
		const all = samples.map(() => kept());
		// Kept one after another: a text cut in the middle of a character is not read on into the next one.
		samples.forEach((bytes, i) => texts.keep(bytes, all[i]!));
		expect(all.map(keptText)).toEqual(samples.map((bytes) => new TextDecoder().decode(bytes)));
	});
});
