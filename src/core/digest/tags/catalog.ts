/**
 * The known topic names, their category, and the words in prompts that mean them. Tags stay flat
 * under the prefix (`ai/docker`, not `ai/tool/docker`): one concept is one tag whether it came from
 * a file, a command or a prompt. The category only orders and groups the candidates.
 */

/**
 * Most specific first: a framework or tool before its language, a language before an activity. A test runner
 * (`pytest`) comes after its activity: it tells how the testing was done, so it takes a slot only when one is free.
 */
export const Tier = { Rule: 0, Keyword: 1, Framework: 2, Language: 3, Activity: 4, Runner: 5 } as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

const FRAMEWORKS = `nextjs nuxt vite tailwind astro angular svelte vue react remix webpack prisma django rails jupyter graphql
docker kubernetes terraform github-actions gitlab-ci playwright postgresql mysql sqlite redis mongodb`;
const LANGUAGES = `typescript javascript python rust go java kotlin swift ruby php csharp cpp c sql shell css html dart lua zig elixir haskell scala ocaml erlang julia powershell node deno`;
const ACTIVITIES = `testing database linting docs git make just claude-md research`;
const RUNNERS = `pytest jest vitest mocha rspec cypress`;

const TIERS = new Map<string, Tier>();
for (const [names, tier] of [[FRAMEWORKS, Tier.Framework], [LANGUAGES, Tier.Language], [ACTIVITIES, Tier.Activity], [RUNNERS, Tier.Runner]] as const) {
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

/** Technical terms that name a piece of an activity's work: a session about a docstring is documentation work too. */
export const ACTIVITY_OF: ReadonlyMap<string, string> = new Map([
	["docstring", "docs"], ["changelog", "docs"], ["unit-test", "testing"], ["integration-test", "testing"], ["e2e", "testing"], ["tdd", "testing"], ["mocking", "testing"],
]);

/**
 * Technical terms that are a topic on their own, even named once in passing (`pagination`,
 * `webhook`, `submodule`): unlike other prompt words, they need no repetition to become a tag.
 * They stay prompt keywords (ranked against the corpus), not known topics. Written as people write
 * them; they are normalized like prompt words (lower case, singular). Generic interface words
 * (api, ui, cli) and words that are mostly verbs (search, deploy, merge, release) are left out:
 * those need repetition like any other word.
 */
export const TECHNICAL_TERMS = `
endpoint rate-limiting rate-limit throttling grpc websocket webhook http https cors csrf xss csp cookie middleware routing router proxy reverse-proxy cdn dns ssl tls certificate ssh
load-balancer nginx sse polling openapi swagger json-schema rpc
authentication authorization oauth jwt sso saml login logout signup password 2fa mfa permissions rbac captcha
schema migration orm nosql transaction replication sharding backup caching cache pagination full-text-search elasticsearch embedding
vector-database etl serialization deserialization
json yaml toml xml csv markdown mdx pdf svg base64 unicode regex
deployment ci-cd container containerization serverless lambda s3 ec2 aws gcp azure cloudflare vercel netlify heroku firebase supabase ansible
nix nixos homebrew systemd cron crontab daemon dotfiles monitoring logging logger metrics tracing telemetry observability alerting analytics
profiling benchmark benchmarking performance optimization latency throughput scalability load-testing
concurrency parallelism threading multithreading async race-condition deadlock mutex semaphore message-queue kafka rabbitmq pubsub event-loop
express flask fastapi spring laravel electron tauri flutter react-native expo jquery bootstrap storybook redux zustand pinia trpc zod pydantic
sqlalchemy pandas numpy pytorch tensorflow cypress selenium puppeteer pytest vitest jest prettier biome ruff mypy pyright babel esbuild rollup
turbopack bun pnpm yarn npm uv poetry pip cargo maven gradle cmake bazel tmux vim neovim emacs vscode zsh zellij wezterm alacritty iterm
github gitlab bitbucket jira slack discord notion obsidian figma
submodule worktree rebase merge-conflict cherry-pick pull-request code-review codeowners gitignore pre-commit git-hook commit-message changelog
semver monorepo refactoring debugging debugger breakpoint stack-trace exception error-handling unit-test integration-test e2e mocking fixture
coverage tdd formatter type-checking type-safety generics dependency-injection packaging bundling bundler minification tree-shaking compilation
compiler interpreter transpiler parser parsing lexer tokenizer tokenization ast codegen code-generation scaffolding docstring i18n l10n
localization internationalization accessibility a11y seo sitemap responsive-design dark-mode theming animation flexbox css-grid typography
font modal dropdown tooltip sidebar navbar form-validation validation sanitization drag-and-drop infinite-scroll lazy-loading hydration ssr
ssg spa pwa service-worker web-worker wasm webassembly webgl canvas audio video streaming file-upload notification push-notification email
smtp sms payment stripe paypal llm prompt-engineering rag fine-tuning inference openai anthropic mcp subagent sub-agent chatbot transformer
huggingface ollama security vulnerability encryption decryption hashing sandbox sandboxing memory-leak garbage-collection gpu cuda kernel
filesystem symlink socket tcp udp ipc terminal tui gui repl keybinding keyboard-shortcut hotkey clipboard timezone datetime
android swiftui xcode
hyprland waybar wayland udev fuse smb typeorm streamlit shadcn livekit webrtc solana posthog datadog sentry phoenix liveview ecto ember
github-pages localstorage sessionstorage xterm ghostty kitty
nestjs htmx sveltekit solidjs qwik ionic tanstack react-query hasura drizzle kysely knex sequelize mongoose celery sidekiq bullmq tokio actix axum serde
credo dialyzer sobelow oban absinthe clippy rustfmt gofmt golangci-lint stylelint shellcheck hadolint llvm-cov
conda virtualenv venv pyenv nvm direnv release-please semantic-release changesets renovate dependabot circleci jenkins buildkite
grafana prometheus opentelemetry kibana splunk dynamodb sqs cloudwatch cloudfront fargate bigquery firestore
amplitude mixpanel telegram whatsapp twilio sendgrid mailgun auth0 keycloak okta passkey webauthn totp
aes rsa sha256 hmac gpg pgp ethereum solidity web3 nft blockchain stablecoin ffmpeg langchain llamaindex
macos linux ubuntu debian fedora firefox safari chromium vivaldi
페이지네이션 캐시 로그인 인증 배포 마이그레이션 리팩토링 로깅 암호화 알림
ページネーション キャッシュ ログイン 認証 デプロイ マイグレーション リファクタリング バリデーション 暗号化 通知
分页 缓存 登录 认证 部署 迁移 重构 日志 加密 验证码
`;

let technicalNames: ReadonlySet<string> | undefined;

/**
 * The topic a package name stands for (`@supabase/ssr` → supabase, `tailwindcss` → tailwind,
 * `react` → react), when it is a known topic or a technical term as written; else undefined.
 */
export function packageTopic(spec: string): string | undefined {
	technicalNames ??= new Set(TECHNICAL_TERMS.split(/\s+/).filter((t) => t !== ""));
	const scoped = /^@([^/\s]+)\//.exec(spec);
	const bare = (scoped ? scoped[1]! : spec.replace(/(?<=.)@.*$/, "").replace(/[=<>~^!].*$/, "")).toLowerCase();
	for (const name of [bare, bare.replace(/(?:[-.]js|-client|-sdk)$/, "")]) {
		const alias = KEYWORD_ALIASES.get(name) ?? name;
		if (isKnownTopic(alias) || technicalNames.has(alias)) return alias;
	}
	return undefined;
}
