import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { joinedChoices, restates, sameWords, saidOnce, toldOnce, trimmed, withoutRestated } from "../../../src/core/digest/restated";

describe("restates", () => {
	it("finds a todo that says again what a result told, in another tense and order", () => {
		expect(restates("Update importer.py to use the streaming reader", "importer.py now uses the streaming reader instead of loading the whole file")).toBe(true);
		expect(restates("Remove blank rows from export", "Removed blank rows: the export skips rows with no cells")).toBe(true);
	});

	it("keeps a todo for another file or name, however alike its other words", () => {
		expect(restates("Update exporter.py to use the streaming reader", "importer.py now uses the streaming reader")).toBe(false);
		expect(restates("Port the QueueWorker to async", "Ported the JobWorker to async")).toBe(false);
	});

	it("finds a todo that names bare what a result names qualified, an acronym and a vague adjective aside", () => {
		expect(restates("Update readFile to modern async API", "Replaced the blocking `fs.readFileSync` with async `fs.promises.readFile`")).toBe(true);
		expect(restates("Update writeFile to modern async API", "Replaced the blocking `fs.readFileSync` with async `fs.promises.readFile`")).toBe(false);
	});

	it("counts the grammar of 'instead of' and the verbs of a check as no content", () => {
		expect(restates("Rework the sidebar to collapse sections instead of single rows", "The sidebar now collapses sections: each header folds its rows")).toBe(true);
		expect(restates("Run tests and verify coverage", "Tests: all 52 pass, coverage at 100%")).toBe(true);
	});

	it("reads an acronym as the words it stands for", () => {
		expect(restates("Move the deploy secrets to a KMS vault", "Deploy secrets now live in a Key Management Service vault")).toBe(true);
		expect(restates("Move the deploy secrets to an HSM vault", "Deploy secrets now live in a Key Management Service vault")).toBe(false);
	});

	it("keeps an item naming a product the other does not, written capitalized within the sentence", () => {
		expect(restates("`CTRL + K` opens Slack, `CTRL + ALT + K` opens htop.", "user chose: ctrl alt k should open htop")).toBe(false);
		expect(restates("`CTRL + ALT + K` now opens htop.", "user chose: ctrl alt k should open htop")).toBe(true);
	});

	it("keeps an item that shares only a word or two with a longer one", () => {
		expect(restates("Add retry budget to the uploader and log each attempt", "The uploader now streams chunks")).toBe(false);
		expect(restates("Rename the flag", "The flag parser rejects unknown options")).toBe(false);
	});
});

describe("withoutRestated", () => {
	it("leaves out a later item said before, never a kept one", () => {
		const items = ["commit 1a2b3c4: Cache the parsed manifest", "The parsed manifest is now cached between runs", "Cache the parsed manifest between runs", "Cache the parsed manifest"];
		expect(withoutRestated(items, (i) => i.startsWith("commit"))).toEqual(["commit 1a2b3c4: Cache the parsed manifest", "The parsed manifest is now cached between runs"]);
		expect(withoutRestated(["Cache the parsed manifest", "commit 1a2b3c4: Cache the parsed manifest"], (i) => i.startsWith("commit"))).toHaveLength(2);
	});

	it("compares an item only with those sharing its words: thousands of distinct steps stay linear", () => {
		// Letters only (no names), one word shared by all, and steps that name a file each.
		const letters = (n: number) => n.toString(26).replace(/./g, (c) => String.fromCharCode(97 + parseInt(c, 26)));
		const plain = Array.from({ length: 10_000 }, (_, i) => `tidy ${letters(i)}x ${letters(i)}y ${letters(i)}z`);
		const named = Array.from({ length: 10_000 }, (_, i) => `Port module_${i}.ts to the streaming reader`);
		const started = performance.now();
		expect(withoutRestated(plain, () => false)).toEqual(plain);
		expect(withoutRestated(named, () => false)).toEqual(named);
		expect(toldOnce(named, plain, () => false, () => false).done).toEqual(named);
		expect(performance.now() - started).toBeLessThan(7500);
	});
});

describe("saidOnce", () => {
	it("keeps of two lines telling one choice the one that says more, wherever it stands, and every kept line", () => {
		const choices = ["Moved the job queue from cron to a worker", "Keep the REST client", "Move the job queue to a worker, since cron drops overlapping runs"];
		expect(saidOnce(choices, () => false)).toEqual(["Keep the REST client", "Move the job queue to a worker, since cron drops overlapping runs"]);
		expect(saidOnce(choices, (c) => c.startsWith("Moved"))).toEqual(choices);
		expect(saidOnce(["Cache the token", "Cache the token"], () => false)).toEqual(["Cache the token"]);
	});
});

describe("joinedChoices", () => {
	const theirs = (c: string) => c.startsWith("user chose: ");

	it("tells the agent's wording of the person's short choice on the person's line", () => {
		const choices = ["user chose: ok go with tailwind", "Styling: Tailwind, since the team knows it and it purges unused classes", "Keep the REST client"];
		expect(joinedChoices(choices, theirs, () => false)).toEqual(["user chose: ok go with tailwind — Styling: Tailwind, since the team knows it and it purges unused classes", "Keep the REST client"]);
	});

	it("keeps apart a choice of another thing, a record, and a person's line that says more", () => {
		expect(joinedChoices(["user chose: use tailwind", "Bundle with Rollup, since Tailwind needs PostCSS"], theirs, () => false)).toHaveLength(2);
		expect(joinedChoices(["user chose: use tailwind", "Styling: Tailwind everywhere"], theirs, (c) => c.startsWith("Styling"))).toHaveLength(2);
		expect(joinedChoices(["user chose: tailwind for the site, plain CSS for the emails since clients strip classes", "Use Tailwind"], theirs, () => false)).toHaveLength(2);
	});
});

describe("toldOnce", () => {
	const commit = (i: string) => i.startsWith("commit");

	it("tells a result that a choice says in full under the choice alone", () => {
		const done = ["Moved the cache from Redis to an in-process LRU", "The importer skips blank rows"];
		const decided = ["Use an in-process LRU cache instead of Redis, since one node serves all requests"];
		expect(toldOnce(done, decided, commit, () => false)).toEqual({ done: ["The importer skips blank rows"], other: decided });
	});

	it("leaves out a choice a result already tells, unless it is firm (the person's own word)", () => {
		const done = ["The exporter now writes CSV with a header row and UTF-8 encoding"];
		const decided = ["CSV exporter: header row"];
		expect(toldOnce(done, decided, commit, () => false)).toEqual({ done, other: [] });
		expect(toldOnce(done, decided, commit, () => true)).toEqual({ done, other: decided });
	});

	it("keeps a commit, and an item of another kind of work", () => {
		const done = ["commit 9f8e7d6: Moved the cache from Redis to an in-process LRU", "Added a retry to the webhook sender"];
		const open = ["Move the cache from Redis to an in-process LRU", "Document the retry limits"];
		expect(toldOnce(done, open, commit, () => true)).toEqual({ done, other: open });
	});
});

describe("withoutRestated and toldOnce, by their index", () => {
	it("find an item that spells out an acronym the later one gives (the index went by held words only, and missed it)", () => {
		expect(withoutRestated(["Created a Personal Access Token for CI", "Created PAT for CI"], () => false)).toEqual(["Created a Personal Access Token for CI"]);
		expect(toldOnce(["Created PAT for CI"], ["Chose a Personal Access Token for CI"], () => false, () => false).done).toEqual([]);
	});

	it("tell once what a look at every item before it tells once", () => {
		const vocabulary = ["Created", "PAT", "Personal", "Access", "Token", "CI", "API", "Application", "Programming", "Interface", "parser.ts", "lexer", "tidy", "the", "for", "release", "workflow"];
		fc.assert(
			fc.property(fc.array(fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 6 }), { maxLength: 30 }), (lists) => {
				const items = lists.map((words) => words.join(" "));
				const pairwise: string[] = [];
				for (const item of items) if (!pairwise.some((before) => restates(item, before))) pairwise.push(item);
				expect(withoutRestated(items, () => false)).toEqual(pairwise);
			}),
			{ numRuns: 500 },
		);
	});
});

describe("restates, by the words of each side", () => {
	it("reads an acronym of astral capitals, a plural, and a name of dashed or underscored parts", () => {
		// Mathematical bold capitals are two code units each: six of them are twelve.
		expect(restates("Checked the \u{1d400}\u{1d401}\u{1d402}\u{1d403}\u{1d404}\u{1d405} flags", "Checked all \u{1d400}\u{1d401}\u{1d402}\u{1d403}\u{1d404}\u{1d405} flags")).toBe(true);
		expect(restates("Tokens rotated", "Rotated the token")).toBe(true);
		expect(restates("Renamed render-queue module", "The module render_queue was renamed")).toBe(true);
		expect(restates("PAT revoked today", "Revoked the personal access token today")).toBe(true);
		expect(restates("Widgets cleaned", "Cleaned widget")).toBe(true);
		expect(restates("Rotated the PATs weekly", "Personal Access Tokens rotated weekly")).toBe(false);
	});
});

describe("sameWords", () => {
	it("finds a text's words once, and the comparisons made with them keep and leave out what they would otherwise", () => {
		const words = sameWords();
		expect(words("Moved the cache into store.ts")).toBe(words("Moved the cache into store.ts"));
		const done = ["Moved the cache into store.ts", "Move the cache to store.ts", "Wrote the README", "Tests pass"];
		const open = ["Write the README for the cache", "Tests still flaky on CI"];
		const never = () => false;
		expect(withoutRestated(done, never, words)).toEqual(withoutRestated(done, never));
		expect(toldOnce(done, open, never, never, words)).toEqual(toldOnce(done, open, never, never));
		expect(toldOnce(open, done, never, never, words)).toEqual(toldOnce(open, done, never, never));
	});
});

describe("trimmed", () => {
	it("takes dots, dashes and underscores off a token's ends only", () => {
		expect(trimmed("--dry-run")).toBe("dry-run");
		expect(trimmed("__init__.py.")).toBe("init__.py");
		expect(trimmed("._-")).toBe("");
		expect(trimmed("v1.2")).toBe("v1.2");
		expect(trimmed("…done…")).toBe("…done…");
	});
});
