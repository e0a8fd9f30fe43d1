import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globMatches } from "../../../src/core/text/glob-match";

/** What the exclusion globs meant as a RegExp (backtracking): the reference on inputs too short to hang it. */
function reference(glob: string, path: string): boolean {
	let source = "";
	for (let i = 0; i < glob.length; i++) {
		const ch = glob[i]!;
		if (ch === "*" && glob[i + 1] === "*") {
			source += ".*";
			i++;
		} else if (ch === "*") source += "[^/]*";
		else if (ch === "?") source += "[^/]";
		else source += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
	}
	return new RegExp(`^${source}(/.*)?$`).test(path);
}

describe("globMatches", () => {
	it("matches the path or a folder above it; * and ? within a segment, ** across", () => {
		expect(globMatches("/home/*/secret", "/home/me/secret")).toBe(true);
		expect(globMatches("/home/*/secret", "/home/me/secret/sub/dir")).toBe(true);
		expect(globMatches("/home/*/secret", "/home/me/secrets")).toBe(false);
		expect(globMatches("/home/*/secret", "/home/a/b/secret")).toBe(false);
		expect(globMatches("/home/**/secret", "/home/a/b/secret")).toBe(true);
		expect(globMatches("**/client-*", "/work/acme/client-x/app")).toBe(true);
		expect(globMatches("/w/?pi", "/w/api")).toBe(true);
		expect(globMatches("/w/?pi", "/w//pi")).toBe(false);
		expect(globMatches("/w/a*", "/w/a")).toBe(true);
		expect(globMatches("*", "")).toBe(true);
	});

	it("says what the RegExp said, on any glob and path of these characters", () => {
		const glob = fc.string({ unit: fc.constantFrom("a", "b", "-", "/", "*", "?", "."), maxLength: 10 });
		const path = fc.string({ unit: fc.constantFrom("a", "b", "-", "/", "."), maxLength: 14 });
		fc.assert(fc.property(glob, path, (g, p) => globMatches(g, p) === reference(g, p)), { numRuns: 5000 });
	});

	it("a glob of many stars against a name of many dashes ends (the RegExp backtracked for minutes)", () => {
		const glob = `**/${"*-".repeat(16)}x`;
		const path = `/home/dev/${"a-".repeat(40)}b`;
		expect(globMatches(glob, path)).toBe(false);
		expect(globMatches(glob, `${path}-x`)).toBe(true);
	});
});
