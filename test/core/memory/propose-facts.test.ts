import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { type ExistingFact, type FactType, factQuotes, letterShare, proposeFacts, sentencesOf, storedKey } from "../../../src/core/memory/propose-facts";

function propose(text: string, existing: ExistingFact[] = [], rejected?: Set<string>) {
	return proposeFacts([{ text, index: 0, uuid: "u-0" }], existing, rejected);
}

/** A valid file name and Obsidian link: lower-case letters of any script, digits, single hyphens. */
const NAME = /^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?:-[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u;

/** [prompt, type, description]: each must give exactly this one proposal. */
const PROPOSES: [prompt: string, type: FactType, description: string][] = [
	// English
	["From now on, always run the full test suite before committing.", "feedback", "Always run the full test suite before committing"],
	["Never use `any` in TypeScript code.", "feedback", "Never use `any` in TypeScript code"],
	["Going forward, we use pnpm for every package.", "feedback", "We use pnpm for every package"],
	["Hey Claude, going forward I want you to reply in British English.", "feedback", "I want you to reply in British English"],
	["We decided to use Postgres instead of MySQL because we need JSONB.", "project", "We decided to use Postgres instead of MySQL because we need JSONB"],
	["OK so we've decided to drop support for Node 16.", "project", "We've decided to drop support for Node 16"],
	["Let's use Vitest instead of Jest for all new tests.", "project", "Let's use Vitest instead of Jest for all new tests"],
	["I prefer small commits over one big commit.", "feedback", "I prefer small commits over one big commit"],
	["Prefer composition over inheritance in this codebase.", "feedback", "Prefer composition over inheritance in this codebase"],
	["Remember that the staging database is read-only.", "project", "The staging database is read-only"],
	["Don't ever force-push to main.", "feedback", "Don't ever force-push to main"],
	["Make sure to always update the changelog when you bump the version.", "feedback", "Make sure to always update the changelog when you bump the version"],
	["I'm a backend developer, so explain frontend things in more detail.", "user", "I'm a backend developer, so explain frontend things in more detail"],
	["Our convention is to prefix branch names with the ticket number.", "feedback", "Our convention is to prefix branch names with the ticket number"],
	["The rule is: one migration per pull request.", "feedback", "The rule is: one migration per pull request"],
	["The design doc is at docs/design/sync.md.", "reference", "The design doc is at docs/design/sync.md"],
	["We track bugs in Linear, not in GitHub issues.", "reference", "We track bugs in Linear, not in GitHub issues"],
	["You should never commit generated files.", "feedback", "You should never commit generated files"],
	["We always squash merge pull requests.", "feedback", "We always squash merge pull requests"],
	["When you add a dependency, always pin its exact version.", "feedback", "When you add a dependency, always pin its exact version"],
	["Please remember to run the linter before pushing.", "feedback", "Run the linter before pushing"],
	["Going forward, all API responses must be camelCase.", "feedback", "All API responses must be camelCase"],
	["Going forward, every new module needs a README.", "feedback", "Every new module needs a README"],
	["I'd rather you didn't touch the config files.", "feedback", "I'd rather you didn't touch the config files"],
	["Just so you know, I'm a data scientist, not a web developer.", "user", "I'm a data scientist, not a web developer"],
	["BTW our staging server is at https://staging.example.com.", "reference", "Our staging server is at https://staging.example.com"],
	["I'm working on ENT-98. keep our working documentation in Linear.", "reference", "Keep our working documentation in Linear"],
	// Korean
	["앞으로는 커밋 메시지를 한국어로 써줘.", "feedback", "커밋 메시지를 한국어로 써줘"],
	["항상 PR을 만들기 전에 테스트를 돌려 주세요.", "feedback", "항상 PR을 만들기 전에 테스트를 돌려 주세요"],
	["절대 main 브랜치에 직접 push하지 마.", "feedback", "절대 main 브랜치에 직접 push하지 마"],
	["우리는 Postgres를 쓰기로 했어요.", "project", "우리는 Postgres를 쓰기로 했어요"],
	["DB는 Postgres로 결정했습니다.", "project", "DB는 Postgres로 결정했습니다"],
	["우리 API 서버는 3000번 포트를 쓴다는 걸 기억해 줘.", "project", "우리 API 서버는 3000번 포트를 쓴다"],
	["main에 바로 머지하면 안 된다는 걸 기억해 줘", "feedback", "main에 바로 머지하면 안 된다"],
	["저는 탭보다 스페이스를 선호해요.", "feedback", "저는 탭보다 스페이스를 선호해요"],
	["저는 백엔드 개발자예요.", "user", "저는 백엔드 개발자예요"],
	["CI가 느리기 때문에 항상 로컬에서 테스트를 돌려줘.", "feedback", "CI가 느리기 때문에 항상 로컬에서 테스트를 돌려줘"],
	["설계 문서는 docs/design.md에 있어요.", "reference", "설계 문서는 docs/design.md에 있어요"],
	["앞으로는 에러 메시지를 영어로 써 주세요.", "feedback", "에러 메시지를 영어로 써 주세요"],
	// Japanese
	["今後は日本語で回答してください。", "feedback", "日本語で回答してください"],
	["必ずテストを実行してからコミットしてください。", "feedback", "必ずテストを実行してからコミットしてください"],
	["絶対にmainブランチに直接pushしないでください。", "feedback", "絶対にmainブランチに直接pushしないでください"],
	["データベースはPostgreSQLに決めました。", "project", "データベースはPostgreSQLに決めました"],
	["ステージング環境のDBは読み取り専用だということを覚えておいてください。", "project", "ステージング環境のDBは読み取り専用だ"],
	["テストランナーはVitestにしましょう。", "project", "テストランナーはVitestにしましょう"],
	["今後も日本語でお願いします。", "feedback", "日本語でお願いします"],
	["今後はエラーメッセージを日本語にしてください。", "feedback", "エラーメッセージを日本語にしてください"],
	// Chinese
	["以后都用pnpm安装依赖。", "feedback", "都用pnpm安装依赖"],
	["请总是用中文回答。", "feedback", "请总是用中文回答"],
	["永远不要直接推送到main分支。", "feedback", "永远不要直接推送到main分支"],
	["我们决定使用PostgreSQL作为数据库。", "project", "我们决定使用PostgreSQL作为数据库"],
	["记住，我们的API服务器使用3000端口。", "project", "我们的API服务器使用3000端口"],
	["我是后端工程师。", "user", "我是后端工程师"],
	["以后再也不要用var了。", "feedback", "再也不要用var了"],
];

/** Look-alikes: a trigger word, but no rule, decision or preference. Each must give nothing. */
const PROPOSES_NOTHING: [why: string, prompt: string][] = [
	["question", "Should we always run the migrations on startup?"],
	["question without a mark", "should we always run the migrations on startup"],
	["question after a filler", "ok, can we always use the cache here"],
	["bug report", "The build always fails on CI."],
	["bug report", "It never returns the cached value, even after a refresh."],
	["bug report", "This test always fails when I run it locally"],
	["behaviour of the user's setup", "I always get a 404 from the API after deploying."],
	["behaviour", "We always end up with two failed requests."],
	["behaviour", "Note that the tests never run in parallel."],
	["behaviour", "The function always returns a promise, so await it."],
	["habit of the user", "I always forget the syntax for this."],
	["past event", "We never got a response from the server."],
	["never mind", "Never mind, I found it."],
	["always-on", "Make the sidebar always-on by default."],
	["always-on", "Always-on monitoring is a requirement for the demo."],
	["negated", "It's not always obvious which file to edit."],
	["frequency", "Almost never happens, but when it does the app crashes."],
	["condition", "If we always use the cache, the data gets stale."],
	["hedge", "I think we should always use strict mode."],
	["hedge", "Maybe going forward we use pnpm."],
	["complaint, not a rule", "You always forget to run the linter."],
	["recollection", "I remember that it used to work before the upgrade."],
	["question", "Remember when we used to deploy by hand?"],
	["question", "Did we decide to use Postgres for this?"],
	["quoted lint message", 'The linter says "Always use const" on every line.'],
	["log line", "Error: never use eval() here, blocked by CSP"],
	["quoted block", "> Never use this API in production\n> Always call init first"],
	["code block", "Look at this:\n```ts\n// always use the cache\nconst x = always();\n```"],
	["indented code", "See:\n\n    // never mutate state\n    state.x = 1;"],
	["stack trace", "at Object.always (/app/src/cache.ts:12:5)\nat never (/app/src/index.ts:3:1)"],
	["pasted after a colon", "This is what the docs say:\n\nAlways pin your dependencies to an exact version in production builds."],
	["Claude Code plan", "Implement the following plan:\n\n# Plan\n\nAlways run the tests before committing."],
	["Korean bug report", "항상 에러가 나요."],
	["Korean question", "항상 이래?"],
	["Korean question", "왜 항상 테스트가 실패하지"],
	["Korean bug report", "항상 테스트가 실패해."],
	["Korean: forward button", "앞으로 가기 버튼을 눌러도 반응이 없어요."],
	["Korean: absolute path", "절대 경로로 바꿔 줘."],
	["Korean: what comes next", "앞으로 할 일을 목록으로 정리해 줘."],
	["Korean: what comes next", "앞으로 어떻게 할지 정리해 줘."],
	["Korean: what a function does", "이 함수는 항상 null을 반환해요."],
	["Korean: always-on-top feature", "항상 위에 표시되는 창을 만들어 줘."],
	["Korean question", "이거 기억나?"],
	["Korean hedge", "앞으로는 pnpm을 쓰는 게 좋을 것 같아요."],
	["Korean one-off request", "그 파일은 지우지 마."],
	["Japanese bug report", "常にエラーが出ます。"],
	["Japanese: not necessarily", "必ずしも必要ではありません。"],
	["Japanese question", "今後はどうしますか？"],
	["Japanese: future plans", "今後の予定を教えてください。"],
	["Japanese: what a button does", "このボタンは常に表示されます。"],
	["Chinese bug report", "总是报错。"],
	["Chinese: later", "以后再说吧。"],
	["Chinese: later versions", "以后的版本会修复这个问题。"],
	["Chinese complaint", "你总是忘记跑测试。"],
	["Chinese recollection", "我记得以前可以用。"],
	["Chinese question", "为什么总是失败？"],
	["one-off instruction", "Keep it the same overall length as the pros or cons."],
	["points into the session", "Please never do that again."],
	["points into the session", "I prefer the second option."],
	["points into the session", "Let's use the second approach instead of the first one."],
	["points into the session", "We decided to postpone this."],
	["points into the session", "앞으로는 이렇게 해 줘."],
	["points into the session", "今後はこうしてください。"],
	["points into the session", "以后都这样做。"],
	["no rule after the lead-in", "From now on, it works."],
	["a moment of the session", "We decided to look into it tomorrow."],
	["a moment of the session", "I'd prefer not to answer that now."],
	["plain request", "Please update CLAUDE.md for current changes"],
];

describe("proposeFacts: what it proposes", () => {
	it.each(PROPOSES)("%s", (prompt, type, description) => {
		const facts = propose(prompt);
		expect(facts.map((f) => [f.type, f.description])).toEqual([[type, description]]);
		const [fact] = facts;
		if (!fact) return;
		expect(prompt).toContain(fact.quote);
		expect(fact.body.startsWith(`> ${fact.quote}`)).toBe(true);
		expect(fact.name).toMatch(NAME);
		expect(fact.name.length).toBeLessThanOrEqual(50);
		expect(fact.description.length).toBeLessThanOrEqual(150);
		expect(fact.description).not.toMatch(/\n/);
		expect(fact.key).toMatch(/^[\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+(?: [\p{Ll}\p{Lo}\p{Lm}\p{M}\p{N}]+)*$/u);
		expect([fact.prompt, fact.uuid]).toEqual([0, "u-0"]);
	});

	it.each(PROPOSES_NOTHING)("nothing from a %s: %s", (_why, prompt) => {
		expect(propose(prompt)).toEqual([]);
	});

	it("measures 100% on both tables (the precision and recall these tables check)", () => {
		const found = PROPOSES.filter(([prompt]) => propose(prompt).length === 1).length;
		const junk = PROPOSES_NOTHING.filter(([, prompt]) => propose(prompt).length > 0).length;
		expect([found, junk]).toEqual([PROPOSES.length, 0]);
	});
});

describe("proposeFacts: sentences found ahead", () => {
	it("proposes the same from each prompt's factQuotes made ahead (where the session was read) as from the prompts alone", () => {
		const texts = [...PROPOSES.map(([p]) => p), ...PROPOSES_NOTHING.map(([, p]) => p)];
		const prompts = texts.map((text, index) => ({ text, index, uuid: `u-${index}` }));
		const ahead = prompts.map((p) => ({ ...p, quotes: factQuotes(p.text) }));
		expect(proposeFacts(ahead, [])).toEqual(proposeFacts(prompts, []));
		expect(proposeFacts(ahead, []).length).toBe(PROPOSES.length);
	});
});

describe("proposeFacts: the proposal's parts", () => {
	it("names in ASCII kebab-case for Latin text and in the script's letters otherwise", () => {
		expect(propose("From now on, always run the full test suite before committing.")[0]?.name).toBe("always-run-full-test-suite-before-committing");
		expect(propose("Don't ever force-push to main.")[0]?.name).toBe("dont-ever-force-push-to-main");
		expect(propose("앞으로는 커밋 메시지를 한국어로 써줘.")[0]?.name).toBe("커밋-메시지를-한국어로-써줘");
		expect(propose("今後は日本語で回答してください。")[0]?.name).toBe("日本語で回答してください");
		expect(propose("Going forward, always use the café's naïve résumé parser.")[0]?.name).toBe("always-use-cafes-naive-resume-parser");
	});

	it("cuts a long statement at a word and keeps names short", () => {
		const long = `Always run ${"the integration and end to end suites ".repeat(5)}before you open a pull request.`;
		const [fact] = propose(long);
		expect(fact?.description.length).toBeLessThanOrEqual(150);
		expect(fact?.description.endsWith("…")).toBe(true);
		expect(fact?.name.length).toBeLessThanOrEqual(50);
		expect(fact?.name).toMatch(NAME);
	});

	it("adds the reason the sentence gives as a Why line", () => {
		expect(propose("We decided to use Postgres instead of MySQL because we need JSONB.")[0]?.body).toBe(
			"> We decided to use Postgres instead of MySQL because we need JSONB.\n\n**Why:** We need JSONB",
		);
		expect(propose("Since the CI runners are slow, always run the tests locally first.")[0]?.body).toMatch(/\*\*Why:\*\* The CI runners are slow$/);
		expect(propose("Always rebase onto main so that the history stays linear.")[0]?.body).toMatch(/\*\*Why:\*\* So that the history stays linear$/);
		expect(propose("CI가 느리기 때문에 항상 로컬에서 테스트를 돌려줘.")[0]?.body).toMatch(/\*\*Why:\*\* CI가 느리기 때문에$/);
		expect(propose("CIが遅いので、必ずローカルでテストを実行してください。")[0]?.body).toMatch(/\*\*Why:\*\* CIが遅いので$/);
		expect(propose("因为CI很慢，以后都在本地运行测试。")[0]?.body).toMatch(/\*\*Why:\*\* 因为CI很慢$/);
		expect(propose("Never use `any` in TypeScript code.")[0]?.body).toBe("> Never use `any` in TypeScript code.");
	});

	it("keeps the key stable across lead-ins, case and punctuation", () => {
		const a = propose("From now on, always run the tests!")[0]?.key;
		const b = propose("ALWAYS run the tests.")[0]?.key;
		expect(a).toBe("always run the tests");
		expect(b).toBe(a);
	});

	it("splits sentences without cutting abbreviations, versions and file names", () => {
		expect(sentencesOf("Use e.g. Postgres for this. Always run tests! Version 1.2.3 is out, see index.ts and v2.0.1 notes.")).toEqual([
			"Use e.g. Postgres for this.",
			"Always run tests!",
			"Version 1.2.3 is out, see index.ts and v2.0.1 notes.",
		]);
		expect(sentencesOf("앞으로는 pnpm을 써줘 그리고 항상 테스트를 돌려 주세요")).toEqual(["앞으로는 pnpm을 써줘", "그리고 항상 테스트를 돌려 주세요"]);
		expect(sentencesOf("今後は日本語で回答してください。必ずテストを実行してください。")).toEqual(["今後は日本語で回答してください。", "必ずテストを実行してください。"]);
		expect(sentencesOf("以后都用pnpm安装依赖。请总是用中文回答！")).toEqual(["以后都用pnpm安装依赖。", "请总是用中文回答！"]);
	});

	it("reads the lines a person typed and skips the rest", () => {
		const prompt = [
			"Please fix the build.",
			"",
			"```sh",
			"npm run build # always fails",
			"```",
			"",
			"Going forward, always run the build before pushing.",
			"$ npm test -- --watch",
			"- Never commit secrets to the repo.",
		].join("\n");
		expect(propose(prompt).map((f) => f.quote)).toEqual(["Going forward, always run the build before pushing.", "Never commit secrets to the repo."]);
	});

	it("reads no further than the first 10,000 characters", () => {
		const filler = "We talked about the layout of the settings page for a while.\n".repeat(200);
		expect(filler.length).toBeGreaterThan(10_000);
		expect(propose(`${filler}Always run the tests before committing.`)).toEqual([]);
		expect(propose(`Always run the tests before committing.\n${filler}`).map((f) => f.quote)).toEqual(["Always run the tests before committing."]);
	});

	it("reads the lines after a colon that announces rules", () => {
		expect(propose("Two rules for this repo:\nAlways run the linter before committing.\nNever push straight to main.").map((f) => f.description)).toEqual([
			"Always run the linter before committing",
			"Never push straight to main",
		]);
	});

	it("reads only the opening of a long prompt, where the rest is pasted", () => {
		const doc = "Tool environments are disposable. Always pin your tools to an exact version. ".repeat(30);
		expect(propose(`From now on, always use uv for Python tools. Does this doc page help?\n\n${doc}`).map((f) => f.description)).toEqual(["Always use uv for Python tools"]);
	});
});

describe("proposeFacts: duplicates, rejections, order", () => {
	it("proposes a statement once per session", () => {
		const facts = proposeFacts(
			[
				{ text: "Always run the tests before committing.", index: 0 },
				{ text: "From now on, always run the tests before committing!", index: 1 },
			],
			[],
		);
		expect(facts.map((f) => f.prompt)).toEqual([0]);
	});

	it("skips what an existing fact already says: same key, or 60% of the words", () => {
		const existing: ExistingFact[] = [
			{ name: "run-tests", description: "Always run the tests before committing", body: "" },
			{ name: "no-any", description: "No any", body: "> Never use `any` in TypeScript code." },
			{ name: "commit-language", description: "커밋 메시지는 한국어로 쓴다", body: "" },
			{ name: "full-suite", description: "Run the full test suite before every commit", body: "" },
		];
		expect(propose("From now on, always run the tests before committing.", existing)).toEqual([]);
		expect(propose("Never use any in TypeScript code!", existing)).toEqual([]);
		expect(propose("앞으로는 커밋 메시지를 한국어로 써줘.", existing)).toEqual([]);
		expect(propose("Always run the full test suite before every commit, please.", existing)).toEqual([]);
		expect(propose("Always use Postgres for new services.", existing).map((f) => f.name)).toEqual(["always-use-postgres-for-new-services"]);
	});

	it("does not take the opposite rule for a duplicate", () => {
		const existing: ExistingFact[] = [{ name: "tabs", description: "Always use tabs for indentation", body: "" }];
		expect(propose("Never use tabs for indentation.", existing).map((f) => f.description)).toEqual(["Never use tabs for indentation"]);
	});

	it("skips rejected keys, given as the state keeps them (hashed)", () => {
		const [fact] = propose("Always run the tests before committing.");
		expect(fact).toBeDefined();
		expect(propose("From now on, always run the tests before committing.", [], new Set([storedKey(fact?.key ?? "")]))).toEqual([]);
	});

	it("gives a new name when an existing fact holds it", () => {
		const existing: ExistingFact[] = [{ name: "always-use-pnpm", description: "Something else entirely", body: "" }];
		expect(propose("Always use pnpm.", existing).map((f) => f.name)).toEqual(["always-use-pnpm-2"]);
	});

	it("orders by prompt index, then by position, whatever the input order", () => {
		const prompts = [
			{ text: "Never use var. Always use const.", index: 2, uuid: "c" },
			{ text: "We decided to use Postgres.", index: 0, uuid: "a" },
			{ text: "앞으로는 커밋 메시지를 한국어로 써줘.", index: 1, uuid: "b" },
		];
		const forward = proposeFacts(prompts, []);
		const backward = proposeFacts([...prompts].reverse(), []);
		expect(forward.map((f) => [f.prompt, f.uuid, f.description])).toEqual([
			[0, "a", "We decided to use Postgres"],
			[1, "b", "커밋 메시지를 한국어로 써줘"],
			[2, "c", "Never use var"],
			[2, "c", "Always use const"],
		]);
		expect(backward).toEqual(forward);
		expect(proposeFacts(prompts, [])).toEqual(forward);
	});
});

describe("letterShare", () => {
	it("counts letters by code point and the code units that are no white space, in any script", () => {
		expect(letterShare("ab 1\t\u00a0é𝒜")).toEqual({ letters: 4, visible: 6 });
		const piece = fc.constantFrom("a", "Z", "1", " ", "\t", "\n", "\u00a0", "\u3000", "\ufeff", "é", "日", "한", "𝒜", "😀", "\ud800", "\udc00", "-", "{", "\u2028");
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 20 }).map((p) => p.join("")), (text) => {
				expect(letterShare(text)).toEqual({ letters: (text.match(/\p{L}/gu) ?? []).length, visible: text.replace(/\s/g, "").length });
			}),
			{ numRuns: 5_000 },
		);
	});
});
