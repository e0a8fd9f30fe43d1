import { describe, expect, it } from "vitest";
import { wikiLink } from "../../../src/core/notes/links";

describe("wikiLink", () => {
	it("cleans what would end the link early from the alias", () => {
		expect(wikiLink("N/a.md", "x ]] | y # z ^ w [[ v")).toBe("[[N/a|x y z w v]]");
	});

	// An index line `[[…|Fix %% it]]` opened an Obsidian comment that hid the rest of the index.
	it("leaves no `%%` in the alias", () => {
		for (const title of ["Fix %% it", "a%%%b", "%%", "Percent %%%%"]) expect(wikiLink("N/x.md", title)).not.toMatch(/%%/);
		expect(wikiLink("N/x.md", "Fix %% it")).toBe("[[N/x|Fix %\u200b% it]]");
	});
});
