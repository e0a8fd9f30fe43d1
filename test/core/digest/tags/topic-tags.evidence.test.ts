import { describe, expect, it } from "vitest";
import { buildKeywordStats, keywordsOf, projectTagSlug, termOccurrences, topicSignals, topicTags, type KeywordStats, type TagInput } from "../../../../src/core/digest/topic-tags";
import { gitRefs } from "../../../../src/core/digest/tags/file-signals";
import { looksLikeTypo } from "../../../../src/core/digest/tags/keywords";

/** A small corpus the sessions under test are ranked against (they are added to it, as a sync does). */
const BACKGROUND: string[][] = [
	["Add rate limiting to the login endpoint"],
	["The checkout endpoint returns 500 when the cart is empty", "Also log the cart id"],
	["Write unit tests for the invoice service"],
	["Sum the token usage of every session on the index page"],
	["Make the sidebar collapsible"],
	["Move the settings into their own module"],
];

function tagsOf(prompts: string[], extra: Partial<TagInput> = {}, others: string[][] = BACKGROUND): string[] {
	const stats: KeywordStats = buildKeywordStats([...others, prompts].map(keywordsOf));
	return topicTags({ project: "shop-api", files: [], tools: [], prompts, ...extra }, stats, { prefix: "ai/" });
}

describe("rule 1: a keyword tag needs evidence beyond one sentence", () => {
	it("a word said in one sentence is not a tag, nor a one-off phrase, nor a typo", () => {
		const tags = tagsOf(["I keep getting mysterious gadget warnings becuase either the wobbly thing happend or not, including unknown files."]);
		expect(tags).toEqual(["ai/project/shop-api"]);
	});

	it("a word repeated in another sentence or prompt is", () => {
		expect(tagsOf(["The gizmo crashes on start.", "Restart the gizmo after the upgrade"])).toContain("ai/gizmo");
		expect(tagsOf(["The gizmo crashes on start. Restart the gizmo after the upgrade."])).toContain("ai/gizmo");
	});

	it("twice in the same sentence, in a verb's place, or in a copy of the same sentence is still once", () => {
		expect(tagsOf(["Pretend the gizmo and a second gizmo talk"])).not.toContain("ai/gizmo");
		expect(tagsOf(["Can you frobnicate it?", "Please frobnicate it again, we frobnicate too much"])).not.toContain("ai/frobnicate");
		expect(tagsOf(["fatal: flux capacitor overheated\nfatal: flux capacitor overheated"])).not.toContain("ai/flux-capacitor");
	});

	it("repeats within one long later prompt (a pasted page) are once; in the first prompt, the goal, or in a short one they count", () => {
		const page = [
			"Would this page help?",
			"",
			"Every widget registers itself with the host on start. A widget may declare the events it listens to.",
			"When the host reloads, each widget is asked to persist its state before it is torn down.",
			"The registry keeps one entry per widget and drops it once the widget reports it has stopped.",
			"Widgets that fail to answer within the timeout are stopped by force and logged as unresponsive.",
			"Nothing else in this chapter applies to background jobs, which follow their own lifecycle and rules.",
			"See the next chapter for those.",
		].join("\n");
		expect(page.length).toBeGreaterThan(500);
		expect(tagsOf(["Make the reload faster", page])).not.toContain("ai/widget");
		expect(tagsOf([page, "Make the reload faster"])).toContain("ai/widget");
		expect(tagsOf(["Make the reload faster", "The widget hangs. Every widget does."])).toContain("ai/widget");
	});

	it("an identifier is, named once: camelCase, snake_case, dotted, backticked, a file name", () => {
		expect(tagsOf(["print shadowBranch into the message"])).toContain("ai/shadow-branch");
		expect(tagsOf(["rename retry_policy please"])).toContain("ai/retry-policy");
		expect(tagsOf(["test it with `act`"])).toContain("ai/act");
		expect(tagsOf(["read docs/architecture/teapot-protocol.md and tell me"])).toContain("ai/teapot-protocol");
		expect(tagsOf(["why does tokenizer.css not load"])).toContain("ai/tokenizer");
		// Leading verbs and stop words of a name go; a stop word left inside drops it.
		expect(termOccurrences(["hasShadowBranch getUserById WebSearch"]).map((o) => o.term)).toEqual(["shadow-branch"]);
	});

	it("a known technical term is, named once", () => {
		expect(tagsOf(["Add a webhook for new orders"])).toContain("ai/webhook");
		expect(tagsOf(["Turn this into a git submodule"])).toContain("ai/submodule");
	});

	it("a known term of two words is, named once, and a word of one alone is not (`error-handling`, `dark-mode` and `full-text-search` made `handling`, `dark` and `text` technical)", () => {
		expect(tagsOf(["Set up github pages for the docs"])).toContain("ai/github-page");
		expect(tagsOf(["The handling of refunds is slow"])).not.toContain("ai/handling");
		expect(tagsOf(["The header looks too dark on phones"])).not.toContain("ai/dark");
		expect(tagsOf(["Paste the text into the box"])).not.toContain("ai/text");
	});

	it("a compound another session shares is; a plain word other sessions use too is not", () => {
		expect(tagsOf(["Show the token usage per model"])).toContain("ai/token-usage");
		const folders = [["Open the folder in the editor"], ["The folder is empty again"]];
		expect(tagsOf(["Sync this folder to the server"], {}, [...BACKGROUND, ...folders])).not.toContain("ai/folder");
	});

	it("a word the session's branch names is (soph/add-wingman-note)", () => {
		expect(tagsOf(["Add a note in case wingman is enabled"])).not.toContain("ai/wingman");
		expect(tagsOf(["Add a note in case wingman is enabled"], { branches: ["soph/add-wingman-note"] })).toContain("ai/wingman");
	});

	it("words too general to be a topic alone are never a tag alone, even repeated", () => {
		const tags = tagsOf(["The attribute is a separate list.", "That attribute needs a separate list too."]);
		for (const generic of ["ai/attribute", "ai/separate", "ai/list"]) expect(tags).not.toContain(generic);
	});

	it("a short form of such a word is as general as the word (req for request, msg for message)", () => {
		const tags = tagsOf(["Read the msg in the handler and log the req.", "The msg differs on staging, so the req fails there."]);
		for (const generic of ["ai/msg", "ai/req"]) expect(tags).not.toContain(generic);
	});

	it("a severity only qualifies the findings it grades (critical, minor), it is not their topic", () => {
		const tags = tagsOf(["List the critical findings of the audit first.", "Then the minor findings, after the critical ones."]);
		for (const generic of ["ai/critical", "ai/minor"]) expect(tags).not.toContain(generic);
		expect(tags).toContain("ai/finding");
	});

	it("the console is where output shows, like a window or a screen", () => {
		expect(tagsOf(["Nothing shows in the console after login.", "The console stays blank on reload."])).not.toContain("ai/console");
	});

	it("so are their Chinese forms, and the verbs around them do not make a phrase of them", () => {
		const tags = tagsOf(["關閉窗口以後，設定就不見了。", "窗口結束時要保存設定，我看到緩存沒有更新。", "緩存的設定在哪裡？"]);
		expect(tags.filter((tag) => /窗口|設定|結束|看到/.test(tag))).toEqual([]);
		expect(tags).toContain("ai/緩存");
	});

	it("a typo is one slip from a common word, a real word is not", () => {
		const stats = buildKeywordStats([["worktree"], ["worktree"], ["wortree"]]);
		for (const typo of ["becuase", "happend", "wortree"]) expect(looksLikeTypo(typo, stats)).toBe(true);
		for (const word of ["parser", "model", "cloud", "tokenizer", "submodule", "worktree"]) expect(looksLikeTypo(word, stats)).toBe(false);
	});
});

describe("rule 2: branch names are not topics", () => {
	const prompts = ["Merge the teammates' branches into master.", "Then pull master again.", "The release-train branch is stale.", "Rebase release-train on it"];

	it("git's default branches are never topics", () => {
		expect(tagsOf(prompts)).not.toContain("ai/master");
	});

	it("nor the session's branch (TagInput.branches) or a branch its git commands name", () => {
		expect(tagsOf(prompts)).toContain("ai/release-train");
		expect(tagsOf(prompts, { branches: ["release-train"] })).not.toContain("ai/release-train");
		expect(tagsOf(prompts, { commands: ["git checkout -b feat/release-train && git push -u origin feat/release-train"] })).not.toContain("ai/release-train");
		expect(tagsOf(["Why are there 4 commits on entire/sessions?", "entire/sessions has them twice"], { commands: ["git log entire/sessions"] })).not.toContain("ai/entire-session");
	});

	it("reads branch names out of git commands", () => {
		expect(gitRefs('git merge --no-ff alice/plan bob/teammates -m "merge round 1: alice, bob"')).toEqual(["alice/plan", "bob/teammates"]);
		expect(gitRefs("git diff main...HEAD --stat && git push origin feat/x")).toEqual(["main", "HEAD", "feat/x"]);
		expect(gitRefs("git show --stat 81aee64 && git diff cmd/hooks.go && git status")).toEqual([]);
	});
});

describe("rule 3: no project/project", () => {
	it("a placeholder folder name gives no project tag, and `project` is never a topic", () => {
		const tags = topicTags({ project: "project", files: [], tools: [], prompts: ["Review the project layout.", "The project has two parts"] }, buildKeywordStats([]), { prefix: "ai/" });
		expect(tags.some((t) => t === "ai/project" || t.startsWith("ai/project/"))).toBe(false);
		const rules = [{ keyword: "layout", tag: "project" }];
		expect(topicTags({ project: "shop-api", files: [], tools: [], prompts: ["the layout"] }, buildKeywordStats([]), { prefix: "ai/", rules })).toEqual(["ai/project/shop-api"]);
	});

	it("a topic never repeats the project", () => {
		const tags = topicTags({ project: "gizmo", files: [], tools: [], prompts: ["The gizmo crashes.", "Fix the gizmo"] }, buildKeywordStats([]), { prefix: "ai/" });
		expect(tags).toEqual(["ai/project/gizmo"]);
	});

	it.each<[string, string | undefined, string[], string | undefined]>([
		["shop-api", "/home/me/shop-api", ["main"], "shop-api"],
		["Demo", undefined, [], "demo"],
		["project", "/home/user/project", [], undefined],
		["repo", undefined, [], undefined],
		["2", "/Users/alex/cli/.worktrees/2", [], "cli"],
		["2", undefined, [], undefined],
		["fix-date-bug", "/Users/alex/cli/.worktrees/soph/fix-date-bug", ["soph/fix-date-bug"], "cli"],
		["fix-date-bug", undefined, ["soph/fix-date-bug"], undefined],
		["spotter-gqc", "/home/me/spotter-worktrees/spotter-gqc", ["spotter-gqc"], "spotter"],
		["agent-a1", "/src/app/.claude/worktrees/agent-a1", [], "app"],
		["worktrees", "/experiments/worktrees", [], "worktrees"],
		["tmpw6sk2trg", "/tmp/tmpw6sk2trg", [], undefined],
		["me", "/Users/me", [], undefined],
	])("projectTagSlug(%j, %j, %j) = %j", (project, path, branches, slug) => {
		expect(projectTagSlug(project, path, branches)).toBe(slug);
	});
});

describe("an activity named only by files the session read", () => {
	const names = (files: string[], filesRead: string[], commands: string[] = []) => topicSignals({ project: "shop-api", files, filesRead, tools: [], commands }).map(([name]) => name);

	it("is not one when a single such file names it: a spec or a README looked at is not the work", () => {
		expect(names(["src/cart.spec.ts"], ["src/cart.spec.ts"])).not.toContain("testing");
		expect(names(["notes/CHANGELOG.md"], ["notes/CHANGELOG.md"])).not.toContain("docs");
		expect(names(["src/cart.spec.ts"], ["src/cart.spec.ts"])).toContain("typescript");
	});

	it("is one when several read files name it, or a file written or a command does", () => {
		expect(names(["src/cart.spec.ts", "src/order.spec.ts"], ["src/cart.spec.ts", "src/order.spec.ts"])).toContain("testing");
		expect(names(["src/cart.spec.ts"], [])).toContain("testing");
		expect(names(["src/cart.spec.ts"], ["src/cart.spec.ts"], ["npm test"])).toContain("testing");
	});
});
