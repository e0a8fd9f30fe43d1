import { describe, expect, it } from "vitest";
import { keptBytes, TextBytes, type KeptText } from "../../src/node/text-bytes";

const kept = (): KeptText => ({ chunk: undefined, at: 0, end: 0 });
const utf8 = (text: string) => new TextEncoder().encode(text);
const text = (k: KeptText) => new TextDecoder().decode(keptBytes(k));

describe("TextBytes", () => {
	it("gives back each text's bytes as they were, after the buffer they came from changed", () => {
		const texts = new TextBytes();
		const source = utf8('{"a":1}');
		const [first, second] = [kept(), kept()];
		texts.keep(source, first);
		source.fill(0);
		texts.keep(utf8("ünï ✓"), second);
		expect(text(first)).toBe('{"a":1}');
		expect(text(second)).toBe("ünï ✓");
	});

	it("keeps a text larger than a buffer whole, and the texts around it", () => {
		const texts = new TextBytes();
		const large = "x".repeat(3 * 1024 * 1024 + 7);
		const all = [kept(), kept(), kept()];
		texts.keep(utf8("before"), all[0]!);
		texts.keep(utf8(large), all[1]!);
		texts.keep(utf8("after"), all[2]!);
		expect(all.map(text)).toEqual(["before", large, "after"]);
	});

	it("has nothing for a text never kept, and an empty text for an empty one", () => {
		const texts = new TextBytes();
		const empty = kept();
		texts.keep(new Uint8Array(0), empty);
		expect(keptBytes(kept())).toBeUndefined();
		expect(text(empty)).toBe("");
	});
});
