/**
 * The known topic names, their category, and the words in prompts that mean them. Tags stay flat
 * under the prefix (`ai/docker`, not `ai/tool/docker`): one concept is one tag whether it came from
 * a file, a command or a prompt. The category only orders and groups the candidates.
 */

/** Most specific first: a framework or tool before its language, a language before an activity. */
export const Tier = { Rule: 0, Keyword: 1, Framework: 2, Language: 3, Activity: 4 } as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

const FRAMEWORKS = `nextjs nuxt vite tailwind astro angular svelte vue react remix webpack prisma django rails jupyter graphql
docker kubernetes terraform github-actions gitlab-ci playwright postgresql mysql sqlite redis mongodb`;
const LANGUAGES = `typescript javascript python rust go java kotlin swift ruby php csharp cpp c sql shell css html dart lua zig elixir haskell scala ocaml erlang julia powershell node deno`;
const ACTIVITIES = `testing database linting docs git make claude-md research`;

const TIERS = new Map<string, Tier>();
for (const [names, tier] of [[FRAMEWORKS, Tier.Framework], [LANGUAGES, Tier.Language], [ACTIVITIES, Tier.Activity]] as const) {
	for (const name of names.split(/\s+/)) if (name) TIERS.set(name, tier);
}

/** The category of a known topic name; `mcp/<server>` is an activity; anything else is a prompt keyword. */
export function tierOf(name: string): Tier {
	if (name.startsWith("mcp/")) return Tier.Activity;
	return TIERS.get(name) ?? Tier.Keyword;
}

export function isKnownTopic(name: string): boolean {
	return TIERS.has(name);
}

/**
 * Prompt words (already normalized: lower-case, singular) that name a known topic, in any of the
 * supported languages. A keyword not listed here, and not itself a known name, stays a keyword.
 */
export const KEYWORD_ALIASES: ReadonlyMap<string, string> = new Map([
	["test", "testing"], ["tests", "testing"], ["unittest", "testing"], ["테스트", "testing"], ["テスト", "testing"], ["测试", "testing"], ["單元測試", "testing"], ["单元测试", "testing"],
	["next.js", "nextjs"], ["node.js", "node"], ["nodejs", "node"], ["vue.js", "vue"], ["vuejs", "vue"], ["react.js", "react"], ["reactjs", "react"], ["nuxt.js", "nuxt"],
	["ts", "typescript"], ["타입스크립트", "typescript"], ["js", "javascript"], ["자바스크립트", "javascript"], ["파이썬", "python"], ["パイソン", "python"], ["golang", "go"], ["러스트", "rust"],
	["리액트", "react"], ["リアクト", "react"], ["도커", "docker"], ["ドッカー", "docker"], ["k8s", "kubernetes"], ["쿠버네티스", "kubernetes"], ["tailwindcss", "tailwind"],
	["postgres", "postgresql"], ["psql", "postgresql"], ["db", "database"], ["데이터베이스", "database"], ["디비", "database"], ["データベース", "database"], ["数据库", "database"],
	["eslint", "linting"], ["lint", "linting"], ["linter", "linting"], ["documentation", "docs"], ["readme", "docs"], ["문서", "docs"], ["ドキュメント", "docs"], ["文档", "docs"],
	["github-action", "github-actions"], ["깃", "git"], ["ipynb", "jupyter"], ["bash", "shell"],
]);
