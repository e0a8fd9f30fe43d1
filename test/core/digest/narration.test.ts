import { describe, expect, it } from "vitest";
import { isNarration, withoutInterjection } from "../../../src/core/digest/narration";

describe("narration", () => {
	it.each([
		"Let me update the todo list:",
		"Let me first create a todo list to track this task.",
		"The remaining uncovered branches are:",
		"I'll start by reading the config.",
		"Now I need to update the tests.",
		"First, let me check the imports.",
		"Perfect!",
		"Great! Now let me run the tests.",
		"Perfect! Let me provide you with a summary:",
		"Looking at the error, the parser fails early.",
		"먼저 파일을 확인하겠습니다.",
		"이제 테스트를 실행해 볼게요.",
		"まず設定ファイルを確認します。",
		"次に、テストを実行しましょう。",
		"让我先看看这个文件。",
		"首先，我们需要更新配置。",
		"完璧です！",
		"완벽합니다!",
		"Expected — I'll use that alias in the next edits.",
		"To remove the pane labels, I need to modify the options section.",
		"Spawning planner.",
		"Committing and pushing the overhaul.",
		"Creating quick task 011: restore the login footer.",
		"Creating quick task 011: Restore the login footer and disable the button when the API is down.",
		"You're right to question that - let me correct my understanding.",
		"Good catch — I'll add the missing index.",
		"I’ll start by reading the config.",
		"Let’s run the tests again.",
		"You’re right — let me fix it.",
	])("%s is narration", (sentence) => {
		expect(isNarration(sentence)).toBe(true);
	});

	it.each([
		"Added pagination to GET /products with page and limit parameters.",
		"The lockout message now shows after five failed attempts.",
		"All 40 tests pass.",
		"페이지네이션을 추가했습니다.",
		"ページネーションを追加しました。",
		"已添加分页功能。",
		"Letter spacing is now configurable.",
		"Firstly-named exports are kept.",
		"To fix the race, the lock is now taken before the read.",
		"Root cause — the cache key ignored the locale.",
		"Updating the lockfile fixed the CI run.",
		"You're right that the cache is per user - it is keyed on the account id.",
	])("%s is not narration", (sentence) => {
		expect(isNarration(sentence)).toBe(false);
	});

	it("takes interjections off the front and keeps the statement", () => {
		expect(withoutInterjection("Perfect! The build passes now.")).toBe("The build passes now.");
		expect(withoutInterjection("Great, excellent! Tests pass.")).toBe("Tests pass.");
		expect(withoutInterjection("완벽합니다! 테스트가 통과합니다.")).toBe("테스트가 통과합니다.");
		expect(withoutInterjection("Goodness knows")).toBe("Goodness knows");
		// Typographic apostrophes too, the rest of the sentence as written.
		expect(withoutInterjection("You’re right! The cache’s key is the account id.")).toBe("The cache’s key is the account id.");
	});
});

describe("praise of the user's message", () => {
	it.each(["That's a great idea.", "Good catch!", "Great question — it matters."])("%s is not a statement of work", (s) => {
		expect(isNarration(s)).toBe(true);
	});
});
