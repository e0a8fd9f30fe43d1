import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { evaluateRecallTrigger, promptEnds, readTriggerSettings } from "../../../src/core/hooks/recall-triggers";

const intents: [string, string][] = [
	// English
	["en", "Do you remember how we configured the cache?"],
	["en", "Same as last time, add the migration for the orders table"],
	["en", "continue where we left off with the rate limiter"],
	["en", "Let's pick it back up where we stopped yesterday"],
	["en", "Format the dates as before"],
	["en", "What did we decide about retries in the previous session?"],
	["en", "Keep going with the refactor"],
	["en", "Let’s resume the migration"],
	// Korean
	["ko", "지난번에 만든 API에 인증을 추가해 줘"],
	["ko", "이어서 작업해 줘"],
	["ko", "저번에 하던 페이지네이션 마저 끝내자"],
	["ko", "아까 얘기한 캐시 설정 다시 보여줘"],
	["ko", "계속 진행해 줘"],
	// Chinese
	["zh", "继续上次的工作"],
	["zh", "按照之前的方式处理错误"],
	["zh", "上次我们讨论的缓存方案是什么？"],
	["zh", "繼續剛才的重構"],
	// Japanese
	["ja", "前回の続きをお願いします"],
	["ja", "以前決めた命名規則でテストを書いて"],
	["ja", "さっきのバグ修正を続けて"],
	["ja", "前と同じようにログを追加して"],
];

const negatives: [string, string][] = [
	["en", "fresh start: ignore previous context, write a haiku"],
	["en", "Ignore the previous sessions and continue with a new design"],
	["en", "Don't use memory for this one, just continue the list"],
	["en", "Without any context, what do you remember about Rust lifetimes?"],
	["en", "Start over and plan the schema step by step"],
	["ko", "새로 시작하자. 이어서 하지 말고 처음부터"],
	["ko", "이전 대화는 무시하고 지난번 코드 말고 새로 짜 줘"],
	["ko", "기억 사용하지 마"],
	["zh", "忽略之前的内容，继续写一个新的脚本"],
	["zh", "不要使用记忆，重新开始"],
	["ja", "前の会話を無視して続きを書いて"],
	["ja", "記憶を使わないで新しく始めて"],
];

const complex: [string, string][] = [
	["numbered lines", "Please do this:\n1. add the model\n2. write the migration\n3. update the API docs"],
	["inline numbers", "1) rename the table 2) update the queries 3) run the tests"],
	["and then", "Add the endpoint and then write an integration test for it"],
	["step by step", "Walk through the deployment step by step"],
	["a plan", "Make a migration plan for moving from REST to gRPC"],
	["first/then/finally", "First read the config, then validate it, finally write the report"],
	["bullets", "Requirements:\n- login form\n- password reset\n- rate limit\n- audit log"],
	["ko sequence", "먼저 스키마를 만들고 그 다음 API를 추가하고 마지막으로 테스트를 작성해 줘"],
	["ko steps", "단계별로 배포 스크립트를 정리해 줘"],
	["zh", "首先创建表，然后添加接口，最后写测试"],
	["zh plan", "请制定一个计划把服务拆分成三个模块"],
	["ja", "まずスキーマを作り、次にAPIを追加し、最後にテストを書いてください"],
	["ja steps", "ステップバイステップでリファクタリングして"],
	[
		"long with many clauses",
		"We need the billing service to handle refunds. It should accept partial refunds. Each refund needs an audit entry. Refunds over 500 need approval. The customer gets an email. The ledger must balance at the end of the day. Make sure the webhook from the payment provider is idempotent, since it retries on timeouts and we have seen duplicates in production last month during the outage.",
	],
];

const quiet: string[] = [
	"write a haiku about autumn",
	"Fix the typo in README.md",
	"What does this error mean: TypeError: undefined is not a function",
	"Add a GET /products/:id endpoint to the shop API.",
	"주문 목록 API에 페이지네이션을 추가해 줘",
	"帮我写一个排序函数",
	"このエラーの原因を教えて",
	"Rename `continue` to `proceed` in the parser",
	"```js\nfor (const x of xs) { if (!x) continue; }\n```\nwhy is this slow?",
	"Add a premium plan to the pricing page",
	"Make sure there is no memory leak in the worker",
];

describe("recall triggers", () => {
	it.each(intents)("intent fires (%s): %s", (_lang, prompt) => {
		expect(evaluateRecallTrigger(prompt)).toMatchObject({ fire: true, reason: "intent" });
	});

	it.each(negatives)("a negative intent wins, even next to a recall word (%s): %s", (_lang, prompt) => {
		expect(evaluateRecallTrigger(prompt)).toMatchObject({ fire: false, reason: "negative" });
	});

	it.each(complex)("complexity fires: %s", (_name, prompt) => {
		expect(evaluateRecallTrigger(prompt)).toMatchObject({ fire: true, reason: "complexity" });
	});

	it.each(quiet)("ordinary prompts stay quiet: %s", (prompt) => {
		expect(evaluateRecallTrigger(prompt)).toEqual({ fire: false, reason: "none" });
	});

	it("says what matched", () => {
		expect(evaluateRecallTrigger("fresh start please, continue nothing")).toEqual({ fire: false, reason: "negative", match: "fresh start" });
		expect(evaluateRecallTrigger("다음은 지난번 작업")).toEqual({ fire: true, reason: "intent", match: "지난번" });
		expect(evaluateRecallTrigger("1. a\n2. b\n3. c")).toEqual({ fire: true, reason: "complexity", match: "3 numbered steps" });
	});

	it("is configurable per project: off, extra phrases, no complexity", () => {
		expect(evaluateRecallTrigger("continue where we left off", { enabled: false })).toEqual({ fire: false, reason: "disabled" });
		expect(evaluateRecallTrigger("check the ADR log", { intents: ["ADR"] })).toMatchObject({ fire: true, reason: "intent", match: "adr" });
		// A phrase of Latin letters matches whole words only; CJK phrases anywhere.
		expect(evaluateRecallTrigger("the adrenaline module", { intents: ["ADR"] })).toMatchObject({ fire: false });
		expect(evaluateRecallTrigger("회의록 기준으로 고쳐 줘", { intents: ["회의록"] })).toMatchObject({ fire: true, match: "회의록" });
		expect(evaluateRecallTrigger("continue, but sandbox mode", { negatives: ["sandbox mode"] })).toMatchObject({ fire: false, reason: "negative" });
		expect(evaluateRecallTrigger("Add the endpoint and then a test", { complexity: false })).toEqual({ fire: false, reason: "none" });
		expect(evaluateRecallTrigger("continue", { complexity: false })).toMatchObject({ fire: true, reason: "intent" });
	});

	it("reads the settings defensively", () => {
		expect(readTriggerSettings(undefined)).toEqual({});
		expect(readTriggerSettings("yes")).toEqual({});
		expect(readTriggerSettings({ enabled: "no", intents: ["a", 3, " ", " b "], negatives: "x", complexity: false })).toEqual({ intents: ["a", "b"], complexity: false });
		expect(readTriggerSettings({ enabled: false, negatives: [] })).toEqual({ enabled: false });
	});

	it("takes no longer on a pasted run of dotted or dashed words, and still drops a URL from the prose", () => {
		for (const unit of ["a.", "b-", "x+y."]) {
			const started = performance.now();
			evaluateRecallTrigger(unit.repeat(40_000));
			expect(performance.now() - started).toBeLessThan(1000);
		}
		// A link's letters are no prose: the prompt is short, not "a long prompt".
		expect(evaluateRecallTrigger(`see https://example.com/${"q".repeat(2000)}`)).toEqual({ fire: false, reason: "none" });
		expect(evaluateRecallTrigger(`see git+ssh://example.com/${"q".repeat(2000)}`)).toEqual({ fire: false, reason: "none" });
	});

	it("keeps a long prompt's two ends for the hook, and a short one whole", () => {
		expect(promptEnds("continue")).toBe("continue");
		const ends = promptEnds(`${"a".repeat(40_000)}MIDDLE${"b".repeat(40_000)}`);
		expect(ends).toBe(`${"a".repeat(32_768)}\n${"b".repeat(32_768)}`);
	});

	it("costs next to nothing on a long prompt", () => {
		const prompt = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(2000);
		const started = performance.now();
		evaluateRecallTrigger(prompt);
		expect(performance.now() - started).toBeLessThan(1000);
	});
});

describe("recall triggers: a prompt all in ASCII skips the Korean, Chinese and Japanese patterns", () => {
	it("decides as it does once a character outside ASCII (which runs them all) is added", () => {
		// Words of the English lists, and others.
		const words = ["continue", "last time", "fresh start", "step by step", "first", "then", "finally", "plan", "the", "fix", "bug", "and then", "remember", "1.", "2.", "3.", "-", "\n", " "];
		const prompt = fc.array(fc.constantFrom(...words), { maxLength: 40 }).map((p) => p.join(" "));
		fc.assert(
			fc.property(prompt, (text) => {
				fc.pre(text.length < 250);
				// A no-break space at the end: not a letter, not a word, it only makes the text not all ASCII.
				expect(evaluateRecallTrigger(text, {})).toEqual(evaluateRecallTrigger(`${text}\u00a0`, {}));
			}),
			{ numRuns: 500 },
		);
	});
});
